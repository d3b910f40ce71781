"""Rule examples: text, refusal, reasoning, annotations and hosted items (RS-TEXT-JOIN,
RS-REFUSAL, RS-REASONING-SUMMARY, RS-REASONING-TEXT, RS-ANNOTATIONS, RS-HOSTED-ITEMS).

Deltas show only in streamed items, so the streams end with `output: []` and no done
event (family 4): every delta test leans on RS-OUTPUT-RECOVER, RS-RECOVER-FROM-DELTAS
and RS-RECOVER-STATUS as well."""

from __future__ import annotations

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    RS,
    annotation_added,
    completed,
    created,
    in_progress,
    item_added,
    item_done,
    message,
    numbered,
    part_added,
    reasoning,
    reasoning_delta,
    reasoning_done,
    reasoning_text,
    refusal_delta,
    refusal_done,
    refusal_part,
    response,
    summary_delta,
    summary_done,
    summary_part_added,
    summary_part_done,
    summary_text,
    text_delta,
    text_part,
    text_stream,
    web_search,
)
from ._expect import add_all, expect_fold, expect_response

_OPEN = message(status="in_progress")
_RECOVERED = ("RS-OUTPUT-RECOVER", "RS-RECOVER-FROM-DELTAS", "RS-RECOVER-STATUS")
_CITATION: JSONObject = {
    "type": "url_citation",
    "start_index": 0,
    "end_index": 5,
    "url": "https://example.com/paris",
    "title": "Paris weather",
}
_FILE: JSONObject = {
    "type": "file_citation",
    "file_id": "file-01",
    "filename": "notes.pdf",
    "index": 5,
}


def _recovered(*events: JSONObject) -> list[JSONObject]:
    return [created(), *events, completed()]


def _joined(*deltas: str) -> list[JSONObject]:
    return _recovered(
        item_added(0, _OPEN), part_added(0), *(text_delta(0, delta) for delta in deltas)
    )


@rule("RS-TEXT-JOIN", "LIFE-RS-SNAPSHOT")
def test_text_deltas_join_in_the_snapshot_of_openais_own_stream(check: Check) -> None:
    # on OpenAI's own stream the terminal brings the whole text; the join shows in the
    # snapshot read after the last delta
    events = numbered(text_stream("Hel", "lo ", "wor", "ld"))
    last = max(n for n, e in enumerate(events) if e["type"] == "response.output_text.delta")
    acc = check.accumulator()
    add_all(acc, events[: last + 1])
    expected = response(
        message(text_part("Hello world"), status="in_progress"), status="in_progress"
    )
    expect_response(
        check,
        acc.response(),
        expected,
        events=list(acc.events),
        rules=("RS-TEXT-JOIN",),
        when="the snapshot after the last delta",
    )
    add_all(acc, events[last + 1 :])
    expect_response(
        check,
        acc.response(),
        response(message(text_part("Hello world"))),
        events=list(acc.events),
        when="the fold",
    )


@rule("RS-TEXT-JOIN", *_RECOVERED)
def test_text_deltas_join_verbatim_in_arrival_order(check: Check) -> None:
    deltas = (" Hello", "", ",\r\n", "  wor", "ld ", "\t", "caf\u00e9 \U0001f600", "")
    expect_fold(check, _joined(*deltas), response(message(text_part("".join(deltas)))))


@rule("RS-TEXT-JOIN", *_RECOVERED)
def test_whitespace_only_and_repeated_deltas_are_text(check: Check) -> None:
    # nothing is deduplicated: the same delta twice is two characters
    expect_fold(check, _joined("a", "a", " ", " ", "\n"), response(message(text_part("aa  \n"))))


@rule("RS-TEXT-JOIN", *_RECOVERED)
def test_each_message_joins_its_own_deltas(check: Check) -> None:
    events = _recovered(
        item_added(0, message(id="msg_a", status="in_progress")),
        item_added(1, message(id="msg_b", status="in_progress")),
        part_added(0, item_id="msg_a"),
        part_added(1, item_id="msg_b"),
        text_delta(0, "one ", item_id="msg_a"),
        text_delta(1, "two ", item_id="msg_b"),
        text_delta(0, "three", item_id="msg_a"),
    )
    expect_fold(
        check,
        events,
        response(
            message(text_part("one three"), id="msg_a"), message(text_part("two "), id="msg_b")
        ),
    )


@rule("RS-REFUSAL", *_RECOVERED)
def test_refusal_deltas_join_into_the_refusal_part(check: Check) -> None:
    # RQ21: litellm's bridge drops refusals
    events = _recovered(
        item_added(0, _OPEN),
        part_added(0, refusal_part()),
        refusal_delta(0, "I can't "),
        refusal_delta(0, "help with that."),
    )
    expect_fold(check, events, response(message(refusal_part("I can't help with that."))))


@rule("RS-REFUSAL", "RS-DONE-REPLACES", *_RECOVERED)
def test_refusal_done_sets_the_refusal(check: Check) -> None:
    # LangChain reads only refusal.done; here the deltas and the done differ (RQ22)
    events = _recovered(
        item_added(0, _OPEN),
        part_added(0, refusal_part()),
        refusal_delta(0, "I can't"),
        refusal_done(0, "I can't help with that."),
    )
    expect_fold(check, events, response(message(refusal_part("I can't help with that."))))


@rule("RS-REFUSAL", *_RECOVERED)
def test_refusal_text_never_enters_the_output_text_part(check: Check) -> None:
    events = _recovered(
        item_added(0, _OPEN),
        part_added(0, content_index=0),
        part_added(0, refusal_part(), content_index=1),
        text_delta(0, "Sure", content_index=0),
        refusal_delta(0, "No.", content_index=1),
        refusal_delta(0, " Not that.", content_index=0),
    )
    expected = message(text_part("Sure"), refusal_part("No."))
    expect_fold(check, events, response(expected))


@rule("RS-REASONING-SUMMARY", *_RECOVERED)
def test_summary_deltas_join_by_summary_index(check: Check) -> None:
    events = _recovered(
        item_added(0, reasoning(status="in_progress")),
        summary_part_added(0, 0),
        summary_delta(0, "**Plan** ", 0),
        summary_part_added(0, 1),
        summary_delta(0, "Second", 1),
        summary_delta(0, "read the docs", 0),
        summary_delta(0, " thought", 1),
    )
    expected = reasoning(
        summary_text("**Plan** read the docs"), summary_text("Second thought"), status="completed"
    )
    expect_fold(check, events, response(expected))


@rule("RS-REASONING-SUMMARY", "RS-DONE-REPLACES", *_RECOVERED)
def test_summary_done_and_summary_part_done_replace_the_summary_text(check: Check) -> None:
    events = _recovered(
        item_added(0, reasoning(status="in_progress")),
        summary_part_added(0, 0),
        summary_delta(0, "dra", 0),
        summary_done(0, "draft", 0),
        summary_part_added(0, 1),
        summary_delta(0, "x", 1),
        summary_part_done(0, summary_text("final"), 1),
    )
    expect_fold(
        check,
        events,
        response(reasoning(summary_text("draft"), summary_text("final"), status="completed")),
    )


@rule("RS-REASONING-SUMMARY", "RS-ITEM-DONE-REPLACES", "RS-OUTPUT-RECOVER")
def test_a_reasoning_items_done_item_keeps_its_encrypted_content(check: Check) -> None:
    # the docs: encrypted_content on output_item.added may be incomplete
    done = reasoning(summary_text("Thinking"), encrypted_content="gAAAAB-whole")
    events = _recovered(
        item_added(0, reasoning(encrypted_content="gAAAA")),
        summary_part_added(0),
        summary_delta(0, "Think"),
        item_done(0, done),
    )
    expect_fold(check, events, response(done))


@rule("RS-REASONING-TEXT", *_RECOVERED)
def test_reasoning_text_deltas_join_into_the_content_part(check: Check) -> None:
    # RQ20: gpt-oss streams reasoning_text; openai-python ignores it
    events = _recovered(
        item_added(0, reasoning(status="in_progress")),
        part_added(0, reasoning_text(), item_id=RS),
        reasoning_delta(0, "The user "),
        reasoning_delta(0, "asks about Paris."),
    )
    expected = reasoning(content=[reasoning_text("The user asks about Paris.")], status="completed")
    expect_fold(check, events, response(expected))


@rule("RS-REASONING-TEXT", "RS-DONE-REPLACES", *_RECOVERED)
def test_reasoning_text_done_sets_the_reasoning_text(check: Check) -> None:
    events = _recovered(
        item_added(0, reasoning(status="in_progress")),
        part_added(0, reasoning_text(), item_id=RS),
        reasoning_delta(0, "Hm"),
        reasoning_done(0, "Hmm, Paris."),
    )
    expect_fold(
        check,
        events,
        response(reasoning(content=[reasoning_text("Hmm, Paris.")], status="completed")),
    )


@rule("RS-ANNOTATIONS", *_RECOVERED)
def test_an_annotation_is_put_on_its_part(check: Check) -> None:
    # RQ14: rig #2539, bifrost #5061: annotation.added unhandled

    events = _recovered(
        item_added(0, _OPEN),
        part_added(0),
        text_delta(0, "Paris is sunny."),
        annotation_added(0, _CITATION, 0),
        annotation_added(0, _FILE, 1),
    )
    expected = message(text_part("Paris is sunny.", annotations=[_CITATION, _FILE]))
    expect_fold(check, events, response(expected))


@rule("RS-ANNOTATIONS", "RS-CONTENT-INDEX", *_RECOVERED)
def test_an_annotation_goes_to_the_part_at_its_content_index(check: Check) -> None:

    events = _recovered(
        item_added(0, _OPEN),
        part_added(0, content_index=0),
        part_added(0, content_index=1),
        text_delta(0, "A", content_index=0),
        text_delta(0, "B", content_index=1),
        annotation_added(0, _CITATION, 0, content_index=1),
    )
    expected = message(text_part("A"), text_part("B", annotations=[_CITATION]))
    expect_fold(check, events, response(expected))


@rule("RS-ANNOTATIONS", "RS-CONTENT-INDEX", *_RECOVERED)
def test_an_annotation_index_past_the_end_appends(check: Check) -> None:

    events = _recovered(
        item_added(0, _OPEN),
        part_added(0),
        text_delta(0, "Hi"),
        annotation_added(0, _CITATION, 0),
        annotation_added(0, _FILE, 7),
    )
    expected = message(text_part("Hi", annotations=[_CITATION, _FILE]))
    expect_fold(check, events, response(expected))


@rule("RS-HOSTED-ITEMS", "RS-OUTPUT-RECOVER")
def test_hosted_tool_status_events_leave_the_done_item_as_sent(check: Check) -> None:
    done = web_search(status="completed", results_count=3)
    events = _recovered(
        item_added(0, web_search(status="in_progress")),
        {"type": "response.web_search_call.in_progress", "output_index": 0, "item_id": "ws_01"},
        {"type": "response.web_search_call.searching", "output_index": 0, "item_id": "ws_01"},
        {"type": "response.web_search_call.completed", "output_index": 0, "item_id": "ws_01"},
        item_done(0, done),
    )
    expect_fold(check, events, response(done))


@rule("RS-HOSTED-ITEMS", "RS-OUTPUT-RECOVER")
def test_items_of_every_hosted_type_are_kept_as_sent(check: Check) -> None:
    items: list[JSONObject] = [
        {
            "type": "file_search_call",
            "id": "fs_01",
            "status": "completed",
            "queries": ["q"],
            "results": None,
        },
        {
            "type": "code_interpreter_call",
            "id": "ci_01",
            "status": "completed",
            "code": "print(1)",
            "container_id": "cntr_01",
            "outputs": [{"type": "logs", "logs": "1\n"}],
        },
        {
            "type": "image_generation_call",
            "id": "ig_01",
            "status": "completed",
            "result": "iVBORw0KGgo=",
        },
        {
            "type": "mcp_call",
            "id": "mcp_01",
            "name": "lookup",
            "server_label": "docs",
            "arguments": '{"q": 1}',
            "output": "ok",
            "error": None,
        },
        {"type": "x_vendor_call", "id": "xv_01", "payload": {"n": 1}},
    ]
    events = _recovered(
        *(e for i, item in enumerate(items) for e in (item_added(i, item), item_done(i, item)))
    )
    expect_fold(check, events, response(*items))


@rule("RS-HOSTED-ITEMS", "RS-TERMINAL-BASE")
def test_hosted_items_in_the_terminal_output_are_kept_as_sent(check: Check) -> None:
    answer = message(text_part("Sunny."))
    events = [created(), in_progress(), completed(web_search(), answer)]
    expect_fold(check, events, response(web_search(), answer))
