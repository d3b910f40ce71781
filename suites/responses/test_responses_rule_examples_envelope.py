"""Rule examples: the Response envelope (RS-TERMINAL-BASE, RS-ENV-TERMINAL, RS-ENV-FILL,
RS-OBJECT)."""

from __future__ import annotations

from typing import Any

from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    ENVELOPE,
    completed,
    created,
    in_progress,
    item_added,
    item_done,
    message,
    queued,
    response,
    terminal,
    text_part,
    text_stream,
)
from ._expect import expect_fold

_HI = message(text_part("Hi"))


def _answered(*lifecycle: dict[str, object], final: dict[str, object]) -> list[dict[str, object]]:
    """`lifecycle` events, one finished message item, then the terminal event `final`."""
    return [*lifecycle, item_added(0, message(status="in_progress")), item_done(0, _HI), final]


@rule("RS-TERMINAL-BASE")
def test_openais_own_stream_folds_into_its_terminal_response(check: Check) -> None:
    # family 1: created, in_progress, the item's events, response.completed
    expect_fold(
        check, text_stream("Hello", ", ", "world"), response(message(text_part("Hello, world")))
    )


@rule("RS-TERMINAL-BASE")
def test_every_top_level_key_of_the_terminal_response_is_kept_as_sent(check: Check) -> None:
    extra: dict[str, Any] = {
        "service_tier": "default",
        "parallel_tool_calls": True,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "reasoning": {"effort": "low", "summary": None},
        "tools": [],
        "metadata": {"trace": "t-1"},
        "previous_response_id": "resp_00",
        "x_gateway_region": "eu-1",
    }
    events = _answered(created(), final=completed(_HI, **extra))
    expect_fold(check, events, response(_HI, **extra))


@rule("RS-TERMINAL-BASE")
def test_the_terminal_response_is_the_result_even_without_lifecycle_events(check: Check) -> None:
    # a resumed stream (starting_after) or a gateway that sends no response.created
    expect_fold(check, [completed(_HI)], response(_HI))


@rule("RS-ENV-TERMINAL")
def test_the_served_service_tier_is_the_terminal_responses(check: Check) -> None:
    # pydantic-ai: `auto` requested on created, the tier served only on the terminal
    events = _answered(
        created(service_tier="auto"),
        in_progress(service_tier="auto"),
        final=completed(_HI, service_tier="flex"),
    )
    expect_fold(check, events, response(_HI, service_tier="flex"))


@rule("RS-ENV-TERMINAL")
def test_keys_that_differ_between_created_and_the_terminal_are_the_terminals(check: Check) -> None:
    # RQ8: lifecycle responses whose id and model differ from the terminal's
    events = _answered(
        created(id="resp_created", model="gpt-5"),
        in_progress(id="resp_progress", model="gpt-5", temperature=0.2),
        final=completed(_HI, id="resp_final", model="gpt-5-2025-08-07", temperature=1.0),
    )
    expected = response(_HI, id="resp_final", model="gpt-5-2025-08-07", temperature=1.0)
    expect_fold(check, events, expected)


@rule("RS-ENV-FILL")
def test_keys_a_sparse_terminal_leaves_out_come_from_the_lifecycle_response(check: Check) -> None:
    # RQ2, RQ18: a gateway's terminal frame with only status and output
    sparse = {"status": "completed", "output": [_HI]}
    events = _answered(created(service_tier="default"), final=terminal("completed", sparse))
    expect_fold(check, events, response(_HI, service_tier="default"))


@rule("RS-ENV-FILL")
def test_keys_the_terminal_sends_as_null_come_from_the_lifecycle_response(check: Check) -> None:
    final = completed(_HI, model=None, created_at=None, service_tier=None)
    events = _answered(created(service_tier="priority"), final=final)
    expect_fold(check, events, response(_HI, service_tier="priority"))


@rule("RS-ENV-FILL")
def test_each_key_comes_from_the_latest_lifecycle_response_with_a_value_for_it(
    check: Check,
) -> None:
    events = _answered(
        created(model="gpt-5", service_tier="auto"),
        queued(model=None, service_tier="flex"),
        in_progress(model="gpt-5-mini", service_tier=None),
        final=terminal("completed", {"status": "completed", "output": [_HI]}),
    )
    expect_fold(check, events, response(_HI, model="gpt-5-mini", service_tier="flex"))


@rule("RS-ENV-FILL", "RS-OUTPUT-RECOVER")
def test_a_lifecycle_responses_output_never_fills_the_terminals(check: Check) -> None:
    # `output` is RS-OUTPUT-RECOVER's: nothing was streamed, so the output is []
    stale = message(text_part("stale"), id="msg_stale")
    events = [
        created(output=[stale]),
        in_progress(output=[stale]),
        terminal("completed", {**ENVELOPE, "status": "completed"}),
    ]
    expect_fold(check, events, response())


@rule("RS-OBJECT", "RS-TERMINAL-BASE")
def test_object_is_response_on_openais_own_stream(check: Check) -> None:
    expect_fold(check, text_stream("Hi"), response(message(text_part("Hi"))))


@rule("RS-OBJECT")
def test_a_terminal_response_without_object_reads_response(check: Check) -> None:
    body = response(_HI)
    del body["object"]
    lifecycle = {"id": "resp_01", "status": "in_progress", "output": []}
    events = _answered(
        {"type": "response.created", "response": lifecycle}, final=terminal("completed", body)
    )
    expect_fold(check, events, response(_HI))


@rule("RS-OBJECT")
def test_object_is_response_whatever_the_terminal_calls_it(check: Check) -> None:
    # a Chat-minded gateway writes `chat.completion`; blank values are absent
    for value in ("chat.completion", "", None):
        events = _answered(created(object="response"), final=completed(_HI, object=value))
        expect_fold(check, events, response(_HI))
