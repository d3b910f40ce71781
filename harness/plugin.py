"""The pytest plugin (entry point `pytest11: refold`): `pytest --target=mypkg`.

Inert in every pytest run that neither names `--target` nor collects a test marked
with `rule`. With `--target` and no test paths, it collects the installed suites, so
`pytest --target=mypkg` works from any directory. It then:

* binds the session-scoped `check` fixture to the target and to each test's rules;
* skips a test whose rules belong to a feature the target does not claim;
* records one outcome per rule for the terminal table and the reports.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from refold.reference import FEATURES

from .checks import Check
from .errors import UsageError
from .loading import load_target
from .marks import rules_of_item
from .profiles import register_profiles
from .results import RuleResults
from .targets import Target

register_profiles()

_TARGET_KEY = pytest.StashKey["Target | None"]()
_RESULTS_KEY = pytest.StashKey[RuleResults]()
SUITES_DIR = Path(__file__).resolve().parent.parent / "suites"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("refold", "refold conformance suite")
    group.addoption("--target", default=None, metavar="TARGET",
                    help="implementation to check: reference (default), a module, "
                         "module:attr, a .py file, exec:COMMAND or an http:// URL")
    group.addoption("--features", default=None, metavar="A,B,C",
                    help="features the target claims (default: all its interface supports)")
    group.addoption("--target-timeout", type=float, default=5.0, metavar="SECONDS",
                    help="per-call timeout for exec: and http:// targets (default 5)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "rule(*ids, features): the chat-fold spec rules a conformance test checks")
    config.stash[_RESULTS_KEY] = RuleResults()
    config.pluginmanager.register(_ResultRecorder(config.stash[_RESULTS_KEY]), "refold-results")
    if config.getoption("target") and config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args = [str(_installed_suites())]


def _installed_suites() -> Path:
    import refold.suites

    return Path(refold.suites.__file__).parent


def _target(config: pytest.Config) -> Target:
    if _TARGET_KEY not in config.stash:
        spec = config.getoption("target") or "reference"
        raw = config.getoption("features")
        features = frozenset(f.strip() for f in raw.split(",") if f.strip()) if raw else None
        try:
            config.stash[_TARGET_KEY] = load_target(
                spec, features=features, timeout=config.getoption("target_timeout"))
        except UsageError as exc:
            raise pytest.UsageError(str(exc)) from exc
    target = config.stash[_TARGET_KEY]
    assert target is not None, "internal error: target unloaded"
    return target


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    marked = [(item, rules_of_item(item)) for item in items]
    marked = [(item, rules) for item, rules in marked if rules]
    if not marked:
        return
    target = _target(config)
    for item, rules in marked:
        features = tuple(dict.fromkeys(_feature(r) for r in rules))
        item.user_properties.append(("rules", " ".join(rules)))
        item.user_properties.append(("features", " ".join(features)))
        missing = [f for f in features if f not in target.features]
        if missing:
            item.add_marker(pytest.mark.skip(
                reason=f"target {target.name} does not claim feature {', '.join(missing)}"))


def _feature(rule_id: str) -> str:
    from refold.reference import RULES

    return RULES[rule_id].feature


@pytest.fixture(scope="session")
def refold_target(pytestconfig: pytest.Config) -> Target:
    """The implementation under test (`--target`, the reference by default)."""
    return _target(pytestconfig)


@pytest.fixture(scope="session")
def check(refold_target: Target) -> Check:
    """The suite's handle on the target, re-bound to each test's rules before it runs."""
    return Check(refold_target)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    bound = getattr(item, "funcargs", {}).get("check")
    if isinstance(bound, Check):
        bound.rules = rules_of_item(item)
    try:
        return (yield)
    finally:
        if isinstance(bound, Check):
            bound.rules = ()


class _ResultRecorder:
    """Collects one outcome per rule; on xdist this runs on the controller."""

    def __init__(self, results: RuleResults) -> None:
        self.results = results

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        rules = dict(report.user_properties).get("rules")
        if rules:
            self.results.record(report, str(rules).split())


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    if not config.getoption("target"):
        return None
    target = _target(config)
    claimed = [f for f in FEATURES if f in target.features]
    return [f"refold target: {target.name} ({target.description})",
            f"refold features: {', '.join(claimed)}"]


def pytest_terminal_summary(
    terminalreporter: Any, exitstatus: int, config: pytest.Config
) -> None:
    results = config.stash.get(_RESULTS_KEY, None)
    if results is None or not results.by_rule:
        return
    from .table import render_rule_table

    terminalreporter.section("refold: results by feature and rule")
    terminalreporter.write(render_rule_table(results, color=terminalreporter.hasmarkup))


def pytest_unconfigure(config: pytest.Config) -> None:
    target = config.stash.get(_TARGET_KEY, None)
    if target is not None:
        target.close()
