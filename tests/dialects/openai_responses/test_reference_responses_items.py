"""Output items of the OpenAI Responses fold: keys, routing, orphans, re-adds, done items.

One hand-written example per RS rule (or more); `RULES_CHECKED` names the rules each test
checks. Streams end with `output: []` (RQ1) unless the test is about the terminal output,
so that the streamed items are the result (RS-OUTPUT-RECOVER).
"""

from __future__ import annotations

from typing import Any

from refold.reference.responses import Accumulator, fold

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_streamed_items_are_ordered_by_output_index_gaps_closed": ("RS-OUTPUT-ORDER",),
    "test_items_are_keyed_by_output_index_and_ids_may_rotate": ("RS-KEY-OUTPUT-INDEX",),
    "test_an_item_event_without_a_usable_index_or_known_id_changes_nothing": (
        "RS-KEY-OUTPUT-INDEX",
        "RS-WRONG-TYPE",
    ),
    "test_an_announced_item_id_routes_an_event_whatever_its_output_index": ("RS-ROUTE",),
    "test_a_done_item_is_routed_by_its_id_when_its_index_drifted": (
        "RS-ROUTE",
        "RS-ITEM-DONE-REPLACES",
    ),
    "test_an_added_event_is_placed_by_its_output_index_and_the_id_follows_it": (
        "RS-ROUTE",
        "RS-READD",
    ),
    "test_a_placeholders_id_from_an_event_does_not_route_other_indexes": ("RS-ROUTE", "RS-ORPHAN"),
    "test_output_item_done_replaces_everything_streamed": ("RS-ITEM-DONE-REPLACES",),
    "test_the_last_done_item_wins_and_later_events_do_not_change_it": (
        "RS-ITEM-DONE-REPLACES",
        "LIFE-RS-AFTER",
    ),
    "test_an_item_without_done_is_its_added_item_with_parts_from_the_deltas": (
        "RS-RECOVER-FROM-DELTAS",
    ),
    "test_parts_an_added_item_already_holds_are_the_first_parts": (
        "RS-RECOVER-FROM-DELTAS",
        "RS-CONTENT-INDEX",
    ),
    "test_a_list_the_item_did_not_send_is_kept_as_sent": ("RS-RECOVER-FROM-DELTAS",),
    "test_unfinished_items_read_completed_after_response_completed": ("RS-RECOVER-STATUS",),
    "test_unfinished_items_read_incomplete_after_incomplete_or_failed": ("RS-RECOVER-STATUS",),
    "test_other_statuses_and_done_items_are_kept": ("RS-RECOVER-STATUS", "RS-HOSTED-ITEMS"),
    "test_content_before_its_added_opens_a_placeholder_of_the_implied_type": ("RS-ORPHAN",),
    "test_a_placeholder_without_item_id_has_no_id": ("RS-ORPHAN", "RS-CALL-IDS"),
    "test_an_orphan_done_item_is_the_item": ("RS-ORPHAN", "RS-ITEM-DONE-REPLACES"),
    "test_a_re_add_takes_over_identity_and_keeps_what_was_streamed": ("RS-READD",),
    "test_a_re_add_keeps_a_done_item_and_fills_only_what_is_empty": ("RS-READD",),
    "test_a_re_add_without_id_leaves_no_id": ("RS-READD", "RS-CALL-IDS"),
    "test_a_re_add_as_another_type_keeps_only_what_that_type_holds": (
        "RS-READD",
        "RS-HOSTED-ITEMS",
        "RS-KIND-MATCH",
    ),
    "test_an_event_that_does_not_fit_its_items_type_changes_nothing": ("RS-KIND-MATCH",),
    "test_hosted_items_are_kept_as_sent_and_their_status_events_change_nothing": (
        "RS-HOSTED-ITEMS",
    ),
    "test_a_hosted_status_event_alone_opens_a_placeholder_of_its_item_type": (
        "RS-HOSTED-ITEMS",
        "RS-ORPHAN",
    ),
    "test_reused_output_index_collisions_fold_without_raising": (
        "RS-READD",
        "RS-ROUTE",
        "RS-KIND-MATCH",
    ),
}

CREATED = {
    "type": "response.created",
    "response": {
        "id": "resp_1",
        "object": "response",
        "status": "in_progress",
        "model": "gpt-x",
        "output": [],
    },
}


def terminal(kind: str = "completed", output: Any = ()) -> dict[str, Any]:
    return {
        "type": f"response.{kind}",
        "response": {
            "id": "resp_1",
            "object": "response",
            "status": kind,
            "model": "gpt-x",
            "output": list(output),
        },
    }


def event(kind: str, index: Any = 0, **fields: Any) -> dict[str, Any]:
    return {"type": f"response.{kind}", "output_index": index, **fields}


def message(item_id: str = "msg_1", **fields: Any) -> dict[str, Any]:
    return {
        "type": "message",
        "id": item_id,
        "status": "in_progress",
        "role": "assistant",
        "content": [],
        **fields,
    }


def call(item_id: str | None = "fc_1", **fields: Any) -> dict[str, Any]:
    item = {
        "type": "function_call",
        "id": item_id,
        "call_id": "call_1",
        "name": "f",
        "arguments": "",
        "status": "in_progress",
        **fields,
    }
    return {key: value for key, value in item.items() if value is not None}


def text(
    value: str,
    item_id: str | None = "msg_1",
    index: Any = 0,
    part: Any = 0,
) -> dict[str, Any]:
    return event("output_text.delta", index, item_id=item_id, content_index=part, delta=value)


def args(value: str, item_id: str | None = "fc_1", index: Any = 0) -> dict[str, Any]:
    return event("function_call_arguments.delta", index, item_id=item_id, delta=value)


def output(*events: dict[str, Any], end: str = "completed") -> list[Any]:
    return fold([CREATED, *events, terminal(end)])["output"]  # type: ignore[no-any-return]


def texts(items: list[Any]) -> list[str]:
    return [
        part.get("text", part.get("refusal")) for item in items for part in item.get("content", [])
    ]


def test_streamed_items_are_ordered_by_output_index_gaps_closed() -> None:
    items = output(
        event("output_item.added", 5, item=message("msg_5")),
        event("output_item.added", 2, item=call()),
        text("x", "msg_5", 5),
    )
    assert [item["type"] for item in items] == ["function_call", "message"]


def test_items_are_keyed_by_output_index_and_ids_may_rotate() -> None:
    # RQ7: GitHub Copilot rotates item ids per event; output_index stays stable
    items = output(
        event("output_item.added", 0, item=message("rot_a")),
        text("Hel", "rot_b"),
        text("lo", "rot_c"),
        event("output_item.added", 1, item=call("rot_d")),
        args('{"a":', "rot_e", 1),
        args("1}", "rot_f", 1),
    )
    assert texts(items) == ["Hello"] and items[1]["arguments"] == '{"a":1}'
    assert items[0]["id"] == "rot_a" and items[1]["id"] == "rot_d"
    # 1.0 is the index 1 (RS-WRONG-TYPE: integral numbers are indexes)
    assert (
        output(event("output_item.added", 1.0, item=message()), text("y", None, 1))[0]["content"][
            0
        ]["text"]
        == "y"
    )


def test_an_item_event_without_a_usable_index_or_known_id_changes_nothing() -> None:
    for index in (None, -1, "0", 0.5, True):
        assert output(text("x", "unknown", index)) == [], index
        assert output(event("output_item.added", index, item=message())) == [], index
        assert output(event("output_item.done", index, item=message())) == [], index


def test_an_announced_item_id_routes_an_event_whatever_its_output_index() -> None:
    # RQ13: a later output_index on an item's events than on its added event
    items = output(
        event("output_item.added", 0, item=message()),
        text("a", "msg_1", 3),
        text("b", "msg_1", None),
    )
    assert len(items) == 1 and texts(items) == ["ab"]


def test_a_done_item_is_routed_by_its_id_when_its_index_drifted() -> None:
    done = {
        **message(),
        "status": "completed",
        "content": [{"type": "output_text", "text": "final", "annotations": []}],
    }
    items = output(
        event("output_item.added", 0, item=message()),
        text("fin"),
        event("output_item.done", 1, item=done),
    )
    assert items == [done]


def test_an_added_event_is_placed_by_its_output_index_and_the_id_follows_it() -> None:
    # [decision] output_item.added has no item_id: its output_index places it, and an id
    # announced again at another index names the later item from then on
    items = output(
        event("output_item.added", 0, item=message("dup")),
        text("a", "dup", 0),
        event("output_item.added", 1, item=message("dup")),
        text("b", "dup", 0),
    )
    assert texts(items) == ["a", "b"]


def test_a_placeholders_id_from_an_event_does_not_route_other_indexes() -> None:
    # [decision] only output_item.added announces an id; an orphan's item_id does not
    items = output(text("a", "msg_x", 0), text("b", "msg_x", 1))
    assert texts(items) == ["a", "b"]


def test_output_item_done_replaces_everything_streamed() -> None:
    # RQ3: the done item is the provider's final word (reasoning encrypted_content)
    done = {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [],
        "encrypted_content": "gAAA-final",
        "status": "completed",
    }
    items = output(
        event(
            "output_item.added",
            0,
            item={
                "type": "reasoning",
                "id": "rs_1",
                "summary": [],
                "encrypted_content": "gAAA-par",
            },
        ),
        event("reasoning_summary_text.delta", 0, item_id="rs_1", summary_index=0, delta="thinking"),
        event("output_item.done", 0, item=done),
    )
    assert items == [done]


def test_the_last_done_item_wins_and_later_events_do_not_change_it() -> None:
    first, last = call(arguments="{}", status="completed"), call(arguments='{"b":2}')
    items = output(
        event("output_item.added", 0, item=call()),
        event("output_item.done", 0, item=first),
        event("output_item.done", 0, item=last),
        args("late"),
    )
    assert items == [last]


def test_an_item_without_done_is_its_added_item_with_parts_from_the_deltas() -> None:
    # RQ4: no output_item.done before a successful terminal
    items = output(
        event("output_item.added", 0, item=message(x_vendor=1)),
        event(
            "content_part.added",
            0,
            item_id="msg_1",
            content_index=0,
            part={"type": "output_text", "text": "", "annotations": [], "logprobs": []},
        ),
        text("Hi"),
        text(" you"),
    )
    assert items == [
        {
            "type": "message",
            "id": "msg_1",
            "status": "completed",
            "role": "assistant",
            "x_vendor": 1,
            "content": [
                {"type": "output_text", "text": "Hi you", "annotations": [], "logprobs": []}
            ],
        }
    ]


def test_parts_an_added_item_already_holds_are_the_first_parts() -> None:
    seeded = message(
        content=[
            {"type": "output_text", "text": "Hel"},
            "junk",
            {"type": "refusal", "refusal": "No"},
        ]
    )
    items = output(
        event("output_item.added", 0, item=seeded),
        text("lo"),
        event(
            "content_part.added",
            0,
            item_id="msg_1",
            content_index=1,
            part={"type": "output_text", "text": ""},
        ),
        text("!", part=1),
    )
    assert texts(items) == ["Hello", "!", "No"]


def test_a_list_the_item_did_not_send_is_kept_as_sent() -> None:
    # a reasoning item sent with `content: null` and no content parts keeps it
    items = output(
        event("output_item.added", 0, item={"type": "reasoning", "id": "rs_1", "content": None})
    )
    assert items == [{"type": "reasoning", "id": "rs_1", "content": None, "status": "completed"}]
    bare = output(event("output_item.added", 0, item={"type": "message", "id": "m"}))
    assert bare == [{"type": "message", "id": "m", "status": "completed"}]


def test_unfinished_items_read_completed_after_response_completed() -> None:
    items = output(
        event("output_item.added", 0, item=message()),
        event("output_item.added", 1, item=call(status=None)),
        text("x", None, 7),
    )
    assert [item["status"] for item in items] == ["completed"] * 3  # placeholder too


def test_unfinished_items_read_incomplete_after_incomplete_or_failed() -> None:
    # rs08: the API marks a cut item incomplete
    for end in ("incomplete", "failed"):
        items = output(event("output_item.added", 0, item=message(status="")), text("x"), end=end)
        assert items[0]["status"] == "incomplete"


def test_other_statuses_and_done_items_are_kept() -> None:
    done = {**message(), "status": "in_progress"}  # as the provider finished it
    items = output(
        event(
            "output_item.added",
            0,
            item={"type": "web_search_call", "id": "ws_1", "status": "searching"},
        ),
        event("output_item.added", 1, item=message()),
        event("output_item.done", 1, item=done),
    )
    assert [item["status"] for item in items] == ["searching", "in_progress"]


def test_content_before_its_added_opens_a_placeholder_of_the_implied_type() -> None:
    # RQ5: content events before output_item.added, or an item never announced
    accumulator = Accumulator()
    for one in (
        CREATED,
        text("Hi", "msg_9", 0),
        args("{}", "fc_9", 1),
        event("reasoning_summary_text.delta", 2, item_id="rs_9", summary_index=0, delta="s"),
        event(
            "content_part.added",
            3,
            item_id="rs_8",
            content_index=0,
            part={"type": "reasoning_text", "text": "r"},
        ),
    ):
        accumulator.add(one)
    assert accumulator.response()["output"] == [
        {
            "type": "message",
            "id": "msg_9",
            "status": "in_progress",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Hi", "annotations": []}],
        },
        {"type": "function_call", "id": "fc_9", "status": "in_progress", "arguments": "{}"},
        {
            "type": "reasoning",
            "id": "rs_9",
            "status": "in_progress",
            "summary": [{"type": "summary_text", "text": "s"}],
        },
        {
            "type": "reasoning",
            "id": "rs_8",
            "status": "in_progress",
            "summary": [],
            "content": [{"type": "reasoning_text", "text": "r"}],
        },
    ]


def test_a_placeholder_without_item_id_has_no_id() -> None:
    items = output(args("{}", None), text("x", " ", 1))
    assert "id" not in items[0] and "id" not in items[1]


def test_an_orphan_done_item_is_the_item() -> None:
    done = call(arguments='{"q":1}', status="completed")
    assert output(event("output_item.done", 0, item=done)) == [done]
    # a done item that is not an object opens nothing
    assert output(event("output_item.done", 0, item=None)) == []


def test_a_re_add_takes_over_identity_and_keeps_what_was_streamed() -> None:
    # family 6: content events before their output_item.added
    items = output(
        args('{"a":', "fc_tmp", 0),
        text("lost", "fc_tmp", 0),
        event("output_item.added", 0, item=call("fc_1", name="g")),
        args("1}"),
    )
    assert items == [
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "g",
            "arguments": '{"a":1}',
            "status": "completed",
        }
    ]


def test_a_re_add_keeps_a_done_item_and_fills_only_what_is_empty() -> None:
    done = call(arguments="{}", status="completed")
    kept = output(
        event("output_item.done", 0, item=done),
        event("output_item.added", 0, item=call(name="other")),
    )
    assert kept == [done]
    filled = output(
        event("output_item.added", 0, item=call()),
        event("output_item.added", 0, item=call(arguments='{"x":1}')),
    )
    assert filled[0]["arguments"] == '{"x":1}'  # nothing was streamed yet: filled
    streamed = output(
        event("output_item.added", 0, item=call()),
        args("{}"),
        event("output_item.added", 0, item=call(arguments='{"x":1}')),
    )
    assert streamed[0]["arguments"] == "{}"
    closed = output(
        event("output_item.added", 0, item=call()),
        event("function_call_arguments.done", 0, item_id="fc_1", arguments=""),
        event("output_item.added", 0, item=call(arguments='{"x":1}')),
    )
    assert closed[0]["arguments"] == ""  # the done event is the final word


def test_a_re_add_as_another_type_keeps_only_what_that_type_holds() -> None:
    # RS-READD keeps what was streamed "for it": read as what the re-added item's type
    # holds. A hosted item is kept as sent (RS-HOSTED-ITEMS), so an orphan's text does
    # not become its `content`; a message re-added keeps it. The spec does not say which
    # type "for it" means: this pins the reference's reading
    hosted = {"type": "file_search_call", "id": "fs_1", "status": "in_progress", "queries": []}
    completed = {**hosted, "status": "completed"}  # RS-RECOVER-STATUS
    assert output(text("x", None), event("output_item.added", item=hosted)) == [completed]
    kept = output(text("x", None), event("output_item.added", item=message()))
    assert texts(kept) == ["x"]


def test_a_re_add_without_id_leaves_no_id() -> None:
    # RQ10: a function_call with call_id but no id is allowed, and stays without one
    items = output(args("{}", "fc_tmp_1"), event("output_item.added", 0, item=call(None)))
    assert "id" not in items[0] and items[0]["call_id"] == "call_1"


def test_an_event_that_does_not_fit_its_items_type_changes_nothing() -> None:
    items = output(
        event("output_item.added", 0, item=call()),
        event("output_item.added", 1, item=message()),
        text("not args", "fc_1", 0),
        args("not text", "msg_1", 1),
        event("reasoning_text.delta", 1, item_id="msg_1", content_index=0, delta="r"),
        event("output_item.added", 2, item={"id": "untyped"}),
        text("u", None, 2),
    )
    assert items[0]["arguments"] == "" and "content" not in items[0]
    assert items[1]["content"] == [] and "arguments" not in items[1]
    assert items[2] == {"id": "untyped", "status": "completed"}


def test_hosted_items_are_kept_as_sent_and_their_status_events_change_nothing() -> None:
    item = {
        "type": "web_search_call",
        "id": "ws_1",
        "status": "in_progress",
        "action": {"type": "search", "query": "q"},
    }
    done = {**item, "status": "completed"}
    streamed = [
        event("output_item.added", 0, item=item),
        event("web_search_call.in_progress", 0, item_id="ws_1"),
        event("web_search_call.searching", 0, item_id="ws_1"),
        event("web_search_call.completed", 0, item_id="ws_1"),
    ]
    accumulator = Accumulator()
    for one in (CREATED, *streamed):
        accumulator.add(one)
    assert accumulator.response()["output"] == [item]  # statuses as announced
    assert output(*streamed, event("output_item.done", 0, item=done)) == [done]
    assert output(*streamed) == [done]  # RS-RECOVER-STATUS on the announced in_progress


def test_a_hosted_status_event_alone_opens_a_placeholder_of_its_item_type() -> None:
    items = output(
        event("code_interpreter_call_code.delta", 0, item_id="ci_1", delta="x"),
        event("image_generation_call.partial_image", 1, item_id="ig_1"),
        event("mcp_list_tools.failed", 2, item_id="ml_1"),
    )
    assert [(item["type"], item["id"], item["status"]) for item in items] == [
        ("code_interpreter_call", "ci_1", "completed"),
        ("image_generation_call", "ig_1", "completed"),
        ("mcp_list_tools", "ml_1", "completed"),
    ]


def test_reused_output_index_collisions_fold_without_raising() -> None:
    # RQ13: a gateway reuses index 0 for a message and a call (checked differentially):
    # the second added takes over the item; the message's text no longer fits it
    items = output(
        event("output_item.added", 0, item=message()),
        text("Hi", "msg_1", 0),
        event("output_item.added", 0, item=call()),
        args("{}", "fc_1", 0),
        text("more", "msg_1", 0),
    )
    assert items == [
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "f",
            "arguments": "{}",
            "status": "completed",
        }
    ]
