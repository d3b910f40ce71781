"""The reference Gemini events mapping, row by row (gemini-fold.md, "Provider-neutral
events"): plain chunks in, the exact events and outcome out. Every run goes through
`run`, which also asserts the invariants of every run and that the event checker finds
nothing wrong with it frame by frame (test_reference_events_invariants).
"""

from __future__ import annotations

from typing import Any

import pytest
from test_reference_events_invariants import error_kind, kinds, of, run, turn

from refold.reference.events import Adapter

GEMINI = "gemini-generate-content"


def chunk(
    *parts: dict[str, Any],
    finish: str | None = None,
    usage: dict[str, Any] | None = None,
    index: int | None = None,
    **envelope: Any,
) -> dict[str, Any]:
    """A chunk whose candidate (0 unless `index`) carries `parts`, as the Gemini API sends."""
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}}
    if finish is not None:
        candidate["finishReason"] = finish
    if index is not None:
        candidate["index"] = index
    found: dict[str, Any] = {
        "candidates": [candidate],
        "modelVersion": "gemini-2.5-flash",
        "responseId": "gemini-response-r1",
        **envelope,
    }
    if usage is not None:
        found["usageMetadata"] = usage
    return found


def call(name: str | None, args: Any = None, call_id: str | None = None, **more: Any) -> Any:
    """A functionCall part (keys left out where None, as proto3 does)."""
    function: dict[str, Any] = dict(more)
    for key, value in (("name", name), ("args", args), ("id", call_id)):
        if value is not None:
            function[key] = value
    return {"functionCall": function}


def _opaque(frame: Any) -> dict[str, Any]:
    return {"type": "Opaque", "event_type": "message", "payload": frame}


def _deltas(result: dict[str, Any], kind: str = "TextDelta") -> list[str]:
    return [event["delta"] for event in of(result["events"], kind)]


def test_answer_text_becomes_one_text_delta_per_part_that_grew() -> None:
    # EV-TEXT, EV-TEXT-CONSERVE: GM-TEXT-JOIN joins the fragments of one chunk into one
    # run, so two fragments of one chunk are one growth of that run
    frames = [
        chunk({"text": "Hel"}),
        chunk({"text": "lo"}, {"text": ", you"}),
        chunk({"text": ""}, finish="STOP"),
    ]
    result = run(GEMINI, frames)
    assert _deltas(result) == ["Hel", "lo, you"]
    assert kinds(result["events"]) == ["TextDelta", "TextDelta", "Opaque", "Completed"]
    assert turn(result)["output_text"] == "Hello, you"
    assert turn(result)["stop_reason"] == "end_turn"


def test_thought_parts_and_signatures_are_never_text() -> None:
    # EV-REASONING-OPAQUE: thought summaries and signatures reach no TextDelta; their
    # chunks yield their Opaque (EV-OPAQUE-FALLBACK), named `message` (EV-OPAQUE-TYPE)
    thinking = chunk({"text": "Let me think", "thought": True})
    signed = chunk({"text": "Hi", "thoughtSignature": "c2ln"})
    closing = chunk({"text": "", "thoughtSignature": "c2ln"}, finish="STOP")
    result = run(GEMINI, [thinking, signed, closing])
    assert result["events"][0] == _opaque(thinking)
    assert _deltas(result) == ["Hi"]
    assert result["events"][2] == _opaque(closing)
    assert turn(result)["output_text"] == "Hi"


def test_a_text_part_with_other_keys_is_public_text_of_its_own_part() -> None:
    # GM-PART-OTHER keeps such a part apart; its text is still answer text (EV-FOLD-AGREES)
    frames = [chunk({"text": "A"}, {"text": "B", "partMetadata": {"k": 1}}, {"text": "C"})]
    result = run(GEMINI, [*frames, chunk(finish="STOP")])
    assert _deltas(result) == ["A", "B", "C"]


def test_a_whole_call_starts_streams_its_arguments_and_completes_in_its_chunk() -> None:
    # EV-CALL-STARTED, EV-ARGS-DELTA, EV-ARGS-PARSED, EV-STOP-TOOL: the Gemini API sends
    # each call whole in one part (GM-CALL-WHOLE), with its id (GM-CALL-ID)
    frame = chunk(call("get_weather", {"city": "Paris", "n": [1, 2.5]}, "g1bmv6il"))
    result = run(GEMINI, [frame, chunk(finish="STOP")])
    assert result["events"][:3] == [
        {"type": "ToolCallStarted", "id": "g1bmv6il", "name": "get_weather", "opaque": frame},
        {
            "type": "ToolCallArgumentsDelta",
            "id": "g1bmv6il",
            "delta": '{"city":"Paris","n":[1,2.5]}',
            "opaque": frame,
        },
        {
            "type": "ToolCallCompleted",
            "call": {
                "id": "g1bmv6il",
                "name": "get_weather",
                "arguments": {"city": "Paris", "n": [1, 2.5]},
            },
            "opaque": frame,
        },
    ]
    assert turn(result)["stop_reason"] == "tool_use"


def test_the_arguments_delta_is_compact_json_with_characters_as_they_are() -> None:
    # EV-ARGS-DELTA, EV-ARGS-CONSERVE: `args` serialised without spaces or \u escapes
    frame = chunk(call("find", {"city": "Zürich", "tags": ["é", 1]}, "c1"), finish="STOP")
    deltas = _deltas(run(GEMINI, [frame]), "ToolCallArgumentsDelta")
    assert deltas == ['{"city":"Zürich","tags":["é",1]}']


@pytest.mark.parametrize("args", [None, {}], ids=["absent", "empty"])
def test_a_call_without_arguments_completes_with_the_empty_object_and_no_delta(
    args: Any,
) -> None:
    # EV-ARGS-OPTIONAL, EV-ARGS-EMPTY-OBJECT, EV-NO-EMPTY-DELTA (GMD-NO-ARGS-CALL)
    part = call("now", args, "c1")
    if args is None:
        part["functionCall"]["args"] = None  # null is absent too (proto3)
    result = run(GEMINI, [chunk(part, finish="STOP")])
    assert kinds(result["events"]) == ["ToolCallStarted", "ToolCallCompleted", "Completed"]
    assert turn(result)["tool_calls"] == [{"id": "c1", "name": "now", "arguments": {}}]


def test_calls_without_an_id_get_their_position_among_the_calls() -> None:
    # decision (ids): Vertex v1 sends no id; `gemini-call-k`, k counting call parts only
    frames = [
        chunk(call("a", {"x": 1}), {"text": "between"}),
        chunk(call("b", {"y": 2}), finish="STOP"),
    ]
    result = run(GEMINI, frames)
    assert [c["id"] for c in turn(result)["tool_calls"]] == ["gemini-call-0", "gemini-call-1"]
    assert [e["id"] for e in of(result["events"], "ToolCallStarted")] == [
        "gemini-call-0",
        "gemini-call-1",
    ]


def _failure(result: dict[str, Any]) -> tuple[str, str]:
    error = result["outcome"]["error"]
    return error["kind"], error["message"]


_NO_NAME = "EV-CALL-STARTED: a function call has no name"
_SHARED = "EV-IDS-SINGLE-USE: two function calls share an id"
_NO_OBJECT = "EV-ARGS-INVALID: a function call's args are not a JSON object"


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        ([call("  ", {"x": 1}, "c1")], ("unsupported", _NO_NAME)),
        ([call("f", None, "c1"), call("g", None, "c1")], ("unsupported", _SHARED)),
        ([call("f", [1, 2], "c1")], ("invalid_tool_arguments", _NO_OBJECT)),
        ([call("f", "{}", "c1")], ("invalid_tool_arguments", _NO_OBJECT)),
    ],
    ids=["blank name", "shared id", "args a list", "args a string"],
)
def test_a_call_that_cannot_complete_ends_the_stream_naming_its_rule(
    parts: list[Any], expected: tuple[str, str]
) -> None:
    # EV-CALL-STARTED, EV-IDS-SINGLE-USE, EV-ARGS-INVALID; nothing after (EV-NOTHING-AFTER-
    # ERROR), not even the failing chunk's own usage
    frames = [chunk(*parts, usage={"promptTokenCount": 1}), chunk({"text": "late"}, finish="STOP")]
    result = run(GEMINI, frames)
    assert _failure(result) == expected
    assert "Completed" not in kinds(result["events"])
    assert "Usage" not in kinds(result["events"])
    assert "TextDelta" not in kinds(result["events"])


def _piece(path: str, **value: Any) -> dict[str, Any]:
    return {"jsonPath": path, **value}


def test_a_streamed_call_starts_and_completes_at_the_chunk_that_ends_it() -> None:
    # decision (streamed calls): Vertex's fragments (GM-CALL-STREAMED) are opaque until
    # the call ends; then Started, the whole built arguments, Completed
    opening = chunk(call("get_weather", None, willContinue=True))
    piece = chunk(
        {
            "functionCall": {
                "partialArgs": [_piece("$.city", stringValue="Bos", willContinue=True)],
                "willContinue": True,
            }
        }
    )
    rest = chunk({"functionCall": {"partialArgs": [_piece("$.city", stringValue="ton")]}})
    result = run(GEMINI, [opening, piece, rest, chunk(finish="STOP")])
    assert result["events"][:2] == [_opaque(opening), _opaque(piece)]
    assert kinds(result["events"])[2:5] == [
        "ToolCallStarted",
        "ToolCallArgumentsDelta",
        "ToolCallCompleted",
    ]
    assert all(event["opaque"] == rest for event in result["events"][2:5])
    assert turn(result)["tool_calls"] == [
        {"id": "gemini-call-0", "name": "get_weather", "arguments": {"city": "Boston"}}
    ]


def test_a_streamed_call_ends_at_the_next_named_call() -> None:
    # GM-CALL-STREAMED: a call with a name ends the open one; both complete in that chunk,
    # the open one first (part order)
    opening = chunk(call("a", None, willContinue=True))
    pieces = chunk({"functionCall": {"partialArgs": [_piece("$.n", numberValue=3)]}})
    pieces["candidates"][0]["content"]["parts"][0]["functionCall"]["willContinue"] = True
    second = chunk(call("b", {"m": True}, "id-b"), finish="STOP")
    result = run(GEMINI, [opening, pieces, second])
    assert [e["name"] for e in of(result["events"], "ToolCallStarted")] == ["a", "b"]
    assert turn(result)["tool_calls"][0]["arguments"] == {"n": 3}


def test_a_streamed_call_still_open_at_the_end_of_a_finished_body_completes_there() -> None:
    # decision (streamed calls): as a Chat call opened after the last finish reason, it
    # completes before Completed, with the last chunk as opaque
    opening = chunk(call("a", {"k": "v"}, willContinue=True), finish="STOP")
    trailing = {"usageMetadata": {"promptTokenCount": 2, "candidatesTokenCount": 1}}
    result = run(GEMINI, [opening, trailing])
    assert kinds(result["events"]) == [
        "Opaque",
        "Usage",
        "ToolCallStarted",
        "ToolCallArgumentsDelta",
        "ToolCallCompleted",
        "Completed",
    ]
    assert result["events"][2]["opaque"] == trailing
    assert turn(result)["stop_reason"] == "tool_use"


def test_a_streamed_call_open_when_a_cut_body_ends_never_completes() -> None:
    # EV-TRUNCATED: no finish reason, so the open call is not judged
    result = run(GEMINI, [chunk(call("a", None, willContinue=True))])
    assert error_kind(result) == "truncated"
    assert "ToolCallStarted" not in kinds(result["events"])


def test_usage_adds_the_disjoint_buckets_and_the_last_one_is_the_turns() -> None:
    # decision (usage): thoughts into output, tool-use prompt into input, cached as is;
    # EV-USAGE-LAST: the trailing usage-only chunk (GMD-TRAILING-USAGE) is the turn's
    early = {"trafficType": "ON_DEMAND"}
    final = {
        "promptTokenCount": 10,
        "toolUsePromptTokenCount": 4,
        "cachedContentTokenCount": 6,
        "candidatesTokenCount": 5,
        "thoughtsTokenCount": 7,
        "totalTokenCount": 26,
    }
    frames = [chunk({"text": "A"}, usage=early), chunk(finish="STOP"), {"usageMetadata": final}]
    result = run(GEMINI, frames)
    usages = [event["usage"] for event in of(result["events"], "Usage")]
    assert usages == [
        {
            "input_tokens": None,
            "output_tokens": None,
            "cached_input_tokens": None,
            "reasoning_tokens": None,
        },
        {
            "input_tokens": 14,
            "output_tokens": 12,
            "cached_input_tokens": 6,
            "reasoning_tokens": 7,
        },
    ]
    assert turn(result)["usage"] == usages[-1]
    assert kinds(result["events"])[-2:] == ["Usage", "Completed"]


def test_usage_of_the_answer_alone_leaves_the_other_counts_unreported() -> None:
    # a count the object omits is not reported; a sum of one reported count is that count
    result = run(GEMINI, [chunk({"text": "A"}, finish="STOP", usage={"candidatesTokenCount": 2})])
    assert turn(result)["usage"] == {
        "input_tokens": None,
        "output_tokens": 2,
        "cached_input_tokens": None,
        "reasoning_tokens": None,
    }


def test_a_stream_without_usage_reports_none() -> None:
    # EV-USAGE-UNREPORTED; a usage that is no object is none (GM-ROB-WRONG-TYPE)
    result = run(GEMINI, [chunk({"text": "A"}, finish="STOP", usage=[1])])  # type: ignore[arg-type]
    assert "Usage" not in kinds(result["events"])
    assert set(turn(result)["usage"].values()) == {None}


@pytest.mark.parametrize(
    ("finish", "stop"),
    [
        ("STOP", "end_turn"),
        ("MAX_TOKENS", "max_tokens"),
        ("SAFETY", "content_filter"),
        ("RECITATION", "content_filter"),
        ("BLOCKLIST", "content_filter"),
        ("PROHIBITED_CONTENT", "content_filter"),
        ("SPII", "content_filter"),
        ("IMAGE_SAFETY", "content_filter"),
        ("IMAGE_PROHIBITED_CONTENT", "content_filter"),
        ("IMAGE_RECITATION", "content_filter"),
        ("MALFORMED_FUNCTION_CALL", "other"),
        ("LANGUAGE", "other"),
        ("OTHER", "other"),
        ("FINISH_REASON_FROM_2027", "other"),
    ],
)
def test_the_finish_reason_maps_to_a_stop_reason(finish: str, stop: str) -> None:
    # EV-STOP-MAP: the table of the spec section; an unmapped value is other
    result = run(GEMINI, [chunk({"text": "A"}, finish=finish)])
    assert turn(result)["stop_reason"] == stop
    assert turn(result)["opaque"]["candidates"][0]["finishReason"] == finish


@pytest.mark.parametrize(
    ("reason", "stop"),
    [("SAFETY", "content_filter"), ("PROHIBITED_CONTENT", "content_filter"), ("OTHER", "other")],
)
def test_a_blocked_prompt_completes_empty_with_the_stop_of_its_block_reason(
    reason: str, stop: str
) -> None:
    # GM-LIFE-FINISHED, GM-CAND-NONE: one chunk, no candidate; EV-STOP-MAP
    frame = {
        "promptFeedback": {"blockReason": reason},
        "usageMetadata": {"promptTokenCount": 8, "totalTokenCount": 8},
        "modelVersion": "gemini-2.5-flash",
    }
    result = run(GEMINI, [frame])
    assert kinds(result["events"]) == ["Usage", "Completed"]
    provider_turn = turn(result)
    assert (provider_turn["output_text"], provider_turn["tool_calls"]) == ("", [])
    assert provider_turn["stop_reason"] == stop
    assert provider_turn["response_id"] is None


def test_an_error_chunk_is_one_opaque_and_ends_the_stream() -> None:
    # EV-ERROR-FRAME, EV-NOTHING-AFTER-ERROR (GM-LIFE-ERROR: the error chunk is terminal)
    error = {"error": {"code": 500, "message": "internal", "status": "INTERNAL"}}
    frames = [chunk({"text": "A"}), error, chunk({"text": "B"}, finish="STOP")]
    result = run(GEMINI, frames)
    assert result["events"][1:] == [_opaque(error)]
    assert _failure(result) == (
        "provider_error",
        "EV-ERROR-FRAME: the provider sent an error chunk",
    )


def test_a_body_cut_before_the_finish_is_truncated() -> None:
    # EV-TRUNCATED: GM-LIFE-FINISHED is the terminal; text already sent stays sent
    result = run(GEMINI, [chunk({"text": "A"}, usage={"candidatesTokenCount": 1})])
    assert kinds(result["events"]) == ["TextDelta", "Usage"]
    assert _failure(result) == (
        "truncated",
        "EV-TRUNCATED: the body ended before the stream's terminal",
    )


def test_an_empty_body_is_truncated() -> None:
    result = run(GEMINI, [])
    assert (result["events"], error_kind(result)) == ([], "truncated")


def test_only_candidate_zero_is_normalised() -> None:
    # EV-CHOICE0 (decision: as for Chat); the turn needs every candidate finished
    one = chunk({"text": "other"}, index=1, finish="STOP")
    zero = chunk({"text": "mine"}, finish="STOP")
    result = run(GEMINI, [one, zero])
    assert result["events"][0] == _opaque(one)
    assert turn(result)["output_text"] == "mine"


def test_a_stream_missing_candidate_zero_completes_empty() -> None:
    result = run(GEMINI, [chunk({"text": "other"}, index=2, finish="MAX_TOKENS")])
    assert (turn(result)["output_text"], turn(result)["stop_reason"]) == ("", "other")


def test_a_value_that_is_no_object_is_opaque_and_never_raises() -> None:
    # EV-UNKNOWN, GM-ROB-NOT-OBJECT: the fold refuses it, the stream goes on
    frames: list[Any] = [[1], chunk({"text": "A"}, finish="STOP")]
    result = run(GEMINI, frames)
    assert result["events"][0] == _opaque([1])
    assert turn(result)["output_text"] == "A"


def test_every_opaque_is_named_message_even_for_a_chunk_with_a_type_key() -> None:
    # EV-OPAQUE-TYPE: Gemini sends no SSE event names; a `type` key is an unknown key
    frame = {"type": "response.created", "modelVersion": "m"}
    result = run(GEMINI, [frame, chunk({"text": "A"}, finish="STOP")])
    assert result["events"][0] == _opaque(frame)


def test_the_turn_names_the_provider_model_id_and_the_folded_response() -> None:
    # EV-TURN-FIELDS, EV-TURN-OPAQUE: modelVersion, responseId (GM-ENV-ID: last non-blank)
    frames = [chunk({"text": "A"}), chunk(finish="STOP", modelVersion="gemini-3", responseId=" ")]
    provider_turn = turn(run(GEMINI, frames))
    assert provider_turn["provider"] == GEMINI
    assert provider_turn["model"] == "gemini-3"
    assert provider_turn["response_id"] == "gemini-response-r1"
    assert provider_turn["opaque"]["candidates"][0]["content"]["parts"] == [{"text": "A"}]


def test_completed_comes_at_the_end_of_the_body_never_at_the_finish_chunk() -> None:
    # decision (Completed at the end of the body): a usage chunk may follow the finish
    frames = [chunk({"text": "A"}, finish="STOP")]
    adapter = Adapter(GEMINI)
    assert kinds(adapter.frame(frames[0])) == ["TextDelta"]
    ending = adapter.end()
    assert (ending["outcome"], kinds(ending["events"])) == ("completed", ["Completed"])


@pytest.mark.parametrize(
    ("opening", "expected"),
    [
        (call("a", [1], willContinue=True), ("invalid_tool_arguments", _NO_OBJECT)),
        ({"functionCall": {"willContinue": True}}, ("unsupported", _NO_NAME)),
    ],
    ids=["args a list", "no name"],
)
def test_a_streamed_call_open_at_the_end_that_cannot_complete_fails_there(
    opening: dict[str, Any], expected: tuple[str, str]
) -> None:
    # decision (streamed calls): judged at the end of the body like any final call, so
    # no Completed follows (EV-NO-COMPLETED-ON-ERROR)
    result = run(GEMINI, [chunk(opening, finish="STOP")])
    assert _failure(result) == expected
    assert kinds(result["events"]) == ["Opaque"]
