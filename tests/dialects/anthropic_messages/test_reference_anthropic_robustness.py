"""Robustness and wire decoding of the Anthropic Messages fold.

One hand-written example per AM rule; `RULES_CHECKED` names the rules each test checks.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from refold.reference.anthropic import (
    EventDataError,
    MessageStreamDecoder,
    decode_stream,
    fold,
)

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_pings_anywhere_change_nothing": ("AM-PING",),
    "test_unknown_and_blank_event_types_change_nothing": ("AM-UNKNOWN-EVENT",),
    "test_an_unknown_delta_changes_nothing_and_the_block_keeps_folding": ("AM-UNKNOWN-DELTA",),
    "test_an_unknown_block_is_kept_as_sent_at_its_index": ("AM-UNKNOWN-BLOCK", "AM-RESULT-AS-SENT"),
    "test_envelope_keys_are_ignored_and_object_keys_are_kept": ("AM-UNKNOWN-KEYS",),
    "test_wrong_types_are_absent_and_never_raise": ("AM-ROB-WRONG-TYPE",),
    "test_the_data_type_decides_and_data_only_frames_decode": ("AM-SSE-TYPE",),
    "test_data_without_a_type_is_an_unknown_event": ("AM-SSE-TYPE", "AM-UNKNOWN-EVENT"),
    "test_empty_data_frames_are_skipped_and_ping_and_error_pass_through": ("AM-SSE-EMPTY",),
    "test_data_that_is_not_json_is_refused_with_its_line": ("AM-SSE-TYPE",),
    "test_data_of_whitespace_json_does_not_allow_is_not_empty_but_not_json": ("AM-SSE-EMPTY",),
}


def start(**message: Any) -> dict[str, Any]:
    return {
        "type": "message_start",
        "message": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            **message,
        },
    }


def block(index: int, **content_block: Any) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": content_block}


def text(index: int, value: str) -> dict[str, Any]:
    return {
        "type": "content_block_delta",
        "index": index,
        "delta": {"type": "text_delta", "text": value},
    }


STOP = {"type": "message_stop"}
BASIC = [
    start(usage={"input_tokens": 25, "output_tokens": 1}),
    block(0, type="text", text=""),
    text(0, "Hello"),
    text(0, "!"),
    {"type": "content_block_stop", "index": 0},
    {
        "type": "message_delta",
        "delta": {"stop_reason": "end_turn", "stop_sequence": None},
        "usage": {"output_tokens": 15},
    },
    STOP,
]


def frames(events: list[Any], *, named: bool = True) -> bytes:
    out = []
    for event in events:
        name = f"event: {event.get('type')}\n" if named else ""
        out.append(f"{name}data: {json.dumps(event)}\n\n")
    return "".join(out).encode()


def test_pings_anywhere_change_nothing() -> None:
    ping = {"type": "ping"}
    noisy = [ping, BASIC[0], ping, BASIC[1], ping, *BASIC[2:4], ping, *BASIC[4:], ping]
    assert fold(noisy) == fold(BASIC)


def test_unknown_and_blank_event_types_change_nothing() -> None:
    vertex = {"type": "vertex_event", "usage": {"input_tokens": 999}}
    unknown = [
        vertex,
        {"type": None, "message": {"id": "x"}},
        {"type": " "},
        {},
        {"type": 5, "delta": {"stop_reason": "x"}},
    ]
    assert fold([unknown[0], BASIC[0], *unknown, *BASIC[1:]]) == fold(BASIC)


def test_an_unknown_delta_changes_nothing_and_the_block_keeps_folding() -> None:
    events = [
        start(),
        block(0, type="text", text=""),
        text(0, "a"),
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "compaction_delta", "text": "x", "content": "y"},
        },
        {"type": "content_block_delta", "index": 0, "delta": {"text": "no type"}},
        text(0, "b"),
    ]
    assert fold(events)["content"] == [{"type": "text", "text": "ab"}]


def test_an_unknown_block_is_kept_as_sent_at_its_index() -> None:
    compaction = {"type": "compaction", "content": "summary", "x": None}
    blank = {"type": "", "data": 1}
    content = fold(
        [
            start(),
            block(0, type="text", text="a"),
            block(1, **compaction),
            {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "compaction_delta", "content": "more"},
            },
            block(2, **blank),
            block(3, type="text", text="b"),
        ]
    )["content"]
    assert content == [
        {"type": "text", "text": "a"},
        compaction,
        blank,
        {"type": "text", "text": "b"},
    ]


def test_envelope_keys_are_ignored_and_object_keys_are_kept() -> None:
    events = [
        {**BASIC[0], "x_envelope": 1, "message": {**BASIC[0]["message"], "x_msg": 2}},
        {**BASIC[1], "x_envelope": 1, "content_block": {"type": "text", "text": "", "x_block": 3}},
        {**BASIC[2], "x_envelope": 1, "usage": {"output_tokens": 5}},
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "citations_delta", "citation": {"type": "char_location", "x_cit": 4}},
        },
        BASIC[3],
        BASIC[4],
        {**BASIC[5], "x_envelope": 1, "stop_reason": "x"},
        {
            "type": "message_stop",
            "amazon-bedrock-invocationMetrics": {"inputTokenCount": 25, "outputTokenCount": 15},
        },
    ]
    message = fold(events)
    assert message["x_msg"] == 2 and "x_envelope" not in message
    assert message["content"] == [
        {
            "type": "text",
            "text": "Hello!",
            "x_block": 3,
            "citations": [{"type": "char_location", "x_cit": 4}],
        }
    ]
    assert message["usage"] == {"input_tokens": 25, "output_tokens": 15}
    assert message["stop_reason"] == "end_turn"


def test_wrong_types_are_absent_and_never_raise() -> None:
    events = [
        start(content="none", usage={"input_tokens": 1}),
        block(0, type="text", text=""),
        {"type": "content_block_delta", "index": 0, "delta": None},
        {"type": "content_block_delta", "index": 0, "delta": "text"},
        {"type": "content_block_delta", "index": 0, "delta": {"type": 3, "text": "x"}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": None}},
        {"type": "content_block_stop", "index": "0"},
        {"type": "message_delta", "delta": None, "usage": {"output_tokens": "15"}},
        {"type": "message_delta", "delta": [], "usage": []},
        {"type": "message_stop", "x": None},
    ]
    message = fold(events)
    assert message["content"] == [{"type": "text", "text": ""}]
    assert message["usage"] == {"input_tokens": 1} and message["stop_reason"] is None


@pytest.mark.parametrize("named", [True, False])
def test_the_data_type_decides_and_data_only_frames_decode(named: bool) -> None:
    wire = frames(BASIC, named=named)
    pieces = [wire[i : i + 7] for i in range(0, len(wire), 7)]
    assert decode_stream(pieces) == BASIC
    mislabeled = b"event: ping\ndata: " + json.dumps(BASIC[0]).encode() + b"\n\n"
    assert fold([*decode_stream([mislabeled]), STOP]) == fold([BASIC[0], STOP])


def test_data_without_a_type_is_an_unknown_event() -> None:
    wire = frames(BASIC[:1]) + b'event: message_stop\ndata: {"kind": "message_stop"}\n\n'
    decoder = MessageStreamDecoder()
    events = decoder.feed(wire) + decoder.close()
    assert events[1] == {"kind": "message_stop"}
    assert fold(events) == fold(BASIC[:1])


def test_empty_data_frames_are_skipped_and_ping_and_error_pass_through() -> None:
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    wire = b"event: ping\n\nevent: message_start\ndata:\n\ndata:  \n\n" + frames(
        [{"type": "ping"}, BASIC[0], error]
    )
    assert decode_stream([wire]) == [{"type": "ping"}, BASIC[0], error]


def test_data_that_is_not_json_is_refused_with_its_line() -> None:
    wire = frames([BASIC[0]]) + b"event: message_stop\ndata: {not json\n\n"
    with pytest.raises(EventDataError, match=r"line 4: event data is not JSON") as raised:
        decode_stream([wire])
    assert raised.value.line == 4 and raised.value.data == "{not json"
    message = str(raised.value)
    assert "received '{not json'" in message, message  # what was received, and why not JSON
    assert "(Expecting property name enclosed in double quotes" in message, message


@pytest.mark.parametrize("data", ["\x0c", "\u00a0", " \u2028\t"])
def test_data_of_whitespace_json_does_not_allow_is_not_empty_but_not_json(data: str) -> None:
    # AM-SSE-EMPTY skips empty data (JSON whitespace only); a form feed, a no-break space
    # or a line separator is data that is not JSON, which the decoder refuses
    wire = frames([BASIC[0]]) + f"data: {data}\n\n".encode()
    with pytest.raises(EventDataError, match=r"line 4: event data is not JSON"):
        decode_stream([wire])
