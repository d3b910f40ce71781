"""Each broken Anthropic accumulator of `examples/broken/` has its one defect, shown by
hand against the reference fold, without the harness.

For every `anthropic_*.py` module: the streams of `DEFECTS` fold differently from
`refold.reference.anthropic.fold`, the rules of their differences' pointers (`rules_at`)
include one of the module's expected rules, and together the streams reach all of them
(a defect decided by rules that own no pointer, `POINTERLESS`, is shown by its behaviour:
a raise, or what its SSE decoder hands out); and every lossless stream drawn from the
split families that cannot show the defect folds exactly like the reference, so the
defect is the only one. `EXPECTED_FAILURES` is the table the suites will be held to:
each module fails exactly these AM rules.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from refold.dialects.anthropic_messages.attribution import POINTERLESS, rules_at
from refold.reference import JSON, JSONObject
from refold.reference.anthropic import (
    FEATURES,
    RULES,
    decode_stream,
    differences,
    fold,
)
from refold.strategies.anthropic import event_name, families_for, round_trips, sse_bytes

_BROKEN = Path(__file__).resolve().parents[3] / "examples" / "broken"

EXPECTED_FAILURES: dict[str, frozenset[str]] = {
    "anthropic_null_stop_reason_erases": frozenset({"AM-STOP-REASON", "AM-STOP-SEQUENCE"}),
    "anthropic_sums_message_delta_usage": frozenset({"AM-USAGE-NEVER-SUM", "AM-USAGE-REPLACE"}),
    "anthropic_drops_start_text": frozenset({"AM-TEXT-JOIN"}),
    "anthropic_replaces_message_id": frozenset({"AM-START-BASE"}),
    "anthropic_merges_text_blocks": frozenset(
        {"AM-BLOCK-OPEN", "AM-TEXT-JOIN", "AM-CITATIONS-APPEND"}
    ),
    "anthropic_stop_sequence_as_end_turn": frozenset({"AM-STOP-REASON", "AM-STOP-SEQUENCE"}),
    "anthropic_crash_without_usage": frozenset({"AM-USAGE-ABSENT"}),
    # the start's input kept when no fragment parsed alone breaks AM-TOOL-NO-DELTA too
    "anthropic_parses_each_fragment": frozenset(
        {"AM-TOOL-JOIN", "AM-TOOL-INVALID", "AM-SERVER-TOOL", "AM-TOOL-NO-DELTA"}
    ),
    # AM-RESULT-AS-SENT names unknown types among the blocks output exactly as started
    "anthropic_drops_unknown_blocks": frozenset({"AM-UNKNOWN-BLOCK", "AM-RESULT-AS-SENT"}),
    "anthropic_concatenates_signatures": frozenset({"AM-THINK-SIGNATURE"}),
    "anthropic_ping_before_start_raises": frozenset(
        {"AM-BEFORE-START", "AM-PING", "AM-UNKNOWN-EVENT"}
    ),
    "anthropic_routes_by_position": frozenset(
        {"AM-BLOCK-ORDER", "AM-BLOCK-REOPEN", "AM-DELTA-ROUTE"}
    ),
    "anthropic_drops_frames_without_event": frozenset({"AM-SSE-TYPE"}),
}
"""Each broken Anthropic accumulator and the AM rules its defect breaks (README table)."""

_ALL = frozenset(FEATURES)
_STOP: JSONObject = {"type": "message_stop"}
_CITATION: JSONObject = {
    "type": "char_location",
    "cited_text": "Two",
    "document_index": 0,
    "start_char_index": 0,
    "end_char_index": 3,
}


def _load(name: str) -> ModuleType:
    # Each example subclasses the base fold next to it (_anthropic_fold.py), which a file
    # target may import: the harness puts a target file's folder last on sys.path.
    if str(_BROKEN) not in sys.path:
        sys.path.append(str(_BROKEN))
    spec = importlib.util.spec_from_file_location(f"broken_{name}", _BROKEN / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _target(name: str) -> dict[str, Any]:
    target: dict[str, Any] = _load(name).refold_target
    return target


def _fold(name: str, events: list[JSON]) -> JSONObject:
    accumulator = _target(name)["factory"]()
    for event in copy.deepcopy(events):
        accumulator.add(event)
    message: JSONObject = accumulator.response()
    return message


# Hand-written streams, in Anthropic's own shape unless a defect needs otherwise.


def _start(usage: JSONObject | None = None) -> JSONObject:
    message: JSONObject = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
    }
    if usage is not None:
        message["usage"] = usage
    return {"type": "message_start", "message": message}


def _block(index: int, start: JSONObject, *deltas: JSONObject) -> list[JSONObject]:
    return [
        {"type": "content_block_start", "index": index, "content_block": start},
        *({"type": "content_block_delta", "index": index, "delta": d} for d in deltas),
        {"type": "content_block_stop", "index": index},
    ]


def _text(index: int, *texts: str, start: str = "") -> list[JSONObject]:
    return _block(
        index, {"type": "text", "text": start}, *({"type": "text_delta", "text": t} for t in texts)
    )


def _tool(index: int, *fragments: str, kind: str = "tool_use") -> list[JSONObject]:
    return _block(
        index,
        {"type": kind, "id": f"toolu_{index}", "name": "weather", "input": {}},
        *({"type": "input_json_delta", "partial_json": f} for f in fragments),
    )


def _thinking(index: int, *signatures: str) -> list[JSONObject]:
    return _block(
        index,
        {"type": "thinking", "thinking": ""},
        {"type": "thinking_delta", "thinking": "Let me see."},
        *({"type": "signature_delta", "signature": s} for s in signatures),
    )


def _end(
    reason: str | None = "end_turn", sequence: str | None = None, usage: JSONObject | None = None
) -> JSONObject:
    event: JSONObject = {
        "type": "message_delta",
        "delta": {"stop_reason": reason, "stop_sequence": sequence},
    }
    if usage is not None:
        event["usage"] = usage
    return event


def _plain(
    *blocks: list[JSONObject], start_usage: JSONObject | None = None, end: JSONObject | None = None
) -> list[JSONObject]:
    usage = {"input_tokens": 10} if start_usage is None else start_usage
    last = _end(usage={"output_tokens": 15}) if end is None else end
    return [_start(usage), *(e for block in blocks for e in block), last, _STOP]


PLAIN = _plain(
    _text(0, "Hello", " there"), _thinking(1, "sig_1"), _tool(2, "", '{"city": "Paris"}')
)
"""A stream no defect shows in (message_start's usage has no provisional output_tokens,
so summing cannot show either)."""

DEFECTS: dict[str, list[list[JSONObject]]] = {
    "anthropic_null_stop_reason_erases": [
        [*PLAIN[:-1], _end(None), _STOP],
        [*_plain(_text(0, "Done"), end=_end("stop_sequence", "END"))[:-1], _end(None), _STOP],
    ],
    "anthropic_sums_message_delta_usage": [
        _plain(
            _text(0, "Hi"),
            start_usage={"input_tokens": 10, "output_tokens": 1},
            end=_end(usage={"input_tokens": 10, "output_tokens": 15}),
        ),
    ],
    "anthropic_drops_start_text": [_plain(_text(0, " is 42.", start="The answer"))],
    "anthropic_replaces_message_id": [PLAIN],
    "anthropic_merges_text_blocks": [
        _plain(_text(0, "One."), _tool(1, "{}"), _text(2, "Two.")),
        _plain(
            _text(0, "One."),
            _block(
                1,
                {"type": "text", "text": ""},
                {"type": "text_delta", "text": "Two."},
                {"type": "citations_delta", "citation": _CITATION},
            ),
        ),
    ],
    "anthropic_stop_sequence_as_end_turn": [
        _plain(_text(0, "Count: 1, 2"), end=_end("stop_sequence", ", 3")),
    ],
    "anthropic_parses_each_fragment": [
        _plain(_tool(0, "", '{"city": ', '"Paris"}')),
        _plain(_tool(0, '{"query": "w', 'eather"}', kind="server_tool_use")),
        _plain(_tool(0, '{"poem": "Roses are red'), end=_end("max_tokens")),
    ],
    "anthropic_drops_unknown_blocks": [
        _plain(
            _text(0, "Before"), _block(1, {"type": "x_block_future", "n": 1}), _text(2, "after")
        ),
    ],
    "anthropic_concatenates_signatures": [_plain(_thinking(0, "sig_a", "sig_b"))],
    "anthropic_routes_by_position": [
        _plain(_text(1, "Hi")),  # exp C: the first block at index 1
        _plain(_text(0, "Hi"), _block(0, {"type": "thinking", "thinking": ""})),  # a re-open
        _plain(_tool(1, "{}"), _text(0, "Hi")),  # started out of order
    ],
}
"""Streams that show each pointer-visible defect."""

_POINTERLESS_CASES = {
    "anthropic_crash_without_usage",
    "anthropic_ping_before_start_raises",
    "anthropic_drops_frames_without_event",
}


def test_the_table_names_every_anthropic_module_with_its_declared_rules() -> None:
    modules = {path.stem for path in _BROKEN.glob("anthropic_*.py")}
    assert modules == set(EXPECTED_FAILURES)
    assert set(DEFECTS) | _POINTERLESS_CASES == modules
    unknown = {rule for rules in EXPECTED_FAILURES.values() for rule in rules} - set(RULES)
    assert not unknown, f"rules the spec does not have: {sorted(unknown)}"


@pytest.mark.parametrize("name", sorted(EXPECTED_FAILURES))
def test_each_module_declares_an_anthropic_target_and_cites_its_rules(name: str) -> None:
    module = _load(name)
    target = module.refold_target
    assert target["dialect"] == "anthropic-messages" and target["name"] == name
    features = set(target["features"])
    assert features <= _ALL and "text" in features
    accumulator = target["factory"]()
    assert accumulator.finished is False and accumulator.error is None  # lifecycle
    assert ("sse" in features) == callable(target.get("sse"))
    doc = module.__doc__ or ""
    breaks = next(line for line in doc.splitlines() if line.startswith("Breaks: "))
    assert set(breaks.removeprefix("Breaks: ").rstrip(".").split(", ")) == EXPECTED_FAILURES[name]
    assert "AQ" in doc, f"{name} cites no quirk of anthropic-fold.md"
    claimed = {RULES[rule].feature for rule in EXPECTED_FAILURES[name]}
    assert claimed <= features, f"{name} breaks rules of features it does not claim"


@pytest.mark.parametrize("name", sorted(DEFECTS))
def test_a_defect_stream_departs_from_the_reference_on_the_modules_rules(
    name: str,
) -> None:
    expected = EXPECTED_FAILURES[name]
    reached: set[str] = set()
    for events in DEFECTS[name]:
        found = differences(fold(events), _fold(name, events))
        assert found, f"{name}: folds {events} like the reference"
        # A block moved or merged away differs key by key; the failure is charged to
        # the union of its differences' rules, as the harness charges it.
        rules = frozenset().union(*(rules_at(d.pointer) for d in found))
        assert rules & expected, f"{name}: differences {found} implicate only {sorted(rules)}"
        reached |= rules & expected
    assert reached == expected, f"{name}: no stream departs on {sorted(expected - reached)}"


def test_crash_without_usage_raises_where_the_reference_folds_no_usage() -> None:
    name = "anthropic_crash_without_usage"
    without = [_start(), *_text(0, "Hm."), _end(), _STOP]  # the docs' thinking example
    assert "usage" not in fold(without) and "AM-USAGE-ABSENT" in rules_at("/usage")
    late = [_start({"input_tokens": 3}), *_text(0, "Hm."), _end(), _STOP]  # exp F
    assert fold(late)["usage"] == {"input_tokens": 3}
    for events in (without, late):
        with pytest.raises(AttributeError, match="output_tokens"):
            _fold(name, events)


def test_ping_before_start_raises_and_changes_nothing_else() -> None:
    name = "anthropic_ping_before_start_raises"
    assert EXPECTED_FAILURES[name] <= POINTERLESS
    firsts = (
        {"type": "ping"},  # AM-PING, AM-BEFORE-START
        {"type": "vertex_event", "usage": {"input_tokens": 1}},  # AM-UNKNOWN-EVENT
        {"type": "content_block_stop", "index": 0},
    )  # AM-BEFORE-START
    for first in firsts:
        accumulator = _target(name)["factory"]()
        with pytest.raises(RuntimeError, match='before "message_start"'):
            accumulator.add(first)
        for event in copy.deepcopy(PLAIN):
            accumulator.add(event)
        assert differences(fold([first, *PLAIN]), accumulator.response()) == []


def _frames(events: list[JSONObject], *, named: bool) -> list[bytes]:
    frames = "".join(
        (f"event: {e['type']}\n" if named else "") + f"data: {json.dumps(e)}\n\n" for e in events
    )
    return [frames.encode()]


def test_frames_without_event_decode_to_nothing_while_named_ones_decode() -> None:
    name = "anthropic_drops_frames_without_event"
    assert EXPECTED_FAILURES[name] <= POINTERLESS
    decode: Callable[[list[bytes]], list[JSON]] = _target(name)["sse"]
    data_only = _frames(PLAIN, named=False)
    assert decode_stream(data_only) == PLAIN
    assert decode(data_only) == []
    assert decode(_frames(PLAIN, named=True)) == PLAIN


def _no_more_text_blocks_than_one(message: JSONObject) -> bool:
    texts: int = sum(block["type"] == "text" for block in message["content"])
    return texts <= 1


_EVERY_FAMILY = families_for(_ALL)
_PLAIN_DRAWS: dict[str, tuple[frozenset[str], frozenset[int], Callable[[JSONObject], bool]]] = {
    "anthropic_null_stop_reason_erases": (_ALL, _EVERY_FAMILY, bool),
    "anthropic_sums_message_delta_usage": (_ALL - {"usage"}, families_for(_ALL - {"usage"}), bool),
    "anthropic_drops_start_text": (_ALL, _EVERY_FAMILY - {2}, bool),
    "anthropic_replaces_message_id": (_ALL, _EVERY_FAMILY, bool),
    "anthropic_merges_text_blocks": (_ALL, _EVERY_FAMILY, _no_more_text_blocks_than_one),
    "anthropic_stop_sequence_as_end_turn": (
        _ALL,
        _EVERY_FAMILY,
        lambda message: message["stop_reason"] != "stop_sequence",
    ),
    "anthropic_crash_without_usage": (_ALL, _EVERY_FAMILY, lambda message: "usage" in message),
    "anthropic_parses_each_fragment": (_ALL, _EVERY_FAMILY - {3}, bool),
    "anthropic_drops_unknown_blocks": (
        _ALL - {"robustness"},
        families_for(_ALL - {"robustness"}),
        bool,
    ),
    "anthropic_concatenates_signatures": (_ALL, _EVERY_FAMILY, bool),
    "anthropic_ping_before_start_raises": (_ALL, _EVERY_FAMILY - {8}, bool),
    "anthropic_routes_by_position": (_ALL, _EVERY_FAMILY, bool),
    "anthropic_drops_frames_without_event": (_ALL, _EVERY_FAMILY, bool),
}
"""For each module: the features and split families of streams that cannot show its
defect, and a filter on the drawn message (`bool`: any message)."""

_IGNORED = {"anthropic_replaces_message_id": "/id"}
"""The one module whose defect shows in every stream: only its own pointer may differ."""


@pytest.mark.parametrize("name", sorted(_PLAIN_DRAWS))
@settings(deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_stream_that_cannot_show_the_defect_folds_like_the_reference(
    name: str,
    data: st.DataObject,
) -> None:
    features, families, wanted = _PLAIN_DRAWS[name]
    message, events = data.draw(round_trips(features=features, families=families))
    assume(wanted(message))
    accumulator = _target(name)["factory"]()
    for event in copy.deepcopy(events):
        accumulator.add(event)
    found = differences(fold(events), accumulator.response())
    assert [d.pointer for d in found] == ([_IGNORED[name]] if name in _IGNORED else [])
    assert accumulator.finished is True and accumulator.error is None


@settings(deadline=None)
@given(data=st.data())
def test_named_frames_decode_like_the_reference(data: st.DataObject) -> None:
    _, drawn = data.draw(round_trips())
    events = [event for event in drawn if event_name(event) is not None]  # blank types
    parts = data.draw(sse_bytes(events, event_lines=True))
    decode = _target("anthropic_drops_frames_without_event")["sse"]
    assert decode(parts) == decode_stream(parts)
