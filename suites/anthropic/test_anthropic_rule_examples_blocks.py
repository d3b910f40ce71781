"""Rule examples: content blocks by index (AM-BLOCK-*, AM-DELTA-ROUTE, AM-DELTA-MATCH)."""

from __future__ import annotations

from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    block_stop,
    citation_delta,
    input_delta,
    message,
    message_delta,
    message_start,
    signature_delta,
    stop,
    text,
    text_delta,
    text_start,
    thinking,
    thinking_delta,
    thinking_start,
    tool_start,
    tool_use,
)
from ._expect import expect_fold


def _around(*events: dict[str, object]) -> list[dict[str, object]]:
    """`events` between a message_start and an end_turn message_delta, message_stop."""
    return [message_start(), *events, message_delta("end_turn", None), stop()]


@rule("AM-BLOCK-OPEN")
def test_a_block_start_opens_a_copy_of_its_content_block_with_every_key(check: Check) -> None:
    events = _around(
        text_start(0, "", x_annotation={"source": "gateway"}), text_delta(0, "Hi"), block_stop(0)
    )
    expect_fold(
        check,
        events,
        message(text("Hi", x_annotation={"source": "gateway"}), stop_reason="end_turn"),
    )


@rule("AM-BLOCK-OPEN", "AM-DELTA-ROUTE")
def test_an_index_written_1_0_is_index_1(check: Check) -> None:
    # an index is an integral JSON number: a JavaScript target cannot tell 1.0 from 1
    events = _around(
        text_start(0),
        text_delta(0, "a"),
        block_stop(0),
        text_start(1.0),
        text_delta(1, "b"),
        text_delta(1.0, "c"),
        block_stop(1),
    )
    expect_fold(check, events, message(text("a"), text("bc"), stop_reason="end_turn"))


@rule("AM-BLOCK-OPEN")
def test_a_block_start_with_a_negative_index_opens_nothing(check: Check) -> None:
    events = _around(
        text_start(-1, "ghost"),
        text_delta(-1, "lost"),
        text_start(0),
        text_delta(0, "Hi"),
        block_stop(0),
    )
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-BLOCK-ORDER")
def test_blocks_are_listed_by_ascending_index_not_by_arrival(check: Check) -> None:
    events = _around(
        text_start(1),
        text_delta(1, "second"),
        block_stop(1),
        text_start(0),
        text_delta(0, "first"),
        block_stop(0),
    )
    expect_fold(check, events, message(text("first"), text("second"), stop_reason="end_turn"))


@rule("AM-BLOCK-ORDER")
def test_a_stream_whose_first_block_has_index_1_keeps_that_block(check: Check) -> None:
    # AQ27 exp C: Python raises IndexError, TypeScript silently drops the block's text
    events = _around(text_start(1), text_delta(1, "Hello"), block_stop(1))
    expect_fold(check, events, message(text("Hello"), stop_reason="end_turn"))


@rule("AM-BLOCK-ORDER")
def test_a_gap_between_indexes_is_closed_up(check: Check) -> None:
    events = _around(
        text_start(0),
        text_delta(0, "a"),
        block_stop(0),
        text_start(3),
        text_delta(3, "b"),
        block_stop(3),
        text_start(5),
        text_delta(5, "c"),
        block_stop(5),
    )
    expect_fold(check, events, message(text("a"), text("b"), text("c"), stop_reason="end_turn"))


@rule("AM-BLOCK-REOPEN")
def test_a_second_block_start_for_an_index_is_ignored_and_the_first_keeps_folding(
    check: Check,
) -> None:
    # the first start is plain (its text "" and deltas); the re-open is the departure
    events = _around(
        text_start(0),
        text_delta(0, "A"),
        text_delta(0, "b"),
        text_start(0, "Z", x_second=True),
        text_delta(0, "c"),
        block_stop(0),
    )
    expect_fold(check, events, message(text("Abc"), stop_reason="end_turn"))


@rule("AM-BLOCK-REOPEN")
def test_a_block_start_after_the_blocks_stop_does_not_reopen_it(check: Check) -> None:
    events = _around(
        text_start(0),
        text_delta(0, "Hi"),
        block_stop(0),
        text_start(0),
        text_delta(0, "!"),
        block_stop(0),
    )
    expect_fold(check, events, message(text("Hi!"), stop_reason="end_turn"))


@rule("AM-DELTA-ROUTE")
def test_a_delta_applies_to_the_block_its_index_names_not_the_latest_block(check: Check) -> None:
    events = _around(
        text_start(0),
        text_start(1),
        text_delta(0, "a"),
        text_delta(1, "b"),
        text_delta(0, "c"),
        block_stop(0),
        text_delta(1, "d"),
        block_stop(1),
    )
    expect_fold(check, events, message(text("ac"), text("bd"), stop_reason="end_turn"))


@rule("AM-DELTA-ROUTE")
def test_a_delta_before_its_block_start_is_ignored(check: Check) -> None:
    # AQ27 exp H: Python IndexError, TypeScript TypeError, the others prepend the text
    events = _around(text_delta(0, "early "), text_start(0), text_delta(0, "late"), block_stop(0))
    expect_fold(check, events, message(text("late"), stop_reason="end_turn"))


@rule("AM-DELTA-ROUTE")
def test_a_delta_for_an_index_that_holds_no_block_is_ignored(check: Check) -> None:
    events = _around(text_start(0), text_delta(0, "Hi"), text_delta(4, "lost"), block_stop(0))
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-DELTA-MATCH")
def test_a_thinking_delta_on_a_text_block_is_ignored(check: Check) -> None:
    # AQ25: LangChain stores it as a `thinking` key on the text block, litellm makes a block
    events = _around(
        text_start(0),
        text_delta(0, "Hi"),
        thinking_delta(0, "hmm"),
        signature_delta(0, "EqQB"),
        block_stop(0),
    )
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-DELTA-MATCH")
def test_an_input_json_delta_on_a_text_block_is_ignored(check: Check) -> None:
    events = _around(text_start(0), text_delta(0, "Hi"), input_delta(0, '{"a": 1}'), block_stop(0))
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-DELTA-MATCH", "AM-TOOL-JOIN")
def test_a_text_delta_on_a_tool_block_is_ignored(check: Check) -> None:
    # AQ25, anthropics/claude-code#1474: "getting a text_delta instead of a input_json_delta"
    events = _around(
        tool_start(0),
        input_delta(0, ""),
        text_delta(0, '{"city": "Oslo"}'),
        input_delta(0, '{"city": "Paris"}'),
        block_stop(0),
    )
    expect_fold(
        check,
        events,
        message(tool_use({"city": "Paris"}), stop_reason="end_turn"),
        rules=("AM-DELTA-MATCH",),
    )


@rule("AM-DELTA-MATCH", "AM-TOOL-JOIN")
def test_an_input_json_delta_applies_to_an_mcp_tool_use_block(check: Check) -> None:
    start = tool_start(0, id="mcptoolu_01", name="search", type="mcp_tool_use", server_name="docs")
    events = _around(start, input_delta(0, '{"q": '), input_delta(0, '"x"}'), block_stop(0))
    expected = tool_use(
        {"q": "x"}, id="mcptoolu_01", name="search", type="mcp_tool_use", server_name="docs"
    )
    expect_fold(check, events, message(expected, stop_reason="end_turn"))


@rule("AM-DELTA-MATCH", "AM-THINK-JOIN")
def test_a_text_delta_on_a_thinking_block_is_ignored(check: Check) -> None:
    events = _around(
        thinking_start(0),
        thinking_delta(0, "Let me think."),
        text_delta(0, "leaked"),
        citation_delta(0, {"type": "char_location"}),
        signature_delta(0, "EqQB"),
        block_stop(0),
    )
    expect_fold(
        check,
        events,
        message(thinking("Let me think.", signature="EqQB"), stop_reason="end_turn"),
        rules=("AM-DELTA-MATCH",),
    )


@rule("AM-BLOCK-STOP")
def test_a_block_that_is_never_stopped_is_still_part_of_the_message(check: Check) -> None:
    events = _around(
        text_start(0), text_delta(0, "a"), block_stop(0), text_start(1), text_delta(1, "b")
    )
    expect_fold(check, events, message(text("a"), text("b"), stop_reason="end_turn"))


@rule("AM-BLOCK-STOP")
def test_a_delta_after_its_blocks_stop_still_applies(check: Check) -> None:
    events = _around(text_start(0), text_delta(0, "Hel"), block_stop(0), text_delta(0, "lo"))
    expect_fold(check, events, message(text("Hello"), stop_reason="end_turn"))


@rule("AM-BLOCK-STOP")
def test_a_block_stop_for_an_index_that_holds_no_block_changes_nothing(check: Check) -> None:
    events = _around(
        block_stop(2),
        text_start(0),
        text_delta(0, "Hi"),
        block_stop(0),
        block_stop(0),
        block_stop(1),
    )
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn"))


@rule("AM-BLOCK-ORDER", "AM-BLOCK-OPEN")
def test_blocks_started_at_indexes_0_1_2_are_the_contents_order(check: Check) -> None:
    # the docs: "each content block will have an index that corresponds to its index in
    # the final Message content array" (a documented stream: blocks one after another)
    events = [
        message_start(),
        text_start(0),
        text_delta(0, "First."),
        block_stop(0),
        text_start(1),
        text_delta(1, "Second."),
        block_stop(1),
        text_start(2),
        text_delta(2, "Third."),
        block_stop(2),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(
        check,
        events,
        message(text("First."), text("Second."), text("Third."), stop_reason="end_turn"),
    )


@rule("AM-BLOCK-STOP")
def test_each_blocks_stop_carries_no_data_and_keeps_the_block(check: Check) -> None:
    # a fold that closes a block by emptying it, or that keeps only the open block,
    # loses what was folded into it before its content_block_stop
    events = [
        message_start(),
        text_start(0),
        text_delta(0, "Kept"),
        block_stop(0),
        text_start(1),
        text_delta(1, "too."),
        block_stop(1),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(check, events, message(text("Kept"), text("too."), stop_reason="end_turn"))
