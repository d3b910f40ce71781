"""Rule examples: usage (RS-USAGE-TERMINAL)."""

from __future__ import annotations

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    completed,
    created,
    in_progress,
    incomplete,
    item_added,
    item_done,
    message,
    response,
    terminal,
    text_part,
)
from ._expect import expect_fold

_HI = message(text_part("Hi"))
_USAGE: JSONObject = {
    "input_tokens": 36,
    "input_tokens_details": {"cached_tokens": 0},
    "output_tokens": 87,
    "output_tokens_details": {"reasoning_tokens": 64},
    "total_tokens": 123,
}
_OTHER: JSONObject = {"input_tokens": 5, "output_tokens": 1, "total_tokens": 6}


def _answered(*lifecycle: JSONObject, final: JSONObject) -> list[JSONObject]:
    return [*lifecycle, item_added(0, message(status="in_progress")), item_done(0, _HI), final]


@rule("RS-USAGE-TERMINAL")
def test_usage_is_the_terminal_responses_usage_with_its_details(check: Check) -> None:
    usage = {**_USAGE, "input_tokens_details": {"cached_tokens": 12, "cache_write_tokens": 4}}
    events = _answered(created(), in_progress(), final=completed(_HI, usage=usage))
    expect_fold(check, events, response(_HI, usage=usage))


@rule("RS-USAGE-TERMINAL")
def test_usage_is_never_summed_with_a_lifecycle_responses(check: Check) -> None:
    events = _answered(
        created(usage=_OTHER), in_progress(usage=_OTHER), final=completed(_HI, usage=_USAGE)
    )
    expect_fold(check, events, response(_HI, usage=_USAGE))


@rule("RS-USAGE-TERMINAL", "RS-TERMINAL-REPEAT")
def test_a_repeated_terminals_usage_replaces_the_first(check: Check) -> None:
    # RQ19: LangChain doubles usage when response.completed arrives twice
    events = _answered(created(), final=completed(_HI, usage=_USAGE))
    events.append(completed(_HI, usage=_USAGE))
    expect_fold(check, events, response(_HI, usage=_USAGE))


@rule("RS-USAGE-TERMINAL", "RS-ENV-FILL")
def test_a_terminal_without_usage_takes_a_lifecycle_responses(check: Check) -> None:
    # RQ16: usage missing on the terminal (OmniRoute #6906)
    for final in (completed(_HI), completed(_HI, usage=None)):
        events = _answered(created(usage=None), in_progress(usage=_OTHER), final=final)
        expect_fold(check, events, response(_HI, usage=_OTHER))


@rule("RS-USAGE-TERMINAL")
def test_usage_is_absent_when_no_response_carried_one(check: Check) -> None:
    # never invented by counting tokens (litellm, RQ16)
    events = _answered(created(usage=None), final=completed(_HI, usage=None))
    expect_fold(check, events, response(_HI))


@rule("RS-USAGE-TERMINAL")
def test_usage_of_another_shape_is_kept_as_sent(check: Check) -> None:
    # RQ16: a translated stream with chat-shaped usage (freebuff2api #10)
    chat = {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12}
    expect_fold(
        check, _answered(created(), final=completed(_HI, usage=chat)), response(_HI, usage=chat)
    )


@rule("RS-USAGE-TERMINAL", "RS-INCOMPLETE")
def test_usage_of_an_incomplete_response_is_kept(check: Check) -> None:
    # RQ16: usage on incomplete/failed ignored (envoy ai-gateway #2184)
    events = _answered(created(), final=incomplete(_HI, usage=_USAGE))
    expected = response(
        _HI, status="incomplete", incomplete_details={"reason": "max_output_tokens"}, usage=_USAGE
    )
    expect_fold(check, events, expected)


@rule("RS-USAGE-TERMINAL", "RS-FAILED")
def test_usage_of_a_failed_response_is_kept(check: Check) -> None:
    error = {"code": "server_error", "message": "boom"}
    events = _answered(
        created(),
        final=terminal("failed", response(_HI, status="failed", error=error, usage=_OTHER)),
    )
    expect_fold(check, events, response(_HI, status="failed", error=error, usage=_OTHER))
