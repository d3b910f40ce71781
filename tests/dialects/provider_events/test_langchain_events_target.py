"""The `langchain-events` target against the events checker: what LangChain breaks, pinned.

Versions: langchain-openai 1.7.4 (`ChatOpenAI.stream()`, dialect openai-chat) and
langchain-anthropic 1.7.10 (`ChatAnthropic.stream()`, dialect anthropic-messages), both on
langchain-core 1.8.3. Each stream runs in process through the target's adapter, frame by
frame, and goes to `check_events`. A finding is a test named after the invariant LangChain
breaks, asserting the exact rule ids it is charged; a stream LangChain handles is a test that
it breaks nothing. Frames carry no response id unless the test is about it, so a stream fails
only on its own rules (LangChain never keeps the id: `test_the_provider_response_id_is_lost`).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("langchain_openai", reason="install refold[langchain]")
pytest.importorskip("langchain_anthropic", reason="install refold[langchain-anthropic]")

from refold.dialects.provider_events.targets.langchain import LangChainEvents, refold_target
from refold.reference.events import Violation, check_events
from refold.targets import BUILTIN_TARGETS

Frame = Any
CHAT, MESSAGES = "openai-chat", "anthropic-messages"
BOTH = pytest.mark.parametrize("dialect", [CHAT, MESSAGES])


class Run:
    """One stream through the adapter: its events, outcome and persisted value."""

    def __init__(self, dialect: str, frames: list[Frame]) -> None:
        adapter = refold_target["adapter"]()
        adapter.begin(dialect)
        self.dialect, self.frames = dialect, frames
        self.per_frame = [adapter.frame(frame) for frame in frames]
        ending = adapter.end()
        self.events = [e for events in self.per_frame for e in events] + ending.pop("events")
        self.outcome, self.persisted = ending, adapter.persisted()

    def violations(self, *canaries: str) -> list[Violation]:
        return check_events(
            self.dialect,
            self.frames,
            self.events,
            self.outcome,
            self.persisted,
            canaries=canaries,
            provider="langchain",
        )

    def rules(self, *canaries: str) -> list[str]:
        return sorted(v.rule for v in self.violations(*canaries))

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [event for event in self.events if event["type"] == kind]


# Chat frames -------------------------------------------------------------------------------


def _chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **top: Any) -> Frame:
    return {
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-4o-mini",
        "choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}],
        **top,
    }


def _call(
    index: int,
    call_id: str | None = None,
    name: str | None = None,
    arguments: str | None = None,
    **extra: Any,
) -> Frame:
    function = {k: v for k, v in (("name", name), ("arguments", arguments)) if v is not None}
    fragment = {"index": index, "function": function, **extra}
    if call_id is not None:
        fragment.update(id=call_id, type="function")
    return _chunk({"tool_calls": [fragment]})


def _chat_usage(prompt: int, completion: int) -> dict[str, int]:
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def _chat_text(*pieces: str) -> list[Frame]:
    return [
        _chunk({"role": "assistant", "content": ""}),
        *(_chunk({"content": piece}) for piece in pieces),
    ]


# Anthropic frames --------------------------------------------------------------------------


def _start(**message: Any) -> Frame:
    return {
        "type": "message_start",
        "message": {
            "type": "message",
            "role": "assistant",
            "model": "claude-refold",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            **message,
        },
    }


def _block(index: int, block: dict[str, Any]) -> Frame:
    return {"type": "content_block_start", "index": index, "content_block": block}


def _delta(index: int, **delta: Any) -> Frame:
    return {"type": "content_block_delta", "index": index, "delta": delta}


def _stop(index: int) -> Frame:
    return {"type": "content_block_stop", "index": index}


def _message_delta(stop: str | None, **usage: int) -> Frame:
    return {
        "type": "message_delta",
        "delta": {"stop_reason": stop, "stop_sequence": None},
        "usage": usage,
    }


def _tool(index: int, call_id: str, name: str, *pieces: str, **extra: Any) -> list[Frame]:
    return [
        _block(index, {"type": "tool_use", "id": call_id, "name": name, "input": {}, **extra}),
        *(_delta(index, type="input_json_delta", partial_json=p) for p in pieces),
    ]


def _messages_text(*pieces: str) -> list[Frame]:
    return [
        _start(),
        _block(0, {"type": "text", "text": ""}),
        {"type": "ping"},
        *(_delta(0, type="text_delta", text=piece) for piece in pieces),
    ]


_END = {"type": "message_stop"}

# The same streams in both dialects ---------------------------------------------------------

_STREAMS: dict[str, dict[str, list[Frame]]] = {
    "text": {
        CHAT: [
            *_chat_text("Hel", "lo"),
            _chunk(finish="stop"),
            _chunk(choices=[], usage=_chat_usage(3, 2)),
            "[DONE]",
        ],
        MESSAGES: [
            *_messages_text("Hel", "lo"),
            _stop(0),
            _message_delta("end_turn", output_tokens=2),
            _END,
        ],
    },
    "split_arguments": {
        CHAT: [
            _chunk({"role": "assistant", "content": None}),
            _call(0, "call_w1", "get_weather", ""),
            _call(0, arguments='{"ci'),
            _call(0, arguments='ty": "Paris"}'),
            _chunk(finish="tool_calls"),
            "[DONE]",
        ],
        MESSAGES: [
            _start(),
            *_tool(0, "toolu_w1", "get_weather", "", '{"ci', 'ty": "Paris"}'),
            _stop(0),
            _message_delta("tool_use", output_tokens=9),
            _END,
        ],
    },
    "two_calls": {
        CHAT: [
            _call(0, "call_a", "get", ""),
            _call(0, arguments='{"x": '),
            _call(1, "call_b", "put", '{"y"'),
            _call(0, arguments="1}"),
            _call(1, arguments=": 2}"),
            _chunk(finish="tool_calls"),
            "[DONE]",
        ],
        MESSAGES: [
            _start(),
            *_tool(0, "toolu_a", "get", '{"x": ', "1}"),
            _stop(0),
            *_tool(1, "toolu_b", "put", '{"y"', ": 2}"),
            _stop(1),
            _message_delta("tool_use", output_tokens=9),
            _END,
        ],
    },
    "usage_twice": {
        CHAT: [
            _chunk({"role": "assistant", "content": "Hi"}, usage=_chat_usage(3, 1)),
            _chunk(finish="stop", usage=_chat_usage(3, 2)),
            "[DONE]",
        ],
        MESSAGES: [
            *_messages_text("Hi"),
            _stop(0),
            _message_delta(None, output_tokens=3),
            _message_delta("end_turn", output_tokens=5),
            _END,
        ],
    },
    "truncated_text": {
        CHAT: _chat_text("Hel"),
        MESSAGES: _messages_text("Hel"),
    },
    "truncated_call": {
        CHAT: [_call(0, "call_a", "get", '{"city": "Pa')],
        MESSAGES: [_start(), *_tool(0, "toolu_a", "get", '{"city": "Pa')],
    },
    "cut_arguments": {
        CHAT: [_call(0, "call_a", "get", '{"city": "Pa'), _chunk(finish="length"), "[DONE]"],
        MESSAGES: [
            _start(),
            *_tool(0, "toolu_a", "get", '{"city": "Pa'),
            _stop(0),
            _message_delta("max_tokens", output_tokens=9),
            _END,
        ],
    },
    "error_frame": {
        CHAT: [
            *_chat_text("Hel"),
            {"error": {"message": "overloaded", "type": "server_error"}},
            _chunk({"content": "lo"}),
        ],
        MESSAGES: [
            *_messages_text("Hel"),
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
            _stop(0),
        ],
    },
}


def _run(name: str, dialect: str) -> Run:
    return Run(dialect, _STREAMS[name][dialect])


# Streams LangChain handles -----------------------------------------------------------------


@BOTH
@pytest.mark.parametrize("name", ["text", "split_arguments", "two_calls"])
def test_a_finished_stream_keeps_every_rule(name: str, dialect: str) -> None:
    run = _run(name, dialect)
    assert run.rules() == []
    assert run.outcome == {"outcome": "completed"}


@BOTH
def test_split_arguments_are_one_delta_per_fragment_and_one_completed_call(dialect: str) -> None:
    run = _run("split_arguments", dialect)
    assert [e["delta"] for e in run.of_type("ToolCallArgumentsDelta")] == ['{"ci', 'ty": "Paris"}']
    assert [e["call"] for e in run.of_type("ToolCallCompleted")] == [
        {
            "id": run.of_type("ToolCallStarted")[0]["id"],
            "name": "get_weather",
            "arguments": {"city": "Paris"},
        }
    ]


@BOTH
def test_each_frame_s_events_come_out_before_the_next_frame_is_fed(dialect: str) -> None:
    run = _run("text", dialect)
    texts = [[e["delta"] for e in events if e["type"] == "TextDelta"] for events in run.per_frame]
    first = next(n for n, frame in enumerate(run.frames) if "Hel" in json.dumps(frame))
    assert texts[first : first + 2] == [["Hel"], ["lo"]]
    assert all(
        e.get("opaque", e.get("payload")) == run.frames[n]
        for n, events in enumerate(run.per_frame)
        for e in events
        if e["type"] != "Completed"
    )


@BOTH
def test_an_error_frame_ends_the_stream_with_a_provider_error(dialect: str) -> None:
    run = _run("error_frame", dialect)
    assert run.rules() == []
    assert run.outcome["error"]["kind"] == "provider_error"
    assert run.events[-1]["type"] == "Opaque"
    assert run.persisted == []  # LangChain writes history only when a run ends


def test_chat_arguments_before_the_call_id_are_held_until_it_starts() -> None:
    run = Run(
        CHAT,
        [
            _call(0, arguments='{"a"'),
            _call(0, "call_a", "get", ": 1}"),
            _chunk(finish="tool_calls"),
            "[DONE]",
        ],
    )
    assert run.rules() == []
    assert [e["type"] for e in run.events[:3]] == [
        "ToolCallStarted",
        "ToolCallArgumentsDelta",
        "ToolCallArgumentsDelta",
    ]


def test_a_chat_body_ending_after_its_finish_without_done_completes() -> None:
    run = Run(CHAT, [*_chat_text("Hi"), _chunk(finish="stop")])
    assert run.rules() == []
    assert run.events[-1]["turn"]["output_text"] == "Hi"


def test_canaries_in_unknown_chat_keys_are_not_persisted() -> None:
    canaries = ("CANARY-TOP", "CANARY-DELTA", "CANARY-CALL", "CANARY-FUNCTION")
    called = _call(0, "call_a", "get", "{}", x_note=canaries[2])
    called["choices"][0]["delta"]["tool_calls"][0]["function"]["x_note"] = canaries[3]
    run = Run(
        CHAT,
        [
            _chunk(
                {"role": "assistant", "content": "Hi", "x_note": canaries[1]}, x_note=canaries[0]
            ),
            called,
            _chunk(finish="tool_calls"),
            "[DONE]",
        ],
    )
    assert run.rules(*canaries) == []


def test_canaries_in_unknown_message_start_keys_are_not_persisted() -> None:
    run = Run(MESSAGES, [_start(x_note="CANARY-START"), *_STREAMS["text"][MESSAGES][1:]])
    assert run.rules("CANARY-START") == []


def test_a_new_call_id_on_the_same_chat_index_is_a_new_call() -> None:
    run = Run(
        CHAT,
        [
            _call(0, "call_a", "get", '{"x": 1}'),
            _call(0, "call_b", "put", '{"y": 2}'),
            _chunk(finish="tool_calls"),
            "[DONE]",
        ],
    )
    assert run.rules() == []
    assert [e["call"]["id"] for e in run.of_type("ToolCallCompleted")] == ["call_a", "call_b"]


def test_chat_reasoning_and_refusal_never_become_text() -> None:
    run = Run(
        CHAT,
        [
            _chunk({"role": "assistant", "reasoning_content": "think"}),
            _chunk({"refusal": "no"}),
            _chunk({"content": "Hi"}),
            _chunk(finish="stop"),
            "[DONE]",
        ],
    )
    assert run.rules() == []
    assert [e["delta"] for e in run.of_type("TextDelta")] == ["Hi"]


@BOTH
def test_usage_counters_keep_input_cached_and_reasoning_tokens(dialect: str) -> None:
    expected: dict[str, int | None]
    if dialect == CHAT:
        usage = {
            **_chat_usage(10, 5),
            "prompt_tokens_details": {"cached_tokens": 4},
            "completion_tokens_details": {"reasoning_tokens": 2},
        }
        frames = [
            *_chat_text("Hi"),
            _chunk(finish="stop"),
            _chunk(choices=[], usage=usage),
            "[DONE]",
        ]
        expected = {
            "input_tokens": 10,
            "output_tokens": 5,
            "cached_input_tokens": 4,
            "reasoning_tokens": 2,
        }
    else:
        counts = {
            "input_tokens": 10,
            "cache_read_input_tokens": 4,
            "cache_creation_input_tokens": 2,
        }
        frames = [
            _start(usage={**counts, "output_tokens": 1}),
            *_messages_text("Hi")[1:],
            _stop(0),
            _message_delta("end_turn", **counts, output_tokens=5),
            _END,
        ]
        expected = {
            "input_tokens": 16,
            "output_tokens": 5,
            "cached_input_tokens": 4,
            "reasoning_tokens": None,
        }
    run = Run(dialect, frames)
    assert run.rules() == []
    assert [e["usage"] for e in run.of_type("Usage")] == [expected]


def test_anthropic_thinking_hosted_tools_and_start_text_map_as_the_contract_says() -> None:
    frames = [
        _start(),
        _block(0, {"type": "thinking", "thinking": "", "signature": ""}),
        _delta(0, type="thinking_delta", thinking="hmm"),
        _delta(0, type="signature_delta", signature="sig"),
        _stop(0),
        _block(
            1, {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
        ),
        _delta(1, type="input_json_delta", partial_json='{"q": "x"}'),
        _stop(1),
        _block(2, {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}),
        _stop(2),
        {"type": "future_event", "x": 1},
        _block(3, {"type": "text", "text": "Start "}),
        _delta(3, type="text_delta", text="more"),
        _stop(3),
        _message_delta("end_turn", output_tokens=5),
        _END,
    ]
    run = Run(MESSAGES, frames)
    assert run.rules() == []
    assert [e["delta"] for e in run.of_type("TextDelta")] == ["Start ", "more"]
    assert {e["type"] for e in run.events} == {"Opaque", "TextDelta", "Usage", "Completed"}


def test_anthropic_tool_input_on_its_start_is_one_delta() -> None:
    run = Run(
        MESSAGES,
        [
            _start(),
            _block(0, {"type": "tool_use", "id": "toolu_a", "name": "get", "input": {"a": 1}}),
            _stop(0),
            _message_delta("tool_use", output_tokens=5),
            _END,
        ],
    )
    assert run.rules() == []
    assert [e["delta"] for e in run.of_type("ToolCallArgumentsDelta")] == ['{"a": 1}']


@pytest.mark.parametrize("arguments", ["[1, 2]", '{"a": 1}}', "nope"])
def test_arguments_langchain_cannot_parse_end_the_stream_with_invalid_arguments(
    arguments: str,
) -> None:
    run = Run(
        CHAT,
        [
            _call(0, "call_a", "get", arguments),
            _chunk(finish="tool_calls"),
            _chunk(choices=[], usage=_chat_usage(1, 1)),
            "[DONE]",
        ],
    )
    assert run.rules() == []
    assert run.outcome["error"]["kind"] == "invalid_tool_arguments"
    assert run.of_type("ToolCallCompleted") == run.of_type("Usage") == []


def test_the_target_is_registered_as_langchain_events() -> None:
    assert (
        BUILTIN_TARGETS["langchain-events"]
        == "refold.dialects.provider_events.targets.langchain:refold_target"
    )
    assert refold_target["dialect"] == "provider-events"
    assert refold_target["accepts"] == [CHAT, "openai-responses", MESSAGES]
    assert refold_target["adapter"] is LangChainEvents
    assert "langchain-openai 1.7.4" in refold_target["description"]
    assert "langchain-anthropic 1.7.10" in refold_target["description"]


# Findings: what LangChain breaks -----------------------------------------------------------


@BOTH
def test_the_provider_response_id_is_lost(dialect: str) -> None:
    """EV-TURN-FIELDS: the message id is LangChain's run id (`lc_run--…`); the chunk `id`
    (Chat) and message_start's `message.id` (Anthropic) reach no chunk, so the turn has no
    response id (langchain-openai 1.7.4, langchain-anthropic 1.7.10). Not persisted either
    (PERSIST-RESPONSE-ID holds)."""
    frames = (
        [dict(f, id="chatcmpl-ev") if isinstance(f, dict) else f for f in _STREAMS["text"][CHAT]]
        if dialect == CHAT
        else [_start(id="msg_ev"), *_STREAMS["text"][MESSAGES][1:]]
    )
    run = Run(dialect, frames)
    assert [(v.rule, "response_id" in v.message) for v in run.violations()] == [
        ("EV-TURN-FIELDS", True)
    ]
    assert run.of_type("Completed")[0]["turn"]["response_id"] is None
    assert run.persisted[0]["data"]["id"].startswith("lc_run-")


@BOTH
def test_usage_is_summed_across_chunks_not_replaced(dialect: str) -> None:
    """EV-USAGE-LAST: two usage reports (Chat usage on two chunks; Anthropic's cumulative
    message_delta twice) are added by `AIMessageChunk.__add__` (`add_usage`), so the turn's
    usage is their sum, not the last report (langchain-core 1.8.3)."""
    run = _run("usage_twice", dialect)
    assert run.rules() == ["EV-USAGE-LAST"]
    last, turn = run.of_type("Usage")[-1]["usage"], run.events[-1]["turn"]["usage"]
    assert (last["output_tokens"], turn["output_tokens"]) == (
        (5, 3 + 5) if dialect == MESSAGES else (2, 1 + 2)
    )


@BOTH
def test_a_cut_body_is_a_completed_turn(dialect: str) -> None:
    """EV-TRUNCATED: a body that ends before its finish (no finish_reason; no message_stop)
    ends `.stream()` normally, so the partial message is a finished turn (langchain-openai
    1.7.4, langchain-anthropic 1.7.10)."""
    run = _run("truncated_text", dialect)
    assert run.rules() == ["EV-TRUNCATED"]
    assert run.outcome == {"outcome": "completed"}
    assert run.events[-1]["turn"]["output_text"] == "Hel"
    assert run.persisted[0]["data"]["content"] == (
        "Hel" if dialect == CHAT else [{"type": "text", "text": "Hel", "index": 0}]
    )


@BOTH
def test_a_call_open_at_a_cut_is_in_the_turn_but_never_completed(dialect: str) -> None:
    """EV-STARTED-COMPLETED, EV-TURN-CALLS, EV-TRUNCATED: cut inside a call's arguments, the
    stream still ends normally, and `parse_partial_json` turns the cut arguments into a
    tool call of the message, with no finish to complete it at (langchain-core 1.8.3)."""
    run = _run("truncated_call", dialect)
    assert run.rules() == ["EV-STARTED-COMPLETED", "EV-TRUNCATED", "EV-TURN-CALLS"]
    assert run.events[-1]["turn"]["tool_calls"][0]["arguments"] == {"city": "Pa"}


@BOTH
def test_cut_arguments_are_repaired_into_a_call(dialect: str) -> None:
    """EV-ARGS-INVALID (twice: the outcome and the completion), EV-ARGS-CONSERVE: arguments cut
    by `length` / `max_tokens` (`{"city": "Pa`) do not parse, but LangChain's
    `parse_partial_json` closes them into `{"city": "Pa"}`, a valid `tool_calls` entry, not an
    `invalid_tool_calls` one (langchain-core 1.8.3)."""
    run = _run("cut_arguments", dialect)
    assert run.rules() == ["EV-ARGS-CONSERVE", "EV-ARGS-INVALID", "EV-ARGS-INVALID"]
    assert run.of_type("ToolCallCompleted")[0]["call"]["arguments"] == {"city": "Pa"}


def test_the_system_fingerprint_is_persisted() -> None:
    """PERSIST-CANARY: langchain-openai 1.7.4 copies `system_fingerprint` of the finish chunk
    into `response_metadata`, which the history's `message_to_dict` writes."""
    frames = [*_chat_text("Hi"), _chunk(finish="stop", system_fingerprint="fp_CANARY"), "[DONE]"]
    run = Run(CHAT, frames)
    assert run.rules("fp_CANARY") == ["PERSIST-CANARY"]
    assert run.persisted[0]["data"]["response_metadata"]["system_fingerprint"] == "fp_CANARY"


def test_unknown_keys_of_anthropic_blocks_and_deltas_are_persisted() -> None:
    """PERSIST-CANARY (three canaries): langchain-anthropic 1.7.10 keeps the `model_dump()` of a
    tool_use block and of every text or input_json delta as content blocks, unknown keys
    included; merging the blocks even concatenates the two tool canaries into one string."""
    canaries = ("CANARY-BLOCK", "CANARY-ARGS", "CANARY-TEXT")
    frames = [
        _start(),
        _block(0, {"type": "text", "text": ""}),
        _delta(0, type="text_delta", text="Hi", x_note=canaries[2]),
        _stop(0),
        *_tool(1, "toolu_a", "get", x_note=canaries[0]),
        _delta(1, type="input_json_delta", partial_json="{}", x_note=canaries[1]),
        _stop(1),
        _message_delta("tool_use", output_tokens=5),
        _END,
    ]
    run = Run(MESSAGES, frames)
    assert run.rules(*canaries) == ["PERSIST-CANARY"] * 3
    assert run.persisted[0]["data"]["content"][1]["x_note"] == "CANARY-BLOCKCANARY-ARGS"


def test_anthropic_input_tokens_of_message_start_never_reach_a_usage() -> None:
    """EV-USAGE (a mapping rule `check_events` does not check, so no rule id is charged):
    langchain-anthropic 1.7.10 reports usage on message_delta only ("it will be properly
    reported in message_delta"), so message_start's `input_tokens` and cache counts are lost
    when message_delta does not repeat them: the one Usage says 0 input tokens."""
    frames = [
        _start(usage={"input_tokens": 10, "cache_read_input_tokens": 4, "output_tokens": 1}),
        *_STREAMS["text"][MESSAGES][1:],
    ]
    run = Run(MESSAGES, frames)
    assert run.rules() == []
    assert [e["usage"] for e in run.of_type("Usage")] == [
        {
            "input_tokens": 0,
            "output_tokens": 2,
            "cached_input_tokens": None,
            "reasoning_tokens": None,
        }
    ]
    assert run.of_type("Opaque")[0]["payload"] is frames[0]


def test_complete_arguments_resent_without_an_id_are_appended() -> None:
    """EV-ARGS-CONSERVE: vLLM's end-of-stream flush re-sends the whole arguments with
    `id: null` (chat-fold TOOL-3-RESEND, Q5). `merge_lists` merges it into the call of its index
    and `merge_dicts` concatenates the strings, `{"x": 1}{"x": 1}`, which LangChain's
    `parse_partial_json` still reads as `{"x": 1}` (langchain-core 1.8.3)."""
    run = Run(
        CHAT,
        [
            _call(0, "call_a", "get", '{"x": '),
            _call(0, arguments="1}"),
            _call(0, arguments='{"x": 1}'),
            _chunk(finish="tool_calls"),
            "[DONE]",
        ],
    )
    assert run.rules() == ["EV-ARGS-CONSERVE"]
    assert run.persisted[0]["data"]["tool_call_chunks"][0]["args"] == '{"x": 1}{"x": 1}'


def test_a_second_complete_call_on_an_index_is_merged_into_the_first() -> None:
    """EV-ARGS-CONSERVE, EV-CALL-IDENTITY, EV-CALL-STARTED: a complete call after a complete
    call on the same index, without an id, is a new call (chat-fold TOOL-4-SPLIT) that never
    gets an id, so the stream is `unsupported` (the reading of events.md pinned in
    tests/dialects/provider_events/test_reference_events_decisions.py); LangChain merges it into the
    first, concatenating the names (`getget`) and the arguments (langchain-core 1.8.3)."""
    run = Run(
        CHAT,
        [
            _call(0, "call_a", "get", '{"x": 1}'),
            _call(0, None, "get", '{"x": 2}'),
            _chunk(finish="tool_calls"),
            "[DONE]",
        ],
    )
    assert run.rules() == ["EV-ARGS-CONSERVE", "EV-CALL-IDENTITY", "EV-CALL-STARTED"]
    assert run.of_type("ToolCallCompleted")[0]["call"]["name"] == "getget"


def test_choice_zero_is_the_first_entry_of_choices_not_index_0() -> None:
    """EV-FOLD-AGREES (EV-CHOICE0): langchain-openai 1.7.4 reads `choices[0]`, the first entry,
    whatever its `index`, so choice 1's text joins choice 0's in the turn."""
    other = _chunk({"content": "B"})
    other["choices"][0]["index"] = 1
    run = Run(CHAT, [other, _chunk({"content": "A"}), _chunk(finish="stop"), "[DONE]"])
    assert run.rules() == ["EV-FOLD-AGREES"]
    assert run.events[-1]["turn"]["output_text"] == "BA"


@pytest.mark.parametrize(
    ("dialect", "frame", "error"),
    [
        (CHAT, {"object": "chat.completion.chunk", "model": "m", "choices": [None]}, TypeError),
        (MESSAGES, {"type": "content_block_delta", "index": 0, "delta": None}, AttributeError),
    ],
)
def test_a_null_entry_raises_out_of_the_adapter(
    dialect: str, frame: Frame, error: type[Exception]
) -> None:
    """EV-UNKNOWN (charged by the harness, which sees the raise; `check_events` does not):
    `choices: [null]` (langchain-openai 1.7.4 subscripts it) and `delta: null`
    (langchain-anthropic 1.7.10 reads `.type`) crash LangChain's `.stream()`; the adapter
    raises LangChain's error instead of swallowing it."""
    adapter = LangChainEvents()
    adapter.begin(dialect)
    if dialect == MESSAGES:
        adapter.frame(_start())
    with pytest.raises(error):
        adapter.frame(frame)


def test_a_cut_literal_is_dropped_from_the_repaired_arguments() -> None:
    """EV-ARGS-INVALID (twice), EV-ARGS-CONSERVE: `{"a": tru` cut by `length` becomes `{}`:
    `parse_partial_json` drops the member it cannot close (langchain-core 1.8.3)."""
    run = Run(CHAT, [_call(0, "call_a", "get", '{"a": tru'), _chunk(finish="length"), "[DONE]"])
    assert run.rules() == ["EV-ARGS-CONSERVE", "EV-ARGS-INVALID", "EV-ARGS-INVALID"]
    assert run.of_type("ToolCallCompleted")[0]["call"]["arguments"] == {}


@BOTH
def test_a_repeated_finish_concatenates_its_reason(dialect: str) -> None:
    """EV-STOP-MAP (and, for Chat, EV-TURN-FIELDS; for Anthropic, EV-USAGE-LAST): two
    finish chunks (Chat `length` then `stop`; Anthropic two message_delta `end_turn`) are
    merged by `merge_dicts`, which concatenates strings: `finish_reason` `lengthstop`,
    `model_name` `gpt-4ogpt-4o`, `stop_reason` `end_turnend_turn` (langchain-core 1.8.3)."""
    if dialect == CHAT:
        frames = [*_chat_text("Hi"), _chunk(finish="length"), _chunk(finish="stop"), "[DONE]"]
        expected, key = ["EV-STOP-MAP", "EV-TURN-FIELDS"], ("finish_reason", "lengthstop")
    else:
        frames = [
            *_messages_text("Hi"),
            _stop(0),
            _message_delta("end_turn", output_tokens=3),
            _message_delta("end_turn", output_tokens=3),
            _END,
        ]
        expected, key = ["EV-STOP-MAP", "EV-USAGE-LAST"], ("stop_reason", "end_turnend_turn")
    run = Run(dialect, frames)
    assert run.rules() == expected
    assert run.events[-1]["turn"]["stop_reason"] == "other"
    assert run.persisted[0]["data"]["response_metadata"][key[0]] == key[1]


def test_a_finished_message_start_loses_its_content_and_stop_reason() -> None:
    """EV-FOLD-AGREES, EV-STOP-MAP: a message_start that carries the whole message (its text
    block, `stop_reason: end_turn`; refold's single-frame split) gives only `model_name` to
    LangChain (langchain-anthropic 1.7.10): the turn has no text and stop reason `other`."""
    run = Run(
        MESSAGES, [_start(content=[{"type": "text", "text": "Hi"}], stop_reason="end_turn"), _END]
    )
    assert run.rules() == ["EV-FOLD-AGREES", "EV-STOP-MAP"]
    assert run.events[-1]["turn"]["output_text"] == ""


def test_a_message_delta_without_usage_reports_zero_tokens() -> None:
    """EV-USAGE (a mapping rule `check_events` does not check; the harness's determinism
    property sees it): a message_delta with no `usage` still gets `usage_metadata` from
    langchain-anthropic 1.7.10, all zeros, so "not reported" reads as 0 tokens."""
    frames = [
        *_messages_text("Hi"),
        _stop(0),
        {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}},
        _END,
    ]
    run = Run(MESSAGES, frames)
    assert run.rules() == []
    assert [e["usage"] for e in run.of_type("Usage")] == [
        {
            "input_tokens": 0,
            "output_tokens": 0,
            "cached_input_tokens": None,
            "reasoning_tokens": None,
        }
    ]
