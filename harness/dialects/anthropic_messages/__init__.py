"""The `anthropic-messages` dialect: Anthropic Messages event streams.

Its contract is anthropic-fold.md (`refold.reference.anthropic`), whose `AM-*` rules
include the wire rules (feature `sse`); its suites are `refold.suites.anthropic`.
"""

from __future__ import annotations

from refold.reference import JSONObject
from refold.reference.anthropic import (
    FEATURES,
    RULES,
    Accumulator,
    decode_stream,
    differences,
    fold,
)

from .._dialect import Dialect
from ._charging import ANTHROPIC_CHARGING
from ._shapes import ANTHROPIC_SHAPES
from .ablation import ABLATION, absent_departures
from .attribution import PLACES, POINTERLESS, rules_at
from .policies import ANTHROPIC_POLICIES
from .serving import ENDPOINT
from .targets import NODE_TARGETS, SDK_TARGETS
from .undecided import undecided_at

__all__ = ["ANTHROPIC_MESSAGES"]


_TYPES = frozenset(
    {
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    }
)


def _sniff(item: JSONObject) -> bool:
    """An Anthropic `message_start`, `content_block_*` or `message_*` event."""
    return item.get("type") in _TYPES


ANTHROPIC_MESSAGES = Dialect(
    name="anthropic-messages",
    title="Anthropic Messages",
    spec="anthropic-fold.md",
    docs="https://docs.claude.com/en/docs/build-with-claude/streaming",
    result="Message",
    item="event",
    rules=RULES,
    spec_rules=frozenset(RULES),
    features=FEATURES,
    fold=fold,
    accumulator=Accumulator,
    differences=differences,
    rules_at=rules_at,
    pointerless=POINTERLESS,
    places=PLACES,
    lifecycle_reads=("finished", "error"),
    lifecycle_calls=(),
    decode_sse=decode_stream,
    snapshot_rule="AM-LIFE-SNAPSHOT",
    sse_layer="items",
    suites="anthropic",
    endpoint=ENDPOINT,
    sniff=_sniff,
    sniffed="an Anthropic `message_start`, `content_block_*` or `message_*` event",
    named_frames=True,
    reference_target="refold.dialects.anthropic_messages.reference_target:DECLARATION",
    sdk_targets=SDK_TARGETS,
    node_targets=NODE_TARGETS,
    kit="anthropic._kit",
    reference_package="refold.reference.anthropic",
    reference_tests="dialects/anthropic_messages/test_reference_anthropic_*.py",
    reference_equivalents="equivalent-mutants-anthropic.toml",
    ablation=ABLATION,
    absent_departures=absent_departures,
    charging=ANTHROPIC_CHARGING,
    undecided_at=undecided_at,
    policies=ANTHROPIC_POLICIES,
    shapes=ANTHROPIC_SHAPES,
)
"""Anthropic Messages streams (`message_start` … `message_stop`)."""
