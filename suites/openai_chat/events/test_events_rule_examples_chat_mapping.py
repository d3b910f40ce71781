"""Rule examples: the OpenAI Chat mapping (events.md §4.1): calls complete at the finish,
Completed at `[DONE]` or at the end of the body."""

from __future__ import annotations

import pytest

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.reference import JSON, JSONObject
from refold.run.marks import rule
from refold.suites.events._expect import emitted_at
from refold.suites.events._frames import DONE, chat, content, finish, role, tool, usage_chunk

_CHAT = "openai-chat"


def _where(output: JSONObject, kind: str) -> list[int]:
    """The frames at which events of `kind` were emitted."""
    return [
        k
        for e, k in zip(output["events"], emitted_at(output), strict=False)
        if isinstance(e, dict) and e.get("type") == kind
    ]


def _produced_at(frames: list[JSON], output: JSONObject, kind: str) -> list[int | None]:
    """The frames whose events of `kind` are (by their opaque, EV-OPAQUE-FRAME): when
    they were emitted is EV-FRAME-ORDER's."""
    return [
        frames.index(e["opaque"]) if e.get("opaque") in frames else None
        for e in output["events"]
        if isinstance(e, dict) and e.get("type") == kind
    ]


@rule("EV-CHAT-COMPLETE-AT-FINISH")
def test_chat_calls_complete_at_the_finish_even_when_another_index_starts(
    check: EventsCheck,
) -> None:
    # §4.1: "A Chat call completes at the frame that gives choice 0 its finish reason,
    # never earlier ... 'another index started' is not a boundary"
    frames = chat(
        tool(0, call_id="call_a", name="get_weather", arguments='{"city":"Paris"}'),
        tool(1, call_id="call_b", name="get_time", arguments='{"city":'),
        tool(1, arguments='"Rome"}'),
        reason="tool_calls",
    )
    finishing = frames.index(finish("tool_calls"))
    _, output = check.normalized(_CHAT, frames)
    where = _produced_at(frames, output, "ToolCallCompleted")
    if where != [finishing, finishing]:
        raise check.fail(
            f"calls completed at frames {where}; expected both at the finish "
            f"chunk (frame {finishing})",
            expected=[finishing] * 2,
            received=where,
        )


@rule("EV-FRAME-ORDER")
def test_a_finishing_chunk_carrying_two_whole_calls_completes_them_after_both_start(
    check: EventsCheck,
) -> None:
    # EV-FRAME-ORDER: a chunk's events follow its fields in the mapping table's order:
    # every fragment's events (each call's Started, then its ArgumentsDelta), then what the
    # finish reason ends (§4.1: the calls complete at the frame that gives choice 0 its
    # finish reason, which may share the chunk of the calls' fragments, chat-fold family
    # 4). The first call's arguments parse before the second call starts, which is no
    # boundary (NE-24).
    last = tool(0, call_id="call_a", name="get_weather", arguments='{"city":"Paris"}')
    second = tool(1, call_id="call_b", name="get_time", arguments='{"city":"Rome"}')
    calls: list[JSON] = last["choices"][0]["delta"]["tool_calls"]
    calls.append(second["choices"][0]["delta"]["tool_calls"][0])
    last["choices"][0]["finish_reason"] = "tool_calls"
    check.agrees_with_reference(_CHAT, [role(), last, DONE])


@rule("EV-CHAT-COMPLETE-AT-FINISH")
def test_a_chat_call_completes_at_a_finish_carried_by_its_last_fragment(check: EventsCheck) -> None:
    # §4.1 EV-CHAT-COMPLETE-AT-FINISH: the finish reason may share the chunk of the
    # call's last fragment (chat-fold family 4)
    last = tool(0, arguments='"Paris"}')
    last["choices"][0]["finish_reason"] = "tool_calls"
    frames = [
        role(),
        tool(0, call_id="call_a", name="get_weather", arguments='{"city":'),
        last,
        DONE,
    ]
    _, output = check.normalized(_CHAT, frames)
    where = _produced_at(frames, output, "ToolCallCompleted")
    if where != [2]:
        raise check.fail(
            "the call did not complete at the chunk carrying the finish",
            expected=[2],
            received=where,
        )


@rule("EV-CHAT-DONE")
def test_completed_is_emitted_on_done_after_the_usage_chunk(check: EventsCheck) -> None:
    # §4.1: "Completed is emitted on [DONE] when choice 0 has a finish reason, after the
    # usage chunk that precedes [DONE]"
    frames = chat(content("Hi"), usage=usage_chunk(3, 1))
    _, output = check.normalized(_CHAT, frames)
    done = frames.index(DONE)
    kinds = [e.get("type") for e in output["events"] if isinstance(e, dict)]
    after_usage = (
        "Usage" in kinds
        and "Completed" in kinds
        and kinds.index("Usage") < kinds.index("Completed")
    )
    if _where(output, "Completed") != [done] or not after_usage:
        raise check.fail(
            f"Completed was emitted at frame(s) {_where(output, 'Completed')}; "
            f"expected at [DONE] (frame {done}), after the usage chunk's Usage",
            expected=[done],
            received=_where(output, "Completed"),
        )


_EOF = [
    pytest.param(chat(content("Hi"), done=False), id="body-ends-at-the-finish-chunk"),
    pytest.param(
        chat(content("Hi"), usage=usage_chunk(3, 1), done=False), id="body-ends-at-the-usage-chunk"
    ),
]


@pytest.mark.parametrize("frames", _EOF)
@rule("EV-CHAT-EOF")
def test_a_finished_body_without_done_completes_at_the_end_of_the_body(
    check: EventsCheck, frames: list[JSON]
) -> None:
    # §4.1: "A body that ends after choice 0's finish reason without [DONE] emits
    # Completed at the end of the body"
    output = check.ends(_CHAT, frames, "completed")
    if _where(output, "Completed") != [len(frames)]:
        raise check.fail(
            f"Completed was emitted at frame(s) {_where(output, 'Completed')};"
            f" expected at the end of the body",
            expected=[len(frames)],
            received=_where(output, "Completed"),
        )
