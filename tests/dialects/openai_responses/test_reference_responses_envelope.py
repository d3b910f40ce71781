"""The envelope and the terminal outcomes of the OpenAI Responses fold.

One hand-written example per RS rule (or more); `RULES_CHECKED` names the rules each test
checks (tests/dialects/openai_responses/test_reference_responses_rules.py requires every registry
rule to appear). RQn names the quirk of the research note a stream is shaped after.
"""

from __future__ import annotations

from typing import Any

from refold.reference.responses import Accumulator, fold

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_the_result_is_the_terminal_response_with_every_key_as_sent": ("RS-TERMINAL-BASE",),
    "test_the_terminals_status_is_kept_as_sent_even_when_its_event_says_otherwise": (
        "RS-TERMINAL-BASE",
        "RS-TERMINAL-EVENTS",
    ),
    "test_top_level_fields_come_from_the_terminal_not_from_created": ("RS-ENV-TERMINAL",),
    "test_keys_the_terminal_lacks_or_nulls_come_from_the_latest_lifecycle_response": (
        "RS-ENV-FILL",
    ),
    "test_fill_is_key_by_key_and_skips_null_lifecycle_values": ("RS-ENV-FILL",),
    "test_fill_uses_only_lifecycle_responses_before_the_terminal": ("RS-ENV-FILL", "LIFE-RS-AFTER"),
    "test_a_terminal_without_status_has_its_events_status_not_in_progress": (
        "RS-ENV-FILL",
        "RS-TERMINAL-EVENTS",
        "RS-FAILED",
    ),
    "test_object_is_response_whatever_the_events_say": ("RS-OBJECT",),
    "test_a_non_empty_terminal_output_is_the_output_whole": ("RS-OUTPUT-TERMINAL",),
    "test_an_empty_terminal_output_is_recovered_from_the_stream": ("RS-OUTPUT-RECOVER",),
    "test_an_absent_or_null_terminal_output_is_recovered_from_the_stream": ("RS-OUTPUT-RECOVER",),
    "test_with_nothing_streamed_the_output_is_empty": ("RS-OUTPUT-RECOVER",),
    "test_usage_is_the_terminals_whole_never_summed": ("RS-USAGE-TERMINAL",),
    "test_usage_missing_on_the_terminal_comes_from_a_lifecycle_response": (
        "RS-USAGE-TERMINAL",
        "RS-ENV-FILL",
    ),
    "test_no_usage_reported_means_no_usage_key": ("RS-USAGE-TERMINAL",),
    "test_each_terminal_event_is_a_result_and_none_raises": ("RS-TERMINAL-EVENTS",),
    "test_incomplete_keeps_status_reason_and_usage": ("RS-INCOMPLETE",),
    "test_failed_keeps_status_and_the_error_object": ("RS-FAILED",),
    "test_an_error_event_is_never_copied_and_finishes_nothing": ("RS-ERROR-EVENT",),
    "test_an_error_event_after_completed_changes_nothing": ("RS-ERROR-EVENT",),
    "test_a_second_terminal_replaces_the_first": ("RS-TERMINAL-REPEAT",),
    "test_sequence_numbers_never_reorder_or_drop_events": ("RS-SEQ-ARRIVAL",),
}


def envelope(status: str, **fields: Any) -> dict[str, Any]:
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 1700000000,
        "status": status,
        "model": "gpt-x",
        "output": [],
        **fields,
    }


def created(**fields: Any) -> dict[str, Any]:
    return {"type": "response.created", "response": envelope("in_progress", **fields)}


def terminal(kind: str = "completed", **fields: Any) -> dict[str, Any]:
    return {"type": f"response.{kind}", "response": envelope(kind, **fields)}


MESSAGE = {
    "type": "message",
    "id": "msg_1",
    "status": "completed",
    "role": "assistant",
    "content": [{"type": "output_text", "text": "Hi", "annotations": []}],
}


def message_stream() -> list[dict[str, Any]]:
    """An item streamed the OpenAI way: added, part, delta, dones (RQ1's items)."""
    return [
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**MESSAGE, "status": "in_progress", "content": []},
        },
        {
            "type": "response.content_part.added",
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "part": {"type": "output_text", "text": "", "annotations": []},
        },
        {
            "type": "response.output_text.delta",
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "delta": "Hi",
        },
        {"type": "response.output_item.done", "output_index": 0, "item": MESSAGE},
    ]


def test_the_result_is_the_terminal_response_with_every_key_as_sent() -> None:
    final = envelope(
        "completed",
        output=[MESSAGE],
        service_tier="default",
        reasoning={"effort": "low"},
        x_vendor={"a": [1, None]},
    )
    response = fold([created(), {"type": "response.completed", "response": final}])
    assert response == final


def test_the_terminals_status_is_kept_as_sent_even_when_its_event_says_otherwise() -> None:
    for kind, sent in (("failed", "cancelled"), ("completed", "incomplete")):
        event = {"type": f"response.{kind}", "response": envelope(sent)}
        assert fold([created(), event])["status"] == sent


def test_top_level_fields_come_from_the_terminal_not_from_created() -> None:
    # pydantic-ai: the served service_tier is only on the terminal response
    response = fold(
        [
            created(service_tier="auto", model="gpt-x"),
            terminal(service_tier="default", model="gpt-x-2026"),
        ]
    )
    assert (response["service_tier"], response["model"]) == ("default", "gpt-x-2026")


def test_keys_the_terminal_lacks_or_nulls_come_from_the_latest_lifecycle_response() -> None:
    # RQ2/RQ18: a gateway's sparse terminal frame
    sparse = {
        "type": "response.completed",
        "response": {"status": "completed", "model": None, "usage": {"total_tokens": 2}},
    }
    response = fold(
        [
            created(model="gpt-a", metadata={"k": "v"}),
            {"type": "response.in_progress", "response": envelope("in_progress", model="gpt-b")},
            sparse,
        ]
    )
    assert response["model"] == "gpt-b" and response["metadata"] == {"k": "v"}
    assert (response["id"], response["created_at"]) == ("resp_1", 1700000000)
    assert response["status"] == "completed" and response["usage"] == {"total_tokens": 2}


def test_fill_is_key_by_key_and_skips_null_lifecycle_values() -> None:
    response = fold(
        [
            created(instructions="be brief", top_p=1),
            {
                "type": "response.in_progress",
                "response": {"status": "in_progress", "instructions": None},
            },
            {"type": "response.completed", "response": {"status": "completed"}},
        ]
    )
    assert response["instructions"] == "be brief" and response["top_p"] == 1


def test_fill_uses_only_lifecycle_responses_before_the_terminal() -> None:
    late = {"type": "response.in_progress", "response": envelope("in_progress", user="late")}
    response = fold(
        [created(), {"type": "response.completed", "response": {"status": "completed"}}, late]
    )
    assert "user" not in response and response["status"] == "completed"
    # a later terminal takes the lifecycle responses before it
    again = fold(
        [
            created(),
            terminal(),
            late,
            {"type": "response.completed", "response": {"status": "completed"}},
        ]
    )
    assert again["user"] == "late"


def test_a_terminal_without_status_has_its_events_status_not_in_progress() -> None:
    for kind in ("completed", "incomplete", "failed"):
        response = fold(
            [created(), {"type": f"response.{kind}", "response": {"status": None, "id": "resp_1"}}]
        )
        assert response["status"] == kind
    blank = fold([created(), {"type": "response.failed", "response": {"status": " "}}])
    assert blank["status"] == "failed"


def test_object_is_response_whatever_the_events_say() -> None:
    assert fold([created(), terminal(object="chat.completion")])["object"] == "response"
    assert fold([created(object=None)])["object"] == "response"
    assert fold([{"type": "response.completed", "response": {}}])["object"] == "response"


def test_a_non_empty_terminal_output_is_the_output_whole() -> None:
    partial = {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}"}
    response = fold([created(), *message_stream(), terminal(output=[partial])])
    assert response["output"] == [partial]  # the streamed message is not merged in


def test_an_empty_terminal_output_is_recovered_from_the_stream() -> None:
    # RQ1: the ChatGPT/Codex backend ends with `output: []`
    response = fold([created(), *message_stream(), terminal(output=[])])
    assert response["output"] == [MESSAGE]


def test_an_absent_or_null_terminal_output_is_recovered_from_the_stream() -> None:
    # RQ2: gateways drop `output` or send null; a wrong type is absent (RS-WRONG-TYPE)
    for output in (None, "none", {"0": MESSAGE}):
        response = fold([created(), *message_stream(), terminal(output=output)])
        assert response["output"] == [MESSAGE], output
    bare = {"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}}
    assert fold([created(), *message_stream(), bare])["output"] == [MESSAGE]


def test_with_nothing_streamed_the_output_is_empty() -> None:
    assert fold([created(), terminal(output=None)])["output"] == []


def test_usage_is_the_terminals_whole_never_summed() -> None:
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 4, "cache_write_tokens": 1},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 2},
        "total_tokens": 15,
    }
    response = fold(
        [
            created(usage={"input_tokens": 10, "output_tokens": 0}),
            terminal(usage={"total_tokens": 1}),
            terminal(usage=usage),
        ]
    )
    assert response["usage"] == usage


def test_usage_missing_on_the_terminal_comes_from_a_lifecycle_response() -> None:
    # RQ16: usage only on a lifecycle frame
    usage = {"input_tokens": 3, "output_tokens": 1, "total_tokens": 4}
    response = fold(
        [
            created(),
            {"type": "response.in_progress", "response": envelope("in_progress", usage=usage)},
            terminal(usage=None),
        ]
    )
    assert response["usage"] == usage


def test_no_usage_reported_means_no_usage_key() -> None:
    assert "usage" not in fold([created(), terminal()])  # never estimated (RQ16, litellm)


def test_each_terminal_event_is_a_result_and_none_raises() -> None:
    for kind in ("completed", "incomplete", "failed"):
        accumulator = Accumulator()
        for event in (created(), *message_stream(), terminal(kind)):
            accumulator.add(event)
        assert accumulator.finished and accumulator.response()["status"] == kind


def test_incomplete_keeps_status_reason_and_usage() -> None:
    # RQ17: response.incomplete is a result, not a failure
    usage = {"input_tokens": 3, "output_tokens": 16, "total_tokens": 19}
    for reason in ("max_output_tokens", "content_filter"):
        response = fold(
            [
                created(),
                *message_stream(),
                terminal("incomplete", incomplete_details={"reason": reason}, usage=usage),
            ]
        )
        assert response["status"] == "incomplete"
        assert response["incomplete_details"] == {"reason": reason}
        assert response["usage"] == usage


def test_failed_keeps_status_and_the_error_object() -> None:
    # RQ18: response.failed via HTTP 200
    error = {"code": "server_error", "message": "The model failed."}
    response = fold([created(), terminal("failed", error=error)])
    assert response["status"] == "failed" and response["error"] == error


def test_an_error_event_is_never_copied_and_finishes_nothing() -> None:
    accumulator = Accumulator()
    for event in (
        created(),
        {
            "type": "error",
            "code": "rate_limit_exceeded",
            "message": "slow down",
            "param": None,
            "sequence_number": 1,
        },
        {"type": "error", "error": {"type": "server_error", "message": "x"}},
    ):
        accumulator.add(event)
    response = accumulator.response()
    assert not accumulator.finished and response["status"] == "in_progress"
    assert "error" not in response and "code" not in response


def test_an_error_event_after_completed_changes_nothing() -> None:
    # RQ18: an error after completed is not a failure of the response
    events = [created(), *message_stream(), terminal(output=[MESSAGE])]
    after = fold([*events, {"type": "error", "code": "server_error", "message": "late"}])
    assert after == fold(events) and after["status"] == "completed"


def test_a_second_terminal_replaces_the_first() -> None:
    # RQ19: LangChain concatenates status to "completedcompleted" and doubles usage
    usage = {"input_tokens": 3, "output_tokens": 1, "total_tokens": 4}
    first = terminal(output=[MESSAGE], usage=usage)
    response = fold([created(), *message_stream(), first, first])
    assert response["status"] == "completed" and response["usage"] == usage
    assert response["output"] == [MESSAGE]
    replaced = fold([created(), first, terminal("incomplete", usage={"total_tokens": 9})])
    assert replaced["status"] == "incomplete" and replaced["usage"] == {"total_tokens": 9}


def test_sequence_numbers_never_reorder_or_drop_events() -> None:
    # RQ12: gaps, repeats, disorder and absence change nothing
    numbered = [
        {**event, "sequence_number": n}
        for event, n in zip([created(), *message_stream()[:3]], (7, 3, 3, 0), strict=True)
    ]
    deltas = [
        {
            "type": "response.output_text.delta",
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "delta": text,
            "sequence_number": number,
        }
        for text, number in ((" there", 2), ("!", 2))
    ]
    response = fold([*numbered, *deltas, terminal(output=[])])
    assert response["output"][0]["content"][0]["text"] == "Hi there!"
