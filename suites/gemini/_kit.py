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

import pytest
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.run.marks import rule
from refold.strategies.gemini import (
    array_bytes,
    chunk_streams,
    families_for,
    lifecycle_chunks,
    round_trips,
    sse_bytes,
)

from .._kits import all_families, one_feature, split_family
from .._lifecycle import FinishedMachine, ReferenceMachine, SnapshotMachine
from .._sse_items import with_inserted
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

_family = partial(split_family, round_trips)
_mixed = all_families(round_trips, families_for, drawn_without=_NOT_FOLD)
_feature = partial(one_feature, round_trips, families_for)

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
    "family": [
        pytest.param(
            _family(1, _TEXT),
            marks=rule(*_ENVELOPE, "GM-CAND-INDEX", "GM-TEXT-JOIN"),
            id="family-1-google-shape",
        ),
        pytest.param(
            _family(2, _TEXT),
            marks=rule("GM-TEXT-JOIN", "GM-TEXT-EMPTY"),
            id="family-2-text-splits",
        ),
        pytest.param(
            _family(2, _THINKING),
            marks=rule("GM-TEXT-JOIN", "GM-TEXT-EMPTY", "GM-THOUGHT-APART", "GM-SIGNATURE"),
            id="family-2-thought-and-signature-splits",
        ),
        pytest.param(
            _family(3, _CALLS),
            marks=rule("GM-TEXT-JOIN", "GM-CALL-WHOLE", "GM-CALL-ID"),
            id="family-3-parts-grouped",
        ),
        pytest.param(
            _family(4, _STREAMED),
            marks=rule("GM-CALL-STREAMED", "GM-CALL-PARTIAL-ARGS", "GM-CALL-WHOLE"),
            id="family-4-streamed-arguments",
        ),
        pytest.param(
            _metadata_spread(frozenset({"text", "safety"})),
            marks=rule("GM-SAFETY", "GM-PROMPT-FEEDBACK", "GM-CAND-KEYS", "GM-CAND-NONE"),
            id="family-5-safety-ratings-spread",
        ),
        pytest.param(
            _metadata_spread(frozenset({"text", "citations"})),
            marks=rule("GM-CITATIONS", "GM-CAND-KEYS"),
            id="family-5-citations-spread",
        ),
        pytest.param(
            _metadata_spread(frozenset({"text", "grounding"})),
            marks=rule("GM-GROUNDING", "GM-CAND-KEYS"),
            id="family-5-grounding-spread",
        ),
        pytest.param(
            _family(6, _CANDIDATES),
            marks=rule("GM-CAND-INDEX", "GM-CAND-ORDER"),
            id="family-6-candidates-interleaved",
        ),
        pytest.param(
            _family(7, _TEXT),
            marks=rule("GM-TEXT-EMPTY", "GM-ENV-SNAPSHOT", "GM-ENV-ID"),
            id="family-7-noise",
        ),
        pytest.param(
            _family(8, _USAGE),
            marks=rule("GM-USAGE-LAST"),
            id="family-8-usage-going-down",
        ),
    ],
    "mixed": [
        pytest.param(
            _mixed,
            marks=rule(*_ENVELOPE, "GM-CAND-INDEX", "GM-TEXT-JOIN", "GM-TEXT-EMPTY"),
            id="all",
        )
    ],
    "feature": [
        *(
            pytest.param(_feature(feature), marks=rule("GM-TEXT-JOIN", *rules), id=feature)
            for feature, rules in (
                ("text", (*_ENVELOPE, "GM-CAND-INDEX", "GM-TEXT-EMPTY")),
                ("candidates", ("GM-CAND-INDEX", "GM-CAND-ORDER")),
                ("thinking", ("GM-THOUGHT-APART", "GM-SIGNATURE")),
                ("tool_calls", ("GM-CALL-WHOLE", "GM-CALL-ID")),
                ("code_execution", ("GM-CODE",)),
                ("media", ("GM-INLINE",)),
                ("safety", ("GM-SAFETY", "GM-PROMPT-FEEDBACK", "GM-CAND-NONE")),
                ("citations", ("GM-CITATIONS",)),
                ("grounding", ("GM-GROUNDING",)),
                ("usage", ("GM-USAGE-LAST",)),
            )
        ),
        pytest.param(
            _streamed_feature,
            marks=rule("GM-TEXT-JOIN", "GM-CALL-STREAMED", "GM-CALL-PARTIAL-ARGS"),
            id="streamed_arguments",
        ),
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
    "damaged": [
        pytest.param(
            _damaged(_TEXT),
            marks=rule("GM-FINISH", "GM-TEXT-JOIN", "GM-ROLE"),
            id="content-after-finish",
        ),
        pytest.param(
            _damaged(_CANDIDATES),
            marks=rule("GM-CAND-INDEX", "GM-CAND-ORDER", "GM-FINISH"),
            id="index-gaps",
        ),
        pytest.param(
            _damaged(_THINKING),
            marks=rule("GM-SIGNATURE", "GM-THOUGHT-APART", "GM-TEXT-JOIN"),
            id="second-signature",
        ),
        pytest.param(
            _damaged(_STREAMED),
            marks=rule("GM-CALL-STREAMED", "GM-CALL-PARTIAL-ARGS", "GM-CALL-WHOLE"),
            id="mismatched-pieces",
        ),
    ],
    "malformed": [
        pytest.param(
            _malformed,
            marks=rule("GM-ROB-WRONG-TYPE", "GM-ROB-NULL-ENTRIES", "GM-UNKNOWN-KEYS"),
            id="malformed",
        )
    ],
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


def _sse_framed(claimed: frozenset[str], data: st.DataObject) -> list[bytes]:
    parts: list[bytes] = data.draw(sse_bytes(_sse_chunks(claimed, data)), label="parts")
    return parts


def _array_framed(claimed: frozenset[str], data: st.DataObject) -> list[bytes]:
    parts: list[bytes] = data.draw(array_bytes(_sse_chunks(claimed, data)), label="parts")
    return parts


def _passed_through(framing_name: str, claimed: frozenset[str], data: st.DataObject) -> list[bytes]:
    chunks = with_inserted(data, _sse_chunks(claimed, data), _PASSED_THROUGH)
    framing = sse_bytes(chunks) if framing_name == "sse" else array_bytes(chunks)
    parts: list[bytes] = data.draw(framing, label="parts")
    return parts


SSE = {
    "framed": [
        pytest.param(_sse_framed, marks=rule("GM-WIRE-SSE"), id="alt-sse"),
        pytest.param(_array_framed, marks=rule("GM-WIRE-ARRAY"), id="json-array"),
    ],
    "passed_through": [
        pytest.param(
            partial(_passed_through, "sse"), marks=rule("GM-WIRE-SSE"), id="alt-sse-error-and-empty"
        ),
        pytest.param(
            partial(_passed_through, "array"),
            marks=rule("GM-WIRE-ARRAY"),
            id="json-array-error-and-empty",
        ),
    ],
}
"""The wire properties (`Dialect.decode_sse`: a body of either framing, told by its first
byte, `refold.dialects.gemini.framing`): `alt=sse` events with comment keep-alives, mixed
line ends and multi-line data, and one JSON array with its separators, indentation and
BOM, each cut at any byte; error chunks, empty chunks and chunks of unknown keys handed
to the fold."""


ROBUSTNESS = {
    "wrong_typed": [
        pytest.param(_robustness.wrong_typed, marks=rule("GM-ROB-WRONG-TYPE"), id="fields")
    ],
    "junk": [pytest.param(_robustness.junk, marks=rule("GM-ROB-WRONG-TYPE"), id="any-object")],
    "noise": [
        pytest.param(
            _robustness.blank_entries, marks=rule("GM-ROB-NULL-ENTRIES"), id="blank-entries"
        ),
        pytest.param(
            _robustness.empty_texts,
            marks=rule("GM-TEXT-EMPTY", "GM-ROB-NULL-ENTRIES"),
            id="empty-texts",
        ),
        pytest.param(
            _robustness.null_keys,
            marks=rule("GM-ENV-SNAPSHOT", "GM-ENV-ID", "GM-ROB-WRONG-TYPE"),
            id="null-keys",
        ),
    ],
    "kept": [
        pytest.param(
            _robustness.unknown_parts,
            marks=rule("GM-PART-OTHER", "GM-UNKNOWN-KEYS"),
            id="unknown-part",
        )
    ],
    "refused": [
        pytest.param(_robustness.refused, marks=rule("GM-ROB-NOT-OBJECT"), id="not-an-object")
    ],
}
"""The robustness properties (`refold.suites._robustness`): lossless streams against the
same streams with chunks of wrongly typed fields, null and non-object entries, empty text
parts or null keys; any JSON objects folded; a part of an unknown kind kept as sent;
values that are not objects refused."""


LIFECYCLE = {
    "concern": [
        pytest.param(SnapshotMachine, marks=rule("GM-LIFE-SNAPSHOT"), id="snapshot"),
        pytest.param(
            FinishedMachine, marks=rule("GM-LIFE-FINISHED", "GM-LIFE-TRUNCATED"), id="finished"
        ),
        pytest.param(ErrorMachine, marks=rule("GM-LIFE-ERROR"), id="error"),
        pytest.param(
            ReferenceMachine,
            marks=rule("GM-LIFE-SNAPSHOT", "GM-LIFE-AFTER-FINISH", "GM-LIFE-TRUNCATED"),
            id="reference",
        ),
    ],
    "empty": [pytest.param(reading_before_any_chunk, marks=rule("GM-LIFE-EMPTY"), id="no-chunk")],
    "cut": [
        pytest.param(
            cut_streams,
            marks=rule("GM-LIFE-TRUNCATED", "GM-LIFE-AFTER-FINISH", "GM-LIFE-ERROR"),
            id="cut-failed-and-after-the-finish",
        )
    ],
}
"""The lifecycle concerns (`refold.suites._lifecycle`, the Gemini machine's parts in
`LIFECYCLE_MACHINE`): snapshots, `finished` exactly once every candidate finished or the
prompt was blocked, an error chunk recorded and terminal, every read equal to the
reference's; reading before any chunk; streams cut anywhere, failed or going on after
the finish folded like the reference."""
