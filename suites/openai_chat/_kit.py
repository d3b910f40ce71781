"""The chat dialect's parts of the generic suites (`refold.suites._kits`): what its round
trips and differential checks draw, and the rules each case checks.

Completions are drawn only with the features the target claims, so a target is never sent
a field it does not claim to fold. A per-feature round trip draws from the families whose
rules belong to `text` and `tool_calls` alone (1, 2 and 5), so it fails only on its
feature's rules; a tool-call family's completions are drawn with the call features only
(when claimed): its shapes concern calls, so the examples go to calls.
"""

from __future__ import annotations

from functools import partial

import pytest
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.run.marks import rule
from refold.strategies.chat import chunk_streams, families_for, round_trips

from .._json_values import chunks_with_wrong_types, insert_junk_entries, json_objects
from .._kits import Draw, all_families, one_feature, split_family
from .._lifecycle import FinishedMachine, ReferenceMachine, SnapshotMachine
from .._robustness import Refusal, Variant
from ._lifecycle import LIFECYCLE_MACHINE as LIFECYCLE_MACHINE
from ._lifecycle import EmptyArgumentsMachine, reading_before_any_chunk

_TOOL_FEATURES = frozenset({"text", "choices", "tool_calls", "tool_call_repair", "empty_arguments"})
_FEATURE_FAMILIES = families_for({"text", "tool_calls"})

_family = partial(split_family, round_trips)
_mixed = all_families(round_trips, families_for, drawn_without=frozenset())


def _feature(feature: str) -> Draw:
    return one_feature(round_trips, lambda _: _FEATURE_FAMILIES, feature)


ROUND_TRIP = {
    "family": [
        pytest.param(
            _family(1, None),
            marks=rule(
                "TEXT-JOIN",
                "CHOICE-KEY",
                "CHOICE-ROLE",
                "CHOICE-FINISH",
                "ENV-ID",
                "ENV-MODEL",
                "ENV-CREATED",
                "ENV-OBJECT",
            ),
            id="family-1-openai-shape",
        ),
        pytest.param(
            _family(2, None),
            marks=rule("CHOICE-ROLE", "TOOL-NAME", "TOOL-TYPE", "TOOL-ADOPT-ID"),
            id="family-2-identity-repeated",
        ),
        pytest.param(
            _family(3, _TOOL_FEATURES),
            marks=rule("TOOL-2-NEW-ID", "TOOL-OUTPUT"),
            id="family-3-calls-sharing-an-index",
        ),
        pytest.param(
            _family(4, _TOOL_FEATURES),
            marks=rule("TOOL-NO-INDEX", "TOOL-2-NEW-ID"),
            id="family-4-no-index",
        ),
        pytest.param(
            _family(5, _TOOL_FEATURES), marks=rule("TOOL-ADOPT-ID"), id="family-5-late-id"
        ),
        pytest.param(
            _family(6, _TOOL_FEATURES), marks=rule("TOOL-3-RESEND"), id="family-6-re-sends"
        ),
        pytest.param(
            _family(7, _TOOL_FEATURES),
            marks=rule("TOOL-EMPTY-ARGS"),
            id="family-7-no-argument-calls",
        ),
        pytest.param(
            _family(8, None),
            marks=rule(
                "ROB-NULL-ENTRIES",
                "ROB-BLANK",
                "ROB-UNKNOWN-KEYS",
                "CHOICE-DELTA-NULL",
                "ENV-ID",
                "CHOICE-FINISH",
            ),
            id="family-8-noise",
        ),
    ],
    "mixed": [
        pytest.param(
            _mixed, marks=rule("TEXT-JOIN", "CHOICE-KEY", "CHOICE-FINISH", "ENV-ID"), id="all"
        )
    ],
    "feature": [
        pytest.param(_feature(feature), marks=rule(*rules), id=feature)
        for feature, rules in (
            ("choices", ("CHOICE-ORDER", "CHOICE-KEY")),
            (
                "tool_calls",
                (
                    "TOOL-1-OPEN",
                    "TOOL-5-APPEND",
                    "TOOL-INDEX",
                    "TOOL-NAME",
                    "TOOL-TYPE",
                    "TOOL-OUTPUT",
                    "TOOL-RAW",
                ),
            ),
            ("refusal", ("TEXT-REFUSAL",)),
            ("reasoning", ("TEXT-REASONING",)),
            (
                "reasoning_details",
                ("RD-MERGE", "RD-FIELDS", "RD-INDEXLESS", "RD-AS-SENT", "RD-ORDER"),
            ),
            ("annotations", ("TEXT-ANNOTATIONS",)),
            ("logprobs", ("LP-CONCAT", "LP-SHAPE")),
            ("usage", ("USAGE-LAST",)),
            ("provider_fields", ("PROV-LAST", "PROV-NATIVE-FINISH")),
        )
    ],
}
"""The round trips: per split family, all claimed families mixed, per feature."""


def _damaged(claimed: frozenset[str]) -> st.SearchStrategy[list[JSONObject]]:
    return chunk_streams(features=claimed - {"robustness"})


def _malformed(claimed: frozenset[str]) -> st.SearchStrategy[list[JSONObject]]:
    return chunk_streams(features=claimed)


DIFFERENTIAL = {
    "damaged": [
        pytest.param(
            _damaged,
            marks=rule("TEXT-JOIN", "CHOICE-KEY", "CHOICE-FINISH", "ENV-ID", "ENV-NO-ERROR"),
            id="damaged",
        )
    ],
    "malformed": [
        pytest.param(
            _malformed,
            marks=rule("ROB-WRONG-TYPE", "ROB-BLANK", "ROB-NULL-ENTRIES", "TOOL-NO-INDEX"),
            id="malformed",
        )
    ],
}
"""Any stream, lossless or not (cut off, chunks lost, repeated or swapped, an error chunk
mid-stream), of the claimed features: without `robustness`'s damage, and with it."""


_ENVELOPE: JSONObject = {
    "id": "chatcmpl-x",
    "object": "chat.completion.chunk",
    "created": 1700000000,
    "model": "m",
}
_WRONG_TYPED = st.lists(chunks_with_wrong_types(), min_size=1, max_size=3)
"""Chunks of the wire's shape with some fields of the wrong JSON type, each with the same
chunk without them."""


def _wrong_typed(claimed: frozenset[str], data: st.DataObject) -> Variant:
    pairs = data.draw(_WRONG_TYPED, label="pairs")
    return Variant(
        [chunk for chunk, _ in pairs],
        [cleaned for _, cleaned in pairs],
        "their wrong-typed fields",
        masked=False,
    )


def _junk(claimed: frozenset[str], data: st.DataObject) -> list[JSON]:
    chunks = json_objects() | chunks_with_wrong_types().map(lambda pair: pair[0])
    junk: list[JSON] = data.draw(st.lists(chunks, min_size=1, max_size=3), label="chunks")
    return junk


def _null_entries(claimed: frozenset[str], data: st.DataObject) -> Variant:
    clean = [cleaned for _, cleaned in data.draw(_WRONG_TYPED, label="pairs")]
    chunks = [insert_junk_entries(data.draw, chunk) for chunk in clean]
    return Variant(chunks, list(clean), "their non-object entries", masked=False)


def _refused_within(claimed: frozenset[str], data: st.DataObject) -> list[JSONObject]:
    pairs = data.draw(st.lists(chunks_with_wrong_types(), max_size=3), label="pairs")
    return [{**_ENVELOPE, **chunk} for chunk, _ in pairs]


ROBUSTNESS = {
    "wrong_typed": [pytest.param(_wrong_typed, marks=rule("ROB-WRONG-TYPE"), id="fields")],
    "junk": [pytest.param(_junk, marks=rule("ROB-WRONG-TYPE"), id="any-object")],
    "noise": [pytest.param(_null_entries, marks=rule("ROB-NULL-ENTRIES"), id="null-list-entries")],
    "refused": [
        pytest.param(
            Refusal(_refused_within, "LIFE-EMPTY", masked=False),
            marks=rule("ROB-NOT-OBJECT"),
            id="not-an-object",
        )
    ],
}
"""The robustness properties (`refold.suites._robustness`): chunks of the wire's shape with
wrongly typed fields against the same chunks without them, any JSON objects folded, null
and non-object list entries against the chunks without them, values that are not objects
refused."""


LIFECYCLE = {
    "concern": [
        pytest.param(SnapshotMachine, marks=rule("LIFE-SNAPSHOT"), id="snapshot"),
        pytest.param(FinishedMachine, marks=rule("LIFE-FINISHED", "LIFE-DONE"), id="finished"),
        pytest.param(EmptyArgumentsMachine, marks=rule("TOOL-EMPTY-ARGS"), id="empty-arguments"),
        pytest.param(ReferenceMachine, marks=rule("LIFE-AFTER", "LIFE-ERROR"), id="reference"),
    ],
    "empty": [pytest.param(reading_before_any_chunk, marks=rule("LIFE-EMPTY"), id="no-chunk")],
}
"""The lifecycle concerns (`refold.suites._lifecycle`, the chat machine's parts in
`LIFECYCLE_MACHINE`): snapshots, `finished` by finish reasons and `[DONE]`, `"{}"` only
once finished, every read equal to the reference's; reading before any chunk."""
