"""Every Anthropic rule that can be shown on a documented stream has a rule example on one
(verdicts.md §1; issue 24 point 2): a stream whose every event validates against the SDK's
event types (the vendored schema) in the streaming page's order. The rules in
`UNDOCUMENTABLE` are about a departure by definition, and say which.

The examples' streams are recorded by running the example modules against a recording
reference (`_anthropic_example_streams`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import pytest
from _anthropic_example_streams import recorded_examples

from refold.dialects.anthropic_messages import ANTHROPIC_MESSAGES
from refold.reference.anthropic import RULES
from refold.verdicts.shapes import StreamShapes

UNDOCUMENTABLE: dict[str, str] = {
    "AM-START-CONTENT": "blocks inside message_start: the page says its content is empty (AQ7)",
    "AM-START-ONCE": "a second message_start: the page sends one",
    "AM-TYPE-ROLE": "a message_start without (or with blank) `type` and `role`, which the "
    "SDK's Message requires",
    "AM-BEFORE-START": "events before message_start",
    "AM-BLOCK-REOPEN": "a second content_block_start for one index",
    "AM-DELTA-MATCH": "a delta of a type its block does not take (AQ25)",
    "AM-USAGE-ABSENT": "no usage object, which the SDK's Message and message_delta require "
    "(the docs' thinking stream: AQ4)",
    "AM-LIFE-TRUNCATED": "a stream cut before message_stop",
    "AM-LIFE-AFTER-STOP": "events after message_stop",
    "AM-UNKNOWN-EVENT": "an event type no page names",
    "AM-UNKNOWN-DELTA": "a delta type the SDK's types do not name",
    "AM-UNKNOWN-BLOCK": "a block type the SDK's types do not name",
    "AM-TOOL-INVALID": "joined `partial_json` that does not parse to an object, which only "
    "fine-grained tool streaming sends (AQ9)",
    "AM-ROB-WRONG-TYPE": "a field of the wrong JSON type",
    "AM-ROB-NOT-OBJECT": "an event that is not a JSON object",
    "AM-SSE-TYPE": "a wire rule: its examples are SSE frames without an `event:` line, not "
    "an event stream (the fold's events are recorded only past the decoder)",
    "AM-SSE-EMPTY": "a wire rule: its examples are SSE frames with empty data",
}
"""Rules whose examples cannot be documented, and the departure each is about."""


def _shapes() -> StreamShapes:
    shapes = ANTHROPIC_MESSAGES.shapes
    assert shapes is not None
    return shapes


@pytest.fixture(scope="module")
def shapes_by_rule() -> dict[str, list[tuple[str, str]]]:
    """(test, shape description) of every recorded stream, per rule the test is marked with."""
    streams, marks, output = recorded_examples()
    assert len(streams) > 100, f"only {len(streams)} examples recorded a stream:\n{output}"
    found: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for test, entry in marks.items():
        for events in streams.get(test, []):
            shape = _shapes().of(events)
            for rule_id in entry["rules"]:
                found[rule_id].append(
                    (test, shape.shape if shape.shape == "documented" else shape.describe())
                )
    return found


def test_every_rule_that_can_be_shown_documented_has_a_documented_example(
    shapes_by_rule: dict[str, list[tuple[str, str]]],
) -> None:
    missing = {
        rule_id: sorted({shape for _, shape in shapes_by_rule.get(rule_id, [])})[:3]
        for rule_id in RULES
        if rule_id not in UNDOCUMENTABLE
        and not any(shape == "documented" for _, shape in shapes_by_rule.get(rule_id, []))
    }
    assert not missing, (
        "rules with no example on a documented stream (rule: its examples' "
        "shapes):\n" + "\n".join(f"  {r}: {json.dumps(s)}" for r, s in missing.items())
    )


def test_every_undocumentable_rule_is_a_rule_and_shows_no_documented_example(
    shapes_by_rule: dict[str, list[tuple[str, str]]],
) -> None:
    # a rule that gained a documented example leaves the table
    assert set(UNDOCUMENTABLE) <= set(RULES)
    documented = sorted(
        rule_id
        for rule_id in UNDOCUMENTABLE
        if any(shape == "documented" for _, shape in shapes_by_rule.get(rule_id, []))
    )
    assert not documented, f"documented now, to remove from UNDOCUMENTABLE: {documented}"


def test_the_issues_rules_have_documented_examples(
    shapes_by_rule: dict[str, list[tuple[str, str]]],
) -> None:
    # issue 24: the SDK folds these correctly on documented streams, yet their examples
    # were not documented (a text start without text, index 1 before 0, thinking without
    # its signature, no usage anywhere)
    issue = (
        "AM-BLOCK-OPEN",
        "AM-BLOCK-ORDER",
        "AM-BLOCK-STOP",
        "AM-TEXT-JOIN",
        "AM-TOOL-JOIN",
        "AM-TOOL-NO-DELTA",
        "AM-USAGE-NEVER-SUM",
        "AM-THINK-JOIN",
    )
    counts: dict[str, Any] = {
        r: sum(shape == "documented" for _, shape in shapes_by_rule[r]) for r in issue
    }
    assert all(counts.values()), counts


def test_every_departure_an_example_makes_is_registered(
    shapes_by_rule: dict[str, list[tuple[str, str]]],
) -> None:
    unregistered = sorted(
        {
            (test, shape)
            for found in shapes_by_rule.values()
            for test, shape in found
            if "unregistered" in shape
        }
    )
    assert not unregistered, "\n".join(f"  {t}: {s}" for t, s in unregistered)
