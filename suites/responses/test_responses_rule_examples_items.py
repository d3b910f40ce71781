"""Rule examples: how a streamed item is built (RS-ITEM-DONE-REPLACES, RS-DONE-REPLACES,
RS-RECOVER-FROM-DELTAS, RS-RECOVER-STATUS, RS-ORPHAN, RS-READD, RS-KIND-MATCH,
RS-CONTENT-INDEX).

A streamed item shows only where the terminal sends no output, so every stream here
ends with `output: []` and every test is marked RS-OUTPUT-RECOVER as well; a stream
without `output_item.done` leans on RS-RECOVER-FROM-DELTAS and RS-RECOVER-STATUS too."""

from __future__ import annotations

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    completed,
    created,
    incomplete,
    item_added,
    item_done,
    message,
    part_added,
    part_done,
    response,
    text_delta,
    text_done,
    text_part,
    web_search,
)
from ._expect import expect_fold

_OPEN = message(status="in_progress")


def _recovered(*events: JSONObject) -> list[JSONObject]:
    """`events` between response.created and a response.completed with `output: []`."""
    return [created(), *events, completed()]


@rule("RS-ITEM-DONE-REPLACES", "RS-OUTPUT-RECOVER")
def test_the_done_item_replaces_text_the_deltas_built(check: Check) -> None:
    # RQ3, RQ22: the done item is the provider's final word
    done = message(text_part("Hello, world"))
    events = _recovered(
        item_added(0, _OPEN), part_added(0), text_delta(0, "Hello"), item_done(0, done)
    )
    expect_fold(check, events, response(done))


@rule("RS-ITEM-DONE-REPLACES", "RS-OUTPUT-RECOVER")
def test_the_done_item_replaces_the_announced_items_fields(check: Check) -> None:
    # the reasoning docstring: `encrypted_content` on output_item.added may be incomplete;
    # a hosted item's done item is authoritative in the same way
    added = web_search(status="in_progress", encrypted_content="gAAAA")
    done = web_search(
        status="completed",
        encrypted_content="gAAAAB-full",
        action={"type": "search", "query": "weather paris today"},
    )
    events = _recovered(item_added(0, added), item_done(0, done))
    expect_fold(check, events, response(done))


@rule("RS-ITEM-DONE-REPLACES", "RS-OUTPUT-RECOVER")
def test_the_done_item_is_kept_with_the_status_it_sends(check: Check) -> None:
    done = message(text_part("Cut"), status="incomplete")
    events = _recovered(
        item_added(0, _OPEN), part_added(0), text_delta(0, "Cut"), item_done(0, done)
    )
    expect_fold(check, events, response(done))


@rule("RS-DONE-REPLACES", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS", "RS-OUTPUT-RECOVER")
def test_output_text_done_sets_the_parts_text(check: Check) -> None:
    # RQ22: the done text differs from the joined deltas; the .done event wins
    events = _recovered(
        item_added(0, _OPEN),
        part_added(0),
        text_delta(0, "Hel"),
        text_delta(0, "lo"),
        text_done(0, "Hello!"),
    )
    expect_fold(check, events, response(message(text_part("Hello!"))))


@rule("RS-DONE-REPLACES", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS", "RS-OUTPUT-RECOVER")
def test_output_text_done_alone_gives_the_text(check: Check) -> None:
    # family 3 (gpt-oss done-only text, RQ5's vllm path): no delta at all
    events = _recovered(item_added(0, _OPEN), part_added(0), text_done(0, "Only done."))
    expect_fold(check, events, response(message(text_part("Only done."))))


@rule("RS-DONE-REPLACES", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS", "RS-OUTPUT-RECOVER")
def test_content_part_done_replaces_the_part(check: Check) -> None:
    final = text_part(
        "Hello", logprobs=[{"token": "Hello", "logprob": -0.1, "bytes": [72], "top_logprobs": []}]
    )
    events = _recovered(
        item_added(0, _OPEN), part_added(0), text_delta(0, "Hel"), part_done(0, final)
    )
    expect_fold(check, events, response(message(final)))


@rule("RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS", "RS-OUTPUT-RECOVER")
def test_an_item_without_done_events_is_built_from_its_added_item_and_deltas(check: Check) -> None:
    # RQ4: no output_item.done at all before a successful terminal (opencode #37159)
    added = message(status="in_progress", phase="final_answer")
    events = _recovered(
        item_added(0, added), part_added(0), text_delta(0, "Hel"), text_delta(0, "lo")
    )
    expect_fold(check, events, response(message(text_part("Hello"), phase="final_answer")))


@rule("RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS", "RS-OUTPUT-RECOVER")
def test_content_part_added_gives_the_parts_other_fields(check: Check) -> None:
    part = text_part("", logprobs=[], x_part_tag="p1")
    events = _recovered(item_added(0, _OPEN), part_added(0, part), text_delta(0, "Hi"))
    expect_fold(check, events, response(message(text_part("Hi", x_part_tag="p1"))))


@rule("RS-RECOVER-STATUS", "RS-RECOVER-FROM-DELTAS", "RS-OUTPUT-RECOVER")
def test_an_unfinished_item_reads_completed_after_response_completed(check: Check) -> None:
    for status in ("in_progress", None, "", "  "):
        events = _recovered(
            item_added(0, message(status=status)), part_added(0), text_delta(0, "Hi")
        )
        expect_fold(check, events, response(message(text_part("Hi"))))


@rule("RS-RECOVER-STATUS", "RS-RECOVER-FROM-DELTAS", "RS-OUTPUT-RECOVER", "RS-INCOMPLETE")
def test_an_unfinished_item_reads_incomplete_after_response_incomplete(check: Check) -> None:
    # rs08: the API marks the item a max_output_tokens cut ends `incomplete`
    events = [
        created(),
        item_added(0, _OPEN),
        part_added(0),
        text_delta(0, "The answer is"),
        incomplete(),
    ]
    expected = response(
        message(text_part("The answer is"), status="incomplete"),
        status="incomplete",
        incomplete_details={"reason": "max_output_tokens"},
    )
    expect_fold(check, events, expected)


@rule("RS-RECOVER-STATUS", "RS-RECOVER-FROM-DELTAS", "RS-OUTPUT-RECOVER")
def test_an_announced_status_that_is_not_in_progress_is_kept(check: Check) -> None:
    events = _recovered(
        item_added(0, message(status="incomplete")), part_added(0), text_delta(0, "Hi")
    )
    expect_fold(check, events, response(message(text_part("Hi"), status="incomplete")))


@rule("RS-ORPHAN", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS", "RS-OUTPUT-RECOVER")
def test_content_events_without_any_announced_item_open_a_message(check: Check) -> None:
    # RQ5: gpt-oss via a gateway: "nine content events arrive while no item is open"
    events = _recovered(part_added(0), text_delta(0, "Hel"), text_delta(0, "lo"))
    expect_fold(check, events, response(message(text_part("Hello"))))


@rule("RS-ORPHAN", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS", "RS-OUTPUT-RECOVER")
def test_a_placeholder_has_no_id_when_the_event_has_none(check: Check) -> None:
    for item_id in (None, "", " "):
        events = _recovered(part_added(0, item_id=item_id), text_delta(0, "Hi", item_id=item_id))
        expected = message(text_part("Hi"))
        del expected["id"]
        expect_fold(check, events, response(expected))


@rule("RS-ORPHAN", "RS-ITEM-DONE-REPLACES", "RS-OUTPUT-RECOVER")
def test_content_events_finished_by_a_done_item_without_added_give_the_done_item(
    check: Check,
) -> None:
    # RQ5: openai-python raises "Received a content event for output index ... before
    # receiving its output item"
    done = message(text_part("Hello"))
    events = _recovered(
        part_added(0),
        text_delta(0, "Hello"),
        text_done(0, "Hello"),
        part_done(0, text_part("Hello")),
        item_done(0, done),
    )
    expect_fold(check, events, response(done))


@rule("RS-READD", "RS-ORPHAN", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS", "RS-OUTPUT-RECOVER")
def test_an_added_item_after_its_content_events_keeps_what_they_streamed(check: Check) -> None:
    # family 6: content before output_item.added; the announcement brings the identity
    added = message(id="msg_late", status="in_progress", phase="commentary")
    events = _recovered(
        part_added(0, item_id=None),
        text_delta(0, "Hel", item_id=None),
        item_added(0, added),
        text_delta(0, "lo", item_id="msg_late"),
    )
    expected = message(text_part("Hello"), id="msg_late", phase="commentary")
    expect_fold(check, events, response(expected))


@rule("RS-READD", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS", "RS-OUTPUT-RECOVER")
def test_a_second_added_item_at_an_index_takes_over_its_identity_and_keeps_its_parts(
    check: Check,
) -> None:
    events = _recovered(
        item_added(0, message(id="msg_a", status="in_progress")),
        part_added(0, item_id="msg_a"),
        text_delta(0, "Hel", item_id="msg_a"),
        item_added(0, message(id="msg_b", status="in_progress")),
        text_delta(0, "lo", item_id="msg_b"),
    )
    expect_fold(check, events, response(message(text_part("Hello"), id="msg_b")))


@rule("RS-READD", "RS-ITEM-DONE-REPLACES", "RS-OUTPUT-RECOVER")
def test_an_added_item_after_the_done_item_keeps_the_done_item(check: Check) -> None:
    done = message(text_part("Final"))
    events = _recovered(item_done(0, done), item_added(0, _OPEN))
    expect_fold(check, events, response(done))


@rule("RS-KIND-MATCH", "RS-HOSTED-ITEMS", "RS-OUTPUT-RECOVER")
def test_a_text_delta_routed_to_a_hosted_tool_item_changes_nothing(check: Check) -> None:
    # `searching` is neither blank nor in_progress: RS-RECOVER-STATUS leaves it
    searching = web_search(status="searching")
    events = _recovered(
        item_added(0, searching),
        part_added(0, item_id="ws_01"),
        text_delta(0, "stray", item_id="ws_01"),
        text_done(0, "stray", item_id="ws_01"),
    )
    expect_fold(check, events, response(searching))


@rule("RS-CONTENT-INDEX", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS", "RS-OUTPUT-RECOVER")
def test_interleaved_deltas_of_two_parts_join_by_content_index(check: Check) -> None:
    events = _recovered(
        item_added(0, _OPEN),
        part_added(0, content_index=0),
        part_added(0, content_index=1),
        text_delta(0, "A", content_index=0),
        text_delta(0, "1", content_index=1),
        text_delta(0, "B", content_index=0),
        text_delta(0, "2", content_index=1),
    )
    expect_fold(check, events, response(message(text_part("AB"), text_part("12"))))


@rule("RS-CONTENT-INDEX", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS", "RS-OUTPUT-RECOVER")
def test_parts_are_ordered_by_content_index_not_by_arrival(check: Check) -> None:
    events = _recovered(
        item_added(0, _OPEN),
        part_added(0, content_index=1),
        text_delta(0, "second", content_index=1),
        part_added(0, content_index=0),
        text_delta(0, "first", content_index=0),
    )
    expect_fold(check, events, response(message(text_part("first"), text_part("second"))))
