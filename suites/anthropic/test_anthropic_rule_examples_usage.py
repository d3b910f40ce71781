"""Rule examples: usage (AM-USAGE-*): message_start's, replaced key by key, never summed."""

from __future__ import annotations

from typing import Any

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    NO_USAGE,
    block_stop,
    message,
    message_delta,
    message_start,
    stop,
    text,
    text_delta,
    text_start,
)
from ._expect import expect_fold

_START = {"input_tokens": 25, "output_tokens": 1}
"""The docs' basic example: message_start's usage with a provisional output count."""


def _answer(*deltas: JSONObject, **start: Any) -> list[JSONObject]:
    """A one-block text answer, then `deltas` (message_delta events), message_stop."""
    return [
        message_start(**start),
        text_start(0),
        text_delta(0, "Hi"),
        block_stop(0),
        *deltas,
        stop(),
    ]


def _expect_usage(check: Check, events: list[JSONObject], usage: Any) -> None:
    """`usage` None: the Message must have no usage key."""
    fields = {"usage": NO_USAGE if usage is None else usage}
    expect_fold(check, events, message(text("Hi"), stop_reason="end_turn", **fields))


@rule("AM-USAGE-BASE")
def test_usage_starts_as_message_starts_usage_with_every_key(check: Check) -> None:
    start = {
        "input_tokens": 25,
        "output_tokens": 1,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "service_tier": "standard",
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
        "x_gateway_cost": 0.002,
    }
    # message_delta re-reports only the output count, as the SDK's type requires
    final = {**start, "output_tokens": 15}
    _expect_usage(check, _answer(message_delta("end_turn", None), usage=start), final)


@rule("AM-USAGE-REPLACE")
def test_message_delta_output_tokens_replace_the_provisional_count(check: Check) -> None:
    # the docs' basic example: message_delta's usage is only {"output_tokens": 15}
    events = _answer(message_delta("end_turn", None, usage={"output_tokens": 15}), usage=_START)
    _expect_usage(check, events, {"input_tokens": 25, "output_tokens": 15})


@rule("AM-USAGE-REPLACE")
def test_re_reported_input_cache_and_server_tool_counts_replace_message_starts(
    check: Check,
) -> None:
    # the docs' web search example: message_delta re-reports every count, input included
    start = {
        "input_tokens": 2679,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": 3,
    }
    final = {
        "input_tokens": 10682,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": 510,
        "server_tool_use": {"web_search_requests": 1},
    }
    events = _answer(message_delta("end_turn", None, usage=final), usage=start)
    _expect_usage(check, events, final)


@rule("AM-USAGE-REPLACE")
def test_an_absent_or_null_usage_key_keeps_its_earlier_value(check: Check) -> None:
    # AQ2: message_delta often carries only output_tokens
    start = {"input_tokens": 25, "output_tokens": 1, "cache_read_input_tokens": 7}
    events = _answer(
        message_delta(
            "end_turn",
            None,
            usage={"output_tokens": 15, "input_tokens": None, "server_tool_use": None},
        ),
        usage=start,
    )
    _expect_usage(
        check, events, {"input_tokens": 25, "output_tokens": 15, "cache_read_input_tokens": 7}
    )


@rule("AM-USAGE-REPLACE")
def test_usage_keys_of_the_wrong_type_keep_their_earlier_values(check: Check) -> None:
    start = {
        "input_tokens": 25,
        "output_tokens": 1,
        "service_tier": "standard",
        "server_tool_use": {"web_search_requests": 0},
        "cache_creation": {"ephemeral_5m_input_tokens": 3},
    }
    wrong = {
        "input_tokens": "100",
        "output_tokens": True,
        "cache_read_input_tokens": [1],
        "service_tier": "  ",
        "server_tool_use": 3,
        "cache_creation": "none",
    }
    events = _answer(message_delta("end_turn", None, usage=wrong), usage=start)
    _expect_usage(check, events, start)


@rule("AM-USAGE-REPLACE")
def test_an_unknown_usage_key_is_replaced_like_the_known_ones(check: Check) -> None:
    start = {"input_tokens": 25, "output_tokens": 1, "x_cost": 0.001}
    update = {
        "output_tokens": 15,
        "x_cost": 0.004,
        "output_tokens_details": {"reasoning": 9},
        "x_label": "",
    }
    events = _answer(message_delta("end_turn", None, usage=update), usage=start)
    _expect_usage(
        check,
        events,
        {
            "input_tokens": 25,
            "output_tokens": 15,
            "x_cost": 0.004,
            "output_tokens_details": {"reasoning": 9},
            "x_label": "",
        },
    )


@rule("AM-USAGE-REPLACE")
def test_usage_objects_are_replaced_whole_never_merged(check: Check) -> None:
    start = {
        "input_tokens": 25,
        "output_tokens": 1,
        "cache_creation": {"ephemeral_5m_input_tokens": 10, "ephemeral_1h_input_tokens": 5},
        "server_tool_use": {"web_search_requests": 1, "web_fetch_requests": 2},
    }
    update = {
        "output_tokens": 15,
        "cache_creation": {"ephemeral_5m_input_tokens": 20},
        "server_tool_use": {"web_search_requests": 3},
    }
    events = _answer(message_delta("end_turn", None, usage=update), usage=start)
    _expect_usage(check, events, {"input_tokens": 25, **update})


@rule("AM-USAGE-REPLACE")
def test_a_message_delta_with_usage_and_no_delta_still_reports_its_usage(check: Check) -> None:
    events = _answer(
        message_delta("end_turn", None),
        {"type": "message_delta", "usage": {"output_tokens": 15}},
        usage=_START,
    )
    _expect_usage(check, events, {"input_tokens": 25, "output_tokens": 15})


@rule("AM-USAGE-NEVER-SUM")
def test_two_message_delta_usages_are_not_summed(check: Check) -> None:
    # AQ26 case 28: LangChain sums them (16), litellm keeps the first (7)
    events = _answer(
        message_delta(None, None, usage={"output_tokens": 7}),
        message_delta("end_turn", None, usage={"output_tokens": 9}),
        usage=_START,
    )
    _expect_usage(check, events, {"input_tokens": 25, "output_tokens": 9})


@rule("AM-USAGE-NEVER-SUM")
def test_the_provisional_output_count_is_superseded_not_added_to(check: Check) -> None:
    # AQ1: message_start's output_tokens 1 plus the final 15 is not 16
    events = _answer(message_delta("end_turn", None, usage={"output_tokens": 15}), usage=_START)
    _expect_usage(check, events, {"input_tokens": 25, "output_tokens": 15})


@rule("AM-USAGE-NEVER-SUM")
def test_re_reported_input_and_cache_counts_are_not_doubled(check: Check) -> None:
    start = {
        "input_tokens": 25,
        "output_tokens": 1,
        "cache_read_input_tokens": 100,
        "cache_creation_input_tokens": 40,
    }
    final = {
        "input_tokens": 25,
        "output_tokens": 15,
        "cache_read_input_tokens": 100,
        "cache_creation_input_tokens": 40,
    }
    events = _answer(
        message_delta(None, None, usage=final),
        message_delta("end_turn", None, usage=final),
        usage=start,
    )
    _expect_usage(check, events, final)


@rule("AM-USAGE-NEVER-SUM")
def test_server_tool_counts_reported_twice_are_not_summed(check: Check) -> None:
    final = {"output_tokens": 15, "server_tool_use": {"web_search_requests": 2}}
    events = _answer(
        message_delta(None, None, usage=final),
        message_delta("end_turn", None, usage=final),
        usage=_START,
    )
    _expect_usage(check, events, {"input_tokens": 25, **final})


@rule("AM-USAGE-ABSENT")
def test_without_a_start_usage_usage_is_built_from_message_delta(check: Check) -> None:
    # AQ4: both official SDKs crash on a message_start without usage
    events = _answer(
        message_delta("end_turn", None, usage={"output_tokens": 15, "input_tokens": None}),
        usage=NO_USAGE,
    )
    _expect_usage(check, events, {"output_tokens": 15})


@rule("AM-USAGE-ABSENT")
def test_a_start_usage_that_is_not_an_object_counts_as_none(check: Check) -> None:
    for odd in (None, "n/a", [25, 1]):
        events = _answer(message_delta("end_turn", None, usage={"output_tokens": 15}), usage=odd)
        _expect_usage(check, events, {"output_tokens": 15})


@rule("AM-USAGE-ABSENT")
def test_a_stream_that_reports_no_usage_gives_a_message_without_usage(check: Check) -> None:
    # the docs' thinking example streams no usage at all: never estimated, never zeros
    _expect_usage(
        check, _answer(message_delta("end_turn", None, usage=NO_USAGE), usage=NO_USAGE), None
    )


@rule("AM-USAGE-ABSENT")
def test_usage_of_only_blank_keys_gives_a_message_without_usage(check: Check) -> None:
    events = _answer(
        message_delta("end_turn", None, usage={"output_tokens": None, "input_tokens": "7"}),
        {"type": "message_delta", "usage": None},
        usage=NO_USAGE,
    )
    _expect_usage(check, events, None)


@rule("AM-USAGE-BASE")
def test_a_message_delta_without_usage_keeps_message_starts_usage(check: Check) -> None:
    start = {"input_tokens": 25, "output_tokens": 1, "server_tool_use": {"web_search_requests": 0}}
    events = _answer(
        message_delta(None, None, usage=NO_USAGE),
        message_delta("end_turn", None, usage=None),
        {"type": "message_delta", "delta": {}, "usage": {}},
        usage=start,
    )
    _expect_usage(check, events, start)


@rule("AM-USAGE-BASE", "AM-START-ONCE")
def test_a_second_message_starts_usage_is_ignored(check: Check) -> None:
    # a start usage without a provisional output count, so that only the ignored second
    # message_start could change the counts (summing is AM-USAGE-NEVER-SUM's to show)
    events = [
        message_start(usage={"input_tokens": 25}),
        text_start(0),
        text_delta(0, "Hi"),
        message_start(usage={"input_tokens": 999, "output_tokens": 999}),
        block_stop(0),
        message_delta("end_turn", None, usage={"output_tokens": 15}),
        stop(),
    ]
    _expect_usage(check, events, {"input_tokens": 25, "output_tokens": 15})
