"""Replay files in a run: one per failed rule, re-run with `--replay`.

`refold.records.replay` is the file format (what a record holds, how it is read and checked);
this module is what the plugin does with it: make a replay for each conformance failure
where it happened (with the Hypothesis seed, blob, profile and shape ceiling that find
the example again), write, when the run ends, the one each failed rule's verdict rests on
(a naive fold used to write a file per failing test, a hundred of them), select the
recorded test among those collected, and re-run it from the record instead of drawing new
examples.
"""

from __future__ import annotations

import contextlib
import shlex
import warnings
from pathlib import Path
from typing import Any

import pytest

from ..run.checks import Check, ConformanceFailure, charged_rules
from ..run.search import FOUND, UNSHRUNK, replayed_as_recorded
from ..run.state import module_basename, run_of
from .results import (
    BLOCKED_PROPERTY,
    FAILURE_PROPERTY,
    FAILURES_PROPERTY,
    IMPLICATED_PROPERTY,
    RuleResults,
)

__all__ = [
    "record_failures",
    "replay_lines",
    "replay_of",
    "run_replayed",
    "select_replayed",
    "write_rule_replays",
]

_REPLAY_CASE_KEY = pytest.StashKey[dict[str, Any]]()


def select_replayed(
    config: pytest.Config, items: list[pytest.Item], replay: dict[str, Any]
) -> None:
    """Keep only the test the replay file records (the others are deselected).

    Raises:
        pytest.UsageError: no collected test is the recorded one.
    """
    test = replay["test"]
    chosen = [
        item
        for item in items
        if item.name == test["name"] and module_basename(item) == test["module"]
    ]
    if not chosen:
        raise pytest.UsageError(
            f"--replay: the recorded test {test['module']}::{test['name']} is not among the "
            f"{len(items)} collected tests (were the suites changed?)"
        )
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
    with (
        contextlib.suppress(DidNotReproduce),
        reproducing(item.obj, case),
        replayed_as_recorded(item, case.get("hypothesis") or {}),
    ):
        item.obj(**arguments)
    return True


def record_failures(
    item: pytest.Item,
    report: pytest.TestReport,
    failures: list[ConformanceFailure],
    exc: BaseException | None,
) -> tuple[str, ...]:
    """Put the failures' records (the first one's alone too), with each one's replay file
    content, and the rules the failures implicate and block, on the report. The
    implicated rules. The replay files are written when the run ends, one per failed
    rule (`write_rule_replays`)."""
    from .replay import encode_failure, encode_failures

    implicated, blocked = charged_rules(failures)
    report.user_properties.append((FAILURE_PROPERTY, encode_failure(failures[0])))
    report.user_properties.append(
        (
            FAILURES_PROPERTY,
            encode_failures([(failure, replay_of(item, failure, exc)) for failure in failures]),
        )
    )
    report.user_properties.append((IMPLICATED_PROPERTY, " ".join(implicated)))
    report.user_properties.append((BLOCKED_PROPERTY, " ".join(blocked)))
    return implicated


def replay_of(
    item: pytest.Item, failure: ConformanceFailure, exc: BaseException | None
) -> dict[str, Any] | None:
    """The content of `failure`'s replay file, with the Hypothesis blob, seed and shape
    ceiling that find it again (None: `--replay-dir` is empty, no file is written)."""
    from hypothesis import __version__ as hypothesis_version
    from hypothesis import settings

    from .replay import replay_content, reproduce_blob

    config = item.config
    if not config.getoption("replay_dir"):
        return None
    blob = reproduce_blob(exc, failure) if exc is not None else None
    function = getattr(item, "obj", None)
    found = item.stash.get(FOUND, {}).get(id(failure))
    hypothesis: dict[str, Any] = {
        "version": hypothesis_version,
        "reproduce_failure": [blob[0], repr(blob[1])] if blob else None,
        "seed": found.seed
        if found is not None
        else getattr(function, "_hypothesis_internal_use_generated_seed", None),
        "profile": settings.get_current_profile_name(),
        "shrunk": found.shrunk if found is not None else not item.stash.get(UNSHRUNK, False),
    }
    if found is not None and found.ceiling is not None:
        hypothesis["ceiling"] = found.ceiling
    return replay_content(
        failure,
        target=run_of(config).target_spec(config),
        test={"module": module_basename(item), "name": item.name},
        hypothesis=hypothesis,
    )


def write_rule_replays(config: pytest.Config, results: RuleResults) -> dict[str, Path]:
    """Write one replay file per failed rule into `--replay-dir`: the replay of the
    failure its verdict rests on (rules resting on one failure share its file), and name
    it in that failure's record (`replay_file`). The files written, by rule."""
    directory = config.getoption("replay_dir")
    written: dict[str, Path] = {}
    for rule_id, outcome in results.by_rule.items() if directory else ():
        chosen = outcome.rule_verdict.failure if outcome.status == "failed" else None
        content = outcome.replay_of(chosen)
        if chosen is None or content is None:
            continue
        from .replay import write_replay_content

        try:
            written[rule_id] = path = write_replay_content(Path(directory), content)
        except OSError as exc:
            warnings.warn(
                pytest.PytestWarning(f"refold could not write a replay file: {exc}"), stacklevel=1
            )
            return written
        chosen["replay_file"] = str(path)
    return written


def replay_lines(config: pytest.Config, written: dict[str, Path]) -> list[str]:
    """One line per failed rule's replay file: where it is and the command that re-runs
    it."""
    spec = shlex.quote(run_of(config).target_spec(config))
    return [
        f"{rule_id}: replay file: {path} (re-run: refold replay {shlex.quote(str(path))} "
        f"--target {spec})"
        for rule_id, path in written.items()
    ]
