"""EV-TURN-CALLS and EV-FOLD-AGREES read the known completion's calls in the order the
frames complete them, as they read the fold's: a Responses call added already
`completed` but never given its `output_item.done` completes at the terminal, after a
later call that did; T is the fold of the events (PERSIST-PORTABLE), so no adapter can
list it first (found by Hypothesis in `test_every_frame_is_the_whole_opaque_of_its_events`:
the checker held the reference adapter to the known result's order)."""

from __future__ import annotations

from refold.reference import JSON
from refold.reference.events import Adapter, check_events
from refold.reference.responses import fold

_RESPONSE: JSON = {
    "id": "resp_0",
    "object": "response",
    "created_at": 1700000000,
    "model": "gpt-5",
    "status": "in_progress",
    "output": [],
}


def _call(call_id: str, status: str) -> JSON:
    return {
        "type": "function_call",
        "call_id": call_id,
        "name": "get_0",
        "arguments": "",
        "status": status,
    }


_FRAMES: list[JSON] = [
    {"type": "response.created", "response": _RESPONSE, "sequence_number": 0},
    {
        "type": "response.output_item.added",
        "output_index": 0,
        "item": _call("call_0", "completed"),
        "sequence_number": 1,
    },
    {
        "type": "response.output_item.added",
        "output_index": 1,
        "item": _call("call_00", "in_progress"),
        "sequence_number": 2,
    },
    {
        "type": "response.output_item.done",
        "output_index": 1,
        "item": _call("call_00", "completed"),
        "sequence_number": 3,
    },
    {
        "type": "response.incomplete",
        "response": {
            **_RESPONSE,
            "status": "incomplete",
            "incomplete_details": {"reason": "max_output_tokens"},
        },
        "sequence_number": 4,
    },
]


def test_a_call_completed_at_the_terminal_is_listed_after_one_completed_before() -> None:
    adapter = Adapter("openai-responses")
    events = [event for frame in _FRAMES for event in adapter.frame(frame)]
    end = adapter.end()
    events += end["events"]
    outcome = {key: value for key, value in end.items() if key != "events"}
    known = fold(_FRAMES)
    assert [item["call_id"] for item in known["output"]] == ["call_0", "call_00"]
    [turn] = [event["turn"] for event in events if event["type"] == "Completed"]
    assert [call["id"] for call in turn["tool_calls"]] == ["call_00", "call_0"]
    assert check_events("openai-responses", _FRAMES, events, outcome, known=known) == []
    # listed in the known result's order instead, T is no longer the fold of the events
    # (PERSIST-PORTABLE: call_00's ToolCallCompleted came first), and disagrees
    turn["tool_calls"].reverse()
    broken = {
        v.rule for v in check_events("openai-responses", _FRAMES, events, outcome, known=known)
    }
    assert "EV-FOLD-AGREES" in broken
