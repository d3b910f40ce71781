"""Rule examples: function calls (RS-CALL-IDS, RS-ARGS-JOIN, RS-ARGS-RAW), and the
argument events of RS-DONE-REPLACES, RS-ORPHAN, RS-READD and RS-KIND-MATCH.

Streamed arguments show only where the terminal sends no output: those streams end with
`output: []` and are marked RS-OUTPUT-RECOVER (and, without done events,
RS-RECOVER-FROM-DELTAS and RS-RECOVER-STATUS)."""

from __future__ import annotations

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    MSG,
    args_delta,
    args_done,
    call_stream,
    completed,
    created,
    function_call,
    in_progress,
    incomplete,
    item_added,
    item_done,
    message,
    part_added,
    response,
    text_delta,
    text_part,
)
from ._expect import expect_fold

_RECOVERED = ("RS-OUTPUT-RECOVER", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS")
_OPEN_CALL = function_call(status="in_progress")


def _recovered(*events: JSONObject) -> list[JSONObject]:
    return [created(), *events, completed()]


@rule("RS-CALL-IDS", "RS-TERMINAL-BASE")
def test_call_id_and_item_id_are_two_fields_in_the_terminal_output(check: Check) -> None:
    # RQ9: pydantic-ai #2210 used the fc_ item id as the tool call id
    call = function_call('{"city": "Paris"}', id="fc_68a1", call_id="call_Xy12")
    streamed = call_stream('{"city": ', '"Paris"}', id="fc_68a1", call_id="call_Xy12")
    expect_fold(check, [created(), *streamed, completed(call)], response(call))


@rule("RS-CALL-IDS", "RS-TERMINAL-BASE")
def test_a_call_id_of_the_form_call_and_digits_is_the_call_id(check: Check) -> None:
    # RQ11: Bedrock Mantle numbers its call_ids `call_0`, `call_1`, ... in each response;
    # litellm reads such a call_id as a placeholder and hands over the item id instead
    call = function_call('{"city": "Paris"}', id="fc_01", call_id="call_1")
    streamed = call_stream('{"city": ', '"Paris"}', id="fc_01", call_id="call_1")
    expect_fold(check, [created(), *streamed, completed(call)], response(call))


@rule("RS-CALL-IDS", "RS-ARGS-JOIN", "RS-OUTPUT-RECOVER")
def test_call_id_and_item_id_are_two_fields_in_a_recovered_call(check: Check) -> None:
    # RQ11: a `call_<digits>` call_id (Bedrock Mantle) is as real as any other
    call = function_call('{"city": "Paris"}', id="fc_01", call_id="call_1")
    events = _recovered(
        item_added(0, function_call(id="fc_01", call_id="call_1", status="in_progress")),
        args_delta(0, '{"city": "Paris"}'),
        args_done(0, '{"city": "Paris"}'),
        item_done(0, call),
    )
    expect_fold(check, events, response(call))


@rule("RS-CALL-IDS", "RS-ARGS-JOIN", *_RECOVERED)
def test_a_call_sent_without_id_stays_without_one(check: Check) -> None:
    # RQ10: opencode #45081, a function_call with call_id and no id; its argument events
    # carry no item_id
    events = _recovered(
        item_added(0, function_call(id=None, status="in_progress")),
        args_delta(0, '{"a":', item_id=None),
        args_delta(0, "1}", item_id=None),
    )
    expect_fold(check, events, response(function_call('{"a":1}', id=None)))


@rule("RS-CALL-IDS", "RS-ARGS-JOIN", "RS-OUTPUT-RECOVER")
def test_a_done_call_without_id_stays_without_one(check: Check) -> None:
    done = function_call('{"a":1}', id=None)
    events = _recovered(
        item_added(0, function_call(id=None, status="in_progress")),
        args_delta(0, '{"a":1}', item_id=None),
        item_done(0, done),
    )
    expect_fold(check, events, response(done))


@rule("RS-ARGS-JOIN", *_RECOVERED)
def test_argument_deltas_join_in_arrival_order(check: Check) -> None:
    fragments = ('{"ci', 'ty": "Par', "", 'is", "unit', 's": "c"}')
    events = _recovered(item_added(0, _OPEN_CALL), *(args_delta(0, f) for f in fragments))
    expect_fold(check, events, response(function_call("".join(fragments))))


@rule("RS-ARGS-JOIN", *_RECOVERED)
def test_argument_deltas_join_onto_the_arguments_of_the_added_item(check: Check) -> None:
    added = function_call('{"city": ', status="in_progress")
    events = _recovered(item_added(0, added), args_delta(0, '"Paris"}'))
    expect_fold(check, events, response(function_call('{"city": "Paris"}')))


@rule("RS-ARGS-JOIN", "RS-DONE-REPLACES", *_RECOVERED)
def test_arguments_only_on_the_done_event_are_the_arguments(check: Check) -> None:
    # RQ3: gpt-5.3-codex-spark sends zero argument deltas (litellm #27144)
    events = _recovered(item_added(0, _OPEN_CALL), args_done(0, '{"city": "Paris"}'))
    expect_fold(check, events, response(function_call('{"city": "Paris"}')))


@rule("RS-ARGS-JOIN", "RS-DONE-REPLACES", *_RECOVERED)
def test_the_arguments_done_event_replaces_the_joined_deltas(check: Check) -> None:
    # RQ22: pydantic-ai keeps the deltas when the done arguments differ
    events = _recovered(
        item_added(0, _OPEN_CALL), args_delta(0, '{"city": "Pa'), args_done(0, '{"city": "Paris"}')
    )
    expect_fold(check, events, response(function_call('{"city": "Paris"}')))


@rule("RS-ARGS-JOIN", "RS-ITEM-DONE-REPLACES", "RS-OUTPUT-RECOVER")
def test_arguments_only_on_the_done_item_are_the_arguments(check: Check) -> None:
    # RQ3: the done item alone carries them
    done = function_call('{"city": "Paris"}')
    expect_fold(check, _recovered(item_added(0, _OPEN_CALL), item_done(0, done)), response(done))


@rule("RS-ARGS-RAW", *_RECOVERED, "RS-INCOMPLETE")
def test_cut_off_arguments_stay_cut_off(check: Check) -> None:
    events = [created(), item_added(0, _OPEN_CALL), args_delta(0, '{"city": "Par'), incomplete()]
    expected = response(
        function_call('{"city": "Par', status="incomplete"),
        status="incomplete",
        incomplete_details={"reason": "max_output_tokens"},
    )
    expect_fold(check, events, expected)


@rule("RS-ARGS-RAW", "RS-TERMINAL-BASE")
def test_cut_off_and_empty_arguments_in_openais_own_stream_stay_as_sent(check: Check) -> None:
    # a call cut off by max_output_tokens, and one with no arguments, as OpenAI streams them
    for raw in ("", '{"city": "Par'):
        call = function_call(raw)
        events = [created(), in_progress(), *call_stream(*([raw] if raw else [])), completed(call)]
        expect_fold(check, events, response(call))


@rule("RS-ARGS-RAW", *_RECOVERED)
def test_empty_arguments_stay_empty(check: Check) -> None:
    # RQ23: litellm raises on an empty-string arguments delta
    events = _recovered(item_added(0, _OPEN_CALL), args_delta(0, ""), args_delta(0, ""))
    expect_fold(check, events, response(function_call("")))


@rule("RS-ARGS-RAW", "RS-ARGS-JOIN", *_RECOVERED)
def test_arguments_are_never_parsed_or_re_serialised(check: Check) -> None:
    for raw in (
        '{ "b" : 2,\n  "a":1.0 }',
        '{"s": "caf\\u00e9"}',
        "[1, 2]",
        "not json",
        '{"a": 1}{"a": 1}',
    ):
        events = _recovered(item_added(0, _OPEN_CALL), args_delta(0, raw))
        expect_fold(check, events, response(function_call(raw)))


@rule("RS-ORPHAN", "RS-ARGS-JOIN", *_RECOVERED)
def test_argument_deltas_without_an_announced_call_open_a_function_call(check: Check) -> None:
    # RQ5: the placeholder holds type, id from the event, status and `arguments`
    events = _recovered(args_delta(0, '{"a":'), args_delta(0, "1}"))
    expected: JSONObject = {
        "type": "function_call",
        "id": "fc_01",
        "status": "completed",
        "arguments": '{"a":1}',
    }
    expect_fold(check, events, response(expected))


@rule("RS-READD", "RS-ORPHAN", "RS-ARGS-JOIN", *_RECOVERED)
def test_a_call_announced_after_its_argument_deltas_keeps_them(check: Check) -> None:
    events = _recovered(args_delta(0, '{"a":'), item_added(0, _OPEN_CALL), args_delta(0, "1}"))
    expect_fold(check, events, response(function_call('{"a":1}')))


@rule("RS-KIND-MATCH", "RS-ARGS-JOIN", *_RECOVERED)
def test_a_text_delta_routed_to_a_function_call_changes_nothing(check: Check) -> None:
    events = _recovered(
        item_added(0, _OPEN_CALL), args_delta(0, '{"a":1}'), text_delta(0, "stray", item_id="fc_01")
    )
    expect_fold(check, events, response(function_call('{"a":1}')))


@rule("RS-KIND-MATCH", "RS-ARGS-JOIN", *_RECOVERED)
def test_an_arguments_delta_routed_to_a_message_changes_nothing(check: Check) -> None:
    events = _recovered(
        item_added(0, message(status="in_progress")),
        part_added(0),
        text_delta(0, "Hi"),
        args_delta(0, '{"a":1}', item_id=MSG),
        args_done(0, '{"a":1}', item_id=MSG),
    )
    expect_fold(check, events, response(message(text_part("Hi"))))


@rule("RS-CALL-IDS", "RS-OUTPUT-ORDER", "RS-OUTPUT-RECOVER")
def test_parallel_calls_keep_their_own_ids_and_arguments(check: Check) -> None:
    first = function_call('{"city": "Paris"}', id="fc_a", call_id="call_a")
    second = function_call('{"city": "Rome"}', id="fc_b", call_id="call_b")
    events = _recovered(
        item_added(0, {**first, "arguments": "", "status": "in_progress"}),
        item_added(1, {**second, "arguments": "", "status": "in_progress"}),
        args_delta(1, '{"city": "Rome"}', item_id="fc_b"),
        args_delta(0, '{"city": "Paris"}', item_id="fc_a"),
        item_done(1, second),
        item_done(0, first),
    )
    expect_fold(check, events, response(first, second))
