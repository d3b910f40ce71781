"""The `langchain-events` target on hand-written OpenAI Responses streams.

langchain-openai 1.7.4's `ChatOpenAI(use_responses_api=True).stream()` (langchain-core
1.8.3), fed frame by frame in process through the target's adapter; its output is judged
by `refold.reference.events.check_events`. A finding is pinned by the exact rule ids the
checker charges, as tests/dialects/provider_events/test_langchain_events_target.py does for Chat and
Anthropic.
"""

from __future__ import annotations

import importlib.metadata
from typing import Any

import pytest

pytest.importorskip("langchain_openai", reason="install refold[langchain]")
pytest.importorskip("langchain_anthropic", reason="install refold[langchain-anthropic]")

from _responses_event_streams import (
    RESPONSES,
    Frames,
    call_stream,
    done_only_call,
    done_only_text,
    failed_stream,
    hosted_then_text,
    text_stream,
)

from refold.dialects.provider_events.targets.langchain import refold_target
from refold.reference.events import check_events, strip

VERSION = "1.7.4"


def _run(frames: Frames) -> tuple[list[Any], Any, Any]:
    adapter = refold_target["adapter"]()
    adapter.begin(RESPONSES)
    events = [event for frame in frames for event in adapter.frame(frame)]
    end = adapter.end()
    events += end.pop("events")
    return events, end, adapter.persisted()


def finding(frames: Frames, *, persisted: bool = False) -> set[str]:
    """The rules LangChain breaks on `frames`, asserting the version they were seen with."""
    assert importlib.metadata.version("langchain-openai") == VERSION, (
        "re-pin the findings for the new langchain-openai"
    )
    events, outcome, history = _run(frames)
    found = check_events(
        RESPONSES, frames, events, outcome, history if persisted else None, provider="langchain"
    )
    return {violation.rule for violation in found}


def test_the_target_accepts_responses_through_use_responses_api() -> None:
    assert "openai-responses" in refold_target["accepts"]
    assert "use_responses_api=True" in str(refold_target["description"])


def test_ev_rules_hold_for_text_a_hosted_tool_and_a_call() -> None:
    assert finding(hosted_then_text()) == set()
    assert finding(call_stream('{"city":', '"Paris"}')) == set()
    events, _, _ = _run(hosted_then_text())
    assert [e["delta"] for e in strip(events) if e["type"] == "TextDelta"] == ["Hel", "lo"]


def test_ev_error_frame_response_failed_ends_in_provider_error_without_its_usage() -> None:
    # langchain-openai raises ValueError(response.error) before any chunk: the checker
    # allows the bare Opaque, the rule example (Usage, then Opaque) does not
    events, outcome, _ = _run(failed_stream())
    assert finding(failed_stream()) == set()
    assert outcome["error"]["kind"] == "provider_error"
    assert "Usage" not in [e["type"] for e in events]


def test_persist_response_id_the_history_keeps_the_response_id() -> None:
    # response_metadata `id` (LangChain's "backwards compatibility" copy of response.id)
    assert finding(text_stream("Hi"), persisted=True) == {"PERSIST-RESPONSE-ID"}


def test_ev_truncated_a_body_without_its_terminal_completes() -> None:
    assert finding(text_stream("Hi", final=False)) == {"EV-TRUNCATED"}


def test_ev_fold_agrees_text_sent_only_on_output_text_done_is_lost() -> None:
    # RQ5: LangChain reads output_text.delta alone
    assert finding(done_only_text("Hello")) == {"EV-FOLD-AGREES"}


def test_ev_args_conserve_the_rest_on_arguments_done_is_lost() -> None:
    # RQ3: LangChain ignores function_call_arguments.done and output_item.done, and its
    # lenient parse completes the cut `{"city":` as {}
    frames = call_stream('{"city":', arguments='{"city":"Paris"}')
    assert finding(frames) == {"EV-ARGS-CONSERVE", "EV-FOLD-AGREES"}


def test_ev_args_conserve_a_contradicting_arguments_done_is_ignored() -> None:
    frames = call_stream('{"city":"Par', arguments='{"city":"Rome"}')
    assert finding(frames) == {"EV-ARGS-CONSERVE", "EV-NO-DELTA-AFTER-COMPLETED"}


def test_ev_args_invalid_cut_arguments_complete() -> None:
    assert finding(call_stream('{"city":"Par')) == {"EV-ARGS-INVALID", "EV-ARGS-CONSERVE"}


def test_ev_fold_agrees_a_call_only_output_item_done_announces_is_lost() -> None:
    assert finding(done_only_call()) == {"EV-FOLD-AGREES", "EV-STOP-MAP"}


def test_a_terminal_without_output_crashes_langchain() -> None:
    # responses-fold family 2 (RS-OUTPUT-RECOVER; gateways omit the terminal output, RQ1,
    # RQ2): langchain-openai builds the message from `response.output`, None here, and
    # raises TypeError, which the target raises for the harness to charge
    assert importlib.metadata.version("langchain-openai") == VERSION
    frames = text_stream("Hi")
    frames[-1]["response"]["output"] = None
    adapter = refold_target["adapter"]()
    adapter.begin(RESPONSES)
    with pytest.raises(TypeError, match="not iterable"):
        _feed(adapter, frames)


def _feed(adapter: Any, frames: list[Any]) -> None:
    for frame in frames:
        adapter.frame(frame)
    adapter.end()
