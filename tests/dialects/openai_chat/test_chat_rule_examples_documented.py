"""Every chat rule that can be shown on a documented stream has a rule example on one
(verdicts.md §2): the rule examples run against the reference through a recording
target, and each stream they fold is classified by the dialect's `StreamShapes`."""

from __future__ import annotations

import sys
from pathlib import Path

from refold.dialects import DIALECTS
from refold.reference.chat import RULES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _chat_rule_example_streams import RuleExample, rule_examples

SHAPES = DIALECTS["openai-chat"].shapes
assert SHAPES is not None

UNDOCUMENTABLE: dict[str, str] = {
    "ENV-ID": "about blank or differing chunk ids; the reference says each chunk has the same ID",
    "ENV-NO-ERROR": "about a top-level error object, which only an error chunk carries (Q18)",
    "CHOICE-DELTA-NULL": "about a null or absent delta, which the definition requires (Q13)",
    "TOOL-2-NEW-ID": "about several calls sharing one index (Q2)",
    "TOOL-3-RESEND": "about whole arguments sent again (Q5)",
    "TOOL-NO-INDEX": "about fragments without the index the definition requires (Q1)",
    "TOOL-ADOPT-ID": "about an id arriving after a call's first fragment (CHAT-LATE-ID)",
    "TOOL-NAME": "about names repeated or changed on later fragments (Q6, CHAT-RENAMED)",
    "TOOL-EMPTY-ARGS": "about a call streamed without argument text (Q11)",
    "RD-INDEXLESS": "about reasoning_details entries without an index (Q17)",
    **dict.fromkeys(
        ("RD-MERGE", "RD-FIELDS", "RD-AS-SENT", "RD-ORDER", "TEXT-REASONING"),
        "about reasoning fields OpenAI's chunks do not carry (CHAT-X-REASONING)",
    ),
    "PROV-NATIVE-FINISH": "about OpenRouter's native_finish_reason (CHAT-X-PROVIDER)",
    "LP-SKIP": "about logprobs of the wrong type",
    "ROB-NULL-ENTRIES": "about null entries inside lists (Q20)",
    "ROB-BLANK": "about blank ids, types, roles and finish reasons (Q7, Q13, CHAT-BLANK)",
    "ROB-WRONG-TYPE": "about fields of the wrong JSON type",
    "ROB-NOT-OBJECT": "about chunks that are not JSON objects",
    "LIFE-ERROR": "about an error chunk (Q18)",
}
"""Rules that are about a departure by definition, and why."""

_EXAMPLES: list[RuleExample] = rule_examples()


def _documented_rules() -> set[str]:
    return {
        rule
        for example in _EXAMPLES
        for stream in example.streams
        if SHAPES.of(stream).shape == "documented"
        for rule in example.rules
    }


def test_every_rule_example_ran_and_folded_a_stream() -> None:
    assert len(_EXAMPLES) > 100
    silent = [e.name for e in _EXAMPLES if not e.streams]
    assert len(silent) < 10, silent  # a few lifecycle examples read before any chunk


def test_every_documentable_rule_has_a_rule_example_on_a_documented_stream() -> None:
    missing = sorted(set(RULES) - set(UNDOCUMENTABLE) - _documented_rules())
    assert not missing, f"no rule example on a documented stream for {missing}"


def test_every_undocumentable_rule_is_a_spec_rule_without_a_documented_example() -> None:
    assert set(UNDOCUMENTABLE) <= set(RULES)
    shown = sorted(set(UNDOCUMENTABLE) & _documented_rules())
    assert not shown, f"{shown} have a documented example: drop them from UNDOCUMENTABLE"


def test_every_departure_a_rule_example_makes_is_registered() -> None:
    # verdicts.md §1: every quirk a rule example shows is a registered departure
    unregistered = sorted(
        {
            f"{example.name}: {shape.describe()}"
            for example in _EXAMPLES
            for stream in example.streams
            if (shape := SHAPES.of(stream)).unregistered
        }
    )
    assert not unregistered, "\n".join(unregistered)
