"""The `gemini-generate-content` dialect: Gemini `streamGenerateContent` chunk streams.

Its contract is docs/spec/gemini-fold.md (`refold.reference.gemini`, rules `GM-*`); its
suites are `refold.suites.gemini`. Every chunk is a whole `GenerateContentResponse`
(snapshots at the top and per candidate, parts as deltas) and the stream has no terminal
item. The wire has two framings, `alt=sse` events and one streamed JSON array, both
feature `sse`: a target's `sse` decoder is handed either body and tells them apart by its
first byte (`framing`).
"""

from __future__ import annotations

from refold.reference import JSONObject
from refold.reference.gemini import FEATURES, RULES, Accumulator, differences, fold

from .._dialect import Dialect
from ._shapes import GEMINI_SHAPES
from .ablation import ABLATION, absent_departures
from .attribution import PLACES, POINTERLESS, rules_at
from .framing import decode_body
from .policies import GEMINI_POLICIES
from .serving import ENDPOINT
from .targets import NODE_TARGETS, SDK_TARGETS
from .undecided import undecided_at

__all__ = ["GEMINI"]

_CHUNK_KEYS = ("candidates", "promptFeedback", "usageMetadata")


def _sniff(item: JSONObject) -> bool:
    """A `GenerateContentResponse` chunk (`candidates`, `promptFeedback` or `usageMetadata`)."""
    # Every Anthropic and Responses event has a `type`, every chat chunk an `object`: a
    # chunk with neither is no other dialect's, whatever the registry's order.
    if "type" in item or "object" in item:
        return False
    return any(key in item for key in _CHUNK_KEYS)


GEMINI = Dialect(
    name="gemini-generate-content",
    title="Gemini generateContent",
    spec="gemini-fold.md",
    docs="https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent",
    result="GenerateContentResponse",
    item="chunk",
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
    decode_sse=decode_body,
    snapshot_rule="GM-LIFE-SNAPSHOT",
    sse_layer="items",
    suites="gemini",
    endpoint=ENDPOINT,
    sniff=_sniff,
    sniffed="a `GenerateContentResponse` chunk (`candidates`, `promptFeedback` or `usageMetadata`)",
    named_frames=False,
    reference_target="refold.dialects.gemini.reference_target:DECLARATION",
    sdk_targets=SDK_TARGETS,
    node_targets=NODE_TARGETS,
    kit="gemini._kit",
    reference_package="refold.reference.gemini",
    reference_tests="dialects/gemini/test_reference_gemini_*.py",
    reference_equivalents="equivalent-mutants-gemini.toml",
    absent_departures=absent_departures,
    undecided_at=undecided_at,
    ablation=ABLATION,
    shapes=GEMINI_SHAPES,
    policies=GEMINI_POLICIES,
)
"""Gemini `streamGenerateContent` streams (`alt=sse` events or one JSON array)."""
