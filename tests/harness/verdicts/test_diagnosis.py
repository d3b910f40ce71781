"""A failure names its cause: the known fold policies (`refold.policies`) that reproduce a
target's output, found by `refold.verdicts.diagnosis` on the failing stream.

Every broken accumulator of `examples/broken/` whose defect shows in its fold, folded over
a stream that shows the defect, is diagnosed as exactly its own policy; the reference, on
the same streams, as none; a raise matches only a policy raising at the same item; the
diagnosis travels through the results JSON and replay files (and an older record without
one still reads), and every report renders it escaped.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from refold.dialects import DIALECTS
from refold.policies import catalogue_markdown
from refold.records.replay import decode_failure, encode_failure, read_replay, write_replay
from refold.reference import JSON, Difference, diagnosis_of_record, diagnosis_text
from refold.reports import render_html, render_junit, render_markdown
from refold.run.checks import ConformanceFailure
from refold.verdicts.diagnosis import Raised, diagnose, records

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "dialects" / "anthropic_messages"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "dialects" / "openai_responses"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "dialects" / "gemini"))
import test_broken_anthropic_accumulators as _anthropic
import test_broken_gemini_accumulators as _gemini
import test_broken_responses_accumulators as _responses

_BROKEN = Path(__file__).resolve().parents[3] / "examples" / "broken"
_NOT_IN_THE_FOLD = {"live_snapshot", "anthropic_drops_frames_without_event"}
"""Broken examples whose defect is not in the folded value: a live snapshot handed out by
response(), an SSE decoder. A diagnosis compares folded values, so no policy stands for
them."""


def _chat(*chunks: dict[str, Any]) -> list[JSON]:
    return [{"id": "chatcmpl-1", "model": "m", "created": 1, **chunk} for chunk in chunks]


def _delta(delta: dict[str, Any], finish: str | None = None, index: int = 0) -> dict[str, Any]:
    return {"choices": [{"index": index, "delta": delta, "finish_reason": finish}]}


def _call(id_: str | None, name: str | None, arguments: str, index: int = 0) -> dict[str, Any]:
    entry: dict[str, Any] = {"index": index, "function": {"arguments": arguments}}
    if id_ is not None:
        entry["id"] = id_
    if name is not None:
        entry["function"]["name"] = name
    return _delta({"tool_calls": [entry]})


_USAGE = {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}
_STOP = _delta({}, "stop")

CHAT_DEFECTS: dict[str, list[list[JSON]]] = {
    "concatenate_repeated_strings": [
        _chat(_delta({"role": "assistant", "content": "Hi"}), _delta({"role": "assistant"}), _STOP),
        _chat(_call("call_1", "search", '{"q":'), _call("call_1", "search", '"x"}'), _STOP),
    ],
    "sum_usage": [
        _chat(
            _delta({"content": "Hi"}),
            {"choices": [], "usage": _USAGE},
            {"choices": [], "usage": _USAGE},
        )
    ],
    "choices_by_position": [_chat(_delta({"content": "Hi"}, "stop", index=1))],
    "merge_calls_sharing_index": [
        _chat(_call("call_1", "a", "{}"), _call("call_2", "b", '{"x": 1}'), _STOP)
    ],
    # the continuation of the call on index 1 lost its index: it belongs to index 1
    "index_less_fragments_at_zero": [
        _chat(
            _call("call_1", "a", "{}"),
            _call("call_2", "b", '{"x":', index=1),
            _delta({"tool_calls": [{"function": {"arguments": " 1}"}}]}),
            _STOP,
        )
    ],
    # a re-send alone merging calls would double too: a second call on the index tells them
    "no_resend_detection": [
        _chat(
            _call("call_1", "a", '{"x": 1}'),
            _call("call_1", None, '{"x": 1}'),
            _call("call_2", "b", "{}"),
            _STOP,
        )
    ],
    "usage_erased_by_null": [
        _chat(
            _delta({"content": "Hi"}),
            {"choices": [], "usage": _USAGE},
            {"choices": [], "usage": None},
        )
    ],
    "finish_erased_by_blank": [_chat(_delta({"content": "Hi"}, "stop"), _delta({}, ""))],
    "empty_arguments_too_early": [_chat(_call("call_1", "ping", ""))],
}
"""Hand-written chat streams that show each chat defect in the fold."""

RAISING: dict[str, tuple[str, list[JSON], int]] = {
    "crash_on_null_choice": (
        "openai-chat",
        _chat(_delta({"content": "Hi"}), {"choices": [None]}, _STOP),
        2,
    ),
    "anthropic_crash_without_usage": (
        "anthropic-messages",
        [_anthropic._start(), *_anthropic._text(0, "Hm."), _anthropic._end(), _anthropic._STOP],
        5,
    ),
    "anthropic_ping_before_start_raises": (
        "anthropic-messages",
        [{"type": "ping"}, *_anthropic.PLAIN],
        1,
    ),
    **{name: ("openai-responses", streams[0], 0) for name, streams in _responses.RAISES.items()},
}
"""Streams each raising example raises on, and the item it raises at (0: find it)."""


def _cases() -> list[tuple[str, str, list[JSON]]]:
    defects = {
        "openai-chat": CHAT_DEFECTS,
        "anthropic-messages": _anthropic.DEFECTS,
        "openai-responses": _responses.DEFECTS,
        "gemini-generate-content": _gemini.DEFECTS,
    }
    return [
        (dialect, name, s)
        for dialect, by_name in defects.items()
        for name, streams in by_name.items()
        for s in streams
    ]


def _target(name: str) -> Any:
    if str(_BROKEN) not in sys.path:
        sys.path.append(str(_BROKEN))  # each example imports the base fold next to it
    spec = importlib.util.spec_from_file_location(f"diagnosed_{name}", _BROKEN / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.refold_target["factory"]


def _outcome(name: str, items: list[JSON]) -> Any:
    """What the example makes of `items`: its fold, or the item whose add raised."""
    accumulator = _target(name)()
    for number, item in enumerate(copy.deepcopy(items), 1):
        try:
            accumulator.add(item)
        except Exception:
            return Raised(number)
    try:
        return accumulator.response()
    except Exception:
        return Raised(None)


def _diagnosed(dialect: str, items: list[JSON], received: Any) -> list[str]:
    return [policy.example for policy in diagnose(DIALECTS[dialect], items, received)]


def test_every_broken_example_whose_defect_is_in_its_fold_has_exactly_one_policy() -> None:
    examples = {path.stem for path in _BROKEN.glob("*.py") if not path.stem.startswith("_")}
    policies = [p.example for d in DIALECTS.values() for p in d.policies]
    assert sorted(policies) == sorted(examples - _NOT_IN_THE_FOLD)
    assert {d.name: len(d.policies) for d in DIALECTS.values()} == {
        "openai-chat": 10,
        "anthropic-messages": 12,
        "openai-responses": 12,
        "provider-events": 0,  # rule violations, not one fold
        "gemini-generate-content": 12,
    }
    assert {dialect for dialect, _, _ in _cases()} == {
        d.name for d in DIALECTS.values() if d.policies
    }


@pytest.mark.parametrize(
    ("dialect", "name", "items"),
    _cases(),
    ids=[f"{name}-{n}" for n, (_, name, _) in enumerate(_cases())],
)
def test_a_broken_fold_is_diagnosed_as_exactly_its_own_policy(
    dialect: str, name: str, items: list[JSON]
) -> None:
    received = _outcome(name, items)
    assert isinstance(received, dict), received
    assert DIALECTS[dialect].differences(DIALECTS[dialect].fold(items), received)  # it fails
    assert _diagnosed(dialect, items, received) == [name]


@pytest.mark.parametrize(
    ("dialect", "name", "items"),
    _cases(),
    ids=[f"{name}-{n}" for n, (_, name, _) in enumerate(_cases())],
)
def test_the_reference_fold_of_a_defect_stream_matches_no_policy(
    dialect: str, name: str, items: list[JSON]
) -> None:
    assert _diagnosed(dialect, items, DIALECTS[dialect].fold(copy.deepcopy(items))) == []


@pytest.mark.parametrize("name", sorted(RAISING))
def test_a_raise_matches_only_the_policy_raising_at_the_same_item(name: str) -> None:
    dialect, items, at = RAISING[name]
    received = _outcome(name, items)
    assert isinstance(received, Raised)
    located = Raised(at) if at else _shortest_raising_prefix(name, items)
    assert _diagnosed(dialect, items, located) == [name]
    assert located.at is not None
    for elsewhere in (located.at - 1, located.at + 1):
        assert _diagnosed(dialect, items, Raised(elsewhere)) == []


def _shortest_raising_prefix(name: str, items: list[JSON]) -> Raised:
    """Where a fold-only target raising on `items` is located (refold.verdicts.crashes)."""
    return next(
        Raised(k) for k in range(1, len(items) + 1) if isinstance(_outcome(name, items[:k]), Raised)
    )


def _failure(diagnosis: list[dict[str, Any]] | None) -> ConformanceFailure:
    items = CHAT_DEFECTS["sum_usage"][0]
    return ConformanceFailure(
        ("USAGE-LAST",),
        "the fold differs",
        chunks=items,
        differences=[Difference("/usage/total_tokens", 5, 10)],
        expected={"usage": 5},
        received={"usage": 10},
        compared_fold=True,
        diagnosis=diagnosis,
    )  # type: ignore[arg-type]


_SUMS = [{"name": "sums usage across chunks", "libraries": ["langchain-core 1.8.3"]}]


def test_the_message_names_the_matching_policy_and_its_libraries() -> None:
    lines = str(_failure(_SUMS)).splitlines()
    assert lines[1] == (
        "  diagnosis: the output matches policy *sums usage across chunks*, "
        "as langchain-core 1.8.3 does"
    )
    assert "  diagnosis: no known policy" in str(_failure([])).splitlines()
    assert "diagnosis" not in str(_failure(None))


def test_the_diagnosis_round_trips_through_the_record_and_the_replay_file(tmp_path: Path) -> None:
    record = decode_failure(encode_failure(_failure(_SUMS)))
    assert record is not None and record["diagnosis"] == _SUMS
    none = decode_failure(encode_failure(_failure([])))
    assert none is not None and none["diagnosis"] == []
    undiagnosed = decode_failure(encode_failure(_failure(None)))
    assert undiagnosed is not None and "diagnosis" not in undiagnosed
    older = json.dumps({"message": "USAGE-LAST (usage): differs", "chunks": None})
    assert diagnosis_of_record(decode_failure(older)) is None  # written before diagnoses
    edited = {"diagnosis": [{"name": "x", "libraries": "a"}, 3]}  # a hand edit
    assert diagnosis_of_record(edited) == [{"name": "x", "libraries": []}]
    path = write_replay(
        tmp_path,
        _failure(_SUMS),
        target="t.py",
        test={"module": "test_rule_examples_usage.py", "name": "t"},
        hypothesis={},
    )
    assert read_replay(path)["diagnosis"] == _SUMS


def _results(diagnosis: Any) -> dict[str, Any]:
    failure: dict[str, Any] = {
        "message": "USAGE-LAST (usage): differs",
        "chunks": [{}],
        "expected": None,
        "received": None,
        "pointer": "/usage",
    }
    if diagnosis is not None:
        failure["diagnosis"] = diagnosis
    return {
        "target": {"name": "t", "description": "", "features": ["text", "usage"]},
        "rules": {
            "USAGE-LAST": {
                "feature": "usage",
                "registry": "spec",
                "statement": "s",
                "status": "failed",
                "tests": 1,
                "reason": "differs",
                "failure": failure,
                "blocked_by": [],
                "fingerprints": [],
                "verdict": None,
            }
        },
        "totals": {"failed": 1},
    }


_HOSTILE = [{"name": "<script>alert(1)</script> | *x*", "libraries": ["a&b <lib>"]}]


def test_every_report_renders_the_diagnosis_escaped() -> None:
    html = render_html(_results(_HOSTILE))
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "a&amp;b &lt;lib&gt;" in html
    markdown = render_markdown(_results(_HOSTILE))
    assert "<script>" not in markdown and "diagnosis" in markdown
    junit = render_junit(_results(_HOSTILE))
    assert "<script>" not in junit and "&lt;script&gt;" in junit
    assert "matches policy *sums usage across chunks*, as langchain-core 1.8.3 does" in render_html(
        _results(_SUMS)
    ) and "matches policy" in render_junit(_results(_SUMS))
    assert r"matches policy \*sums usage across chunks\*" in render_markdown(_results(_SUMS))
    for render in (render_html, render_markdown, render_junit):
        assert "no known policy" in render(_results([]))
        assert "diagnosis" not in render(_results(None))  # a record written before diagnoses


def test_docs_list_the_catalogue_as_registered() -> None:
    page = (Path(__file__).resolve().parents[3] / "docs" / "policies.md").read_text(
        encoding="utf-8"
    )
    assert catalogue_markdown((d.name, d.policies) for d in DIALECTS.values()) in page


def test_a_check_of_sum_usage_names_its_policy_in_the_summary_and_the_results(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "refold.cli",
            "check",
            "--target",
            str(_BROKEN / "sum_usage.py"),
            "--in-process",
            "--profile",
            "dev",
            "--report",
            "results.json",
            "--",
            "-k",
            "cumulative_usage_on_every_chunk",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-3000:]
    row = done.stdout.splitlines().index(
        next(line for line in done.stdout.splitlines() if line.startswith("  USAGE-LAST "))
    )
    assert done.stdout.splitlines()[row + 1].strip() == (
        "diagnosis: matches policy *sums usage across chunks*, as langchain-core 1.8.3 does"
    )
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert results["rules"]["USAGE-LAST"]["failure"]["diagnosis"] == _SUMS


def test_a_stream_several_policies_explain_names_them_all() -> None:
    # One re-sent whole call: merging every fragment of an index and appending re-sent
    # arguments both double it; the stream cannot tell them apart, so both are named.
    items = _chat(_call("call_1", "a", '{"x": 1}'), _call("call_1", None, '{"x": 1}'), _STOP)
    received = _outcome("no_resend_detection", items)
    assert _diagnosed("openai-chat", items, received) == [
        "merge_calls_sharing_index",
        "no_resend_detection",
    ]
    found = records(diagnose(DIALECTS["openai-chat"], items, received))
    assert diagnosis_text(found) == (
        "matches 2 policies: *merges calls that share an index*, as litellm 1.110.2 does; "
        "*appends re-sent arguments*, as litellm 1.110.2, AI SDK and @ai-sdk/openai do"
    )


def _strategy(dialect: str) -> Any:
    from hypothesis import strategies as st

    from refold.strategies import anthropic, gemini, responses
    from refold.strategies.chat import chunk_streams

    if dialect == "openai-chat":
        sys.path.append(str(_BROKEN))
        from _chat_fold import FEATURES  # the broken chat examples claim these

        return chunk_streams(features=frozenset(FEATURES))
    if dialect == "gemini-generate-content":
        # damaged streams send a finish reason once per candidate: runs of lifecycle chunks
        # (objects only) send it again, as a repeated finish reason needs
        chunks = gemini.lifecycle_chunks().filter(lambda chunk: isinstance(chunk, dict))
        return gemini.chunk_streams() | st.lists(chunks, min_size=1, max_size=6)
    if dialect == "anthropic-messages":
        # a thinking block's signature is sent once (the docs' shape): a second
        # signature_delta (AQ10, AM-THINK-SIGNATURE's [ext] case) is what a fold that
        # concatenates them needs, and no split or damage draws it often enough
        thinking = anthropic.round_trips(features=frozenset({"text", "thinking"}))
        return anthropic.event_streams() | thinking.map(lambda trip: _resigned(trip[1]))
    return responses.event_streams()


def _resigned(events: list[JSON]) -> list[JSON]:
    """`events` with an earlier signature_delta sent before each one (the last wins)."""
    out: list[JSON] = []
    for event in events:
        delta = event.get("delta") if isinstance(event, dict) else None
        if isinstance(delta, dict) and delta.get("type") == "signature_delta":
            out.append({**event, "delta": {"type": "signature_delta", "signature": "sig-early"}})
        out.append(event)
    return out


_EVERY_POLICY = [(d.name, p.example) for d in DIALECTS.values() for p in d.policies]


@pytest.mark.nightly
@pytest.mark.parametrize(("dialect", "name"), _EVERY_POLICY, ids=[n for _, n in _EVERY_POLICY])
def test_a_shrunk_stream_a_broken_fold_fails_on_is_diagnosed_with_its_policy(
    dialect: str, name: str
) -> None:
    """As the harness meets them: Hypothesis finds and shrinks a stream the example folds
    unlike the reference; its diagnosis names its policy (with others the shrunk stream
    cannot tell apart from it, as a lone re-sent call)."""
    from hypothesis import HealthCheck, find, settings

    def departs(items: list[JSON]) -> bool:
        folded = _outcome(name, items)
        return isinstance(folded, Raised) or bool(
            DIALECTS[dialect].differences(DIALECTS[dialect].fold(copy.deepcopy(items)), folded)
        )

    items = find(
        _strategy(dialect),
        departs,
        settings=settings(
            max_examples=5000, database=None, deadline=None, suppress_health_check=list(HealthCheck)
        ),
    )
    received = _outcome(name, items)
    if isinstance(received, Raised) and received.at is not None:
        received = _shortest_raising_prefix(name, items)
    assert name in _diagnosed(dialect, items, received), items


def test_a_failure_is_matched_at_its_own_rules_places_when_the_target_departs_twice() -> None:
    # langchain-openai sums usage and also drops the envelope's id: a failed test of
    # USAGE-LAST is the summing policy's, one of ENV-ID no known policy's, and one of both
    # rules is matched only by a policy that explains both places
    from types import SimpleNamespace

    from refold.reference.chat import fold
    from refold.verdicts.diagnosis import diagnosis_of

    items = CHAT_DEFECTS["sum_usage"][0]
    received = fold(copy.deepcopy(items))
    received["usage"] = {key: 2 * value for key, value in received["usage"].items()}
    del received["id"]
    target: Any = SimpleNamespace(projection=None)  # all the diagnosis reads of a target

    def diagnosed(rules: tuple[str, ...]) -> list[Any] | None:
        return diagnosis_of(
            ConformanceFailure(
                rules, "the fold differs", chunks=items, received=received, compared_fold=True
            ),
            target,
        )

    assert diagnosed(("USAGE-LAST",)) == _SUMS
    assert diagnosed(("ENV-ID",)) == []
    assert diagnosed(("USAGE-LAST", "ENV-ID")) == []
