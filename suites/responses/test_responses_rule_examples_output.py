"""Rule examples: which items the output holds and in what order (RS-OUTPUT-TERMINAL,
RS-OUTPUT-RECOVER, RS-OUTPUT-ORDER, RS-KEY-OUTPUT-INDEX, RS-ROUTE).

Every stream here finishes its items with `output_item.done`, so the statuses are the
done items' and no test leans on RS-RECOVER-STATUS."""

from __future__ import annotations

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    ENVELOPE,
    completed,
    created,
    in_progress,
    item_added,
    item_done,
    message,
    part_added,
    part_done,
    response,
    terminal,
    text_delta,
    text_done,
    text_part,
    web_search,
)
from ._expect import expect_fold


def _streamed(index: int, text: str, item_id: str) -> list[JSONObject]:
    """OpenAI's events for one message item at `index`, finished by its done item."""
    done = message(text_part(text), id=item_id)
    return [
        item_added(index, message(id=item_id, status="in_progress")),
        part_added(index, item_id=item_id),
        text_delta(index, text, item_id=item_id),
        text_done(index, text, item_id=item_id),
        part_done(index, text_part(text), item_id=item_id),
        item_done(index, done),
    ]


def _msg(text: str, item_id: str) -> JSONObject:
    return message(text_part(text), id=item_id)


@rule("RS-OUTPUT-TERMINAL")
def test_a_non_empty_terminal_output_is_the_output_whatever_was_streamed(check: Check) -> None:
    # the terminal is the non-streamed Response: its text wins over the streamed one
    events = [created(), *_streamed(0, "Hello", "msg_a"), completed(_msg("Hello, world", "msg_a"))]
    expect_fold(check, events, response(_msg("Hello, world", "msg_a")))


@rule("RS-OUTPUT-TERMINAL")
def test_streamed_items_the_terminal_output_lacks_are_not_merged_into_it(check: Check) -> None:
    # bifrost #1985's shape: a non-empty but partial terminal output is taken whole
    events = [
        created(),
        *_streamed(0, "First", "msg_a"),
        *_streamed(1, "Second", "msg_b"),
        completed(_msg("First", "msg_a")),
    ]
    expect_fold(check, events, response(_msg("First", "msg_a")))


@rule("RS-OUTPUT-TERMINAL")
def test_the_terminal_outputs_order_is_kept_even_when_streaming_order_differs(check: Check) -> None:
    # RQ13: index order is not the terminal's order (surogate #175)
    events = [
        created(),
        *_streamed(0, "First", "msg_a"),
        *_streamed(1, "Second", "msg_b"),
        completed(_msg("Second", "msg_b"), _msg("First", "msg_a")),
    ]
    expect_fold(check, events, response(_msg("Second", "msg_b"), _msg("First", "msg_a")))


@rule("RS-OUTPUT-RECOVER")
def test_an_empty_terminal_output_is_recovered_from_the_streamed_items(check: Check) -> None:
    # RQ1: the ChatGPT/Codex backend ends with `output: []`
    events = [created(), in_progress(), *_streamed(0, "Hello", "msg_a"), completed()]
    expect_fold(check, events, response(_msg("Hello", "msg_a")))


@rule("RS-OUTPUT-RECOVER")
def test_an_absent_or_null_terminal_output_is_recovered_from_the_streamed_items(
    check: Check,
) -> None:
    # RQ2: gateways drop `output`, or send it as null (hermes-agent #92767)
    for body in (
        {**ENVELOPE, "status": "completed"},
        {**ENVELOPE, "status": "completed", "output": None},
    ):
        events = [
            created(),
            *_streamed(0, "Hi", "msg_a"),
            *_streamed(1, "there", "msg_b"),
            terminal("completed", body),
        ]
        expect_fold(check, events, response(_msg("Hi", "msg_a"), _msg("there", "msg_b")))


@rule("RS-OUTPUT-RECOVER")
def test_items_only_finished_by_output_item_done_are_recovered(check: Check) -> None:
    # RQ1: items sent only as `output_item.done` (no added, no content events)
    events = [created(), item_done(0, _msg("Done only", "msg_a")), completed()]
    expect_fold(check, events, response(_msg("Done only", "msg_a")))


@rule("RS-OUTPUT-RECOVER")
def test_the_output_is_empty_when_nothing_was_streamed(check: Check) -> None:
    for body in (
        response(),
        {**ENVELOPE, "status": "completed"},
        {**ENVELOPE, "status": "completed", "output": None},
    ):
        expect_fold(check, [created(), terminal("completed", body)], response())


@rule("RS-OUTPUT-ORDER")
def test_recovered_items_are_ordered_by_output_index_not_by_arrival(check: Check) -> None:
    events = [
        created(),
        *_streamed(1, "Second", "msg_b"),
        *_streamed(0, "First", "msg_a"),
        completed(),
    ]
    expect_fold(check, events, response(_msg("First", "msg_a"), _msg("Second", "msg_b")))


@rule("RS-OUTPUT-ORDER")
def test_recovered_items_at_sparse_indexes_follow_each_other(check: Check) -> None:
    # an index with no item holds nothing in the output list
    events = [
        created(),
        *_streamed(4, "Later", "msg_b"),
        *_streamed(1, "Earlier", "msg_a"),
        completed(),
    ]
    expect_fold(check, events, response(_msg("Earlier", "msg_a"), _msg("Later", "msg_b")))


@rule("RS-KEY-OUTPUT-INDEX")
def test_item_ids_that_rotate_on_every_event_do_not_split_the_item(check: Check) -> None:
    # RQ7: GitHub Copilot sends a new opaque id on every event; output_index is stable
    done = _msg("Hello", "msg_4")
    events = [
        created(),
        item_added(0, message(id="msg_1", status="in_progress")),
        part_added(0, item_id="msg_2"),
        text_delta(0, "Hel", item_id="msg_3"),
        text_delta(0, "lo", item_id="msg_5"),
        text_done(0, "Hello", item_id="msg_6"),
        part_done(0, text_part("Hello"), item_id="msg_7"),
        item_done(0, done),
        completed(),
    ]
    expect_fold(check, events, response(done))


@rule("RS-KEY-OUTPUT-INDEX")
def test_items_are_keyed_by_output_index_when_events_carry_no_item_id(check: Check) -> None:
    events = [
        created(),
        item_added(0, message(id="msg_a", status="in_progress")),
        item_added(1, web_search(status="in_progress")),
        part_added(0, item_id=None),
        text_delta(0, "Hi", item_id=None),
        item_done(1, web_search()),
        item_done(0, _msg("Hi", "msg_a")),
        completed(),
    ]
    expect_fold(check, events, response(_msg("Hi", "msg_a"), web_search()))


@rule("RS-ROUTE")
def test_an_items_done_events_at_a_drifted_output_index_belong_to_it(check: Check) -> None:
    # RQ13 (LangChain's source comment): after built-in tool calls the done events carry
    # a later output_index than the added event
    done = _msg("Hello", "msg_a")
    events = [
        created(),
        item_added(0, message(id="msg_a", status="in_progress")),
        part_added(0, item_id="msg_a"),
        text_delta(0, "Hello", item_id="msg_a"),
        text_done(2, "Hello", item_id="msg_a"),
        item_done(2, done),
        completed(),
    ]
    expect_fold(check, events, response(done))


@rule("RS-ROUTE")
def test_a_content_event_naming_an_announced_item_goes_to_it_whatever_its_index(
    check: Check,
) -> None:
    # a gateway that numbers every event 0 (llmgateway #2908): the ids tell the items apart
    first, second = _msg("First", "msg_a"), _msg("Second", "msg_b")
    events = [
        created(),
        item_added(0, message(id="msg_a", status="in_progress")),
        item_added(1, message(id="msg_b", status="in_progress")),
        item_done(0, first),
        item_done(0, second),
        completed(),
    ]
    expect_fold(check, events, response(first, second))
