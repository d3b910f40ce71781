"""Text, refusal, reasoning, annotations and function-call arguments of the Responses fold.

One hand-written example per RS rule (or more); `RULES_CHECKED` names the rules each test
checks. Streams end with `output: []` (RQ1) so that the streamed items are the result.
"""

from __future__ import annotations

from typing import Any

from refold.reference.responses import fold

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_text_is_its_deltas_joined_verbatim_in_arrival_order": ("RS-TEXT-JOIN",),
    "test_a_part_added_with_text_is_the_prefix_of_its_deltas": ("RS-TEXT-JOIN",),
    "test_refusal_deltas_join_into_a_refusal_part_never_into_text": ("RS-REFUSAL",),
    "test_summary_text_joins_by_summary_index": ("RS-REASONING-SUMMARY",),
    "test_reasoning_text_joins_by_content_index": ("RS-REASONING-TEXT",),
    "test_annotations_are_placed_at_their_index_and_appended_past_the_end": (
        "RS-ANNOTATIONS",
        "RS-CONTENT-INDEX",
    ),
    "test_annotations_join_those_the_part_was_added_with": ("RS-ANNOTATIONS",),
    "test_parts_are_keyed_by_content_index_gaps_closed": ("RS-CONTENT-INDEX",),
    "test_a_second_part_added_takes_over_and_keeps_the_streamed_text": ("RS-CONTENT-INDEX",),
    "test_a_re_added_part_takes_deltas_as_its_new_type_defines_them": ("RS-CONTENT-INDEX",),
    "test_text_streamed_as_one_part_type_never_crosses_into_another": (
        "RS-REFUSAL",
        "RS-KIND-MATCH",
    ),
    "test_a_part_of_a_type_no_delta_is_defined_for_is_kept_exactly": (
        "RS-CONTENT-INDEX",
        "RS-UNKNOWN-KEYS",
    ),
    "test_an_annotation_opens_the_list_of_a_part_added_without_one": ("RS-ANNOTATIONS",),
    "test_summary_parts_an_added_reasoning_item_holds_take_deltas": ("RS-REASONING-SUMMARY",),
    "test_text_done_replaces_the_joined_deltas": ("RS-DONE-REPLACES",),
    "test_content_part_done_replaces_the_part_exactly": ("RS-DONE-REPLACES",),
    "test_deltas_after_a_done_change_nothing_and_a_later_done_still_sets": ("RS-DONE-REPLACES",),
    "test_reasoning_done_events_replace_text_and_summary_parts": ("RS-DONE-REPLACES",),
    "test_a_done_event_without_a_string_value_sets_nothing": ("RS-DONE-REPLACES", "RS-WRONG-TYPE"),
    "test_call_id_and_id_are_two_fields_kept_as_sent": ("RS-CALL-IDS",),
    "test_arguments_join_onto_the_added_items_arguments": ("RS-ARGS-JOIN",),
    "test_arguments_done_replaces_the_deltas": ("RS-ARGS-JOIN", "RS-DONE-REPLACES"),
    "test_arguments_only_on_done_events": ("RS-ARGS-JOIN", "RS-DONE-REPLACES"),
    "test_arguments_are_never_parsed_repaired_or_defaulted": ("RS-ARGS-RAW",),
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
COMPLETED = {
    "type": "response.completed",
    "response": {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "model": "gpt-x",
        "output": [],
    },
}
MESSAGE = {
    "type": "message",
    "id": "msg_1",
    "status": "in_progress",
    "role": "assistant",
    "content": [],
}
REASONING = {"type": "reasoning", "id": "rs_1", "summary": []}


def event(kind: str, item_id: str = "msg_1", **fields: Any) -> dict[str, Any]:
    return {"type": f"response.{kind}", "item_id": item_id, "output_index": 0, **fields}


def added(item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "response.output_item.added", "output_index": 0, "item": item}


def part_added(part: dict[str, Any], index: int = 0) -> dict[str, Any]:
    return event("content_part.added", content_index=index, part=part)


def text(value: Any, index: Any = 0) -> dict[str, Any]:
    return event("output_text.delta", content_index=index, delta=value)


def item(*events: dict[str, Any], first: dict[str, Any] = MESSAGE) -> Any:
    return fold([CREATED, added(first), *events, COMPLETED])["output"][0]


def content(*events: dict[str, Any]) -> Any:
    return item(*events)["content"]


def test_text_is_its_deltas_joined_verbatim_in_arrival_order() -> None:
    deltas = ["", " Hi", "", "  ", "é\u0301", "😀", "\n", "\\u00e9"]
    parts = content(
        part_added({"type": "output_text", "text": "", "annotations": []}),
        *(text(delta) for delta in deltas),
    )
    assert parts == [{"type": "output_text", "text": "".join(deltas), "annotations": []}]


def test_a_part_added_with_text_is_the_prefix_of_its_deltas() -> None:
    # [decision] like the arguments of output_item.added (RS-ARGS-JOIN)
    parts = content(part_added({"type": "output_text", "text": "He"}), text("llo"))
    assert parts[0]["text"] == "Hello"


def test_refusal_deltas_join_into_a_refusal_part_never_into_text() -> None:
    # RQ21: refusals dropped or mis-merged
    parts = content(
        part_added({"type": "output_text", "text": ""}),
        event("refusal.delta", content_index=0, delta="no"),
        part_added({"type": "refusal", "refusal": ""}, 1),
        event("refusal.delta", content_index=1, delta="I can't"),
        event("refusal.delta", content_index=1, delta=" help."),
        text("x", 1),
        event("refusal.delta", content_index=2, delta="opened"),
    )
    assert parts == [
        {"type": "output_text", "text": ""},
        {"type": "refusal", "refusal": "I can't help."},
        {"type": "refusal", "refusal": "opened"},
    ]


def test_summary_text_joins_by_summary_index() -> None:
    summary = item(
        event(
            "reasoning_summary_part.added",
            "rs_1",
            summary_index=0,
            part={"type": "summary_text", "text": ""},
        ),
        event("reasoning_summary_text.delta", "rs_1", summary_index=0, delta="First"),
        event("reasoning_summary_text.delta", "rs_1", summary_index=1, delta="Second"),
        event("reasoning_summary_text.delta", "rs_1", summary_index=0, delta=" step"),
        first=REASONING,
    )["summary"]
    assert summary == [
        {"type": "summary_text", "text": "First step"},
        {"type": "summary_text", "text": "Second"},
    ]


def test_reasoning_text_joins_by_content_index() -> None:
    # RQ20: gpt-oss reasoning text, ignored by openai-python
    reasoning = item(
        event(
            "content_part.added",
            "rs_1",
            content_index=0,
            part={"type": "reasoning_text", "text": ""},
        ),
        event("reasoning_text.delta", "rs_1", content_index=0, delta="Let me "),
        event("reasoning_text.delta", "rs_1", content_index=0, delta="think."),
        first=REASONING,
    )
    assert reasoning["content"] == [{"type": "reasoning_text", "text": "Let me think."}]
    assert reasoning["summary"] == []


def test_annotations_are_placed_at_their_index_and_appended_past_the_end() -> None:
    # RQ14: annotation.added events dropped by bridges
    def annotation(index: Any, url: str) -> dict[str, Any]:
        return event(
            "output_text.annotation.added",
            content_index=0,
            annotation_index=index,
            annotation={"type": "url_citation", "url": url},
        )

    parts = content(
        part_added({"type": "output_text", "text": "", "annotations": []}),
        text("See"),
        annotation(0, "a"),
        annotation(5, "b"),
        annotation(0, "c"),
        annotation(None, "d"),
        annotation(1, "e"),
        event(
            "output_text.annotation.added",
            content_index=0,
            annotation_index=9,
            annotation="not an object",
        ),
    )
    assert [a["url"] for a in parts[0]["annotations"]] == ["c", "e", "d"]


def test_annotations_join_those_the_part_was_added_with() -> None:
    first = {"type": "file_citation", "file_id": "f1", "index": 0}
    parts = content(
        part_added({"type": "output_text", "text": "", "annotations": [first]}),
        event(
            "output_text.annotation.added",
            content_index=0,
            annotation_index=1,
            annotation={"type": "file_citation", "file_id": "f2"},
        ),
        event(
            "output_text.annotation.added",
            content_index=1,
            annotation_index=0,
            annotation={"type": "url_citation", "url": "u"},
        ),
    )
    assert [a.get("file_id") for a in parts[0]["annotations"]] == ["f1", "f2"]
    assert parts[1] == {
        "type": "output_text",
        "text": "",
        "annotations": [{"type": "url_citation", "url": "u"}],
    }


def test_parts_are_keyed_by_content_index_gaps_closed() -> None:
    parts = content(
        part_added({"type": "output_text", "text": ""}, 4),
        text("b", 4),
        part_added({"type": "output_text", "text": ""}, 1),
        text("a", 1),
        text("wrong index", "1"),
    )
    assert [part["text"] for part in parts] == ["a", "b"]


def test_a_second_part_added_takes_over_and_keeps_the_streamed_text() -> None:
    # deltas before their content_part.added (RQ5, family 6)
    parts = content(
        text("Hi"),
        part_added({"type": "output_text", "text": "", "annotations": [], "logprobs": []}),
        part_added({"type": "output_text", "text": "unused", "x": 1}),
        part_added({"type": "refusal", "refusal": "R"}, 1),
        part_added({"type": "refusal", "refusal": "S"}, 1),
        part_added({"type": "custom"}, 2),
        part_added({"type": "output_text", "text": "T", "annotations": [{"type": "a"}]}, 2),
    )
    assert parts == [
        {"type": "output_text", "text": "Hi", "x": 1, "annotations": []},
        {"type": "refusal", "refusal": "R"},
        {"type": "output_text", "text": "T", "annotations": [{"type": "a"}]},
    ]


def test_a_re_added_part_takes_deltas_as_its_new_type_defines_them() -> None:
    opened = [
        part_added({"type": "custom"}),
        part_added({"type": "output_text", "text": "T"}),
        text("U"),
    ]
    assert content(*opened) == [{"type": "output_text", "text": "TU"}]
    assert content(*opened, part_added({"type": "custom", "v": 1}), text("lost")) == [
        {"type": "custom", "v": 1}
    ]
    done = content(
        text("x"),
        event("output_text.done", content_index=0, text=""),
        part_added({"type": "output_text", "text": "late"}),
    )
    assert done == [{"type": "output_text", "text": "", "annotations": []}]  # done "" stands


def test_text_streamed_as_one_part_type_never_crosses_into_another() -> None:
    # a delta before any part.added opens a placeholder of its type; a part.added of
    # another type at that index takes over as sent: refusal text never enters an
    # output_text part (RS-REFUSAL), nor output text a refusal or reasoning part
    refusal = event("refusal.delta", content_index=0, delta="no")
    assert content(refusal, part_added({"type": "output_text", "text": ""})) == [
        {"type": "output_text", "text": ""}
    ]
    assert content(text("hi"), part_added({"type": "refusal", "refusal": ""})) == [
        {"type": "refusal", "refusal": ""}
    ]
    assert content(text("hi"), part_added({"type": "reasoning_text", "text": "r"})) == [
        {"type": "reasoning_text", "text": "r"}
    ]
    assert content(refusal, part_added({"type": "refusal", "refusal": ""})) == [
        {"type": "refusal", "refusal": "no"}
    ]


def test_a_part_of_a_type_no_delta_is_defined_for_is_kept_exactly() -> None:
    sent = {"type": "input_image", "image_url": "u", "detail": None}
    assert content(
        part_added(sent),
        text("x"),
        event("content_part.added", content_index=1, part={"text": "no type"}),
    ) == [sent, {"text": "no type"}]


def test_an_annotation_opens_the_list_of_a_part_added_without_one() -> None:
    parts = content(
        part_added({"type": "output_text", "text": ""}),
        event(
            "output_text.annotation.added",
            content_index=0,
            annotation_index=0,
            annotation={"type": "url_citation", "url": "u"},
        ),
    )
    assert parts == [
        {"type": "output_text", "text": "", "annotations": [{"type": "url_citation", "url": "u"}]}
    ]
    # a later part.added keeps the annotations streamed for the part
    again = content(
        *(
            event(
                "output_text.annotation.added",
                content_index=0,
                annotation_index=0,
                annotation={"type": "streamed"},
            ),
            part_added({"type": "output_text", "text": "", "annotations": [{"type": "announced"}]}),
        )
    )
    assert again[0]["annotations"] == [{"type": "streamed"}]


def test_summary_parts_an_added_reasoning_item_holds_take_deltas() -> None:
    summary = item(
        event("reasoning_summary_text.delta", "rs_1", summary_index=0, delta=" more"),
        first={**REASONING, "summary": [{"type": "summary_text", "text": "s"}]},
    )["summary"]
    assert summary == [{"type": "summary_text", "text": "s more"}]


def test_text_done_replaces_the_joined_deltas() -> None:
    # RQ22: the .done differs from the joined deltas
    parts = content(
        part_added({"type": "output_text", "text": ""}),
        text("Hel"),
        event("output_text.done", content_index=0, text="Hello."),
        event("refusal.done", content_index=1, refusal="No."),
    )
    assert parts == [
        {"type": "output_text", "text": "Hello."},
        {"type": "refusal", "refusal": "No."},
    ]


def test_content_part_done_replaces_the_part_exactly() -> None:
    done = {
        "type": "output_text",
        "text": "final",
        "annotations": [{"type": "u"}],
        "logprobs": [{"token": "f"}],
    }
    parts = content(
        part_added({"type": "output_text", "text": ""}),
        text("fin"),
        event("content_part.done", content_index=0, part=done),
        event("content_part.done", content_index=3, part={"type": "odd"}),
    )
    assert parts == [done, {"type": "odd"}]


def test_deltas_after_a_done_change_nothing_and_a_later_done_still_sets() -> None:
    parts = content(
        text("a"),
        event("output_text.done", content_index=0, text="A"),
        text("late"),
        event("content_part.done", content_index=1, part={"type": "output_text", "text": "B"}),
        text("late", 1),
        event(
            "output_text.annotation.added",
            content_index=1,
            annotation_index=0,
            annotation={"type": "late"},
        ),
        event("output_text.done", content_index=1, text="B2"),
    )
    assert parts == [
        {"type": "output_text", "text": "A", "annotations": []},
        {"type": "output_text", "text": "B2"},
    ]


def test_reasoning_done_events_replace_text_and_summary_parts() -> None:
    reasoning = item(
        event("reasoning_summary_text.delta", "rs_1", summary_index=0, delta="dra"),
        event("reasoning_summary_text.done", "rs_1", summary_index=0, text="draft"),
        event(
            "reasoning_summary_part.done",
            "rs_1",
            summary_index=1,
            part={"type": "summary_text", "text": "two"},
        ),
        event("reasoning_text.delta", "rs_1", content_index=0, delta="th"),
        event("reasoning_text.done", "rs_1", content_index=0, text="thought"),
        first=REASONING,
    )
    assert reasoning["summary"] == [
        {"type": "summary_text", "text": "draft"},
        {"type": "summary_text", "text": "two"},
    ]
    assert reasoning["content"] == [{"type": "reasoning_text", "text": "thought"}]


def test_a_done_event_without_a_string_value_sets_nothing() -> None:
    parts = content(
        text("kept"),
        text(7),
        text(None),
        event("output_text.done", content_index=0, text=None),
        event("content_part.done", content_index=0, part="x"),
        event("content_part.added", content_index=0, part=["x"]),
    )
    assert parts == [{"type": "output_text", "text": "kept", "annotations": []}]


def test_call_id_and_id_are_two_fields_kept_as_sent() -> None:
    # RQ9: OpenRouter's fc_tmp_* item ids vs call_* call ids
    call = {
        "type": "function_call",
        "id": "fc_tmp_1",
        "call_id": "call_abc",
        "name": "get",
        "arguments": "",
        "status": "in_progress",
    }
    folded = item(event("function_call_arguments.delta", "fc_tmp_1", delta="{}"), first=call)
    assert (folded["id"], folded["call_id"], folded["name"]) == ("fc_tmp_1", "call_abc", "get")


CALL = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_1",
    "name": "f",
    "arguments": "",
    "status": "in_progress",
}


def arguments(*events: dict[str, Any], first: dict[str, Any] = CALL) -> Any:
    return item(*events, first=first)["arguments"]


def args(value: Any) -> dict[str, Any]:
    return event("function_call_arguments.delta", "fc_1", delta=value)


def test_arguments_join_onto_the_added_items_arguments() -> None:
    assert arguments(args('{"city":'), args(""), args(' "Paris"}')) == '{"city": "Paris"}'
    assert arguments(args('"}'), first={**CALL, "arguments": '{"a": "'}) == '{"a": ""}'
    assert arguments(args("x"), first={**CALL, "arguments": {"parsed": True}}) == "x"


def test_arguments_done_replaces_the_deltas() -> None:
    done = event("function_call_arguments.done", "fc_1", arguments='{"a":1}', name="ignored")
    assert arguments(args('{"a"'), done, args("late")) == '{"a":1}'
    blank = event("function_call_arguments.done", "fc_1", arguments={"a": 1})
    assert arguments(args('{"a"'), blank, args(":2}")) == '{"a":2}'  # RS-WRONG-TYPE: absent


def test_arguments_only_on_done_events() -> None:
    # RQ3: gpt-5.3-codex-spark sends zero deltas
    assert arguments(event("function_call_arguments.done", "fc_1", arguments='{"q":2}')) == (
        '{"q":2}'
    )


def test_arguments_are_never_parsed_repaired_or_defaulted() -> None:
    # RQ23: an empty arguments delta is not an error; a cut-off call stays cut off
    assert arguments(args("")) == ""
    assert arguments() == ""
    assert arguments(args('{"a": [1, '), args(None)) == '{"a": [1, '
    assert arguments(args(' {"b" :  2} ')) == ' {"b" :  2} '
