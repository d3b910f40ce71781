"""The Gemini dialect's parts of the generic suites (`refold.suites._kits`): what its round
trips, differential checks, wire decoder checks, robustness properties and lifecycle
machine draw, and the rules each case checks.

Responses are drawn only with the features the target claims, and a case's rules are of
the features its draw needs (the harness skips a case one of whose features is not
claimed): a family's responses are drawn with the parts and fields its shapes concern, so
its examples go there, and a per-feature round trip draws only `text` and the feature.
Robustness noise (unknown parts and keys) is the robustness suite's: the round trips draw
without it, so they fail only on the rules they name.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.strategies.gemini import (
    array_bytes,
    chunk_streams,
    families_for,
    lifecycle_chunks,
    round_trips,
    sse_bytes,
)

from .._kits import all_families, cases, framed, per_feature, split_family
from .._lifecycle import FinishedMachine, ReferenceMachine, SnapshotMachine
from . import _robustness
from ._fragments import no_orphan_fragment
from ._lifecycle import LIFECYCLE_MACHINE as LIFECYCLE_MACHINE
from ._lifecycle import ErrorMachine, cut_streams, reading_before_any_chunk

_TEXT = frozenset({"text"})
_THINKING = frozenset({"text", "thinking"})
_CALLS = frozenset({"text", "tool_calls"})
_STREAMED = frozenset({"text", "tool_calls", "streamed_arguments"})
_CANDIDATES = frozenset({"text", "candidates"})
_USAGE = frozenset({"text", "usage"})
_NOT_FOLD = frozenset({"robustness", "lifecycle", "sse"})
"""The claimed features a fold's stream is not drawn with: robustness noise is the
robustness suite's, the others need another interface."""
_ENVELOPE = ("GM-ENV-SNAPSHOT", "GM-ENV-ID", "GM-CAND-KEYS", "GM-FINISH", "GM-ROLE")
_TEXT_SPLITS = ("GM-TEXT-JOIN", "GM-TEXT-EMPTY")
_THOUGHTS = ("GM-THOUGHT-APART", "GM-SIGNATURE")
_STREAMING = ("GM-CALL-STREAMED", "GM-CALL-PARTIAL-ARGS")
_CANDIDATE_ORDER = ("GM-CAND-INDEX", "GM-CAND-ORDER")

_family = partial(split_family, round_trips)

Cases = st.SearchStrategy[tuple[JSONObject, list[JSONObject]]]
Streams = st.SearchStrategy[list[JSONObject]]


def _metadata_spread(focus: frozenset[str]) -> Callable[[frozenset[str]], Cases]:
    """Family 5's splits over text cut into several chunks (family 2): with the answer in
    one chunk, as family 1 alone sends a one-part answer, there is no earlier chunk to
    spread ratings, citations or grounding over."""

    def cases(claimed: frozenset[str]) -> Cases:
        return round_trips(features=claimed & focus, families={1, 2, 5})

    return cases


def _streamed_feature(claimed: frozenset[str]) -> Cases:
    # streamed arguments are a way of sending calls: the feature needs tool_calls' too
    return round_trips(features=_STREAMED, families=families_for(_STREAMED))


ROUND_TRIP = {
    "family": cases(
        {
            "family-1-google-shape": (
                _family(1, _TEXT),
                (*_ENVELOPE, "GM-CAND-INDEX", "GM-TEXT-JOIN"),
            ),
            "family-2-text-splits": (_family(2, _TEXT), _TEXT_SPLITS),
            "family-2-thought-and-signature-splits": (
                _family(2, _THINKING),
                (*_TEXT_SPLITS, *_THOUGHTS),
            ),
            "family-3-parts-grouped": (
                _family(3, _CALLS),
                ("GM-TEXT-JOIN", "GM-CALL-WHOLE", "GM-CALL-ID"),
            ),
            "family-4-streamed-arguments": (_family(4, _STREAMED), (*_STREAMING, "GM-CALL-WHOLE")),
            "family-5-safety-ratings-spread": (
                _metadata_spread(frozenset({"text", "safety"})),
                ("GM-SAFETY", "GM-PROMPT-FEEDBACK", "GM-CAND-KEYS", "GM-CAND-NONE"),
            ),
            "family-5-citations-spread": (
                _metadata_spread(frozenset({"text", "citations"})),
                ("GM-CITATIONS", "GM-CAND-KEYS"),
            ),
            "family-5-grounding-spread": (
                _metadata_spread(frozenset({"text", "grounding"})),
                ("GM-GROUNDING", "GM-CAND-KEYS"),
            ),
            "family-6-candidates-interleaved": (_family(6, _CANDIDATES), _CANDIDATE_ORDER),
            "family-7-noise": (
                _family(7, _TEXT),
                ("GM-TEXT-EMPTY", "GM-ENV-SNAPSHOT", "GM-ENV-ID"),
            ),
            "family-8-usage-going-down": (_family(8, _USAGE), ("GM-USAGE-LAST",)),
        }
    ),
    "mixed": cases(
        {
            "all": (
                all_families(round_trips, families_for, drawn_without=_NOT_FOLD),
                (*_ENVELOPE, "GM-CAND-INDEX", *_TEXT_SPLITS),
            )
        }
    ),
    "feature": [
        *per_feature(
            round_trips,
            families_for,
            {
                "text": (*_ENVELOPE, "GM-CAND-INDEX", "GM-TEXT-EMPTY"),
                "candidates": _CANDIDATE_ORDER,
                "thinking": _THOUGHTS,
                "tool_calls": ("GM-CALL-WHOLE", "GM-CALL-ID"),
                "code_execution": ("GM-CODE",),
                "media": ("GM-INLINE",),
                "safety": ("GM-SAFETY", "GM-PROMPT-FEEDBACK", "GM-CAND-NONE"),
                "citations": ("GM-CITATIONS",),
                "grounding": ("GM-GROUNDING",),
                "usage": ("GM-USAGE-LAST",),
            },
            every=("GM-TEXT-JOIN",),
        ),
        *cases({"streamed_arguments": (_streamed_feature, ("GM-TEXT-JOIN", *_STREAMING))}),
    ],
}
"""The round trips: per split family, all claimed families mixed, per feature."""


def _damaged(features: frozenset[str]) -> Callable[[frozenset[str]], Streams]:
    """Damaged streams of `features` alone (the case's rules are theirs), none holding a
    nameless fragment with no call open (`no_orphan_fragment`)."""

    def streams(claimed: frozenset[str]) -> Streams:
        return chunk_streams(features=features).filter(no_orphan_fragment)

    return streams


def _malformed(claimed: frozenset[str]) -> Streams:
    # the claimed features' parts with robustness's damage: wrong types, null entries
    features = (claimed - _NOT_FOLD) | {"robustness"}
    return chunk_streams(features=features).filter(no_orphan_fragment)


DIFFERENTIAL = {
    "damaged": cases(
        {
            "content-after-finish": (_damaged(_TEXT), ("GM-FINISH", "GM-TEXT-JOIN", "GM-ROLE")),
            "index-gaps": (_damaged(_CANDIDATES), (*_CANDIDATE_ORDER, "GM-FINISH")),
            "second-signature": (
                _damaged(_THINKING),
                ("GM-SIGNATURE", "GM-THOUGHT-APART", "GM-TEXT-JOIN"),
            ),
            "mismatched-pieces": (_damaged(_STREAMED), (*_STREAMING, "GM-CALL-WHOLE")),
        }
    ),
    "malformed": cases(
        {
            "malformed": (
                _malformed,
                ("GM-ROB-WRONG-TYPE", "GM-ROB-NULL-ENTRIES", "GM-UNKNOWN-KEYS"),
            )
        }
    ),
}
"""Any stream, lossless or not, holding only the damage of the features the case names
(`refold.strategies.gemini.chunk_streams`): content after a finish, index gaps, a second
signature, streamed pieces with unreadable or mismatched paths; wrong types, null entries
and unknown keys with the claimed features' parts. The reference's fold of the same
chunks is the expectation."""


_PASSED_THROUGH: tuple[JSONObject, ...] = (
    {"error": {"code": 500, "message": "Internal error", "status": "INTERNAL"}},
    {},
    {"modelStatus": {"state": "x"}, "serviceTier": "standard"},
)
"""Chunks a decoder may be tempted to filter or raise on: the fold's rules decide them."""


def _sse_chunks(claimed: frozenset[str], data: st.DataObject) -> list[JSON]:
    """A short run of single chunks, or a lossless stream (whose text needs every UTF-8
    length), of the claimed fold features."""
    features = (claimed - _NOT_FOLD) | {"text"}
    single = lifecycle_chunks(features=features)  # without robustness: objects only
    streams = st.one_of(
        st.lists(single, min_size=1, max_size=6),
        round_trips(features=features).map(lambda case: case[1]),
    )
    chunks: list[JSON] = list(data.draw(streams, label="chunks"))
    return chunks


SSE = {
    "framed": cases(
        {
            "alt-sse": (framed(_sse_chunks, sse_bytes), ("GM-WIRE-SSE",)),
            "json-array": (framed(_sse_chunks, array_bytes), ("GM-WIRE-ARRAY",)),
        }
    ),
    "passed_through": cases(
        {
            "alt-sse-error-and-empty": (
                framed(_sse_chunks, sse_bytes, inserted=_PASSED_THROUGH),
                ("GM-WIRE-SSE",),
            ),
            "json-array-error-and-empty": (
                framed(_sse_chunks, array_bytes, inserted=_PASSED_THROUGH),
                ("GM-WIRE-ARRAY",),
            ),
        }
    ),
}
"""The wire properties (`Dialect.decode_sse`: a body of either framing, told by its first
byte, `refold.dialects.gemini.framing`): `alt=sse` events with comment keep-alives, mixed
line ends and multi-line data, and one JSON array with its separators, indentation and
BOM, each cut at any byte; error chunks, empty chunks and chunks of unknown keys handed
to the fold."""


ROBUSTNESS = {
    "wrong_typed": cases({"fields": (_robustness.wrong_typed, ("GM-ROB-WRONG-TYPE",))}),
    "junk": cases({"any-object": (_robustness.junk, ("GM-ROB-WRONG-TYPE",))}),
    "noise": cases(
        {
            "blank-entries": (_robustness.blank_entries, ("GM-ROB-NULL-ENTRIES",)),
            "empty-texts": (_robustness.empty_texts, ("GM-TEXT-EMPTY", "GM-ROB-NULL-ENTRIES")),
            "null-keys": (
                _robustness.null_keys,
                ("GM-ENV-SNAPSHOT", "GM-ENV-ID", "GM-ROB-WRONG-TYPE"),
            ),
        }
    ),
    "kept": cases(
        {"unknown-part": (_robustness.unknown_parts, ("GM-PART-OTHER", "GM-UNKNOWN-KEYS"))}
    ),
    "refused": cases({"not-an-object": (_robustness.refused, ("GM-ROB-NOT-OBJECT",))}),
}
"""The robustness properties (`refold.suites._robustness`): lossless streams against the
same streams with chunks of wrongly typed fields, null and non-object entries, empty text
parts or null keys; any JSON objects folded; a part of an unknown kind kept as sent;
values that are not objects refused."""


LIFECYCLE = {
    "concern": cases(
        {
            "snapshot": (SnapshotMachine, ("GM-LIFE-SNAPSHOT",)),
            "finished": (FinishedMachine, ("GM-LIFE-FINISHED", "GM-LIFE-TRUNCATED")),
            "error": (ErrorMachine, ("GM-LIFE-ERROR",)),
            "reference": (
                ReferenceMachine,
                ("GM-LIFE-SNAPSHOT", "GM-LIFE-AFTER-FINISH", "GM-LIFE-TRUNCATED"),
            ),
        }
    ),
    "empty": cases({"no-chunk": (reading_before_any_chunk, ("GM-LIFE-EMPTY",))}),
    "cut": cases(
        {
            "cut-failed-and-after-the-finish": (
                cut_streams,
                ("GM-LIFE-TRUNCATED", "GM-LIFE-AFTER-FINISH", "GM-LIFE-ERROR"),
            )
        }
    ),
}
"""The lifecycle concerns (`refold.suites._lifecycle`, the Gemini machine's parts in
`LIFECYCLE_MACHINE`): snapshots, `finished` exactly once every candidate finished or the
prompt was blocked, an error chunk recorded and terminal, every read equal to the
reference's; reading before any chunk; streams cut anywhere, failed or going on after
the finish folded like the reference."""
