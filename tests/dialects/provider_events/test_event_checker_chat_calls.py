"""A Chat call the fold holds under a settled call's id but without a name is another
call (a new id at its index took over, chat-fold TOOL-2-NEW-ID), which never started: the
checker asks the outcome `unsupported` of it (EV-CALL-STARTED), as the reference adapter
gives. Found by Hypothesis in
`test_the_checker_finds_nothing_wrong_with_the_reference_on_damaged_chat_streams`: the
checker skipped the nameless call as the settled one and expected `completed`."""

from __future__ import annotations

from refold.reference import JSON
from refold.reference.events import check_events, fold_turn, normalize, strip


def _chunk(delta: JSON, finish: str | None = None) -> JSON:
    return {
        "id": "chatcmpl-0",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-4o",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


_CALL = {"name": "get_weather", "arguments": "{}"}
_FRAMES: list[JSON] = [
    _chunk(
        {
            "tool_calls": [
                {"index": 0, "id": "call_a", "type": "function", "function": _CALL},
                # index 3 opens with call_a's id and no name, then takes a new id
                {"index": 3, "id": "call_a", "function": {"arguments": "{}"}},
                {"index": 3, "id": "call_b", "type": "function", "function": {"name": "f"}},
            ]
        },
        "stop",
    ),
    "[DONE]",
]


def test_a_nameless_call_under_a_settled_id_never_started() -> None:
    result = normalize("openai-chat", _FRAMES)
    assert result["outcome"]["outcome"] == "error"
    assert result["outcome"]["error"]["kind"] == "unsupported"
    found = check_events(
        "openai-chat",
        _FRAMES,
        result["events"],
        result["outcome"],
        result["persisted"],
        provider="openai-chat",
        turn_opaque=True,
        fold=fold_turn,
        strip=strip,
    )
    assert found == []
    # an adapter completing the stream instead breaks the rule the checker names
    completed = {"outcome": "completed"}
    rules = {v.rule for v in check_events("openai-chat", _FRAMES, result["events"], completed)}
    assert "EV-CALL-STARTED" in rules
