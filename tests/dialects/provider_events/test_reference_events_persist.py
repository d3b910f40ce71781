"""strip(), the turn fold and what the reference adapter persists (events.md §2, §3)."""

from __future__ import annotations

import copy
import doctest
import json
from typing import Any

import pytest
from test_reference_events_invariants import chunk, fragment, run, tools, turn

import refold.reference.events
from refold.reference.events import (
    DIALECTS,
    Adapter,
    NoTurnError,
    UnknownDialectError,
    fold_turn,
    normalize,
    strip,
)

CANARY = "CANARY-7f3a"
FRAMES = [
    chunk(
        {"role": "assistant"},
        id="chatcmpl-secret-id",
        system_fingerprint=CANARY,
        x_vendor={"note": CANARY},
    ),
    chunk({"content": "Hi", "x_delta": CANARY}),
    tools(fragment(call_id="call_1", name="send", arguments='{"payload": {"opaque": 1}}')),
    chunk(
        {},
        finish="tool_calls",
        usage={"prompt_tokens": 3, "completion_tokens": 4, "x_usage": CANARY},
    ),
    "[DONE]",
]


def _keys(value: Any) -> set[str]:
    """Every key at any depth, outside tool-call arguments (portable data)."""
    if isinstance(value, dict):
        return set(value) | {
            k for key, item in value.items() if key != "arguments" for k in _keys(item)
        }
    if isinstance(value, list):
        return {k for item in value for k in _keys(item)}
    return set()


def test_strip_removes_frames_and_the_response_id_at_any_depth() -> None:
    # PERSIST-STRIP, PERSIST-RESPONSE-ID
    nested = {
        "checkpoint": [
            {"turn": {"response_id": "r", "opaque": {"a": 1}, "model": "m"}},
            {"type": "Opaque", "event_type": "ping", "payload": {"b": 2}},
        ]
    }
    assert strip(nested) == {
        "checkpoint": [{"turn": {"model": "m"}}, {"type": "Opaque", "event_type": "ping"}]
    }


def test_strip_keeps_tool_arguments_verbatim_even_with_frame_named_keys() -> None:
    # PERSIST-PORTABLE over PERSIST-STRIP's literal reading (see the report)
    call = {"id": "c", "name": "send", "arguments": {"payload": {"opaque": 1}, "response_id": 2}}
    event = {"type": "ToolCallCompleted", "call": call, "opaque": {"x": 1}}
    assert strip(event) == {"type": "ToolCallCompleted", "call": call}


def test_strip_is_idempotent_and_never_mutates_its_input() -> None:
    # PERSIST-IDEMPOTENT
    events = normalize("openai-chat", FRAMES)["events"]
    pristine = copy.deepcopy(events)
    once = strip(events)
    assert strip(once) == once
    assert events == pristine


def test_strip_keeps_every_portable_field() -> None:
    # PERSIST-PORTABLE: strip(E) keeps type, delta, id, name, call, usage, event_type, turn
    events = run("openai-chat", FRAMES)["events"]
    for original, stripped in zip(events, strip(events), strict=True):
        assert stripped == {k: v for k, v in original.items() if k not in ("opaque", "payload")} | (
            {"turn": strip(original["turn"])} if "turn" in original else {}
        )
    provider_turn = strip(events[-1])["turn"]
    assert set(provider_turn) == {
        "provider",
        "model",
        "output_text",
        "tool_calls",
        "stop_reason",
        "usage",
    }


def test_what_is_persisted_holds_no_frame_no_canary_and_no_response_id() -> None:
    # PERSIST-STRIP, PERSIST-CANARY, PERSIST-RESPONSE-ID
    result = run("openai-chat", FRAMES)
    text = json.dumps(result["persisted"], ensure_ascii=False)
    assert CANARY not in text and CANARY not in json.dumps(result["persisted"])
    assert "chatcmpl-secret-id" not in text
    assert not {"opaque", "payload", "response_id"} & _keys(result["persisted"])
    assert result["persisted"]["events"][-3]["call"]["arguments"] == {"payload": {"opaque": 1}}
    assert CANARY in json.dumps(result["events"])  # in memory the frames are whole


@pytest.mark.parametrize(
    "frames",
    [
        [chunk({"content": CANARY}, error={"message": CANARY})],
        [
            tools(fragment(call_id="call_1", name="f", arguments='{"a": ')),
            chunk({}, finish="stop", x_vendor=CANARY),
        ],
    ],
)
def test_a_failed_streams_outcome_never_quotes_a_frame(frames: list[Any]) -> None:
    # PERSIST-CANARY on the error message
    result = run("openai-chat", frames)
    assert result["outcome"]["outcome"] == "error"
    assert CANARY not in json.dumps(result["persisted"])


def test_folding_the_events_gives_the_turn_and_folding_them_stripped_the_stripped_turn() -> None:
    # EV-TEXT-CONSERVE, EV-TURN-CALLS, EV-USAGE-LAST, PERSIST-PORTABLE
    events = run("openai-chat", FRAMES)["events"]
    assert fold_turn(events) == events[-1]["turn"]
    assert fold_turn(strip(events)) == strip(events[-1]["turn"])


def test_nulling_every_frame_before_the_fold_leaves_the_stripped_turn() -> None:
    # PERSIST-NO-SEMANTICS
    events = run("openai-chat", FRAMES)["events"]
    nulled = [
        {k: (None if k in ("opaque", "payload") else v) for k, v in e.items()} for e in events
    ]
    nulled[-1]["turn"] = {**nulled[-1]["turn"], "opaque": None}
    assert strip(fold_turn(nulled)) == strip(events[-1]["turn"])


def test_the_turn_fold_takes_the_last_usage_and_reconciles_the_stop() -> None:
    # EV-USAGE-LAST, EV-STOP-TOOL, EV-USAGE-UNREPORTED
    first = {
        "input_tokens": 1,
        "output_tokens": 1,
        "cached_input_tokens": None,
        "reasoning_tokens": None,
    }
    last = {**first, "output_tokens": 9}
    call = {"id": "c", "name": "f", "arguments": {}}
    events = [
        {"type": "Usage", "usage": first},
        {"type": "TextDelta", "delta": "a"},
        {"type": "ToolCallStarted", "id": "c", "name": "f"},
        {"type": "ToolCallCompleted", "call": call},
        {"type": "Usage", "usage": last},
        {
            "type": "Completed",
            "turn": {
                "provider": "p",
                "model": "m",
                "output_text": "",
                "tool_calls": [],
                "stop_reason": "end_turn",
                "usage": first,
            },
        },
    ]
    assert fold_turn(events) == {
        "provider": "p",
        "model": "m",
        "output_text": "a",
        "tool_calls": [call],
        "stop_reason": "tool_use",
        "usage": last,
    }
    no_usage = fold_turn([events[-1]])
    assert set(no_usage["usage"].values()) == {None}


def test_events_without_completed_fold_to_no_turn() -> None:
    # EV-NO-COMPLETED-ON-ERROR: the error names the rule and what was received
    with pytest.raises(NoTurnError, match="EV-COMPLETED-LAST: the 1 events"):
        fold_turn([{"type": "TextDelta", "delta": "a"}])


def test_events_handed_out_are_new_values_the_adapter_does_not_keep() -> None:
    # sans-IO: mutating an event changes neither the persisted form nor the turn
    adapter = Adapter("openai-chat")
    events = adapter.frame(chunk({"content": "Hi"}))
    events[0]["delta"] = "changed"
    adapter.frame(chunk({}, finish="stop"))
    ending = adapter.end()
    assert ending["events"][0]["turn"]["output_text"] == "Hi"
    assert adapter.persisted()["events"][0] == {"type": "TextDelta", "delta": "Hi"}


def test_the_outcome_is_known_only_once_decided() -> None:
    adapter = Adapter("anthropic-messages")
    with pytest.raises(LookupError):
        adapter.outcome()
    assert adapter.end() == {
        "outcome": "error",
        "events": [],
        "error": {
            "kind": "truncated",
            "message": "EV-TRUNCATED: the body ended before the stream's terminal",
        },
    }
    assert adapter.outcome()["error"]["kind"] == "truncated"


def test_the_registered_dialects_and_an_unknown_one() -> None:
    # the three dialects of §4 and Gemini (gemini-fold.md, "Provider-neutral events"), each
    # found in its own reference package, by name; any other is refused, naming what exists
    assert DIALECTS == (
        "anthropic-messages",
        "gemini-generate-content",
        "openai-chat",
        "openai-responses",
    )
    with pytest.raises(UnknownDialectError, match=r"'gemini'.*gemini-generate.*openai-chat"):
        Adapter("gemini")
    assert turn(run("openai-chat", FRAMES))["provider"] == "openai-chat"


def test_the_package_example_runs() -> None:
    assert doctest.testmod(refold.reference.events).failed == 0
