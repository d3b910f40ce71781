"""A correct lifecycle is never failed for a robustness fault: a target that folds every
lifecycle rule correctly, crashes on `"choices": [null]` (any null list entry) and does not
claim `robustness`, passes every lifecycle test (the lifecycle machine draws only the
shapes the target claims).

The suites run in a fresh pytest process against such a target, written next to a small
collector that records the outcome of every rule-marked test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from refold.reference.chat import RULES

_TARGET = '''
"""The reference accumulator, except that it raises on a null entry in any list
(`"choices": [null]`, ROB-NULL-ENTRIES), claiming everything but `robustness`."""
from refold.reference.chat import FEATURES, Accumulator


def _fragile(value):
    if isinstance(value, list):
        return any(item is None or _fragile(item) for item in value)
    if isinstance(value, dict):
        return any(_fragile(item) for item in value.values())
    return False


class Fragile:
    def __init__(self):
        self._inner = Accumulator()

    def add(self, chunk):
        if _fragile(chunk):
            raise TypeError(f"cannot fold {chunk!r}")
        self._inner.add(chunk)

    def response(self):
        return self._inner.response()

    def finished(self):
        return self._inner.finished

    def mark_done(self):
        self._inner.mark_done()


refold_target = {"name": "fragile", "factory": Fragile,
                 "features": sorted(set(FEATURES) - {"robustness", "sse", "events"})}
'''

_COLLECTOR = """
import json
import os

_OUTCOMES = {}


def pytest_runtest_logreport(report):
    rules = dict(report.user_properties).get("rules", "").split()
    if not rules:
        return
    entry = _OUTCOMES.setdefault(report.nodeid, {"rules": rules, "outcome": "passed"})
    if report.failed:
        entry["outcome"] = "failed"
    elif report.skipped and entry["outcome"] == "passed":
        entry["outcome"] = "skipped"


def pytest_sessionfinish(session):
    with open(os.environ["REFOLD_OUTCOMES"], "w") as file:
        json.dump(_OUTCOMES, file)
"""

_LIFECYCLE = sorted(r for r, rule in RULES.items() if rule.feature == "lifecycle")


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, dict[str, object]], str]:
    workdir = tmp_path_factory.mktemp("fragile")
    (workdir / "fragile_target.py").write_text(_TARGET)
    (workdir / "refold_outcomes.py").write_text(_COLLECTOR)
    record = workdir / "outcomes.json"
    environment = {**os.environ, "PYTHONPATH": str(workdir), "REFOLD_OUTCOMES": str(record)}
    environment.pop("CI", None)
    command = [
        sys.executable,
        "-m",
        "pytest",
        "--target=fragile_target.py",
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "refold_outcomes",
        "--hypothesis-profile=ci",
        "-k",
        "test_lifecycle or test_rule_examples_lifecycle",
    ]
    completed = subprocess.run(
        command,
        cwd=workdir,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    output = (completed.stdout + completed.stderr)[-4000:]
    return (json.loads(record.read_text()) if record.exists() else {}), output


def test_a_fragile_target_with_a_correct_lifecycle_fails_no_lifecycle_test(
    outcomes: tuple[dict[str, dict[str, object]], str],
) -> None:
    found, output = outcomes
    failed = sorted(test for test, entry in found.items() if entry["outcome"] == "failed")
    assert found and not failed, f"failed: {failed}\n{output}"


def test_every_lifecycle_rule_is_passed_by_the_fragile_target(
    outcomes: tuple[dict[str, dict[str, object]], str],
) -> None:
    found, output = outcomes
    passed = {
        rule for entry in found.values() if entry["outcome"] == "passed" for rule in entry["rules"]
    }  # type: ignore[attr-defined]
    missing = [r for r in _LIFECYCLE if r not in passed]
    assert not missing, f"no passing test of {missing}\n{output}"
