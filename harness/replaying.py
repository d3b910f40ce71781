"""Replay files in a run: written for each conformance failure, re-run with `--replay`.

`refold.replay` is the file format (what a record holds, how it is read and checked);
this module is what the plugin does with it: write one for a failed test (with the
Hypothesis seed, blob and profile that find the example again), select the recorded test
among those collected, and re-run it from the record instead of drawing new examples.
"""

from __future__ import annotations

import contextlib
import shlex
from pathlib import Path
from typing import Any

import pytest

from .checks import Check, ConformanceFailure, charged_rules
from .results import BLOCKED_PROPERTY, FAILURE_PROPERTY, IMPLICATED_PROPERTY
from .run_state import module_basename, run_of
from .search import UNSHRUNK, replayed_as_recorded

__all__ = ["record_failures", "run_replayed", "select_replayed", "write_replay_file"]

_REPLAY_CASE_KEY = pytest.StashKey[dict[str, Any]]()


def select_replayed(config: pytest.Config, items: list[pytest.Item],
                    replay: dict[str, Any]) -> None:
    """Keep only the test the replay file records (the others are deselected).

    Raises:
        pytest.UsageError: no collected test is the recorded one.
    """
    test = replay["test"]
    chosen = [item for item in items if item.name == test["name"]
              and module_basename(item) == test["module"]]
    if not chosen:
        raise pytest.UsageError(
            f"--replay: the recorded test {test['module']}::{test['name']} is not among the "
            f"{len(items)} collected tests (were the suites changed?)")
    config.hook.pytest_deselected(items=[i for i in items if i not in chosen])
    items[:] = chosen
    for item in chosen:
        item.stash[_REPLAY_CASE_KEY] = replay


def run_replayed(item: pytest.Function) -> bool:
    """Re-run the recorded case of a selected test; False when `item` replays none."""
    case = item.stash.get(_REPLAY_CASE_KEY, None)
    if case is None:
        return False
    from .replay import replays_fold, reproducing

    bound = item.funcargs.get("check")
    if replays_fold(case) and isinstance(bound, Check):
        bound.folds_to(case["chunks"], case["expected"])
        return True
    from hypothesis.errors import DidNotReproduce

    arguments = {name: item.funcargs[name] for name in item._fixtureinfo.argnames}
    # DidNotReproduce: the recorded example no longer fails, so the target was fixed.
    with contextlib.suppress(DidNotReproduce), reproducing(item.obj, case), \
            replayed_as_recorded(item, case.get("hypothesis") or {}):
        item.obj(**arguments)
    return True


def record_failures(item: pytest.Item, report: pytest.TestReport,
                    failures: list[ConformanceFailure], exc: BaseException | None
                    ) -> tuple[str, ...]:
    """Put the first failure's record, and the rules the failures implicate and block, on
    the report; write its replay file and say how to re-run it. The implicated rules."""
    from .replay import encode_failure

    implicated, blocked = charged_rules(failures)
    path = write_replay_file(item, failures[0], exc)
    # The reports show the command that replays it.
    report.user_properties.append((FAILURE_PROPERTY, encode_failure(
        failures[0], replay_file=str(path) if path is not None else None)))
    report.user_properties.append((IMPLICATED_PROPERTY, " ".join(implicated)))
    report.user_properties.append((BLOCKED_PROPERTY, " ".join(blocked)))
    if path is not None:
        spec = shlex.quote(run_of(item.config).target_spec(item.config))
        report.sections.append(("refold replay", f"replay file: {path}\nre-run: pytest "
                                f"--replay {path} --target {spec}"))
    return implicated


def write_replay_file(item: pytest.Item, failure: ConformanceFailure,
                      exc: BaseException | None) -> Path | None:
    """Write `failure`'s replay file into `--replay-dir` (None: none written)."""
    from hypothesis import __version__ as hypothesis_version
    from hypothesis import settings

    from .replay import reproduce_blob, write_replay

    config = item.config
    if not config.getoption("replay_dir"):
        return None
    blob = reproduce_blob(exc) if exc is not None else None
    function = getattr(item, "obj", None)
    hypothesis = {
        "version": hypothesis_version,
        "reproduce_failure": [blob[0], repr(blob[1])] if blob else None,
        "seed": getattr(function, "_hypothesis_internal_use_generated_seed", None),
        "profile": settings.get_current_profile_name(),
        "shrunk": not item.stash.get(UNSHRUNK, False),
    }
    try:
        return write_replay(
            Path(config.getoption("replay_dir")), failure,
            target=run_of(config).target_spec(config),
            test={"module": module_basename(item), "name": item.name}, hypothesis=hypothesis)
    except OSError as exc_:
        item.warn(pytest.PytestWarning(f"refold could not write a replay file: {exc_}"))
        return None
