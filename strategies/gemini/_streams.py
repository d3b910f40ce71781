"""Round trips, and damaged streams checked differentially against the reference fold.

`round_trips` draws a known response and a lossless split of it. `chunk_streams` starts
from one and damages it in the ways the claimed features decide: cut short, an error
chunk (with chunks after it), candidate index gaps, content after a finish, a second
signature on a signed run, streamed pieces with unreadable paths, null entries, wrong
types. Such a stream folds to no known response: its expectation is the reference fold of
the same chunks.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from typing import Unpack

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

from .._damage import Damage
from .._streams import Claimed, StreamParts, damaged_streams
from .._streams import round_trips as _round_trips
from .._text import BOOLEANS, below, texts
from ._claims import CLAIMS, allows
from ._responses import responses
from ._splits import chunk_splits

__all__ = ["chunk_streams", "round_trips"]


def _entries_of(chunks: list[JSONObject]) -> list[JSONObject]:
    return [
        entry
        for chunk in chunks
        for entry in chunk.get("candidates", [])
        if isinstance(entry, dict)
    ]


def _parts_lists(chunks: list[JSONObject]) -> list[list[JSON]]:
    return [
        entry["content"]["parts"]
        for entry in _entries_of(chunks)
        if isinstance(entry.get("content"), dict)
        and isinstance(entry["content"].get("parts"), list)
    ]


def _truncated(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
    return chunks[: draw(below(len(chunks)))] or chunks[:1]  # GMD-CUT


def _error(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
    position = draw(below(len(chunks) + 1))
    error: JSON = draw(
        st.sampled_from(
            [
                {"code": 500, "message": "Internal error encountered.", "status": "INTERNAL"},
                {"code": 429, "message": "Resource exhausted.", "status": "RESOURCE_EXHAUSTED"},
                "overloaded",
            ]
        )
    )
    return [*chunks[:position], {"error": error}, *chunks[position:]]  # GMD-AFTER-ERROR


def _gaps(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
    shift = draw(st.integers(1, 3))
    for entry in _entries_of(chunks):
        index = entry.get("index", 0)
        entry["index"] = index * 2 + shift if isinstance(index, int) else index  # GMD-INDEX-GAP
    return chunks


def _after_finish(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
    text = draw(texts(min_size=1, max_size=4))
    late = {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}}]}
    return [*chunks, late]  # GMD-AFTER-FINISH-CONTENT


def _second_signature(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
    lists = _parts_lists(chunks)
    if lists:
        parts = lists[draw(below(len(lists)))]
        signed = {"text": draw(texts(max_size=3)), "thoughtSignature": "c2Vjb25k"}
        parts.insert(draw(below(len(parts) + 1)), signed)  # GMD-SECOND-SIGNATURE
    return chunks


def _mismatched(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
    lists = _parts_lists(chunks)
    if lists:
        parts = lists[draw(below(len(lists)))]
        piece = draw(
            st.sampled_from(
                [
                    {"jsonPath": "$[0]", "stringValue": "x"},
                    {"jsonPath": "location", "stringValue": "x"},
                    {"jsonPath": "$.a", "objectValue": {}},
                    {"jsonPath": 7, "numberValue": 1},
                ]
            )
        )
        opening = {"functionCall": {"name": "f", "willContinue": True}}
        fragments = [opening, {"functionCall": {"partialArgs": [piece]}}]
        at = draw(below(len(parts) + 1))
        parts[at:at] = fragments  # GMD-ARGS-MISMATCH
    return chunks


def _null_entries(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
    chunk = chunks[draw(below(len(chunks)))]
    where = draw(st.sampled_from(["candidates", "parts"]))
    if where == "candidates" and isinstance(chunk.get("candidates"), list):
        chunk["candidates"].insert(0, draw(st.sampled_from([None, 3, "x"])))
    lists = _parts_lists([chunk])
    if where == "parts" and lists:
        lists[0].insert(draw(below(len(lists[0]) + 1)), draw(st.sampled_from([None, {}, []])))
    return chunks  # GMD-NULL-ENTRY


_WRONG_TYPES: tuple[tuple[str, str, JSON], ...] = (
    ("text parts", "candidates", {"index": 0}),
    ("text parts", "modelVersion", 3),
    ("text parts", "responseId", "  "),
    ("usage", "usageMetadata", [1, 2]),
    ("prompt feedback", "promptFeedback", "blocked"),
)
_WRONG_CANDIDATE_TYPES: tuple[tuple[str, str, JSON], ...] = (
    ("text parts", "content", "text"),
    ("text parts", "finishReason", 1),
    ("text parts", "index", "0"),
    ("safety ratings", "safetyRatings", {"category": "x"}),
    ("grounding", "groundingMetadata", []),
)
"""(shape the target must be judged on, key, a value of the wrong JSON type)."""


def _wrong_types(features: Collection[str]) -> Damage:
    top = [(key, value) for shape, key, value in _WRONG_TYPES if allows(shape, features)]
    inner = [
        (key, value) for shape, key, value in _WRONG_CANDIDATE_TYPES if allows(shape, features)
    ]

    def damage(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
        chunk = chunks[draw(below(len(chunks)))]
        entries = _entries_of([chunk])
        on_candidate: bool = draw(BOOLEANS)
        if entries and on_candidate:
            key, value = draw(st.sampled_from(inner))
            entries[0][key] = copy.deepcopy(value)
        else:
            key, value = draw(st.sampled_from(top))
            chunks.insert(draw(below(len(chunks) + 1)), {key: copy.deepcopy(value)})
        return chunks  # GMD-WRONG-TYPE

    return damage


def _damages(features: Collection[str]) -> tuple[tuple[str, Damage], ...]:
    return (
        ("truncated", _truncated),
        ("error chunk", _error),
        ("index gaps", _gaps),
        ("content after finish", _after_finish),
        ("second signature", _second_signature),
        ("mismatched pieces", _mismatched),
        ("null entries", _null_entries),
        ("wrong types", _wrong_types(features)),
    )


_PARTS = StreamParts(
    CLAIMS,
    results=lambda features, chosen: responses(features=features, documented=set(chosen) == {1}),
    splits=lambda response, chosen, features: chunk_splits(
        response, families=chosen, late_chunks=allows("usage after the finish chunk", features)
    ),
    damages=_damages,
)


def round_trips(
    **claimed: Unpack[Claimed],
) -> st.SearchStrategy[tuple[JSONObject, list[JSONObject]]]:
    """Draw `(response, chunks)`: a response of the claimed `features` and a lossless
    split of it from `families` (default: every family the features are judged on).
    The plain family alone (`families={1}`) draws a documented response."""
    return _round_trips(_PARTS, **claimed)


def chunk_streams(**claimed: Unpack[Claimed]) -> st.SearchStrategy[list[JSONObject]]:
    """Draw a chunk stream that need not fold to any known response: a lossless split of
    a drawn response, damaged in the ways the claimed `features` decide (truncated, an
    error chunk, index gaps, content after a finish, a second signature, mismatched
    pieces, null entries, wrong types). Every chunk is a JSON object; its expectation is
    the reference fold of the same chunks."""
    return damaged_streams(_PARTS, **claimed)
