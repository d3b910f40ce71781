"""Rule examples: the OpenAI Responses mapping (events.md §4.2), row by row.

§4.2 states no rule ids of its own: each row is decided by a §2 rule, which each example
is marked with. Frames are in OpenAI's own shape (`_responses_frames`).
"""

from __future__ import annotations

import pytest

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.reference import JSONObject
from refold.run.marks import rule
from refold.suites.events._expect import produced_by, turn_of
from refold.suites.events._frames import (
    CALL_KINDS,
    args_event,
    completed_event,
    opaque_event,
    started_event,
    text_event,
    usage_event,
)
from refold.suites.events._responses_frames import (
    RESPONSE_ID,
    RESPONSE_MODEL,
    added,
    args_delta,
    call_item,
    call_response,
    created,
    item_done,
    message_item,
    terminal,
    text_delta,
    text_done,
    text_response,
    usage_of,
)

_RS = "openai-responses"


@rule("EV-OPAQUE-TYPE", "EV-OPAQUE-FALLBACK")
def test_responses_lifecycle_events_are_opaque_named_by_their_type(check: EventsCheck) -> None:
    # §4.2: "response.created / queued / in_progress: Opaque (event_type = type)"
    in_progress = {**created(), "type": "response.in_progress"}
    frames = [created(), in_progress, *text_response("Hi")[1:]]
    _, output = check.normalized(_RS, frames)
    found = [produced_by(output, frame) for frame in frames[:2]]
    expected = [[opaque_event("response.created")], [opaque_event("response.in_progress")]]
    if found != expected:
        raise check.fail(
            "a lifecycle event is not one Opaque named by its type",
            expected=expected,
            received=found,
        )


@rule("EV-CALL-STARTED", "EV-CALL-ROUTE")
def test_a_function_call_starts_at_output_item_added_with_its_call_id(check: EventsCheck) -> None:
    # §4.2: "output_item.added, item function_call: ToolCallStarted {id: call_id, name}";
    # §2 EV-CALL-ROUTE: "Responses call_id never the item id" (RQ9)
    frames = call_response("call_w1", "get_weather", '{"city":', '"Paris"}')
    added_frame = frames[1]
    _, output = check.normalized(_RS, frames)
    if produced_by(output, added_frame) != [started_event("call_w1", "get_weather")]:
        raise check.fail(
            "output_item.added of a function_call did not start the call under its call_id",
            expected=[started_event("call_w1", "get_weather")],
            received=produced_by(output, added_frame),
        )


@rule("EV-ARGS-DELTA")
def test_arguments_announced_on_output_item_added_are_a_delta(check: EventsCheck) -> None:
    # §4.2: "plus ToolCallArgumentsDelta if item.arguments is non-empty" (RS-ARGS-JOIN)
    item = call_item("call_w1", "get_weather", '{"city":"Paris"}')
    frames = [
        created(),
        added(0, {**item, "arguments": '{"city":'}),
        args_delta(0, '"Paris"}'),
        item_done(0, item),
        terminal(output=[item]),
    ]
    check.emits(
        _RS,
        frames,
        [args_event("call_w1", '{"city":'), args_event("call_w1", '"Paris"}')],
        kinds={"ToolCallArgumentsDelta"},
    )


@rule("EV-ARGS-DELTA", "EV-NO-EMPTY-DELTA")
def test_argument_deltas_are_deltas_and_an_empty_one_is_opaque(check: EventsCheck) -> None:
    # §4.2: "function_call_arguments.delta: ToolCallArgumentsDelta (empty deltas: Opaque)"
    frames = call_response("call_w1", "get_weather", '{"city":', "", '"Paris"}')
    output = check.emits(
        _RS,
        frames,
        [args_event("call_w1", '{"city":'), args_event("call_w1", '"Paris"}')],
        kinds={"ToolCallArgumentsDelta"},
    )
    if produced_by(output, frames[3]) != [opaque_event("response.function_call_arguments.delta")]:
        raise check.fail(
            "an empty arguments delta is not one Opaque", received=produced_by(output, frames[3])
        )


@rule("EV-ARGS-DELTA", "EV-ARGS-CONSERVE")
def test_arguments_done_adds_the_rest_of_a_proper_prefix(check: EventsCheck) -> None:
    # §4.2: "function_call_arguments.done: if the joined deltas are a proper prefix of
    # arguments: ToolCallArgumentsDelta with the rest (RQ3, as pydantic-ai does)"
    frames = call_response("call_w1", "get_weather", '{"city":', arguments='{"city":"Paris"}')
    check.emits(
        _RS,
        frames,
        [
            args_event("call_w1", '{"city":'),
            args_event("call_w1", '"Paris"}'),
            completed_event("call_w1", "get_weather", {"city": "Paris"}),
        ],
        kinds={"ToolCallArgumentsDelta", "ToolCallCompleted"},
    )


@rule("EV-OPAQUE-FALLBACK", "EV-ARGS-DELTA")
def test_arguments_done_equal_to_the_deltas_is_opaque(check: EventsCheck) -> None:
    # §4.2: "if equal: Opaque"
    frames = call_response("call_w1", "get_weather", '{"city":"Paris"}')
    _, output = check.normalized(_RS, frames)
    done = frames[3]
    if produced_by(output, done) != [opaque_event("response.function_call_arguments.done")]:
        raise check.fail(
            "arguments.done equal to the deltas did not produce one Opaque",
            received=produced_by(output, done),
        )


@rule("EV-ARGS-CONSERVE")
def test_arguments_done_contradicting_the_deltas_is_inconsistent(check: EventsCheck) -> None:
    # §4.2: "otherwise outcome error (inconsistent_tool_arguments)"
    frames = call_response("call_w1", "get_weather", '{"city":"Par', arguments='{"city":"Rome"}')
    check.ends(_RS, frames, "error", kind="inconsistent_tool_arguments")


@rule("EV-ARGS-PARSED", "EV-ARGS-DELTA")
def test_output_item_done_applies_the_prefix_rule_then_completes(check: EventsCheck) -> None:
    # §4.2: "output_item.done, item function_call: the same prefix rule against
    # item.arguments, then ToolCallCompleted (arguments parsed)"
    item = call_item("call_w1", "get_weather", '{"city":"Paris"}')
    frames = [
        created(),
        added(0, call_item("call_w1", "get_weather")),
        args_delta(0, '{"city":'),
        item_done(0, item),
        terminal(output=[item]),
    ]
    check.emits(
        _RS,
        frames,
        [
            args_event("call_w1", '{"city":'),
            args_event("call_w1", '"Paris"}'),
            completed_event("call_w1", "get_weather", {"city": "Paris"}),
        ],
        kinds={"ToolCallArgumentsDelta", "ToolCallCompleted"},
    )


@rule("EV-ARGS-OPTIONAL", "EV-CALL-STARTED")
def test_a_call_announced_only_on_output_item_done_is_whole(check: EventsCheck) -> None:
    # §4.2: "A call announced only on output_item.done (no added) gets its
    # ToolCallStarted, one ToolCallArgumentsDelta with the whole arguments and its
    # ToolCallCompleted"
    item = call_item("call_w1", "get_weather", '{"city":"Paris"}')
    frames = [created(), item_done(0, item), terminal(output=[item])]
    check.emits(
        _RS,
        frames,
        [
            started_event("call_w1", "get_weather"),
            args_event("call_w1", '{"city":"Paris"}'),
            completed_event("call_w1", "get_weather", {"city": "Paris"}),
        ],
        kinds=CALL_KINDS,
    )


@rule("EV-ARGS-EMPTY-OBJECT")
def test_a_call_without_arguments_completes_with_the_empty_object(check: EventsCheck) -> None:
    # §2 EV-ARGS-EMPTY-OBJECT: `""` at the completion boundary is `{}`
    frames = call_response("call_n1", "get_time")
    check.emits(
        _RS,
        frames,
        [started_event("call_n1", "get_time"), completed_event("call_n1", "get_time", {})],
        kinds=CALL_KINDS,
    )


@rule("EV-ARGS-INVALID")
def test_cut_arguments_at_output_item_done_end_the_stream(check: EventsCheck) -> None:
    # §4.2 output_item.done: "arguments parsed"; §2: unparseable -> invalid_tool_arguments
    frames = call_response("call_w1", "get_weather", '{"city":"Par')
    check.ends(_RS, frames, "error", kind="invalid_tool_arguments")


@rule("EV-ARGS-BUFFER", "EV-CALL-ROUTE")
def test_argument_deltas_before_output_item_added_are_released_after_the_start(
    check: EventsCheck,
) -> None:
    # responses-fold family 6 (RS-ORPHAN, RS-READD): the deltas come before the call_id
    # is known; §2 EV-ARGS-BUFFER: "held and released, in order, right after its
    # ToolCallStarted"
    item = call_item("call_w1", "get_weather", '{"city":"Paris"}')
    frames = [
        created(),
        args_delta(0, '{"city":'),
        args_delta(0, '"Paris"}'),
        added(0, call_item("call_w1", "get_weather")),
        item_done(0, item),
        terminal(output=[item]),
    ]
    check.emits(
        _RS,
        frames,
        [
            started_event("call_w1", "get_weather"),
            args_event("call_w1", '{"city":'),
            args_event("call_w1", '"Paris"}'),
            completed_event("call_w1", "get_weather", {"city": "Paris"}),
        ],
        kinds=CALL_KINDS,
    )


@rule("EV-CALL-ROUTE")
def test_an_argument_delta_follows_its_item_id_over_its_output_index(check: EventsCheck) -> None:
    # §2 EV-CALL-ROUTE: "Responses: the routed item's call_id, RS-ROUTE": an announced
    # item_id wins over a wrong output_index (RQ13)
    first = call_item("call_a", "get_weather", '{"city":"Paris"}', item_id="fc_a")
    second = call_item("call_b", "get_time", '{"tz":"CET"}', item_id="fc_b")
    frames = [
        created(),
        added(0, {**first, "arguments": ""}),
        added(1, {**second, "arguments": ""}),
        args_delta(1, '{"city":"Paris"}', item_id="fc_a"),
        args_delta(1, '{"tz":"CET"}', item_id="fc_b"),
        item_done(0, first),
        item_done(1, second),
        terminal(output=[first, second]),
    ]
    check.emits(
        _RS,
        frames,
        [args_event("call_a", '{"city":"Paris"}'), args_event("call_b", '{"tz":"CET"}')],
        kinds={"ToolCallArgumentsDelta"},
    )


@rule("EV-STARTED-COMPLETED")
def test_a_call_without_done_events_completes_at_the_terminal(check: EventsCheck) -> None:
    # responses-fold family 4 (deltas only, terminal output omitted): the call has no
    # output_item.done; with outcome completed every started call completes
    frames = [
        created(),
        added(0, {**call_item("call_w1", "get_weather"), "status": "in_progress"}),
        args_delta(0, '{"city":"Paris"}'),
        terminal(),
    ]
    output = check.emits(
        _RS,
        frames,
        [completed_event("call_w1", "get_weather", {"city": "Paris"})],
        kinds={"ToolCallCompleted"},
    )
    assert output["outcome"] == {"outcome": "completed"}


@rule("EV-TEXT")
def test_output_text_deltas_are_text_deltas(check: EventsCheck) -> None:
    # §4.2: "response.output_text.delta: TextDelta"
    check.emits(
        _RS, text_response("Hel", "lo"), [text_event("Hel"), text_event("lo")], kinds={"TextDelta"}
    )


@rule("EV-TEXT", "EV-TEXT-CONSERVE")
def test_output_text_done_alone_gives_the_text(check: EventsCheck) -> None:
    # §4.2: "output_text.done: TextDelta with the rest when the joined text is a proper
    # prefix of text (gpt-oss sends only .done, RQ5)"
    item = message_item("msg_1", "Hello")
    frames = [
        created(),
        added(0, message_item("msg_1")),
        text_delta(0, "He"),
        text_done(0, "Hello"),
        item_done(0, item),
        terminal(output=[item]),
    ]
    check.emits(_RS, frames, [text_event("He"), text_event("llo")], kinds={"TextDelta"})
    only_done = [frames[0], frames[1], *frames[3:]]
    check.emits(_RS, only_done, [text_event("Hello")], kinds={"TextDelta"})


@rule("EV-REFUSAL-OPAQUE")
def test_refusal_deltas_are_opaque(check: EventsCheck) -> None:
    # §4.2: "refusal ... events: Opaque"; §2 EV-REFUSAL-OPAQUE: never TextDelta
    refused = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "refusal", "refusal": "I can't."}],
    }
    frames = [
        created(),
        added(0, {**refused, "content": []}),
        {
            "type": "response.refusal.delta",
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "delta": "I can't.",
        },
        item_done(0, refused),
        terminal(output=[refused]),
    ]
    output = check.emits(_RS, frames, [], kinds={"TextDelta"})
    if produced_by(output, frames[2]) != [opaque_event("response.refusal.delta")]:
        raise check.fail(
            "a refusal delta is not one Opaque", received=produced_by(output, frames[2])
        )


@rule("EV-REASONING-OPAQUE")
def test_reasoning_summary_deltas_are_opaque(check: EventsCheck) -> None:
    # §4.2: "reasoning ... events: Opaque"
    reasoning = {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [{"type": "summary_text", "text": "Thinking."}],
    }
    frames = [
        created(),
        added(0, {**reasoning, "summary": []}),
        {
            "type": "response.reasoning_summary_text.delta",
            "item_id": "rs_1",
            "output_index": 0,
            "summary_index": 0,
            "delta": "Thinking.",
        },
        item_done(0, reasoning),
        *text_response("Hi")[1:],
    ]
    frames[-1]["response"]["output"] = [reasoning, *frames[-1]["response"]["output"]]
    for event in frames[4:-1]:
        event["output_index"] = 1
    check.emits(_RS, frames, [text_event("Hi")], kinds={"TextDelta"})
    if turn_of(check, _RS, frames).get("output_text") != "Hi":
        raise check.fail("reasoning reached output_text")


@rule("EV-HOSTED-OPAQUE")
def test_a_hosted_web_search_call_is_opaque(check: EventsCheck) -> None:
    # §4.2: "hosted-tool events; output_item.added/done of other items: Opaque"
    search = {
        "type": "web_search_call",
        "id": "ws_1",
        "status": "completed",
        "action": {"type": "search", "query": "weather Paris"},
    }
    frames = [
        created(),
        added(0, {**search, "status": "in_progress"}),
        {"type": "response.web_search_call.searching", "item_id": "ws_1", "output_index": 0},
        item_done(0, search),
        terminal(output=[search]),
    ]
    check.emits(_RS, frames, [], kinds=CALL_KINDS)


@rule("EV-USAGE")
def test_responses_usage_keeps_cached_and_reasoning_tokens(check: EventsCheck) -> None:
    # §4.2: "Usage: input_tokens, output_tokens, input_tokens_details.cached_tokens,
    # output_tokens_details.reasoning_tokens"
    frames = text_response("Hi")
    frames[-1] = terminal(
        output=frames[-1]["response"]["output"], usage=usage_of(12, 5, cached=4, reasoning=2)
    )
    check.emits(_RS, frames, [usage_event(12, 5, cached=4, reasoning=2)], kinds={"Usage"})


_STOPS = [
    pytest.param(
        {"kind": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}},
        "max_tokens",
        id="incomplete-max-output-tokens",
    ),
    pytest.param(
        {"kind": "incomplete", "incomplete_details": {"reason": "content_filter"}},
        "content_filter",
        id="incomplete-content-filter",
    ),
    pytest.param(
        {"kind": "incomplete", "incomplete_details": {"reason": "x_future"}},
        "other",
        id="incomplete-unknown-reason",
    ),
    pytest.param({"kind": "completed"}, "end_turn", id="completed"),
]


@pytest.mark.parametrize(("ending", "stop"), _STOPS)
@rule("EV-STOP-MAP")
def test_responses_stop_reasons_come_from_the_terminal(
    check: EventsCheck, ending: JSONObject, stop: str
) -> None:
    # §4.2: "response.completed ... stop: tool_use if any function_call item, else
    # end_turn"; "response.incomplete ... stop from incomplete_details.reason"
    frames = text_response("Hi")
    frames[-1] = terminal(output=frames[-1]["response"]["output"], **ending)
    turn = turn_of(check, _RS, frames)
    if turn.get("stop_reason") != stop:
        raise check.fail(
            "the stop reason is not the §4.2 mapping of the terminal",
            expected=stop,
            received=turn.get("stop_reason"),
        )


@rule("EV-STOP-MAP", "EV-TURN-CALLS")
def test_a_completed_response_with_a_function_call_stops_for_tool_use(check: EventsCheck) -> None:
    frames = call_response("call_w1", "get_weather", '{"city":"Paris"}')
    turn = turn_of(check, _RS, frames)
    if turn.get("stop_reason") != "tool_use":
        raise check.fail(
            "a completed response with a function_call did not stop for tool_use",
            rules=("EV-STOP-MAP",),
            expected="tool_use",
            received=turn.get("stop_reason"),
        )
    calls = [{"id": "call_w1", "name": "get_weather", "arguments": {"city": "Paris"}}]
    if turn.get("tool_calls") != calls:
        raise check.fail(
            "the turn's calls are not the one completed call",
            rules=("EV-TURN-CALLS",),
            expected=calls,
            received=turn.get("tool_calls"),
        )


@rule("EV-TURN-FIELDS")
def test_the_turn_has_the_terminal_model_and_the_response_id(check: EventsCheck) -> None:
    # §2 EV-TURN-FIELDS: "Responses: RS-ENV-TERMINAL" for the model, `response.id`
    frames = text_response("Hi")
    frames[0]["response"]["model"] = "gpt-5"  # the alias created may carry
    turn = turn_of(check, _RS, frames)
    found = (turn.get("model"), turn.get("response_id"))
    if found != (RESPONSE_MODEL, RESPONSE_ID):
        raise check.fail(
            "the turn's model or response id is not the terminal's",
            expected=[RESPONSE_MODEL, RESPONSE_ID],
            received=list(found),
        )


@rule("EV-ERROR-FRAME")
def test_response_failed_gives_its_usage_then_one_opaque(check: EventsCheck) -> None:
    # §4.2: "response.failed, error: Usage (failed, if any), Opaque; outcome error
    # (provider_error)"
    frames = [
        *text_response("Hi", final=False),
        terminal("failed", usage=usage_of(3, 1), error={"code": "server_error", "message": "boom"}),
    ]
    output = check.ends(_RS, frames, "error", kind="provider_error")
    expected = [usage_event(3, 1, cached=0, reasoning=0), opaque_event("response.failed")]
    if produced_by(output, frames[-1]) != expected:
        raise check.fail(
            "response.failed did not give its Usage and one Opaque",
            expected=expected,
            received=produced_by(output, frames[-1]),
        )


@rule("EV-ERROR-FRAME", "EV-NOTHING-AFTER-ERROR")
def test_an_error_event_ends_the_stream_in_provider_error(check: EventsCheck) -> None:
    error = {"type": "error", "code": "server_error", "message": "overloaded", "param": None}
    frames = text_response("Hel", final=False)
    frames.insert(3, error)
    frames.append(terminal(output=[message_item("msg_1", "Hel")]))
    output = check.ends(_RS, frames, "error", kind="provider_error")
    later = [event for frame in frames[4:] for event in produced_by(output, frame)]
    if produced_by(output, error) != [opaque_event("error")] or later:
        raise check.fail(
            "the error event is not one Opaque followed by nothing",
            received=produced_by(output, error) + later,
        )


@rule("EV-TRUNCATED")
def test_a_responses_stream_without_its_terminal_is_truncated(check: EventsCheck) -> None:
    # §4.2: "end of body without a terminal: outcome error (truncated)"; the last
    # item's done does not finish the stream (LIFE-RS-FINISHED)
    check.ends(_RS, text_response("Hi", final=False), "error", kind="truncated")
