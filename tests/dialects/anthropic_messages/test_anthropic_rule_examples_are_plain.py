"""Every Anthropic rule example rests on its own rules: each departure from family 1
(Anthropic's own shape) in the streams an example sends is governed by a rule it is
marked with.

Without this a defect shown by one departure (text on content_block_start) fails the
example of a rule it was not about (AM-BLOCK-REOPEN), and is charged there. The departures
are the Anthropic ablation's (`refold.dialects.anthropic_messages.ablation`: a departure is present
when
undoing it changes the stream), plus the non-empty start values of family 2-4. A stream
without usage is not a departure here: usage is a feature, and the examples of other
features carry the docs' usage, and those about its absence are AM-USAGE-ABSENT's.

The example modules run against a recording copy of the reference in a fresh pytest
process (`_anthropic_example_streams`).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _anthropic_example_streams import recorded_examples

from refold.dialects.anthropic_messages.ablation import DEPARTURES

_NOISE = frozenset({"AM-PING", "AM-UNKNOWN-EVENT"})
_ENDED = frozenset({"AM-LIFE-TRUNCATED", "AM-LIFE-ERROR"})
_NO_DELTAS = frozenset({"AM-UNKNOWN-BLOCK", "AM-REDACTED", "AM-RESULT-AS-SENT"})
_USAGE = frozenset({"AM-USAGE-BASE", "AM-USAGE-REPLACE", "AM-USAGE-ABSENT"})

GOVERNING: dict[str, frozenset[str]] = {
    **{rule: frozenset({rule}) for rule, _ in DEPARTURES if rule != "AM-USAGE-ABSENT"},
    # noise anywhere is the noise rules' (family 8), an event alone before message_start
    # too; a stream cut short or ended by an error has unstopped blocks; a wrong-typed
    # index or field leaves a delta with no block; "deltas sent to a block without
    # deltas change nothing" is that block's rule; the usage rules and AM-LIFE-ERROR
    # state what a null or wrong-typed usage or error is, AM-STOP-REASON what a
    # message_delta without its delta is (a blank stop reason: it changes nothing)
    "AM-BEFORE-START": frozenset(
        {"AM-BEFORE-START", "AM-LIFE-EMPTY", "AM-ROB-NOT-OBJECT", *_NOISE}
    ),
    "AM-LIFE-AFTER-STOP": frozenset({"AM-LIFE-AFTER-STOP", *_NOISE}),
    "AM-BLOCK-STOP": frozenset({"AM-BLOCK-STOP", "AM-ROB-WRONG-TYPE", *_ENDED}),
    "AM-DELTA-ROUTE": frozenset({"AM-DELTA-ROUTE", "AM-ROB-WRONG-TYPE"}),
    "AM-BLOCK-ORDER": frozenset({"AM-BLOCK-ORDER", "AM-ROB-WRONG-TYPE"}),
    "AM-DELTA-MATCH": frozenset({"AM-DELTA-MATCH", *_NO_DELTAS}),
    "AM-UNKNOWN-DELTA": frozenset({"AM-UNKNOWN-DELTA", *_NO_DELTAS}),
    "AM-ROB-WRONG-TYPE": frozenset(
        {"AM-ROB-WRONG-TYPE", "AM-LIFE-ERROR", "AM-STOP-REASON", *_USAGE}
    ),
    # a stop reason set on message_start with no message_delta after it is AQ7's shape
    # (AM-START-CONTENT) and the value the stop reason "starts as" (AM-STOP-REASON)
    "AM-START-CONTENT": frozenset({"AM-START-CONTENT", "AM-STOP-REASON"}),
    # an error before message_start is AM-BEFORE-START's exception ("terminal wherever it
    # arrives"), and the documented way a stream has no message_start to read
    # (AM-LIFE-EMPTY: an overloaded error can be the first event)
    "AM-LIFE-ERROR": frozenset({"AM-LIFE-ERROR", "AM-BEFORE-START", "AM-LIFE-EMPTY"}),
    # whitespace around invalid input is kept in the raw string (AM-TOOL-INVALID: untrimmed)
    "AM-TOOL-JOIN": frozenset({"AM-TOOL-JOIN", "AM-TOOL-INVALID"}),
    # a citation sent to a block that takes none is ignored whole, whatever it holds
    "AM-CITATIONS-APPEND": frozenset({"AM-CITATIONS-APPEND", "AM-DELTA-MATCH"}),
    "text on content_block_start": frozenset({"AM-TEXT-JOIN"}),
    "thinking on content_block_start": frozenset({"AM-THINK-JOIN"}),
    "input on content_block_start": frozenset(
        {"AM-TOOL-NO-DELTA", "AM-SERVER-TOOL", "AM-TOOL-IDENTITY"}
    ),
}
"""Each departure and the rules whose examples may send it."""

_KNOWN_UNPLAIN: dict[str, tuple[str, ...]] = {
    "blocks.py::test_a_block_start_after_the_blocks_stop_does_not_reopen_it": ("AM-BLOCK-STOP",),
    "blocks.py::test_a_block_start_with_a_negative_index_opens_nothing": (
        "AM-DELTA-ROUTE",
        "text on content_block_start",
    ),
    "blocks.py::test_a_block_stop_for_an_index_that_holds_no_block_changes_nothing": (
        "AM-BLOCK-ORDER",
    ),
    "blocks.py::test_a_delta_applies_to_the_block_its_index_names_not_the_latest_block": (
        "AM-BLOCK-ORDER",
    ),
    "blocks.py::test_a_delta_for_an_index_that_holds_no_block_is_ignored": (
        "AM-BLOCK-ORDER",
        "AM-BLOCK-STOP",
    ),
    "envelope.py::test_a_block_start_for_an_index_message_start_filled_is_ignored": (
        "AM-BLOCK-ORDER",
        "AM-BLOCK-STOP",
        "text on content_block_start",
    ),
    "envelope.py::test_a_message_start_whose_message_is_not_an_object_starts_nothing": (
        "AM-ROB-WRONG-TYPE",
    ),
    "envelope.py::test_a_message_stop_before_message_start_changes_nothing": (
        "AM-LIFE-AFTER-STOP",
    ),
    "envelope.py::test_a_ping_before_message_start_changes_nothing_and_never_raises": ("AM-PING",),
    "envelope.py::test_a_repeated_message_start_with_the_same_id_keeps_the_blocks_folded_so_far": (
        "AM-BLOCK-STOP",
    ),
    "envelope.py::test_block_events_and_message_delta_before_message_start_change_nothing": (
        "AM-UNKNOWN-EVENT",
        "text on content_block_start",
    ),
    "lifecycle.py::test_a_message_handed_out_never_changes_after_later_events": (
        "AM-LIFE-AFTER-STOP",
        "text on content_block_start",
    ),
    "lifecycle.py::test_a_message_start_whose_message_is_not_an_object_leaves_nothing_to_read": (
        "AM-ROB-WRONG-TYPE",
    ),
    "lifecycle.py::test_a_message_stop_before_message_start_does_not_finish": (
        "AM-LIFE-AFTER-STOP",
        "AM-PING",
    ),
    "lifecycle.py::test_a_stream_ending_right_after_message_start_is_an_empty_unfinished_message": (
        "AM-PING",
    ),
    "lifecycle.py::test_events_after_an_error_change_nothing": ("text on content_block_start",),
    "lifecycle.py::test_events_after_message_stop_change_nothing": ("text on content_block_start",),
    "lifecycle.py::test_folding_and_reading_never_mutate_a_start_events_citations": (
        "AM-BLOCK-STOP",
    ),
    "lifecycle.py::test_folding_and_reading_never_mutate_a_tool_blocks_start_input": (
        "AM-BLOCK-STOP",
    ),
    "lifecycle.py::test_folding_and_reading_never_mutate_text_events": (
        "text on content_block_start",
    ),
    "lifecycle.py::test_message_start_then_message_stop_alone_is_finished": ("AM-START-CONTENT",),
    "lifecycle.py::test_reading_the_message_after_only_pings_and_deltas_raises": ("AM-PING",),
    "lifecycle.py::test_the_captured_error_payload_is_recorded_and_never_enters_the_message": (
        "AM-UNKNOWN-KEYS",
    ),
    "robustness.py::test_a_refused_event_leaves_the_fold_unchanged": ("AM-BLOCK-STOP",),
    "robustness.py::test_an_event_with_a_blank_or_missing_type_changes_nothing": (
        "text on content_block_start",
    ),
    "robustness.py::test_an_index_of_the_wrong_type_is_treated_as_absent": (
        "text on content_block_start",
    ),
    "robustness.py::test_an_unknown_event_that_looks_like_a_known_one_changes_nothing": (
        "text on content_block_start",
    ),
    "thinking.py::test_a_signature_goes_to_the_thinking_block_its_delta_names": (
        "AM-BLOCK-ORDER",
        "AM-BLOCK-STOP",
    ),
    "tool_use.py::test_server_results_and_container_uploads_are_output_as_sent": ("AM-BLOCK-STOP",),
    "usage.py::test_a_second_message_starts_usage_is_ignored": ("AM-BLOCK-STOP",),
}
"""Examples that still depart in ways no rule of theirs governs (file::test, without the
`test_anthropic_rule_examples_` prefix), with the departures: work left, a ratchet. An
example made plain must leave this table, and no other example may join it."""


_START_VALUES = {
    "text": ("text", "text on content_block_start"),
    "thinking": ("thinking", "thinking on content_block_start"),
}


def _start_values(events: list[Any]) -> set[str]:
    """The family 2-4 departures: non-empty start values on content_block_start."""
    found: set[str] = set()
    opened: set[str] = set()
    for event in events:
        block = event.get("content_block") if isinstance(event, dict) else None
        index = json.dumps(event.get("index") if isinstance(event, dict) else None)
        if not isinstance(block, dict) or index in opened:
            continue  # a re-open is ignored whole (AM-BLOCK-REOPEN's departure)
        opened.add(index)
        key, name = _START_VALUES.get(str(block.get("type")), ("", ""))
        if key and block.get(key) not in ("", None):
            found.add(name)
        if "input" in block and block.get("input") not in ({}, None):
            found.add("input on content_block_start")
    return found


def departures(events: list[Any]) -> set[str]:
    """Every departure from family 1 in `events` (usage absence aside)."""
    found = {rule for rule, undo in DEPARTURES if rule in GOVERNING and undo(events) != events}
    return found | _start_values(events)


@pytest.fixture(scope="module")
def recorded() -> tuple[dict[str, Any], dict[str, Any]]:
    streams, marks, output = recorded_examples()
    assert marks, f"no rule example ran:\n{output}"
    # an example that needs a feature the recorder does not claim (`sse`) skips itself
    failed = sorted(
        test for test, entry in marks.items() if entry["outcome"] not in ("passed", "skipped")
    )
    assert not failed, f"examples failed against the recording reference: {failed}\n{output}"
    assert len(streams) > 100, f"only {len(streams)} examples recorded a stream:\n{output}"
    return streams, marks


def test_every_departure_in_an_example_is_governed_by_a_rule_it_is_marked_with(
    recorded: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    streams, marks = recorded
    wrong: dict[str, tuple[str, ...]] = {}
    for test, entry in sorted(marks.items()):
        rules = set(entry["rules"])
        found = {
            kind
            for events in streams.get(test, [])
            for kind in departures(events)
            if not GOVERNING[kind] & rules
        }
        if found:
            wrong[test.removeprefix("anthropic/test_anthropic_rule_examples_")] = tuple(
                sorted(found)
            )
    new = {test: kinds for test, kinds in wrong.items() if _KNOWN_UNPLAIN.get(test) != kinds}
    assert not new, (
        "examples with departures no rule of theirs governs "
        "(test: departures):\n" + "\n".join(f"  {t}: {k}" for t, k in new.items())
    )
    plain_now = sorted(set(_KNOWN_UNPLAIN) - set(wrong))
    assert not plain_now, f"made plain, to remove from _KNOWN_UNPLAIN: {plain_now}"


def test_the_plain_shape_has_no_departure_and_each_one_is_seen() -> None:
    start = {
        "type": "message_start",
        "message": {
            "id": "m",
            "type": "message",
            "role": "assistant",
            "model": "c",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
        },
    }
    block = [
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
        {"type": "content_block_stop", "index": 0},
    ]
    end = [
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}},
        {"type": "message_stop"},
    ]
    assert departures([start, *block, *end]) == set()
    assert departures([{"type": "ping"}, start, *block, *end]) == {"AM-PING", "AM-BEFORE-START"}
    prefixed = [
        start,
        {**block[0], "content_block": {"type": "text", "text": "A"}},
        *block[1:],
        *end,
    ]
    assert departures(prefixed) == {"text on content_block_start"}
