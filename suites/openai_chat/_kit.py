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

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.strategies.chat import chunk_streams, families_for, round_trips

from .._json_values import chunks_with_wrong_types, insert_junk_entries, json_objects
from .._kits import all_families, cases, per_feature, split_family
from .._lifecycle import FinishedMachine, ReferenceMachine, SnapshotMachine
from .._robustness import Refusal, Variant
from ._lifecycle import LIFECYCLE_MACHINE as LIFECYCLE_MACHINE
from ._lifecycle import EmptyArgumentsMachine, reading_before_any_chunk

_TOOL_FEATURES = frozenset({"text", "choices", "tool_calls", "tool_call_repair", "empty_arguments"})
_FEATURE_FAMILIES = families_for({"text", "tool_calls"})

_family = partial(split_family, round_trips)


ROUND_TRIP = {
    "family": cases(
        {
            "family-1-openai-shape": (
                _family(1, None),
                (
                    "TEXT-JOIN",
                    "CHOICE-KEY",
                    "CHOICE-ROLE",
                    "CHOICE-FINISH",
                    "ENV-ID",
                    "ENV-MODEL",
                    "ENV-CREATED",
                    "ENV-OBJECT",
                ),
            ),
            "family-2-identity-repeated": (
                _family(2, None),
                ("CHOICE-ROLE", "TOOL-NAME", "TOOL-TYPE", "TOOL-ADOPT-ID"),
            ),
            "family-3-calls-sharing-an-index": (
                _family(3, _TOOL_FEATURES),
                ("TOOL-2-NEW-ID", "TOOL-OUTPUT"),
            ),
            "family-4-no-index": (_family(4, _TOOL_FEATURES), ("TOOL-NO-INDEX", "TOOL-2-NEW-ID")),
            "family-5-late-id": (_family(5, _TOOL_FEATURES), ("TOOL-ADOPT-ID",)),
            "family-6-re-sends": (_family(6, _TOOL_FEATURES), ("TOOL-3-RESEND",)),
            "family-7-no-argument-calls": (_family(7, _TOOL_FEATURES), ("TOOL-EMPTY-ARGS",)),
            "family-8-noise": (
                _family(8, None),
                (
                    "ROB-NULL-ENTRIES",
                    "ROB-BLANK",
                    "ROB-UNKNOWN-KEYS",
                    "CHOICE-DELTA-NULL",
                    "ENV-ID",
                    "CHOICE-FINISH",
                ),
            ),
        }
    ),
    "mixed": cases(
        {
            "all": (
                all_families(round_trips, families_for, drawn_without=frozenset()),
                ("TEXT-JOIN", "CHOICE-KEY", "CHOICE-FINISH", "ENV-ID"),
            )
        }
    ),
    "feature": per_feature(
        round_trips,
        lambda _: _FEATURE_FAMILIES,
        {
            "choices": ("CHOICE-ORDER", "CHOICE-KEY"),
            "tool_calls": (
                "TOOL-1-OPEN",
                "TOOL-5-APPEND",
                "TOOL-INDEX",
                "TOOL-NAME",
                "TOOL-TYPE",
                "TOOL-OUTPUT",
                "TOOL-RAW",
            ),
            "refusal": ("TEXT-REFUSAL",),
            "reasoning": ("TEXT-REASONING",),
            "reasoning_details": (
                "RD-MERGE",
                "RD-FIELDS",
                "RD-INDEXLESS",
                "RD-AS-SENT",
                "RD-ORDER",
            ),
            "annotations": ("TEXT-ANNOTATIONS",),
            "logprobs": ("LP-CONCAT", "LP-SHAPE"),
            "usage": ("USAGE-LAST",),
            "provider_fields": ("PROV-LAST", "PROV-NATIVE-FINISH"),
        },
    ),
}
"""The round trips: per split family, all claimed families mixed, per feature."""


def _damaged(claimed: frozenset[str]) -> st.SearchStrategy[list[JSONObject]]:
    return chunk_streams(features=claimed - {"robustness"})


def _malformed(claimed: frozenset[str]) -> st.SearchStrategy[list[JSONObject]]:
    return chunk_streams(features=claimed)


DIFFERENTIAL = {
    "damaged": cases(
        {
            "damaged": (
                _damaged,
                ("TEXT-JOIN", "CHOICE-KEY", "CHOICE-FINISH", "ENV-ID", "ENV-NO-ERROR"),
            )
        }
    ),
    "malformed": cases(
        {
            "malformed": (
                _malformed,
                ("ROB-WRONG-TYPE", "ROB-BLANK", "ROB-NULL-ENTRIES", "TOOL-NO-INDEX"),
            )
        }
    ),
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
    "wrong_typed": cases({"fields": (_wrong_typed, ("ROB-WRONG-TYPE",))}),
    "junk": cases({"any-object": (_junk, ("ROB-WRONG-TYPE",))}),
    "noise": cases({"null-list-entries": (_null_entries, ("ROB-NULL-ENTRIES",))}),
    "refused": cases(
        {
            "not-an-object": (
                Refusal(_refused_within, "LIFE-EMPTY", masked=False),
                ("ROB-NOT-OBJECT",),
            )
        }
    ),
}
"""The robustness properties (`refold.suites._robustness`): chunks of the wire's shape with
wrongly typed fields against the same chunks without them, any JSON objects folded, null
and non-object list entries against the chunks without them, values that are not objects
refused."""


LIFECYCLE = {
    "concern": cases(
        {
            "snapshot": (SnapshotMachine, ("LIFE-SNAPSHOT",)),
            "finished": (FinishedMachine, ("LIFE-FINISHED", "LIFE-DONE")),
            "empty-arguments": (EmptyArgumentsMachine, ("TOOL-EMPTY-ARGS",)),
            "reference": (ReferenceMachine, ("LIFE-AFTER", "LIFE-ERROR")),
        }
    ),
    "empty": cases({"no-chunk": (reading_before_any_chunk, ("LIFE-EMPTY",))}),
}
"""The lifecycle concerns (`refold.suites._lifecycle`, the chat machine's parts in
`LIFECYCLE_MACHINE`): snapshots, `finished` by finish reasons and `[DONE]`, `"{}"` only
once finished, every read equal to the reference's; reading before any chunk."""
