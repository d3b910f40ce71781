"""The reference adapter for OpenAI Chat chunks (events.md §4.1), one test per rule.

Every run goes through `_events_helpers.run`, which also asserts the rules every stream
keeps (grammar, Completed last, frame cover and order, conservation, the turn fold).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from test_reference_events_invariants import (
    chunk,
    error_kind,
    fragment,
    kinds,
    of,
    run,
    stepwise,
    tools,
    turn,
)

from refold.reference.chat import fold
from refold.reference.events import Adapter

CHAT = "openai-chat"
ROLE = chunk({"role": "assistant", "content": ""})
STOP = chunk({}, finish="stop")


def test_each_non_empty_content_fragment_is_one_text_delta_verbatim() -> None:
    # EV-TEXT, EV-NO-EMPTY-DELTA, EV-TEXT-CONSERVE
    frames = [
        ROLE,
        chunk({"content": " Hel"}),
        chunk({"content": ""}),
        chunk({"content": "lo \n"}),
        STOP,
        "[DONE]",
    ]
    result = run(CHAT, frames)
    assert [e["delta"] for e in of(result["events"], "TextDelta")] == [" Hel", "lo \n"]
    assert turn(result)["output_text"] == " Hel" + "lo \n"
    assert result["outcome"] == {"outcome": "completed"}


def test_a_frame_with_nothing_neutral_is_one_opaque_named_message() -> None:
    # EV-OPAQUE-FALLBACK, EV-OPAQUE-TYPE: role-only, empty, finish-only, usage null
    frames = [ROLE, chunk({}), chunk({"content": "x"}, usage=None), STOP, "[DONE]"]
    result = run(CHAT, frames)
    assert kinds(result["events"]) == ["Opaque", "Opaque", "TextDelta", "Opaque", "Completed"]
    assert {e["event_type"] for e in of(result["events"], "Opaque")} == {"message"}
    assert of(result["events"], "Opaque")[0]["payload"] == ROLE


def test_opaque_is_the_whole_frame_for_each_event_it_produces_and_never_shared() -> None:
    # EV-OPAQUE-FRAME: a frame producing several events is the opaque of each
    busy = chunk(
        {"content": "Hi", "tool_calls": [fragment(call_id="call_1", name="f", arguments="{}")]},
        finish="tool_calls",
        usage={"prompt_tokens": 1, "completion_tokens": 2},
    )
    frames = [busy, "[DONE]"]
    pristine = copy.deepcopy(frames)
    result = run(CHAT, frames)
    produced = result["events"][:-1]
    assert kinds(produced) == [
        "TextDelta",
        "ToolCallStarted",
        "ToolCallArgumentsDelta",
        "ToolCallCompleted",
        "Usage",
    ]
    assert all(event["opaque"] == busy for event in produced)
    assert frames == pristine  # inputs are never mutated
    produced[0]["opaque"]["choices"].clear()
    assert produced[1]["opaque"] == busy and busy == pristine[0]  # each a copy of its own


def test_a_call_starts_once_id_and_name_are_known_and_completes_at_the_finish() -> None:
    # EV-CALL-STARTED, EV-ARGS-DELTA, EV-CHAT-COMPLETE-AT-FINISH, EV-ARGS-PARSED
    frames = [
        ROLE,
        tools(fragment(call_id="call_w1", name="get_weather", arguments="")),
        tools(fragment(arguments='{"city"')),
        tools(fragment(arguments=': "Paris"}')),
        chunk({}, finish="tool_calls"),
        "[DONE]",
    ]
    result = run(CHAT, frames)
    assert kinds(result["events"]) == [
        "Opaque",
        "ToolCallStarted",
        "ToolCallArgumentsDelta",
        "ToolCallArgumentsDelta",
        "ToolCallCompleted",
        "Completed",
    ]
    completed = of(result["events"], "ToolCallCompleted")[0]
    assert completed["call"] == {
        "id": "call_w1",
        "name": "get_weather",
        "arguments": {"city": "Paris"},
    }
    assert completed["opaque"] == frames[4]  # the finish frame, never earlier
    assert turn(result)["tool_calls"] == [completed["call"]]
    assert turn(result)["stop_reason"] == "tool_use"


def test_a_complete_object_is_not_a_completion_before_the_finish_frame() -> None:
    # EV-CHAT-COMPLETE-AT-FINISH: another index starting is no boundary either
    frames = [
        tools(fragment(0, call_id="call_a", name="f", arguments="{}")),
        tools(fragment(1, call_id="call_b", name="g", arguments='{"x":1}')),
        tools(fragment(0, arguments="")),
        chunk({}, finish="tool_calls"),
    ]
    steps = stepwise(CHAT, frames)
    assert [kinds(step) for step in steps[:3]] == [
        ["ToolCallStarted", "ToolCallArgumentsDelta"],
        ["ToolCallStarted", "ToolCallArgumentsDelta"],
        ["Opaque"],
    ]
    assert kinds(steps[3]) == ["ToolCallCompleted", "ToolCallCompleted"]
    run(CHAT, frames)


def test_arguments_before_the_id_are_held_and_released_right_after_the_start() -> None:
    # EV-ARGS-BUFFER (chat-fold split family 5), TOOL-ADOPT-ID
    frames = [
        tools(fragment(name="search", arguments='{"q":')),
        tools(fragment(arguments=' "refold"')),
        tools(fragment(call_id="call_late", arguments="}")),
        chunk({}, finish="tool_calls"),
        "[DONE]",
    ]
    steps = stepwise(CHAT, frames)
    # held: no delta yet; the frame is an Opaque when read (EV-FRAME-COVER, no look-ahead)
    assert steps[0] == [{"type": "Opaque", "event_type": "message", "payload": frames[0]}]
    assert steps[1] == [{"type": "Opaque", "event_type": "message", "payload": frames[1]}]
    assert kinds(steps[2]) == ["ToolCallStarted"] + ["ToolCallArgumentsDelta"] * 3
    assert [e["delta"] for e in steps[2][1:]] == ['{"q":', ' "refold"', "}"]
    assert [e["opaque"] for e in steps[2][1:]] == frames[:3]  # each with its own frame
    assert steps[2][0]["opaque"] == frames[2]
    result = run(CHAT, frames)
    assert turn(result)["tool_calls"] == [
        {"id": "call_late", "name": "search", "arguments": {"q": "refold"}}
    ]


def test_a_call_that_never_gets_an_id_fails_unsupported() -> None:
    # EV-CALL-STARTED: a call without id cannot be started, so the stream cannot complete
    result = run(CHAT, [tools(fragment(name="f", arguments="{}")), STOP, "[DONE]"])
    assert error_kind(result) == "unsupported"


def test_a_resend_of_complete_arguments_is_no_delta() -> None:
    # TOOL-3-RESEND, EV-ARGS-CONSERVE: a fragment the fold does not append is not a delta
    whole = '{"a": 1}'
    frames = [
        tools(fragment(call_id="call_1", name="f", arguments=whole)),
        tools(fragment(call_id="call_1", arguments=whole)),
        tools(fragment(index=None, arguments=whole)),
        chunk({}, finish="tool_calls"),
    ]
    result = run(CHAT, frames)
    assert [e["delta"] for e in of(result["events"], "ToolCallArgumentsDelta")] == [whole]
    assert kinds(result["events"])[2:4] == ["Opaque", "Opaque"]


def test_calls_sharing_an_index_with_new_ids_are_separate_calls() -> None:
    # TOOL-2-NEW-ID, EV-CALL-ROUTE: fragments reach the current call of their index
    frames = [
        tools(fragment(call_id="call_1", name="f", arguments='{"n":1}')),
        tools(fragment(call_id="call_2", name="f", arguments='{"n"')),
        tools(fragment(arguments=":2}")),
        chunk({}, finish="tool_calls"),
    ]
    result = run(CHAT, frames)
    deltas = of(result["events"], "ToolCallArgumentsDelta")
    assert [(e["id"], e["delta"]) for e in deltas] == [
        ("call_1", '{"n":1}'),
        ("call_2", '{"n"'),
        ("call_2", ":2}"),
    ]
    assert [c["arguments"] for c in turn(result)["tool_calls"]] == [{"n": 1}, {"n": 2}]


def test_calls_complete_in_the_folds_order_whatever_index_started_first() -> None:
    # EV-FOLD-AGREES, EV-DETERMINISM (choice, see the report: EV-TURN-CALLS reads "start order")
    frames = [
        tools(fragment(1, call_id="call_b", name="g", arguments="{}")),
        tools(fragment(0, call_id="call_a", name="f", arguments="{}")),
        chunk({}, finish="tool_calls"),
        "[DONE]",
    ]
    result = run(CHAT, frames)
    assert [e["call"]["id"] for e in of(result["events"], "ToolCallCompleted")] == [
        "call_a",
        "call_b",
    ]
    assert [c["id"] for c in turn(result)["tool_calls"]] == [
        c["id"] for c in fold(frames[:-1])["choices"][0]["message"]["tool_calls"]
    ]


@pytest.mark.parametrize("absent", [{"arguments": ""}, {}])
def test_a_call_without_arguments_completes_with_an_empty_object(absent: dict[str, Any]) -> None:
    # EV-ARGS-EMPTY-OBJECT, EV-ARGS-OPTIONAL, TOOL-EMPTY-ARGS
    frames = [
        tools(fragment(call_id="call_0", name="now", **absent)),
        chunk({}, finish="tool_calls"),
        "[DONE]",
    ]
    result = run(CHAT, frames)
    assert not of(result["events"], "ToolCallArgumentsDelta")
    assert of(result["events"], "ToolCallCompleted")[0]["call"]["arguments"] == {}


@pytest.mark.parametrize("arguments", ['{"city": "Par', "[1, 2]", '"x"', "  "])
def test_arguments_that_are_no_object_at_the_finish_fail_the_stream(arguments: str) -> None:
    # EV-ARGS-INVALID, EV-ARGS-PARSED: no ToolCallCompleted, no Completed
    frames = [
        tools(fragment(call_id="call_1", name="f", arguments=arguments)),
        chunk({}, finish="length"),
        "[DONE]",
    ]
    result = run(CHAT, frames)
    assert error_kind(result) == "invalid_tool_arguments"
    assert not of(result["events"], "ToolCallCompleted")
    assert kinds(result["events"])[-1] == "Opaque"  # the finish frame is still covered


def test_a_fragment_after_the_finish_is_inconsistent() -> None:
    # EV-NO-DELTA-AFTER-COMPLETED
    frames = [
        tools(fragment(call_id="call_1", name="f", arguments='{"a":')),
        tools(fragment(arguments="1}"), finish="tool_calls"),
        tools(fragment(arguments=" ")),
        "[DONE]",
    ]
    result = run(CHAT, frames)
    assert error_kind(result) == "inconsistent_tool_arguments"


def test_two_calls_with_one_id_fail_unsupported() -> None:
    # EV-IDS-SINGLE-USE
    frames = [
        tools(
            fragment(0, call_id="call_1", name="f", arguments="{}"),
            fragment(1, call_id="call_1", name="f", arguments="{}"),
        ),
        chunk({}, finish="tool_calls"),
    ]
    result = run(CHAT, frames)
    assert error_kind(result) == "unsupported"
    assert len(of(result["events"], "ToolCallStarted")) == 1


def test_a_usage_chunk_is_one_usage_mapped_to_token_usage_and_null_is_nothing() -> None:
    # EV-USAGE, EV-USAGE-LAST, §4.1 usage mapping
    reported = {
        "prompt_tokens": 12,
        "completion_tokens": 7,
        "total_tokens": 19,
        "prompt_tokens_details": {"cached_tokens": 4},
        "completion_tokens_details": {"reasoning_tokens": 3},
    }
    frames = [
        chunk({"content": "a"}, usage=None),
        STOP,
        {"id": "chatcmpl-ev", "choices": [], "usage": reported},
        "[DONE]",
    ]
    result = run(CHAT, frames)
    assert kinds(result["events"]) == ["TextDelta", "Opaque", "Usage", "Completed"]
    expected = {
        "input_tokens": 12,
        "output_tokens": 7,
        "cached_input_tokens": 4,
        "reasoning_tokens": 3,
    }
    assert of(result["events"], "Usage")[0]["usage"] == expected
    assert turn(result)["usage"] == expected  # EV-CHAT-DONE: Completed after the usage chunk


def test_without_usage_the_turn_has_four_null_counters() -> None:
    # EV-USAGE-UNREPORTED
    result = run(CHAT, [chunk({"content": "a"}), STOP])
    assert turn(result)["usage"] == {
        "input_tokens": None,
        "output_tokens": None,
        "cached_input_tokens": None,
        "reasoning_tokens": None,
    }


@pytest.mark.parametrize(
    ("finish", "stop"),
    [
        ("stop", "end_turn"),
        ("length", "max_tokens"),
        ("tool_calls", "tool_use"),
        ("function_call", "tool_use"),
        ("content_filter", "content_filter"),
        ("insufficient_system_resource", "other"),
    ],
)
def test_the_finish_reason_maps_to_the_stop_reason(finish: str, stop: str) -> None:
    # EV-STOP-MAP
    result = run(CHAT, [chunk({"content": "a"}), chunk({}, finish=finish), "[DONE]"])
    assert turn(result)["stop_reason"] == stop


def test_a_stop_with_tool_calls_is_tool_use() -> None:
    # EV-STOP-TOOL
    frames = [tools(fragment(call_id="call_1", name="f", arguments="{}")), STOP]
    assert turn(run(CHAT, frames))["stop_reason"] == "tool_use"


def test_a_body_ending_after_the_finish_completes_at_its_end() -> None:
    # EV-CHAT-EOF
    frames = [chunk({"content": "a"}), STOP]
    steps = stepwise(CHAT, frames)
    assert kinds(steps[-1]) == ["Completed"]
    assert run(CHAT, frames)["outcome"] == {"outcome": "completed"}


@pytest.mark.parametrize("tail", [[], ["[DONE]"], [chunk({}, finish="error")]])
def test_a_stream_without_a_finish_reason_on_choice_zero_is_truncated(tail: list[Any]) -> None:
    # EV-TRUNCATED ("error" finishes nothing: LIFE-ERROR)
    result = run(CHAT, [ROLE, chunk({"content": "cut"}), *tail])
    assert error_kind(result) == "truncated"
    assert not of(result["events"], "Completed")


def test_an_error_chunk_is_one_opaque_and_nothing_follows_it() -> None:
    # EV-ERROR-FRAME, EV-NOTHING-AFTER-ERROR, EV-NO-COMPLETED-ON-ERROR
    error = chunk({"content": "lost"}, error={"message": "overloaded", "code": 529})
    frames = [chunk({"content": "a"}), error, chunk({"content": "b"}), STOP, "[DONE]"]
    result = run(CHAT, frames)
    assert kinds(result["events"]) == ["TextDelta", "Opaque"]
    assert result["events"][-1]["payload"] == error
    assert error_kind(result) == "provider_error"
    assert stepwise(CHAT, frames)[2:] == [[], [], [], []]


@pytest.mark.parametrize(
    "delta",
    [
        {"reasoning": "thinking"},
        {"reasoning_content": "hmm"},
        {"reasoning_details": [{"type": "reasoning.text", "text": "t", "index": 0}]},
        {"refusal": "I can't"},
        {"annotations": [{"type": "url_citation"}]},
    ],
)
def test_reasoning_refusal_and_annotations_are_opaque_never_text(delta: dict[str, Any]) -> None:
    # EV-REASONING-OPAQUE, EV-REFUSAL-OPAQUE
    result = run(CHAT, [chunk(delta), STOP, "[DONE]"])
    assert kinds(result["events"]) == ["Opaque", "Opaque", "Completed"]
    assert turn(result)["output_text"] == ""


@pytest.mark.parametrize(
    "frame",
    [
        42,
        None,
        "data",
        [],
        {"weird": True},
        {"choices": [None, 3]},
        chunk({"content": "x", "x_vendor": {"deep": [1]}}, obfuscation="abc"),
    ],
)
def test_unknown_frames_and_keys_never_raise(frame: Any) -> None:
    # EV-UNKNOWN
    result = run(CHAT, [frame, STOP, "[DONE]"])
    assert result["outcome"] == {"outcome": "completed"}
    assert kinds(result["events"])[0] in ("Opaque", "TextDelta")


def test_only_choice_zero_is_normalised() -> None:
    # EV-CHOICE0, CHOICE-KEY
    other = {
        "id": "c",
        "choices": [{"index": 1, "delta": {"content": "other"}, "finish_reason": "stop"}],
    }
    result = run(CHAT, [chunk({"content": "zero"}), other, STOP, "[DONE]"])
    assert turn(result)["output_text"] == "zero"
    assert kinds(result["events"]) == ["TextDelta", "Opaque", "Opaque", "Completed"]


def test_the_turn_names_provider_model_and_id_and_holds_the_chat_fold() -> None:
    # EV-TURN-FIELDS (ENV-ID, ENV-MODEL), EV-TURN-OPAQUE, EV-FOLD-AGREES
    frames = [
        chunk({"role": "assistant"}, id="chatcmpl-1", model="gpt-4o-2024"),
        chunk({"content": "Hi"}, id="chatcmpl-2", model="other"),
        STOP,
        "[DONE]",
    ]
    result = run(CHAT, frames)
    provider_turn = turn(result)
    assert provider_turn["provider"] == "openai-chat"
    assert (provider_turn["model"], provider_turn["response_id"]) == ("gpt-4o-2024", "chatcmpl-1")
    assert provider_turn["opaque"] == fold(frames[:-1])
    assert provider_turn["output_text"] == fold(frames[:-1])["choices"][0]["message"]["content"]


def test_frames_after_completed_are_not_normalised() -> None:
    # EV-COMPLETED-LAST
    adapter = Adapter(CHAT)
    adapter.frame(STOP)
    assert kinds(adapter.frame("[DONE]")) == ["Completed"]
    assert adapter.frame(chunk({"content": "late"})) == []
    assert adapter.end() == {"outcome": "completed", "events": []}


def test_a_call_after_an_earlier_finish_reason_completes_at_the_next_one() -> None:
    # EV-CHAT-COMPLETE-AT-FINISH under CHOICE-FINISH (last wins; an earlier finish reason
    # is chat-fold family 8 noise), found by the split property
    frames = [
        chunk({}, finish="length"),
        tools(fragment(call_id="call_1", name="f", arguments="{}"), finish="stop"),
        "[DONE]",
    ]
    result = run(CHAT, frames)
    assert of(result["events"], "ToolCallCompleted")[0]["opaque"] == frames[1]
    assert turn(result)["stop_reason"] == "tool_use"


@pytest.mark.parametrize("done", [True, False])
def test_started_completed_a_call_opened_after_the_last_finish_completes_at_the_end(
    done: bool,
) -> None:
    # EV-TRUNCATED is not met (choice 0 has a finish reason); EV-STARTED-COMPLETED: the
    # call completes at [DONE] / at the end of the body, right before Completed
    late = tools(fragment(call_id="call_1", name="f", arguments='{"a":1}'))
    frames = [STOP, late, *(["[DONE]"] if done else [])]
    steps = stepwise(CHAT, frames)
    assert kinds(steps[1]) == ["ToolCallStarted", "ToolCallArgumentsDelta"]
    final = steps[2] if done else steps[-1]
    assert kinds(final) == ["ToolCallCompleted", "Completed"]
    assert final[0]["opaque"] == ("[DONE]" if done else late)
    result = run(CHAT, frames)
    assert turn(result)["tool_calls"] == [{"id": "call_1", "name": "f", "arguments": {"a": 1}}]


@pytest.mark.parametrize("done", [True, False])
def test_args_invalid_a_call_opened_after_the_last_finish_is_judged_at_the_end(done: bool) -> None:
    # EV-ARGS-INVALID at the stream's end, as at a finish frame
    frames = [
        STOP,
        tools(fragment(call_id="call_1", name="f", arguments='{"a":')),
        *(["[DONE]"] if done else []),
    ]
    result = run(CHAT, frames)
    assert error_kind(result) == "invalid_tool_arguments"
    assert not of(result["events"], "ToolCallCompleted")
