"""Where a rule fails (verdicts.md §2): a property that failed on a departing stream is
searched again on documented streams, then observed ones, and a rule's `found_on` is the
least departing shape it failed on; its `impact` the worst impact there (§3, §4).

The chat dialect is given a small shape classifier (`_shaped_dialect`): a chunk with
`x_gateway` departs in a registered observed way, one with `x_bogus` in a synthetic way.
The suites draw those keys with booleans that shrink to "present", so Hypothesis's first,
shrunk failure is on the most departing stream the strategy draws."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from _shaped_dialect import CONFTEST, shaped

from refold.dialects import DIALECTS
from refold.records.replay import read_replay
from refold.records.results import Evidence, RuleOutcome
from refold.reference import FailureRecord, failure_record
from refold.verdicts.found_on import rule_verdict, shape_of
from refold.verdicts.shapes import StreamShape

PYTEST = [
    sys.executable,
    "-m",
    "pytest",
    "-p",
    "no:cacheprovider",
    "-p",
    "no:xdist",
    "--hypothesis-profile=dev",
    "--shrink-seconds=20",
]

_SUITE = """
from hypothesis import given, settings
from hypothesis import strategies as st

from refold.run.checks import Check
from refold.run.marks import rule

# (ids, without x_gateway, without x_bogus): False shrinks first, so a shrunk stream
# carries both departures (on its last chunk)
_CHUNKS = st.tuples(st.lists(st.sampled_from(["a", "b"]), min_size=1, max_size=4),
                    st.booleans(), st.booleans())


def _stream(drawn):
    ids, plain_gateway, plain_bogus = drawn
    stream = [{"id": i, "choices": [{"index": 0, "delta": {"content": "x"}}]} for i in ids]
    if not plain_gateway:
        stream[-1]["x_gateway"] = 1
    if not plain_bogus:
        stream[-1]["x_bogus"] = 1
    return stream


@rule("ENV-ID")
@settings(max_examples=60, database=None)
@given(drawn=_CHUNKS)
def test_the_id_read_incrementally_is_the_first(check: Check, drawn) -> None:
    stream = _stream(drawn)
    accumulator = check.accumulator()
    for chunk in stream:
        accumulator.add(chunk)
    received = accumulator.response()["id"]
    if received != stream[0]["id"]:
        raise check.fail(f"the id read back is {received!r}", chunks=accumulator.chunks,
                         expected=stream[0]["id"], received=received)


@rule("ENV-ID")
@settings(max_examples=60, database=None)
@given(drawn=_CHUNKS)
def test_the_first_id_is_kept(check: Check, drawn) -> None:
    check.folds_like_reference(_stream(drawn))
"""

_LAST_ID_WINS_ON = '''
from refold.reference.chat import Accumulator as _Reference

KEYS = {keys!r}  # None: every chunk


class Accumulator:
    """The reference, but the id of the last chunk carrying one of KEYS wins."""

    def __init__(self):
        self._reference = _Reference()
        self._ids = []

    def add(self, chunk):
        self._reference.add(chunk)
        if KEYS is None or any(key in chunk for key in KEYS):
            self._ids.append(chunk["id"])

    def response(self):
        response = self._reference.response()
        if self._ids:
            response["id"] = self._ids[-1]
        return response
'''
_LAST_ID_WINS = _LAST_ID_WINS_ON.format(keys=None)


def _run(tmp_path: Path, target: str, *extra: str) -> dict[str, Any]:
    """The results of the shaped suite against `target` (which fails it)."""
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_shaped.py").write_text(_SUITE, encoding="utf-8")
    (tmp_path / "target.py").write_text(target, encoding="utf-8")
    done = subprocess.run(
        [*PYTEST, "--target=target.py", "--refold-report=results.json", *extra, "test_shaped.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-4000:] + done.stderr[-2000:]
    return dict(json.loads((tmp_path / "results.json").read_text(encoding="utf-8")))


def test_a_failure_a_documented_stream_shows_is_found_on_documented(tmp_path: Path) -> None:
    results = _run(tmp_path, _LAST_ID_WINS)
    rule = results["rules"]["ENV-ID"]
    assert rule["found_on"] == "documented" and rule["departures"] == []
    assert rule["impact"] == "corruption"
    failure = rule["failure"]
    assert failure["shape"] == "documented" and failure["departures"] == []
    assert not any("x_gateway" in c or "x_bogus" in c for c in failure["chunks"])
    replays = list((tmp_path / "refold-replays").glob("*.json"))
    assert [Path(failure["replay_file"]).name] == [p.name for p in replays]
    replay = read_replay(replays[0])
    assert replay["test"]["name"] == "test_the_id_read_incrementally_is_the_first"
    assert replay["hypothesis"]["ceiling"] == "documented"
    assert replay["hypothesis"]["reproduce_failure"] is not None
    assert replay["case"] == "test" and replay["chunks"] == failure["chunks"]


def test_under_xdist_the_controller_reads_found_on_off_the_workers_records(
    tmp_path: Path,
) -> None:
    results = _run(tmp_path, _LAST_ID_WINS, "-p", "xdist", "-n", "2")
    rule = results["rules"]["ENV-ID"]
    assert (rule["found_on"], rule["impact"], rule["departures"]) == (
        "documented",
        "corruption",
        [],
    )
    replays = list((tmp_path / "refold-replays").glob("*.json"))
    assert [p.name for p in replays] == [Path(rule["failure"]["replay_file"]).name]
    assert read_replay(replays[0])["hypothesis"]["ceiling"] == "documented"


def test_the_replay_of_a_failure_found_under_a_ceiling_reproduces_that_failure(
    tmp_path: Path,
) -> None:
    results = _run(tmp_path, _LAST_ID_WINS)
    path = results["rules"]["ENV-ID"]["failure"]["replay_file"]
    for reproduce in ("blob", "seed"):
        if reproduce == "seed":  # what the file falls back on without a blob
            content = json.loads((tmp_path / path).read_text(encoding="utf-8"))
            content["hypothesis"]["reproduce_failure"] = None
            (tmp_path / path).write_text(json.dumps(content), encoding="utf-8")
        again = subprocess.run(
            [
                *PYTEST,
                "--replay",
                path,
                "--target=target.py",
                "--refold-report=again.json",
                "test_shaped.py",
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert again.returncode == 1, again.stdout[-3000:]
        replayed = json.loads((tmp_path / "again.json").read_text(encoding="utf-8"))
        assert replayed["rules"]["ENV-ID"]["found_on"] == "documented", reproduce


def test_a_failure_only_an_observed_departure_shows_is_found_on_observed(
    tmp_path: Path,
) -> None:
    results = _run(tmp_path, _LAST_ID_WINS_ON.format(keys=["x_gateway", "x_bogus"]))
    rule = results["rules"]["ENV-ID"]
    assert rule["found_on"] == "observed" and rule["departures"] == ["T-GATEWAY"]
    assert rule["failure"]["shape"] == "observed"
    assert not any("x_bogus" in c for c in rule["failure"]["chunks"])


def test_a_failure_only_a_synthetic_departure_shows_is_found_on_synthetic(
    tmp_path: Path,
) -> None:
    results = _run(tmp_path, _LAST_ID_WINS_ON.format(keys=["x_bogus"]))
    rule = results["rules"]["ENV-ID"]
    assert rule["found_on"] == "synthetic" and "T-BOGUS" in rule["departures"]
    assert rule["impact"] == "corruption"
    assert len(list((tmp_path / "refold-replays").glob("*.json"))) == 1  # one failed rule


def test_a_dialect_that_tells_no_shapes_shows_every_stream_synthetic() -> None:
    untold = dataclasses.replace(DIALECTS["openai-chat"], shapes=None)
    assert shape_of(untold, [{"id": "a"}]).shape == "synthetic"
    assert shape_of(untold, None) == shape_of(untold, []) == StreamShape("synthetic")
    chat = DIALECTS["openai-chat"]
    with shaped():
        assert shape_of(chat, [{"id": "a"}]).shape == "documented"
        assert shape_of(chat, None).shape == "documented"  # a failure needing no stream
        assert shape_of(chat, [{"x_gateway": 1}]).departures == ("T-GATEWAY",)


def _record(shape: str | None, impact: str | None, message: str) -> FailureRecord:
    record = failure_record(message)
    if shape is not None:
        record["shape"], record["departures"] = shape, ([] if shape == "documented" else ["X"])  # type: ignore[typeddict-item]
    if impact is not None:
        record["impact"] = impact  # type: ignore[typeddict-item]
    return record


def test_the_least_departing_failure_wins_with_the_worst_impact_found_on_it() -> None:
    records = [
        _record("synthetic", "crash", "s"),
        _record("documented", "representation", "d1"),
        _record("observed", "loss", "o"),
        _record("documented", "loss", "d2"),
        _record("documented", "loss", "d3"),
    ]
    verdict = rule_verdict(records)
    assert (verdict.found_on, verdict.impact) == ("documented", "loss")
    assert verdict.failure is records[3] and verdict.departures == []


def test_a_record_written_before_shapes_reads_as_synthetic() -> None:
    verdict = rule_verdict([_record(None, None, "old")])
    assert verdict.found_on == "synthetic" and verdict.impact is None
    assert verdict.departures == []


def test_a_rule_shows_the_failure_its_verdict_rests_on() -> None:
    outcome = RuleOutcome()
    first, least = _record("synthetic", "loss", "first"), _record("observed", "loss", "least")
    outcome.add(
        "failed", message="first", failure=first, evidence=(Evidence(first, ("ENV-ID",), None),)
    )
    outcome.add(
        "failed",
        message="least",
        failure=least,
        evidence=(Evidence(least, ("ENV-ID",), {"rules": ["ENV-ID"]}),),
    )
    assert outcome.failure is least and outcome.reason == "least"
    assert outcome.replay_of(outcome.rule_verdict.failure) == {"rules": ["ENV-ID"]}
