"""The reference adapter for Anthropic Messages events (events.md §4.3), one test per rule.

Every run goes through `_events_helpers.run`, which also asserts the rules every stream
keeps (grammar, Completed last, frame cover and order, conservation, the turn fold).
"""

from __future__ import annotations

from typing import Any

import pytest
from test_reference_events_invariants import error_kind, kinds, of, run, stepwise, turn

from refold.reference.anthropic import fold

ANTHROPIC = "anthropic-messages"


def start(usage: dict[str, Any] | None = None, **message: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "msg_ev",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        **message,
    }
    if usage is not None:
        body["usage"] = usage
    return {"type": "message_start", "message": body}


def block(index: int, content_block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": content_block}


def delta(index: int, **value: Any) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": value}


def text(index: int, piece: str) -> dict[str, Any]:
    return delta(index, type="text_delta", text=piece)


def partial(index: int, piece: str) -> dict[str, Any]:
    return delta(index, type="input_json_delta", partial_json=piece)


def stop(index: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": index}


def message_delta(reason: str | None = "end_turn", **usage: Any) -> dict[str, Any]:
    frame: dict[str, Any] = {
        "type": "message_delta",
        "delta": {"stop_reason": reason, "stop_sequence": None},
    }
    if usage:
        frame["usage"] = usage
    return frame


MESSAGE_STOP = {"type": "message_stop"}
TOOL = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}


def test_message_start_is_the_initial_usage_snapshot_and_message_delta_the_cumulative() -> None:
    # EV-USAGE, EV-USAGE-LAST, EV-USAGE-MONOTONE, NE-30: assigned, never added
    frames = [
        start({"input_tokens": 10, "output_tokens": 1}),
        block(0, {"type": "text", "text": ""}),
        text(0, "Hi"),
        stop(0),
        message_delta(output_tokens=15),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    usages = [e["usage"] for e in of(result["events"], "Usage")]
    assert usages == [
        {
            "input_tokens": 10,
            "output_tokens": 1,
            "cached_input_tokens": None,
            "reasoning_tokens": None,
        },
        {
            "input_tokens": 10,
            "output_tokens": 15,
            "cached_input_tokens": None,
            "reasoning_tokens": None,
        },
    ]
    assert turn(result)["usage"] == usages[-1]


def test_counts_above_the_final_ones_are_reported_as_sent() -> None:
    # EV-USAGE vs EV-USAGE-MONOTONE: message_start's output_tokens is provisional and an
    # earlier message_delta's is replaced (AM-USAGE-NEVER-SUM, AM-USAGE-REPLACE; split
    # family 7); the adapter never invents a count (see the report)
    frames = [
        start({"input_tokens": 0, "output_tokens": 1}),
        {**message_delta(None), "usage": {"output_tokens": 7}},
        message_delta(output_tokens=0),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    assert [e["usage"]["output_tokens"] for e in of(result["events"], "Usage")] == [1, 7, 0]
    assert turn(result)["usage"]["output_tokens"] == 0


def test_cache_buckets_are_added_into_input_and_cache_reads_are_cached() -> None:
    # §4.3 usage mapping (NE-31: OpenAI's convention, cached ⊂ input)
    usage = {
        "input_tokens": 5,
        "cache_creation_input_tokens": 100,
        "cache_read_input_tokens": 1000,
        "output_tokens": 2,
    }
    result = run(ANTHROPIC, [start(usage), message_delta(), MESSAGE_STOP])
    assert turn(result)["usage"] == {
        "input_tokens": 1105,
        "output_tokens": 2,
        "cached_input_tokens": 1000,
        "reasoning_tokens": None,
    }


def test_without_usage_the_turn_has_four_null_counters() -> None:
    # EV-USAGE-UNREPORTED; a message_delta without usage is Opaque
    result = run(ANTHROPIC, [start(), message_delta(), MESSAGE_STOP])
    assert kinds(result["events"]) == ["Opaque", "Opaque", "Opaque", "Completed"]
    assert set(turn(result)["usage"].values()) == {None}


def test_text_deltas_and_a_start_with_text_are_text_verbatim() -> None:
    # EV-TEXT, EV-NO-EMPTY-DELTA, EV-TEXT-CONSERVE, AM-TEXT-JOIN
    frames = [
        start(),
        block(0, {"type": "text", "text": "Pre "}),
        text(0, ""),
        text(0, " it\n"),
        stop(0),
        block(1, {"type": "text", "text": ""}),
        text(1, "two"),
        stop(1),
        message_delta(),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    assert [e["delta"] for e in of(result["events"], "TextDelta")] == ["Pre ", " it\n", "two"]
    assert turn(result)["output_text"] == "Pre  it\ntwo"
    assert kinds(result["events"])[2] == "Opaque"  # the empty text_delta


def test_a_tool_use_block_is_started_streamed_and_completed_at_its_stop() -> None:
    # EV-CALL-STARTED, EV-ARGS-DELTA, EV-ARGS-PARSED, EV-CALL-ROUTE (block index)
    frames = [
        start(),
        block(0, TOOL),
        partial(0, ""),
        partial(0, '{"city": '),
        partial(0, '"Paris"}'),
        stop(0),
        message_delta("tool_use"),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    assert kinds(result["events"]) == [
        "Opaque",
        "ToolCallStarted",
        "Opaque",
        "ToolCallArgumentsDelta",
        "ToolCallArgumentsDelta",
        "ToolCallCompleted",
        "Opaque",
        "Opaque",
        "Completed",
    ]
    completed = of(result["events"], "ToolCallCompleted")[0]
    assert completed["call"] == {
        "id": "toolu_1",
        "name": "get_weather",
        "arguments": {"city": "Paris"},
    }
    assert completed["opaque"] == stop(0)
    assert turn(result)["tool_calls"] == [completed["call"]]


def test_input_on_the_start_with_no_delta_completes_as_sent() -> None:
    # EV-ARGS-OPTIONAL, AM-TOOL-NO-DELTA
    frames = [
        start(),
        block(0, {**TOOL, "input": {"city": "Oslo"}}),
        stop(0),
        message_delta("tool_use"),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    assert not of(result["events"], "ToolCallArgumentsDelta")
    assert turn(result)["tool_calls"][0]["arguments"] == {"city": "Oslo"}


def test_a_tool_use_without_input_completes_with_an_empty_object() -> None:
    # EV-ARGS-EMPTY-OBJECT
    bare = {key: value for key, value in TOOL.items() if key != "input"}
    result = run(ANTHROPIC, [start(), block(0, bare), stop(0), message_delta(), MESSAGE_STOP])
    assert turn(result)["tool_calls"][0]["arguments"] == {}


@pytest.mark.parametrize("pieces", [['{"city": "Par'], ["[1]"], ['{"a":1}', "x"]])
def test_input_that_is_no_object_at_the_stop_fails_the_stream(pieces: list[str]) -> None:
    # EV-ARGS-INVALID (fine-grained tool streaming cut by max_tokens, AM-TOOL-INVALID)
    frames = [
        start(),
        block(0, TOOL),
        *(partial(0, p) for p in pieces),
        stop(0),
        message_delta("max_tokens"),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    assert error_kind(result) == "invalid_tool_arguments"
    assert not of(result["events"], "ToolCallCompleted")
    assert kinds(result["events"])[-1] == "Opaque"  # the stop frame is still covered


def test_input_after_the_blocks_stop_is_inconsistent() -> None:
    # EV-NO-DELTA-AFTER-COMPLETED (AM-BLOCK-STOP would still apply it to the Message)
    frames = [
        start(),
        block(0, TOOL),
        partial(0, "{}"),
        stop(0),
        partial(0, " "),
        message_delta(),
        MESSAGE_STOP,
    ]
    assert error_kind(run(ANTHROPIC, frames)) == "inconsistent_tool_arguments"


@pytest.mark.parametrize(
    "frames",
    [
        [start(), block(0, TOOL), stop(0), block(1, TOOL), stop(1), MESSAGE_STOP],
        [start(content=[TOOL, TOOL]), MESSAGE_STOP],
    ],
)  # found by the split property
def test_a_tool_use_block_reusing_an_id_fails_unsupported(frames: list[Any]) -> None:
    # EV-IDS-SINGLE-USE
    result = run(ANTHROPIC, frames)
    assert error_kind(result) == "unsupported"
    assert len(of(result["events"], "ToolCallStarted")) == 1


@pytest.mark.parametrize(
    ("reason", "expected"),
    [
        ("end_turn", "end_turn"),
        ("max_tokens", "max_tokens"),
        ("stop_sequence", "stop_sequence"),
        ("tool_use", "tool_use"),
        ("pause_turn", "pause_turn"),
        ("refusal", "refusal"),
        ("model_context_window_exceeded", "other"),
        (None, "other"),
    ],
)
def test_the_stop_reason_maps_to_itself_or_other(reason: str | None, expected: str) -> None:
    # EV-STOP-MAP
    result = run(ANTHROPIC, [start(), message_delta(reason), MESSAGE_STOP])
    assert turn(result)["stop_reason"] == expected


def test_end_turn_with_tool_calls_is_tool_use() -> None:
    # EV-STOP-TOOL
    frames = [start(), block(0, TOOL), stop(0), message_delta("end_turn"), MESSAGE_STOP]
    assert turn(run(ANTHROPIC, frames))["stop_reason"] == "tool_use"


@pytest.mark.parametrize(
    "frames",
    [
        [
            block(0, {"type": "thinking", "thinking": ""}),
            delta(0, type="thinking_delta", thinking="hidden"),
            delta(0, type="signature_delta", signature="sig"),
            stop(0),
        ],
        [block(0, {"type": "redacted_thinking", "data": "enc"}), stop(0)],
        [
            block(0, {"type": "text", "text": ""}),
            delta(0, type="citations_delta", citation={"type": "char_location", "cited_text": "c"}),
            stop(0),
        ],
        [block(0, {"type": "text", "text": ""}), delta(0, type="thinking_delta", thinking="t")],
    ],
)
def test_reasoning_and_citations_are_opaque_never_text(frames: list[Any]) -> None:
    # EV-REASONING-OPAQUE (and AM-DELTA-MATCH: a thinking delta on a text block is nothing)
    result = run(ANTHROPIC, [start(), *frames, message_delta(), MESSAGE_STOP])
    assert set(kinds(result["events"])) == {"Opaque", "Completed"}
    assert turn(result)["output_text"] == ""


def test_server_tools_and_their_results_are_opaque_never_tool_calls() -> None:
    # EV-HOSTED-OPAQUE
    server = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
    result_block = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}
    frames = [
        start(),
        block(0, server),
        partial(0, '{"query": "x"}'),
        stop(0),
        block(1, result_block),
        stop(1),
        message_delta(),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    assert set(kinds(result["events"])) == {"Opaque", "Completed"}
    assert turn(result)["tool_calls"] == []


@pytest.mark.parametrize(
    ("frame", "name"),
    [
        ({"type": "ping"}, "ping"),
        ({"type": "vertex_event", "x": 1}, "vertex_event"),
        ({"no_type": True}, "message"),
        ({"type": ""}, "message"),
        (7, "message"),
        ("text", "message"),
    ],
)
def test_pings_unknown_and_non_object_frames_are_opaque_named_by_type(
    frame: Any, name: str
) -> None:
    # EV-UNKNOWN, EV-OPAQUE-TYPE, EV-OPAQUE-FALLBACK
    result = run(ANTHROPIC, [start(), frame, message_delta(), MESSAGE_STOP])
    assert result["events"][1] == {"type": "Opaque", "event_type": name, "payload": frame}
    assert result["outcome"] == {"outcome": "completed"}


def test_events_before_message_start_are_opaque_and_change_nothing() -> None:
    # AM-BEFORE-START: even a message_stop before the start ends nothing
    frames = [{"type": "ping"}, MESSAGE_STOP, start(), message_delta(), MESSAGE_STOP]
    result = run(ANTHROPIC, frames)
    assert kinds(result["events"]) == ["Opaque"] * 5 + ["Completed"]


def test_an_error_event_is_one_opaque_and_nothing_follows_it() -> None:
    # EV-ERROR-FRAME, EV-NOTHING-AFTER-ERROR, EV-NO-COMPLETED-ON-ERROR
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    frames = [
        start(),
        block(0, {"type": "text", "text": ""}),
        text(0, "a"),
        error,
        text(0, "b"),
        message_delta(),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    assert kinds(result["events"]) == ["Opaque", "Opaque", "TextDelta", "Opaque"]
    assert result["events"][-1] == {"type": "Opaque", "event_type": "error", "payload": error}
    assert error_kind(result) == "provider_error"
    assert stepwise(ANTHROPIC, frames)[4:] == [[], [], [], []]


def test_a_stream_without_message_stop_is_truncated() -> None:
    # EV-TRUNCATED
    frames = [start(), block(0, {"type": "text", "text": ""}), text(0, "cut"), message_delta()]
    result = run(ANTHROPIC, frames)
    assert error_kind(result) == "truncated"
    assert not of(result["events"], "Completed")


def test_an_unstopped_tool_block_completes_before_completed() -> None:
    # EV-STARTED-COMPLETED: message_stop ends the blocks the fold holds
    frames = [start(), block(0, TOOL), partial(0, '{"a": 1}'), message_delta(), MESSAGE_STOP]
    result = run(ANTHROPIC, frames)
    assert kinds(result["events"])[-3:] == ["ToolCallCompleted", "Opaque", "Completed"]


def test_blocks_finished_inside_message_start_are_text_and_completed_calls() -> None:
    # AM-START-CONTENT (split family 9): Usage first, then the blocks in content order
    content = [{"type": "text", "text": "done"}, {**TOOL, "input": {"x": 1}}]
    frames = [
        start({"input_tokens": 3, "output_tokens": 9}, content=content, stop_reason="tool_use"),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    assert kinds(result["events"]) == [
        "Usage",
        "TextDelta",
        "ToolCallStarted",
        "ToolCallCompleted",
        "Opaque",
        "Completed",
    ]
    assert turn(result)["tool_calls"] == [
        {"id": "toolu_1", "name": "get_weather", "arguments": {"x": 1}}
    ]
    assert turn(result)["stop_reason"] == "tool_use"


def test_the_turn_names_provider_model_and_id_and_holds_the_message() -> None:
    # EV-TURN-FIELDS, EV-TURN-OPAQUE, EV-FOLD-AGREES; AM-START-ONCE: a second start is Opaque
    frames = [
        start({"input_tokens": 1}),
        start(id="msg_other", model="x"),
        block(0, {"type": "text", "text": ""}),
        text(0, "Hi"),
        stop(0),
        message_delta(output_tokens=2),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    provider_turn = turn(result)
    assert (provider_turn["provider"], provider_turn["model"], provider_turn["response_id"]) == (
        "anthropic-messages",
        "claude-sonnet-4-5",
        "msg_ev",
    )
    assert provider_turn["opaque"] == fold(frames)
    assert kinds(result["events"])[1] == "Opaque"


def test_message_stop_is_kept_as_opaque_right_before_completed() -> None:
    # EV-FRAME-COVER (Completed has no opaque; see the report), AM-UNKNOWN-KEYS
    metrics = {"type": "message_stop", "amazon-bedrock-invocationMetrics": {"latency": 7}}
    result = run(ANTHROPIC, [start(), message_delta(), metrics])
    assert result["events"][-2:] == [
        {"type": "Opaque", "event_type": "message_stop", "payload": metrics},
        {"type": "Completed", "turn": turn(result)},
    ]


@pytest.mark.parametrize("start_input", [{}, {"city": "Oslo"}])
def test_args_invalid_input_deltas_of_whitespace_alone_whatever_the_start_carried(
    start_input: dict[str, Any],
) -> None:
    # EV-ARGS-INVALID, EV-ARGS-CONSERVE against AM-TOOL-NO-DELTA: only "" is {}; the fold
    # keeps the start's input, but the emitted deltas parse to no object
    frames = [
        start(),
        block(0, {**TOOL, "input": start_input}),
        partial(0, " \n"),
        stop(0),
        message_delta("tool_use"),
        MESSAGE_STOP,
    ]
    result = run(ANTHROPIC, frames)
    assert error_kind(result) == "invalid_tool_arguments"
    assert not of(result["events"], "ToolCallCompleted")
    assert [e["delta"] for e in of(result["events"], "ToolCallArgumentsDelta")] == [" \n"]
