"""Rule examples: the Anthropic Messages mapping (events.md §1, §4.3) where a §2 rule
decides it: cache buckets in the usage, text carried by a block start, routing by block
index past other blocks."""

from __future__ import annotations

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.run.marks import rule
from refold.suites.events._expect import turn_of
from refold.suites.events._frames import (
    args_event,
    block_delta,
    block_start,
    block_stop,
    message,
    message_delta,
    message_start,
    message_stop,
    text_block,
    text_delta,
    text_event,
    text_start,
    tool_block,
    usage_event,
)

_ANTHROPIC = "anthropic-messages"


@rule("EV-USAGE")
def test_anthropic_cache_buckets_are_added_into_input_tokens(check: EventsCheck) -> None:
    # §1: "Anthropic's disjoint cache buckets are added into input_tokens (NE-31)";
    # §4.3: cached = cache_read_input_tokens, reasoning = null
    frames = [
        message_start(10, 1, cache_creation_input_tokens=4, cache_read_input_tokens=2),
        *text_block(0, "Hi"),
        message_delta("end_turn", 9),
        message_stop(),
    ]
    check.emits(
        _ANTHROPIC,
        frames,
        [usage_event(16, 1, cached=2), usage_event(16, 9, cached=2)],
        kinds={"Usage"},
    )


@rule("EV-TEXT")
def test_text_carried_by_a_text_block_start_is_a_text_delta(check: EventsCheck) -> None:
    # §2 EV-TEXT: "Each non-empty public text fragment becomes one TextDelta"; the text a
    # block start carries is a fragment of the block's text (§4.3)
    frames = message(text_start(0, "He"), text_delta(0, "llo"), block_stop(0))
    check.emits(_ANTHROPIC, frames, [text_event("He"), text_event("llo")], kinds={"TextDelta"})


@rule("EV-FOLD-AGREES")
def test_output_text_keeps_the_text_of_a_block_start(check: EventsCheck) -> None:
    # §2: "output_text == ... all text blocks" of the Anthropic Message the frames fold to
    frames = message(text_start(0, "He"), text_delta(0, "llo"), block_stop(0))
    turn = turn_of(check, _ANTHROPIC, frames)
    if turn.get("output_text") != "Hello":
        raise check.fail(
            "output_text lost the text of the block start",
            expected="Hello",
            received=turn.get("output_text"),
        )


@rule("EV-CALL-ROUTE")
def test_input_json_reaches_the_tool_use_block_of_its_index(check: EventsCheck) -> None:
    # §2 EV-CALL-ROUTE: "Anthropic: the block index", ids are tool_use.id; the call is
    # the third block, after thinking and text
    frames = message(
        block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
        block_delta(0, "thinking_delta", thinking="hmm"),
        block_stop(0),
        *text_block(1, "Checking."),
        *tool_block(2, "toolu_w1", "get_weather", '{"city":', '"Paris"}'),
        reason="tool_use",
    )
    check.emits(
        _ANTHROPIC,
        frames,
        [args_event("toolu_w1", '{"city":'), args_event("toolu_w1", '"Paris"}')],
        kinds={"ToolCallArgumentsDelta"},
    )
