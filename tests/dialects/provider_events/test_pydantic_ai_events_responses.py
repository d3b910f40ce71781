"""The `pydantic-ai-events` target on hand-written OpenAI Responses streams.

pydantic-ai's `OpenAIResponsesModel` (the Responses API path of `AsyncOpenAI`), fed frame
by frame in process; its output is judged by `refold.reference.events.check_events`. A
finding is pinned by the exact rule ids the checker charges and the pydantic-ai version
it was seen with, as tests/dialects/provider_events/test_pydantic_ai_events_target.py does for Chat
and Anthropic. Every terminal here reports usage, so the zeros pydantic-ai reads for an unreported
usage (EV-USAGE-UNREPORTED, pinned there) stay out of the findings.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pydantic_ai", reason="install refold[pydantic-ai]")

from _responses_event_streams import (
    RESPONSES,
    Frames,
    call_stream,
    done_only_text,
    failed_stream,
    hosted_then_text,
    orphan_call,
    text_stream,
)

from refold.dialects.provider_events.targets import pydantic_ai as events_pydantic_ai
from refold.reference.events import check_events, strip
from refold.targets.sdk.pydantic_ai_events import Driver, library_version

VERSION = "2.68.0"


def _run(frames: Frames) -> tuple[list[Any], Any, Any]:
    adapter = events_pydantic_ai.PydanticAIEvents()
    adapter.begin(RESPONSES)
    events = [event for frame in frames for event in adapter.frame(frame)]
    end = adapter.end()
    events += end.pop("events")
    return events, end, adapter.persisted()


def finding(frames: Frames, *, persisted: bool = False) -> set[str]:
    """The rules pydantic-ai breaks on `frames`, asserting the version they were seen with."""
    assert library_version() == VERSION, "re-pin the findings for the new pydantic-ai"
    events, outcome, history = _run(frames)
    found = check_events(
        RESPONSES, frames, events, outcome, history if persisted else None, provider="pydantic-ai"
    )
    return {violation.rule for violation in found}


def test_the_target_accepts_responses_through_the_responses_model() -> None:
    target = events_pydantic_ai.refold_target
    assert "openai-responses" in target["accepts"]
    assert "OpenAIResponsesModel" in str(target["description"])
    driver = Driver(events_pydantic_ai.PydanticAIEvents.sources[RESPONSES].model)
    try:
        assert type(driver._model).__name__ == "OpenAIResponsesModel"
    finally:
        driver.close()


def test_ev_rules_hold_for_responses_text_usage_and_a_hosted_tool() -> None:
    frames = hosted_then_text()
    assert finding(frames) == set()
    events, _, _ = _run(frames)
    assert [e["delta"] for e in strip(events) if e["type"] == "TextDelta"] == ["Hel", "lo"]


def test_ev_error_frame_response_failed_gives_its_usage_then_its_opaque() -> None:
    assert finding(failed_stream()) == set()


def test_persist_response_id_the_history_keeps_provider_response_id() -> None:
    assert finding(text_stream("Hi"), persisted=True) == {"PERSIST-RESPONSE-ID"}


def test_ev_truncated_a_body_without_its_terminal_completes() -> None:
    # LIFE-RS-FINISHED: the last item's done finishes nothing; pydantic-ai completes
    # (no terminal, so no usage either: pydantic-ai's zeros, EV-USAGE-UNREPORTED)
    assert finding(text_stream("Hi", final=False)) == {"EV-TRUNCATED", "EV-USAGE-UNREPORTED"}


def test_ev_fold_agrees_text_sent_only_on_output_text_done_is_lost() -> None:
    # RQ5 (gpt-oss sends only .done): pydantic-ai reads output_text.delta alone
    assert finding(done_only_text("Hello")) == {"EV-FOLD-AGREES"}


def test_ev_stop_map_a_completed_response_with_a_call_stops_as_end_turn() -> None:
    # §4.2: "stop: tool_use if any function_call item"; pydantic-ai's finish_reason is
    # `stop` for every completed response
    assert finding(call_stream('{"city":"Paris"}')) == {"EV-STOP-MAP"}


def test_ev_args_conserve_a_contradicting_arguments_done_is_ignored() -> None:
    # §4.2 arguments.done: neither a proper prefix nor equal is inconsistent (RQ3);
    # pydantic-ai keeps the deltas and completes with them
    frames = call_stream('{"city":"Par', arguments='{"city":"Rome"}')
    assert finding(frames) == {"EV-ARGS-CONSERVE", "EV-NO-DELTA-AFTER-COMPLETED"}


def test_ev_args_invalid_cut_arguments_complete_as_invalid_json() -> None:
    # pydantic-ai completes `{"INVALID_JSON": ...}` instead of failing the turn
    assert finding(call_stream('{"city":"Par')) == {"EV-ARGS-INVALID", "EV-ARGS-CONSERVE"}


def test_ev_args_buffer_deltas_before_output_item_added_are_dropped() -> None:
    # family 6 (RS-ORPHAN): the held deltas are never released; output_item.done's
    # arguments arrive as one delta instead (the checker leaves EV-ARGS-BUFFER to the
    # mapping; the rule example test_argument_deltas_before_output_item_added_... fails)
    frames = orphan_call()
    events, _, _ = _run(frames)
    deltas = [e["delta"] for e in strip(events) if e["type"] == "ToolCallArgumentsDelta"]
    assert deltas == ['{"city":"Paris"}']
    assert finding(frames) == {"EV-STOP-MAP"}


def test_a_terminal_without_output_crashes_pydantic_ai() -> None:
    # responses-fold family 2 (RS-OUTPUT-RECOVER; gateways omit the terminal output, RQ1,
    # RQ2): pydantic-ai iterates `response.output` of response.completed, None here, and
    # raises TypeError, which the target raises for the harness to charge (never swallowed)
    assert library_version() == VERSION, "re-pin the findings for the new pydantic-ai"
    frames = text_stream("Hi")
    frames[-1]["response"]["output"] = None
    adapter = events_pydantic_ai.PydanticAIEvents()
    adapter.begin(RESPONSES)
    with pytest.raises(TypeError, match="not iterable"):
        _feed(adapter, frames)


def _feed(adapter: Any, frames: list[Any]) -> None:
    for frame in frames:
        adapter.frame(frame)
