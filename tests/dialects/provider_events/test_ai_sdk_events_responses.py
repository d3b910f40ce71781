"""What the Vercel AI SDK's Responses model breaks of events.md, through `ai-sdk-events`
(events_ai_sdk.js): @ai-sdk/openai 3.0.141, `openai.responses(...).doStream`.

One test per finding, named after the invariant the AI SDK breaks, asserting the exact rule
ids `check_events` reports for its stream (and, where one stream's output cannot show it,
the ack windows of events.md §5.3), as tests/dialects/provider_events/test_ai_sdk_events_findings.py
does for Chat and Anthropic; the version is asserted from the target's hello.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from _events_exec_driver import EventsProcess, checked, late
from _responses_event_streams import (
    RESPONSES,
    USAGE,
    call_stream,
    done_only_call,
    done_only_text,
    failed_stream,
    hosted_then_text,
    orphan_call,
    text_stream,
)

from refold.suites.events._responses_frames import (
    added,
    args_delta,
    call_item,
    created,
    item_done,
    terminal,
)
from refold.targets.sdk import nodejs

FILE = nodejs.NODE_TARGETS["ai-sdk-events"].file


@pytest.fixture(scope="module")
def adapter() -> Iterator[EventsProcess]:
    process = EventsProcess(["node", str(FILE)])
    yield process
    process.close()
    assert process.stderr == ""


def _rules(adapter: EventsProcess, frames: list[object]) -> set[str]:
    return set(checked(adapter, RESPONSES, frames)[1])


def test_the_responses_findings_are_of_the_pinned_version(adapter: EventsProcess) -> None:
    assert "openai-responses" in adapter.hello["dialects"]
    assert "@ai-sdk/openai 3.0.141 (openai-responses)" in adapter.hello["description"]


def test_ev_rules_hold_for_text_a_hosted_tool_a_call_an_orphan_and_a_failure(
    adapter: EventsProcess,
) -> None:
    for frames in (
        text_stream("Hel", "lo"),
        hosted_then_text(),
        call_stream('{"city":', '"Paris"}'),
        orphan_call(),
        failed_stream(),
        call_stream('{"city":"Par'),
    ):
        assert _rules(adapter, frames) == set()


def test_ev_frame_order_response_created_and_the_finish_are_held_back(
    adapter: EventsProcess,
) -> None:
    # doStream reads the body up to its first output before it returns, so
    # response.created's Opaque comes after frame 1 was sent; the finish part comes from the
    # transform's flush, at the end of the body. One stream's events cannot show it.
    frames = text_stream("Hi")
    run, rules = checked(adapter, RESPONSES, frames)
    assert rules == []
    assert late(run) == [(0, 0, 1), (run.kinds.index("Usage"), len(frames) - 1, len(frames))]


def test_ev_truncated_a_body_without_its_terminal_completes(adapter: EventsProcess) -> None:
    assert _rules(adapter, text_stream("Hi", final=False)) == {"EV-TRUNCATED"}


def test_ev_fold_agrees_text_sent_only_on_output_text_done_is_lost(adapter: EventsProcess) -> None:
    assert _rules(adapter, done_only_text("Hello")) == {"EV-FOLD-AGREES"}


def test_ev_refusal_opaque_refusal_text_is_a_text_delta(adapter: EventsProcess) -> None:
    # and the turn stops as content_filter instead of end_turn
    refused = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "refusal", "refusal": "I can't."}],
    }
    frames = [
        created(),
        added(0, {**refused, "content": []}),
        {
            "type": "response.refusal.delta",
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "delta": "I can't.",
        },
        item_done(0, refused),
        terminal(output=[refused], usage=USAGE),
    ]
    run, rules = checked(adapter, RESPONSES, frames)
    assert set(rules) == {"EV-FOLD-AGREES", "EV-STOP-MAP"}
    assert "TextDelta" in run.kinds


def test_ev_args_conserve_the_rest_on_arguments_done_is_no_delta(adapter: EventsProcess) -> None:
    # RQ3: tool-call carries output_item.done's arguments, no tool-input-delta the rest
    frames = call_stream('{"city":', arguments='{"city":"Paris"}')
    assert _rules(adapter, frames) == {"EV-ARGS-CONSERVE"}


def test_ev_args_conserve_arguments_announced_on_output_item_added_are_no_delta(
    adapter: EventsProcess,
) -> None:
    item = call_item("call_w1", "get_weather", '{"city":"Paris"}')
    frames = [
        created(),
        added(0, {**item, "arguments": '{"city":'}),
        args_delta(0, '"Paris"}'),
        item_done(0, item),
        terminal(output=[item], usage=USAGE),
    ]
    assert _rules(adapter, frames) == {"EV-ARGS-CONSERVE"}


def test_ev_args_conserve_a_contradicting_arguments_done_wins(adapter: EventsProcess) -> None:
    frames = call_stream('{"city":"Par', arguments='{"city":"Rome"}')
    assert _rules(adapter, frames) == {"EV-ARGS-CONSERVE", "EV-NO-DELTA-AFTER-COMPLETED"}


def test_ev_call_started_a_call_only_output_item_done_announces_never_starts(
    adapter: EventsProcess,
) -> None:
    assert _rules(adapter, done_only_call()) == {"EV-CALL-STARTED"}


def test_ev_started_completed_a_call_without_done_events_never_completes(
    adapter: EventsProcess,
) -> None:
    # family 4 (deltas only, terminal output omitted)
    frames = [
        created(),
        added(0, {**call_item("call_w1", "get_weather"), "status": "in_progress"}),
        args_delta(0, '{"city":"Paris"}'),
        terminal(usage=USAGE),
    ]
    assert _rules(adapter, frames) == {"EV-FOLD-AGREES", "EV-STARTED-COMPLETED", "EV-STOP-MAP"}
