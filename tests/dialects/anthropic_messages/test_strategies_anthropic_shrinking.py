"""Anthropic strategies shrink toward short readable streams, and every family's
characteristic shape is actually drawn."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, find, settings

from refold.reference.anthropic import fold
from refold.strategies.anthropic import event_streams, round_trips

_FIND = settings(
    max_examples=2000,
    database=None,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
_EXISTS = settings(_FIND, phases=[Phase.generate])  # found is enough: no shrinking
_Case = tuple[dict[str, Any], list[dict[str, Any]]]


def _deltas(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [
        e["delta"]
        for e in events
        if e.get("type") == "content_block_delta"
        and isinstance(e.get("delta"), dict)
        and e["delta"].get("type") == kind
    ]


def test_a_failure_shrinks_to_the_shortest_stream_of_one_short_text_block() -> None:
    message, events = find(round_trips(), lambda case: bool(case[0]["content"]), settings=_FIND)
    assert message["content"] == [{"type": "text", "text": ""}]
    # family 1's five events, or family 9's two: the block finished inside message_start,
    # then message_stop (AM-START-CONTENT); which minimum the shrinker ends on depends on
    # where it started
    assert [e["type"] for e in events] in (
        [
            "message_start",
            "content_block_start",
            "content_block_stop",
            "message_delta",
            "message_stop",
        ],
        ["message_start", "message_stop"],
    )


def test_a_tool_block_shrinks_to_empty_input_in_at_most_one_delta() -> None:
    message, events = find(
        round_trips(features={"text", "tool_use"}),
        lambda case: any(b["type"] == "tool_use" for b in case[0]["content"]),
        settings=_FIND,
    )
    assert [b["input"] for b in message["content"]] == [{}]
    # `{}` in one delta, or no delta at all (the start's `{}` stands, AM-TOOL-NO-DELTA):
    # which of the two minimal streams the shrinker ends on depends on where it started
    assert _deltas(events, "input_json_delta") in (
        [],
        [{"type": "input_json_delta", "partial_json": "{}"}],
    )


def test_a_damaged_stream_shrinks_to_the_one_damage_that_matters() -> None:
    events = find(
        event_streams(), lambda evs: any(e.get("type") == "error" for e in evs), settings=_FIND
    )
    assert [e["type"] for e in events] == [
        "message_start",
        "error",
        "message_delta",
        "message_stop",
    ]


def _cut_in_escape(case: _Case) -> bool:
    return any(d["partial_json"].endswith("\\") for d in _deltas(case[1], "input_json_delta"))


def _signature_only(case: _Case) -> bool:
    return any(b["type"] == "thinking" and not b["thinking"] for b in case[0]["content"]) and bool(
        _deltas(case[1], "signature_delta")
    )


def _citation_first(case: _Case) -> bool:
    order = [e["delta"]["type"] for e in case[1] if e.get("type") == "content_block_delta"]
    return order[:1] == ["citations_delta"] and "text_delta" in order


def _several_message_deltas(case: _Case) -> bool:
    return [e.get("type") for e in case[1]].count("message_delta") >= 2


def _finished_on_start(case: _Case) -> bool:
    start = case[1][0] if case[1] else {}
    return start.get("type") == "message_start" and bool(start["message"]["content"])


def _ping_first(case: _Case) -> bool:
    return bool(case[1]) and case[1][0].get("type") == "ping"


def _text_prefix_on_start(case: _Case) -> bool:
    return any(
        e.get("type") == "content_block_start" and e["content_block"].get("text") for e in case[1]
    )


@pytest.mark.parametrize(
    ("family", "shape"),
    [
        (2, _text_prefix_on_start),
        (3, _cut_in_escape),
        (4, _signature_only),
        (5, _citation_first),
        (7, _several_message_deltas),
        (8, _ping_first),
        (9, _finished_on_start),
    ],
)
def test_each_familys_characteristic_shape_is_drawn(family: int, shape: Any) -> None:
    find(round_trips(families={1, family}), shape, settings=_EXISTS)


def _truncated(events: list[dict[str, Any]]) -> bool:
    return all(e.get("type") != "message_stop" for e in events)


def _interleaved(events: list[dict[str, Any]]) -> bool:
    order = [e["index"] for e in events if str(e.get("type")).startswith("content_block_")]
    firsts = list(dict.fromkeys(order))
    return order != sorted(order, key=firsts.index)


def _gap(events: list[dict[str, Any]]) -> bool:
    starts = sorted(
        {
            e["index"]
            for e in events
            if e.get("type") == "content_block_start" and type(e.get("index")) is int
        }
    )
    return bool(starts) and starts != list(range(len(starts)))


def _invalid_input(events: list[dict[str, Any]]) -> bool:
    return any(
        b.get("type") == "tool_use" and isinstance(b.get("input"), str)
        for b in fold(events)["content"]
    )


def _wrong_type(events: list[dict[str, Any]]) -> bool:
    return any(e.get("delta", {}) is None or e.get("message", {}) is None for e in events)


@pytest.mark.parametrize("damage", [_truncated, _interleaved, _gap, _invalid_input, _wrong_type])
def test_each_kind_of_damage_is_drawn(damage: Any) -> None:
    find(event_streams(), damage, settings=_EXISTS)
