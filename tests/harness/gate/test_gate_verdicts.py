"""The gate of verdicts.md §5: `--fail-on` counts failures by their rule's `found_on`, a
baseline records the value and each entry's verdict and minimal streams (scrubbed,
bounded), an entry is stale only when those streams replay passing, a rule that fails on
a less departing shape than its entry records is new, writing only adds to a file, and
files written before all this still load and mean what they meant."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.commands.baseline import baseline_from_results, revise_baseline
from refold.errors import UsageError
from refold.gate.baseline import Baseline, dump_baseline, load_baseline
from refold.gate.fail_on import counts, fail_on_notes, fail_on_of, settle_exit_status
from refold.gate.judge import judge, replay_entries
from refold.gate.recorded_streams import (
    STREAM_BYTES,
    STREAMS_PER_ENTRY,
    EntryVerdict,
    RecordedStream,
    streams_of,
    verdict_of,
)
from refold.records.results import RuleOutcome, RuleResults, XfailedTest
from refold.reference import SHAPES, FailureRecord, Shape, failure_record
from refold.reference.chat import fold as reference_fold
from refold.run.preflight import check_fail_on
from refold.targets import load_target
from refold.verdicts.fingerprints import Fingerprint

_ID_STREAM = [
    {"id": "a", "choices": [{"index": 0, "delta": {"content": "x"}}]},
    {"id": "b", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
]


def _failure(
    shape: Shape | None,
    *,
    chunks: list[Any] | None = None,
    expected: Any = None,
    impact: str = "corruption",
) -> FailureRecord:
    record = failure_record("differs", chunks=chunks, expected=expected)
    if shape is not None:
        record["shape"] = shape
        record["departures"] = [] if shape == "documented" else ["Q3"]
        record["impact"] = impact  # type: ignore[typeddict-item]
    return record


def _results(**failed: Shape | None) -> RuleResults:
    results = RuleResults()
    for rule_id, shape in failed.items():
        outcome = results.by_rule.setdefault(rule_id.replace("_", "-"), RuleOutcome())
        outcome.add("failed", message="differs", failure=_failure(shape))
    return results


def _session(status: int = pytest.ExitCode.TESTS_FAILED) -> pytest.Session:
    return cast(pytest.Session, SimpleNamespace(exitstatus=status))


# 1. --fail-on


def test_a_failure_counts_when_its_shape_is_at_or_below_fail_on() -> None:
    for fail_on in SHAPES:
        for shape in SHAPES:
            assert counts(shape, fail_on) == (SHAPES.index(shape) <= SHAPES.index(fail_on))
        assert counts(None, fail_on)  # a failure the gate cannot place always counts


def test_fail_on_documented_lets_a_run_failing_only_on_departing_streams_exit_0() -> None:
    session = _session()
    said = settle_exit_status(
        session, _results(ENV_ID="synthetic", ENV_MODEL="observed"), "documented", None
    )
    assert session.exitstatus == pytest.ExitCode.OK
    (line,) = said
    assert "ENV-ID (synthetic)" in line and "ENV-MODEL (observed)" in line


def test_fail_on_fails_the_run_on_a_failure_at_or_below_it() -> None:
    for fail_on, failed in (
        ("documented", {"ENV_ID": "documented", "ENV_MODEL": "synthetic"}),
        ("observed", {"ENV_ID": "observed"}),
        ("synthetic", {"ENV_ID": "synthetic"}),
        ("documented", {"ENV_ID": None}),
    ):
        session = _session()
        settle_exit_status(session, _results(**failed), fail_on, None)  # type: ignore[arg-type]
        assert session.exitstatus == pytest.ExitCode.TESTS_FAILED, (fail_on, failed)


def test_a_failed_test_that_names_no_rule_always_counts() -> None:
    from refold.gate.fail_on import FailedReports

    failed = FailedReports()
    failed.pytest_runtest_logreport(
        cast(pytest.TestReport, SimpleNamespace(failed=True, user_properties=[]))
    )
    session = _session()
    settle_exit_status(session, _results(ENV_ID="synthetic"), "documented", failed)
    assert session.exitstatus == pytest.ExitCode.TESTS_FAILED


def test_the_fail_on_option_wins_over_the_baseline_and_the_run_says_so() -> None:
    written = Baseline(path="b.toml", fail_on="documented")
    assert fail_on_of(None, written) == "documented"  # the value it was written with
    assert fail_on_of("synthetic", written) == "synthetic"  # the option, when given
    (note,) = fail_on_notes("synthetic", written)
    assert "--fail-on synthetic" in note and "fail_on = 'documented'" in note
    assert fail_on_notes("documented", written) == []  # they agree: nothing to say
    assert fail_on_of(None, None) == "synthetic"  # the default: every failure counts


def test_an_unknown_fail_on_is_refused_in_one_paragraph() -> None:
    with pytest.raises(UsageError) as refused:
        check_fail_on("doc")
    said = str(refused.value)
    assert "--fail-on 'doc'" in said and "documented, observed, synthetic" in said
    assert "\n" not in said


# 2. what an entry records


def _results_json(**rules: dict[str, Any]) -> dict[str, Any]:
    return {
        "target": {"features": ["text", "choices"], "description": "t"},
        "settings": {"profile": "ci"},
        "dialect": {"name": "openai-chat"},
        "rules": {
            r: {"status": "failed", "reason": "differs", "fingerprints": [], **entry}
            for r, entry in rules.items()
        },
    }


def test_a_written_entry_records_found_on_impact_departures_and_its_minimal_stream(
    tmp_path: Path,
) -> None:
    failure = _failure("observed", chunks=_ID_STREAM, expected=reference_fold(_ID_STREAM))
    results = _results_json(
        **{
            "ENV-ID": {
                "found_on": "observed",
                "impact": "corruption",
                "departures": ["Q3"],
                "failure": failure,
            }
        }
    )
    baseline = baseline_from_results(results, target="t", fail_on="documented")
    assert baseline.fail_on == "documented"
    assert baseline.verdicts == {"ENV-ID": EntryVerdict("observed", "corruption", ("Q3",))}
    (stream,) = baseline.streams["ENV-ID"]
    assert json.loads(stream.chunks) == _ID_STREAM and stream.shape == "observed"
    path = tmp_path / "b.toml"
    path.write_text(dump_baseline(baseline), encoding="utf-8")
    assert load_baseline(path) == Baseline(**{**baseline.__dict__, "path": str(path)})


def test_an_entry_keeps_a_bounded_number_of_bounded_scrubbed_streams() -> None:
    key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"
    records: list[Any] = [
        _failure("synthetic", chunks=[{"id": str(n), "choices": []}]) for n in range(5)
    ]
    records.append(_failure("documented", chunks=[{"id": key, "choices": []}]))
    records.append(_failure("documented", chunks=[{"id": "x" * STREAM_BYTES}]))
    kept = streams_of(records)
    assert len(kept) == STREAMS_PER_ENTRY
    assert kept[0].shape == "documented"  # the least departing first
    assert all(len(s.chunks.encode()) + len(s.expected.encode()) <= STREAM_BYTES for s in kept)
    assert key not in "".join(s.chunks for s in kept) and "[redacted]" in kept[0].chunks
    assert streams_of(reversed(records)) == kept  # the same failures: the same entry


def test_a_baseline_with_more_streams_than_the_bound_is_refused(tmp_path: Path) -> None:
    stream = '{chunks = "[{}]", expected = "null"}'
    path = tmp_path / "b.toml"
    path.write_text(
        '[expected_failures]\n"ENV-ID" = "x"\n\n[streams]\n"ENV-ID" = ['
        + ", ".join([stream] * (STREAMS_PER_ENTRY + 1))
        + "]\n",
        encoding="utf-8",
    )
    with pytest.raises(UsageError, match=r"\[streams\] 'ENV-ID'"):
        load_baseline(path)


def test_a_rule_record_without_verdict_keys_reads_its_failure_record() -> None:
    entry = {"failure": _failure("synthetic", impact="loss")}
    assert verdict_of(entry) == EntryVerdict("synthetic", "loss", ("Q3",))
    assert verdict_of({"failure": None}) == EntryVerdict()


# 3. stale means the recorded streams replay passing


def _reference_target() -> Any:
    return load_target("reference")


def _entry(rule_id: str, chunks: list[Any], expected: Any) -> Baseline:
    stream = RecordedStream(json.dumps(chunks), json.dumps(expected), "documented")
    return Baseline(
        path="b.toml",
        expected_failures={rule_id: "last id wins"},
        fingerprints={rule_id: frozenset({Fingerprint("m::t", "differs", ("/id",))})},
        streams={rule_id: (stream,)},
    )


def test_an_entry_whose_stream_still_fails_is_not_stale_whatever_the_search_met() -> None:
    wrong = {**reference_fold(_ID_STREAM), "id": "b"}  # what the last-id-wins fold built
    baseline = _entry("ENV-ID", _ID_STREAM, wrong)
    replayed = replay_entries(baseline, _reference_target())
    assert replayed == {"ENV-ID": ("fails",)}
    # The run's search met another failure first: the recorded fingerprint was not seen.
    results = RuleResults()
    results.ran.add("m::t")
    results.by_rule["ENV-ID"] = RuleOutcome(status="xfailed")
    assert judge(baseline, results, replayed=replayed) == []
    # Without the replay, the run's tests alone would call it stale (files before streams).
    assert judge(baseline, results)[0].startswith("stale baseline fingerprint: ENV-ID")


def test_an_entry_whose_streams_all_pass_when_replayed_is_stale() -> None:
    baseline = _entry("ENV-ID", _ID_STREAM, reference_fold(_ID_STREAM))
    replayed = replay_entries(baseline, _reference_target())
    assert replayed == {"ENV-ID": ("passes",)}
    results = RuleResults()  # the run did not even reach the rule's tests
    (sentence,) = judge(baseline, results, replayed=replayed)
    assert sentence.startswith("stale baseline entry: ENV-ID passes now")
    assert results.by_rule["ENV-ID"].verdict == "stale"


# 5. a rule found on a less departing shape than its entry records is new


def _xfailed(rule_id: str, shape: Shape) -> XfailedTest:
    return XfailedTest(
        "test_m.py::test_t",
        (rule_id,),
        frozenset({rule_id}),
        (),
        _failure(shape, chunks=_ID_STREAM),
    )


def test_a_rule_that_now_fails_on_a_less_departing_shape_is_a_new_failure() -> None:
    baseline = Baseline(
        path="b.toml",
        expected_failures={"ENV-ID": "x"},
        verdicts={"ENV-ID": EntryVerdict("synthetic", "corruption")},
    )
    results = RuleResults()
    results.xfailed.append(_xfailed("ENV-ID", "documented"))
    (sentence,) = judge(baseline, results)
    assert sentence.startswith("new failure: ENV-ID now fails on documented streams")
    assert "records it as found on synthetic streams" in sentence
    assert results.by_rule["ENV-ID"].verdict == "new"
    assert results.by_rule["ENV-ID"].status == "failed"


def test_a_rule_that_fails_on_the_shape_its_entry_records_or_a_more_departing_one_is_known() -> (
    None
):
    baseline = Baseline(
        path="b.toml",
        expected_failures={"ENV-ID": "x"},
        verdicts={"ENV-ID": EntryVerdict("observed", "corruption")},
    )
    for shape in ("observed", "synthetic"):
        results = RuleResults()
        results.xfailed.append(_xfailed("ENV-ID", shape))
        assert judge(baseline, results) == []


# 4. writing only adds: a check that met failures another way changes no entry away


def test_revising_keeps_every_entry_the_check_did_not_judge_stale() -> None:
    written = baseline_from_results(
        _results_json(
            **{
                "ENV-ID": {
                    "fingerprints": [{"test": "m::a", "kind": "differs", "pointers": ["/id"]}]
                },
                "ENV-MODEL": {
                    "fingerprints": [{"test": "m::b", "kind": "differs", "pointers": ["/model"]}]
                },
            }
        ),
        target="t",
    )
    # The check met ENV-ID's failure in another way, and did not reach ENV-MODEL's.
    checked = {
        "rules": {
            "ENV-ID": {
                "status": "xfailed",
                "verdict": None,
                "reason": "x",
                "fingerprints": [{"test": "m::a", "kind": "raised", "pointers": []}],
            },
            "ENV-MODEL": {"status": "passed", "verdict": None, "reason": None, "fingerprints": []},
        }
    }
    revised = revise_baseline(written, checked)
    assert set(revised.expected_failures) == {"ENV-ID", "ENV-MODEL"}
    assert revised.fingerprints["ENV-ID"] == {
        Fingerprint("m::a", "differs", ("/id",)),
        Fingerprint("m::a", "raised"),
    }
    assert revise_baseline(revised, checked) == revised  # a fixed point: the same file


def test_revising_drops_an_entry_the_check_judged_stale() -> None:
    written = baseline_from_results(_results_json(**{"ENV-ID": {}}), target="t")
    checked = {
        "rules": {
            "ENV-ID": {"status": "failed", "verdict": "stale", "reason": "s", "fingerprints": []}
        }
    }
    assert revise_baseline(written, checked).expected_failures == {}


# 6. files written before verdicts


def test_a_baseline_written_before_verdicts_loads_and_means_what_it_meant(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.toml"
    path.write_text(
        'target = "mypkg"\n\n[expected_failures]\n"ENV-ID" = "last id wins"\n', encoding="utf-8"
    )
    old = load_baseline(path)
    assert old.fail_on is None and old.verdicts == {} and old.streams == {}
    assert fail_on_of(None, old) == "synthetic"  # every failure counts, as it did
    results = RuleResults()
    results.xfailed.append(_xfailed("ENV-ID", "documented"))
    assert judge(old, results) == []  # no recorded found_on: nothing it could regress from
    passed = RuleResults()
    passed.by_rule["ENV-ID"] = RuleOutcome(status="passed")
    (sentence,) = judge(old, passed, replayed=replay_entries(old, _reference_target()))
    assert sentence.startswith("stale baseline entry: ENV-ID passes now")  # by its tests


# End to end: a naive fold, a new defect, and the gate's verdicts on the rules still broken

_NAIVE_SUITE = """
from hypothesis import given, settings
from hypothesis import strategies as st

from refold.run.marks import rule

_PARTS = st.lists(st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(["", "x", "y"]),
                            st.sampled_from(["", "m", "n"])), min_size=1, max_size=4)


def _stream(parts):
    return [{"id": cid, "model": model, "choices": [{"index": 0, "delta": {"content": text}}]}
            for text, cid, model in parts]


@rule("ENV-ID")
@settings(max_examples=100, database=None)
@given(parts=_PARTS)
def test_the_id_is_the_first_non_blank_one(check, parts):
    check.folds_like_reference(_stream(parts))


@rule("ENV-MODEL")
@settings(max_examples=100, database=None)
@given(parts=_PARTS)
def test_the_model_is_the_first_non_blank_one(check, parts):
    check.folds_like_reference(_stream(parts))
"""

_NAIVE_FOLD = """
def fold(chunks):
    response = {{"object": "chat.completion", "choices": []}}
    text = None
    for chunk in chunks:
        for key in ("id", "created", "model"):
            if chunk.get(key):
                response[key] = chunk[key]  # the last one wins
        for entry in chunk.get("choices") or []:
            part = (entry.get("delta") or {{}}).get("content")
            {defect}
            if part:
                text = (text or "") + part
    response["choices"] = [{{"index": 0, "finish_reason": None,
                             "message": {{"role": "assistant", "content": text}}}}]
    return response


refold_target = {{"name": "naive", "fold": fold, "features": ["text", "choices"]}}
"""


def test_a_new_defect_on_a_naive_fold_calls_no_still_broken_rule_stale(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "test_naive.py").write_text(_NAIVE_SUITE, encoding="utf-8")
    (tmp_path / "naive.py").write_text(_NAIVE_FOLD.format(defect="pass"), encoding="utf-8")
    # The new defect: a "b" is doubled, a TEXT-JOIN failure every property now meets
    # first and shrinks to, on a stream too short to show the ids and models it still
    # gets wrong.
    (tmp_path / "worse.py").write_text(
        _NAIVE_FOLD.format(defect='part = part * 2 if part == "b" else part'), encoding="utf-8"
    )

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, *argv],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )

    written = run(
        "-m",
        "refold.cli",
        "baseline",
        "--target",
        "naive.py",
        "--write",
        "b.toml",
        "--",
        "test_naive.py",
    )
    assert written.returncode == 0, written.stdout[-3000:] + written.stderr[-2000:]
    assert set(load_baseline(tmp_path / "b.toml").streams) == {"ENV-ID", "ENV-MODEL"}
    gated = run(
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "--baseline",
        "b.toml",
        "--target",
        "worse.py",
        "test_naive.py",
    )
    assert gated.returncode == 1, gated.stdout[-3000:]
    lines = gated.stdout.splitlines()
    assert any(line.startswith("new failure: TEXT-JOIN") for line in lines), gated.stdout[-3000:]
    assert not [line for line in lines if line.startswith("stale baseline")], gated.stdout[-3000:]
    fixed = run(
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "--baseline",
        "b.toml",
        "--target",
        "reference",
        "test_naive.py",
    )
    assert fixed.returncode == 1, fixed.stdout[-3000:]
    stale = sorted(
        line.split()[3]
        for line in fixed.stdout.splitlines()
        if line.startswith("stale baseline entry:")
    )
    assert stale == ["ENV-ID", "ENV-MODEL"], fixed.stdout[-3000:]


def test_two_writes_of_an_unchanged_target_give_the_same_baseline(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "test_naive.py").write_text(_NAIVE_SUITE, encoding="utf-8")
    (tmp_path / "naive.py").write_text(
        _NAIVE_FOLD.format(defect='part = part * 2 if part == "b" else part'), encoding="utf-8"
    )
    written = []
    for name in ("one.toml", "two.toml"):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "refold.cli",
                "baseline",
                "--target",
                "naive.py",
                "--write",
                name,
                "--",
                "test_naive.py",
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
        written.append((tmp_path / name).read_text(encoding="utf-8"))
    assert written[0] == written[1]
    assert set(load_baseline(tmp_path / "one.toml").expected_failures) >= {
        "ENV-ID",
        "ENV-MODEL",
        "TEXT-JOIN",
    }


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)  # quotes, DEL and the like as they are


_RULES = st.sampled_from(["ENV-ID", "ENV-MODEL", "TEXT-JOIN", "CHOICE-FINISH"])
_TEXTS = st.text(max_size=20)
_VERDICTS = st.builds(
    EntryVerdict,
    st.none() | st.sampled_from(SHAPES),
    st.none() | st.sampled_from(["crash", "loss", "corruption", "representation"]),
    st.lists(_TEXTS, max_size=3).map(lambda d: tuple(sorted(set(d)))),
)
_STREAMS = st.lists(
    st.builds(
        RecordedStream,
        st.lists(st.dictionaries(_TEXTS, _TEXTS, max_size=2), min_size=1, max_size=3).map(_json),
        st.dictionaries(_TEXTS, _TEXTS, max_size=2).map(_json) | st.just("null"),
        st.none() | st.sampled_from(SHAPES),
        st.lists(_TEXTS, max_size=3).map(tuple),
    ),
    min_size=1,
    max_size=STREAMS_PER_ENTRY,
).map(tuple)


@given(
    fail_on=st.none() | st.sampled_from(SHAPES),
    verdicts=st.dictionaries(_RULES, _VERDICTS.filter(lambda v: v != EntryVerdict())),
    streams=st.dictionaries(_RULES, _STREAMS),
)
def test_a_baseline_with_verdicts_and_streams_reads_back_to_the_same_values(
    tmp_path_factory: pytest.TempPathFactory,
    fail_on: Shape | None,
    verdicts: dict[str, EntryVerdict],
    streams: dict[str, tuple[RecordedStream, ...]],
) -> None:
    expected = dict.fromkeys([*verdicts, *streams], "known")
    written = Baseline(
        path="-", expected_failures=expected, fail_on=fail_on, verdicts=verdicts, streams=streams
    )
    path = tmp_path_factory.mktemp("baseline") / "b.toml"
    path.write_text(dump_baseline(written), encoding="utf-8")
    assert load_baseline(path) == Baseline(**{**written.__dict__, "path": str(path)})


def test_fail_on_reaches_pytest_from_refold_check_and_refold_baseline() -> None:
    from refold.cli import build_parser
    from refold.commands.check import pytest_arguments

    for argv in (
        ["check", "--fail-on", "documented"],
        ["baseline", "--fail-on", "documented", "--write", "b.toml"],
    ):
        args = build_parser().parse_args(argv)
        assert args.fail_on == "documented"
        assert "--fail-on=documented" in pytest_arguments(args)


def test_an_entry_whose_streams_pass_but_whose_rule_still_fails_in_the_run_is_not_stale() -> None:
    baseline = _entry("ENV-ID", _ID_STREAM, reference_fold(_ID_STREAM))
    replayed = replay_entries(baseline, _reference_target())
    results = RuleResults()
    results.by_rule["ENV-ID"] = RuleOutcome(status="xfailed")  # it failed another way
    assert judge(baseline, results, replayed=replayed) == []
    deselected = RuleResults()  # a subset run judges nothing stale of what it did not select
    assert (
        judge(baseline, deselected, replayed=replayed, deselected_rules=frozenset({"ENV-ID"})) == []
    )
