"""The `openai-responses` dialect: OpenAI Responses API event streams.

Its contract is responses-fold.md (`refold.reference.responses`, rules `RS-*` and
`LIFE-RS-*`); its suites are `refold.suites.responses`. The wire layer is the shared
WHATWG decoder with an item layer of its own (`decode_stream`: the events a fold is
given), as the Anthropic dialect's is.
"""

from __future__ import annotations

from refold.reference import JSONObject
from refold.reference.responses import (
    FEATURES,
    RULES,
    Accumulator,
    decode_stream,
    differences,
    fold,
)

from .._dialect import Dialect
from ._charging import RESPONSES_CHARGING
from ._shapes import RESPONSES_SHAPES
from .ablation import ABLATION, absent_departures
from .attribution import PLACES, POINTERLESS, rules_at
from .policies import RESPONSES_POLICIES
from .serving import ENDPOINT
from .targets import NODE_TARGETS, SDK_TARGETS
from .undecided import undecided_at

__all__ = ["OPENAI_RESPONSES"]


def _sniff(item: JSONObject) -> bool:
    """A Responses `response.*` event."""
    kind = item.get("type")
    return isinstance(kind, str) and kind.startswith("response.")


OPENAI_RESPONSES = Dialect(
    name="openai-responses",
    title="OpenAI Responses",
    spec="responses-fold.md",
    docs="https://platform.openai.com/docs/api-reference/responses-streaming",
    result="Response",
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
    lifecycle_reads=("finished",),
    lifecycle_calls=(),
    decode_sse=decode_stream,
    snapshot_rule="LIFE-RS-SNAPSHOT",
    sse_layer="items",
    suites="responses",
    endpoint=ENDPOINT,
    sniff=_sniff,
    sniffed="a Responses `response.*` event",
    named_frames=True,
    reference_target="refold.dialects.openai_responses.reference_target:DECLARATION",
    sdk_targets=SDK_TARGETS,
    node_targets=NODE_TARGETS,
    kit="responses._kit",
    reference_package="refold.reference.responses",
    reference_tests="dialects/openai_responses/test_reference_responses_*.py",
    reference_equivalents="equivalent-mutants-responses.toml",
    not_fold_features=frozenset({"lifecycle", "sse", "events"}),
    policies=RESPONSES_POLICIES,
    ablation=ABLATION,
    absent_departures=absent_departures,
    undecided_at=undecided_at,
    charging=RESPONSES_CHARGING,
    shapes=RESPONSES_SHAPES,
)
"""OpenAI Responses streams (`response.created` … `response.completed`)."""
