"""Rule examples: the Gemini mapping (gemini-fold.md, "Provider-neutral events"), row by row.

Like events.md §4's tables, the section states no rule ids of its own: each row is decided by
a §2 rule, which each example is marked with. Frames are chunks as the Gemini API sends them
(`candidates`, `modelVersion`, `responseId`; Vertex's streamed arguments where marked). What
the section decides beyond events.md (a positional id for a call sent without one, one
delta of the whole arguments) is held only where §2 itself asks for it: a call's arguments
are checked parsed (EV-ARGS-CONSERVE), never as a delta's text.
"""

from __future__ import annotations

from typing import Any

import pytest

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.reference import JSONObject
from refold.run.marks import rule
from refold.suites.events._expect import produced_by, turn_of
from refold.suites.events._frames import (
    completed_event,
    opaque_event,
    started_event,
    text_event,
    usage_event,
)

_GM = "gemini-generate-content"
_USAGE = {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}


def _chunk(*parts: Any, finish: str | None = None, usage: Any = None, **keys: Any) -> JSONObject:
    """A Gemini API chunk whose candidate 0 carries `parts`."""
    candidate: JSONObject = {"content": {"role": "model", "parts": list(parts)}, "index": 0}
    if finish is not None:
        candidate["finishReason"] = finish
    found: JSONObject = {
        "candidates": [candidate],
        "modelVersion": "gemini-2.5-flash",
        "responseId": "gemini-response-ex",
        **keys,
    }
    if usage is not None:
        found["usageMetadata"] = usage
    return found


def _call(name: str, args: JSONObject | None = None, **keys: Any) -> JSONObject:
    function: JSONObject = {"name": name, **keys}
    if args is not None:
        function["args"] = args
    return {"functionCall": function}


@rule("EV-TEXT")
def test_each_chunks_answer_text_becomes_a_text_delta_verbatim(check: EventsCheck) -> None:
    # the section: "answer text of candidate 0 ... one TextDelta per part whose text grew"
    frames = [_chunk({"text": "Hel"}), _chunk({"text": "lo, "}, finish="STOP", usage=_USAGE)]
    check.emits(_GM, frames, [text_event("Hel"), text_event("lo, ")], kinds={"TextDelta"})


@rule("EV-REASONING-OPAQUE")
def test_thought_parts_and_signatures_never_become_text(check: EventsCheck) -> None:
    # the section: "thought parts (thought: true), thoughtSignatures: nothing"
    frames = [
        _chunk({"text": "Let me think", "thought": True}),
        _chunk({"text": "Hi", "thoughtSignature": "c2ln"}),
        _chunk({"text": "", "thoughtSignature": "c2ln"}, finish="STOP", usage=_USAGE),
    ]
    check.emits(_GM, frames, [text_event("Hi")], kinds={"TextDelta"})
    check.holds(_GM, frames)


@rule("EV-OPAQUE-TYPE", "EV-OPAQUE-FALLBACK")
def test_a_chunk_with_nothing_neutral_is_one_opaque_named_message(check: EventsCheck) -> None:
    # Gemini sends no SSE event names; a `type` key of a chunk is no name
    thinking = _chunk({"text": "hmm", "thought": True}, type="not-an-event-name")
    frames = [thinking, _chunk({"text": "A"}, finish="STOP", usage=_USAGE)]
    _, output = check.normalized(_GM, frames)
    if produced_by(output, thinking) != [opaque_event("message")]:
        raise check.fail(
            "a chunk that carries only a thought is not one Opaque named message",
            expected=[opaque_event("message")],
            received=produced_by(output, thinking),
        )


@rule("EV-CALL-STARTED", "EV-ARGS-PARSED", "EV-CALL-IDENTITY")
def test_a_whole_function_call_starts_and_completes_under_its_id(check: EventsCheck) -> None:
    # the section: "a functionCall part the fold holds final: ToolCallStarted {id, name}
    # ... ToolCallCompleted with args" (the Gemini API sends each call whole, with its id)
    call = _call("get_weather", {"city": "Paris", "days": [1, 2]}, id="g1bmv6il")
    frames = [_chunk(call, finish="STOP", usage=_USAGE)]
    expected = [
        started_event("g1bmv6il", "get_weather"),
        completed_event("g1bmv6il", "get_weather", {"city": "Paris", "days": [1, 2]}),
    ]
    check.emits(_GM, frames, expected, kinds={"ToolCallStarted", "ToolCallCompleted"})


@rule("EV-ARGS-CONSERVE", "EV-ARGS-EMPTY-OBJECT", "EV-STOP-TOOL")
def test_whole_calls_conserve_their_arguments_and_stop_as_tool_use(check: EventsCheck) -> None:
    # a call without `args` (GMD-NO-ARGS-CALL) completes with {}; STOP with calls is tool_use
    frames = [
        _chunk(_call("get_weather", {"city": "Paris"}, id="c1")),
        _chunk(_call("get_time", id="c2"), finish="STOP", usage=_USAGE),
    ]
    check.holds(_GM, frames)
    turn = turn_of(check, _GM, frames)
    if turn.get("stop_reason") != "tool_use":
        raise check.fail(
            "a STOP with function calls is not tool_use",
            expected="tool_use",
            received=turn.get("stop_reason"),
        )


@rule("EV-FOLD-AGREES")
def test_vertex_streamed_arguments_are_the_calls_arguments(check: EventsCheck) -> None:
    # GM-CALL-STREAMED, GM-CALL-PARTIAL-ARGS: the pieces build `{"city": "Boston"}`
    piece = {"jsonPath": "$.city", "stringValue": "Bos", "willContinue": True}
    frames = [
        _chunk(_call("get_weather", id="c1", willContinue=True)),
        _chunk({"functionCall": {"partialArgs": [piece], "willContinue": True}}),
        _chunk({"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "ton"}]}}),
        _chunk(finish="STOP", usage=_USAGE),
    ]
    calls = turn_of(check, _GM, frames).get("tool_calls")
    expected = [{"id": "c1", "name": "get_weather", "arguments": {"city": "Boston"}}]
    if calls != expected:
        raise check.fail(
            "the streamed call's arguments are not those its pieces build",
            expected=expected,
            received=calls,
        )


@rule("EV-DETERMINISM")
def test_a_call_sent_without_an_id_gets_the_same_id_every_time(check: EventsCheck) -> None:
    # Vertex v1 sends no id: the same frames give the same events, so the id an adapter
    # gives such a call cannot be drawn at random
    frames = [_chunk(_call("get_weather", {"city": "Paris"}), finish="STOP", usage=_USAGE)]
    check.deterministic(_GM, [frames, frames])


@rule("EV-USAGE", "EV-USAGE-LAST")
def test_usage_adds_the_disjoint_buckets_and_the_trailing_one_is_the_turns(
    check: EventsCheck,
) -> None:
    # the section's usage row: input = prompt + tool-use prompt, output = candidates +
    # thoughts, cached = cachedContent, reasoning = thoughts; a usage-only chunk after the
    # finish chunk (GMD-TRAILING-USAGE) is the last
    final = {
        "promptTokenCount": 10,
        "toolUsePromptTokenCount": 4,
        "cachedContentTokenCount": 6,
        "candidatesTokenCount": 5,
        "thoughtsTokenCount": 7,
    }
    frames = [
        _chunk({"text": "A"}, finish="STOP", usage={"promptTokenCount": 10}),
        {"usageMetadata": final, "modelVersion": "gemini-2.5-flash"},
    ]
    expected = [usage_event(10, None), usage_event(14, 12, cached=6, reasoning=7)]
    check.emits(_GM, frames, expected, kinds={"Usage"})
    check.holds(_GM, frames)


@rule("EV-USAGE-UNREPORTED")
def test_a_stream_without_usage_metadata_reports_no_counter(check: EventsCheck) -> None:
    check.holds(_GM, [_chunk({"text": "A"}, finish="STOP")])


@pytest.mark.parametrize(
    ("finish", "stop"),
    [
        ("STOP", "end_turn"),
        ("MAX_TOKENS", "max_tokens"),
        ("SAFETY", "content_filter"),
        ("RECITATION", "content_filter"),
        ("PROHIBITED_CONTENT", "content_filter"),
        ("OTHER", "other"),
        ("MALFORMED_FUNCTION_CALL", "other"),
    ],
)
@rule("EV-STOP-MAP")
def test_the_finish_reason_maps_to_its_stop_reason(
    check: EventsCheck, finish: str, stop: str
) -> None:
    frames = [_chunk({"text": "A"}, finish=finish, usage=_USAGE)]
    received = turn_of(check, _GM, frames).get("stop_reason")
    if received != stop:
        raise check.fail(
            f"finishReason {finish} is not mapped to {stop}", expected=stop, received=received
        )


@rule("EV-TRUNCATED")
def test_a_stream_cut_before_its_finish_reason_is_truncated(check: EventsCheck) -> None:
    # GM-LIFE-FINISHED is the terminal: no finishReason, no completed turn
    check.ends(_GM, [_chunk({"text": "A"}, usage=_USAGE)], "error", kind="truncated")


@rule("EV-ERROR-FRAME", "EV-NOTHING-AFTER-ERROR")
def test_an_error_chunk_is_one_opaque_and_a_provider_error(check: EventsCheck) -> None:
    error = {"error": {"code": 500, "message": "internal", "status": "INTERNAL"}}
    frames = [_chunk({"text": "A"}), error, _chunk({"text": "B"}, finish="STOP")]
    output = check.ends(_GM, frames, "error", kind="provider_error")
    if produced_by(output, error) != [opaque_event("message")]:
        raise check.fail(
            "the error chunk did not produce exactly one Opaque",
            expected=[opaque_event("message")],
            received=produced_by(output, error),
        )
    check.holds(_GM, frames)


@rule("EV-FOLD-AGREES", "EV-CHOICE0")
def test_only_candidate_zero_is_the_turn_whatever_the_order_of_entries(
    check: EventsCheck,
) -> None:
    # GM-CAND-INDEX: a chunk's entries name their candidate by `index`; the section reads
    # candidate 0 only, as EV-CHOICE0 does choice 0 (an adapter may refuse the stream)
    frame = _chunk({"text": "mine"}, finish="STOP", usage=_USAGE)
    other = {"content": {"role": "model", "parts": [{"text": "other"}]}, "index": 1}
    frame["candidates"].insert(0, {**other, "finishReason": "STOP"})
    _, output = check.normalized(_GM, [frame])
    outcome = output.get("outcome")
    error = outcome.get("error") if isinstance(outcome, dict) else None
    if isinstance(error, dict) and error.get("kind") == "unsupported":
        return  # EV-CHOICE0: a stream of several candidates refused
    text = turn_of(check, _GM, [frame]).get("output_text")
    if text != "mine":
        raise check.fail("the turn's text is not candidate 0's", expected="mine", received=text)
