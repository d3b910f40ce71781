"""What the generic robustness suite sends a Gemini target (its kit's `ROBUSTNESS`).

Each case takes a lossless stream of the claimed features (text and what else the target
folds) and varies it by what a robustness rule says cannot matter: chunks holding only
fields of the wrong JSON type (GM-ROB-WRONG-TYPE), null and non-object entries in the
lists (GM-ROB-NULL-ENTRIES), empty text parts (GM-TEXT-EMPTY), keys sent as `null`
(GM-ENV-SNAPSHOT, GM-ENV-ID); a part of a kind no page names is kept as sent
(GM-PART-OTHER, GM-UNKNOWN-KEYS); any JSON object never makes the fold raise; a value that
is not an object is refused (GM-ROB-NOT-OBJECT).
"""

from __future__ import annotations

import copy

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.strategies.gemini import round_trips

from .._json_values import json_values
from .._robustness import Refusal, Variant

__all__ = [
    "blank_entries",
    "empty_texts",
    "junk",
    "null_keys",
    "refused",
    "unknown_parts",
    "wrong_typed",
]

_NOT_FOLD = frozenset({"robustness", "lifecycle", "sse"})
_WRONG_TYPED: tuple[JSONObject, ...] = (
    {"candidates": "x"},
    {"candidates": {"index": 0}},
    {"usageMetadata": [1, 2]},
    {"promptFeedback": "blocked"},
    {"modelVersion": 5},
    {"responseId": ["r"]},
    {"candidates": [{"index": 0, "finishReason": 3}]},
    {"candidates": [{"index": 0, "content": "parts"}]},
    {"candidates": [{"index": 0, "content": {"role": 7, "parts": {"text": "x"}}}]},
)
"""Chunks whose every field the rules read is of the wrong JSON type, so each folds as a
chunk without it: nothing (candidate 0, which every stream drawn here has, gains no key)."""
_NULL_KEYS: JSONObject = {
    "modelVersion": None,
    "responseId": None,
    "createTime": None,
    "usageMetadata": None,
    "promptFeedback": None,
}
_UNKNOWN_PART: JSONObject = {"videoSummary": {"frames": [1, 2]}, "thoughtSignature": "c2ln"}
_JUNK_KEYS = ("candidates", "usageMetadata", "promptFeedback", "modelVersion", "error")


def stream(claimed: frozenset[str], data: st.DataObject) -> tuple[JSONObject, list[JSONObject]]:
    """A known response of the claimed features that has a candidate, and a lossless split."""
    features = (claimed - _NOT_FOLD) - {"safety"}  # a blocked prompt has no candidate
    drawn = data.draw(round_trips(features=features | {"text"}), label="case")
    response, chunks = drawn
    return response, copy.deepcopy(chunks)


def _inserted(data: st.DataObject, chunks: list[JSONObject], new: list[JSON]) -> list[JSON]:
    changed: list[JSON] = list(copy.deepcopy(chunks))
    for item in new:
        changed.insert(data.draw(st.integers(0, len(changed)), label="at"), copy.deepcopy(item))
    return changed


def wrong_typed(claimed: frozenset[str], data: st.DataObject) -> Variant:
    """Chunks of wrongly typed fields inserted anywhere (GM-ROB-WRONG-TYPE)."""
    _, chunks = stream(claimed, data)
    new = data.draw(st.lists(st.sampled_from(_WRONG_TYPED), min_size=1, max_size=3), label="wrong")
    return Variant(_inserted(data, chunks, list(new)), list(chunks), "the wrongly typed chunks")


def _parts_lists(chunks: list[JSONObject]) -> list[list[JSON]]:
    return [
        entry["content"]["parts"]
        for chunk in chunks
        for entry in chunk.get("candidates", [])
        if isinstance(entry, dict)
        and isinstance(entry.get("content"), dict)
        and isinstance(entry["content"].get("parts"), list)
    ]


def _into_lists(
    data: st.DataObject, lists: list[list[JSON]], values: st.SearchStrategy[JSON]
) -> None:
    """One to three of `values` inserted anywhere in the lists (none when there is none)."""
    if not lists:
        return
    for _ in range(data.draw(st.integers(1, 3), label="how many")):
        where = lists[data.draw(st.integers(0, len(lists) - 1), label="list")]
        where.insert(data.draw(st.integers(0, len(where)), label="at"), data.draw(values))


def blank_entries(claimed: frozenset[str], data: st.DataObject) -> Variant:
    """Null and non-object entries in `candidates` and `parts` (GM-ROB-NULL-ENTRIES)."""
    _, chunks = stream(claimed, data)
    changed = copy.deepcopy(chunks)
    lists: list[list[JSON]] = [c["candidates"] for c in changed if "candidates" in c]
    lists += _parts_lists(changed)
    _into_lists(data, lists, st.sampled_from([None, 0, "x", [], True]))
    return Variant(list(changed), list(chunks), "the null and non-object entries")


def empty_texts(claimed: frozenset[str], data: st.DataObject) -> Variant:
    """`{"text": ""}` parts anywhere among the parts (GM-TEXT-EMPTY)."""
    _, chunks = stream(claimed, data)
    changed = copy.deepcopy(chunks)
    _into_lists(data, _parts_lists(changed), st.just({"text": ""}))
    return Variant(list(changed), list(chunks), 'the {"text": ""} parts')


def null_keys(claimed: frozenset[str], data: st.DataObject) -> Variant:
    """Chunks whose keys are `null` anywhere: a null erases nothing (GM-ENV-SNAPSHOT,
    GM-ENV-ID, GM-USAGE-LAST, GM-PROMPT-FEEDBACK)."""
    _, chunks = stream(claimed, data)
    keys = data.draw(st.sets(st.sampled_from(sorted(_NULL_KEYS)), min_size=1), label="keys")
    new: list[JSON] = [dict.fromkeys(sorted(keys))]
    return Variant(_inserted(data, chunks, new), list(chunks), "the chunks of null keys")


def unknown_parts(claimed: frozenset[str], data: st.DataObject) -> tuple[list[JSON], JSONObject]:
    """A part of a kind no page names, in a chunk of its own before the stream, is kept as
    sent as candidate 0's first part (GM-PART-OTHER, GM-UNKNOWN-KEYS)."""
    response, chunks = stream(claimed, data)
    expected = copy.deepcopy(response)
    first = next(c for c in expected["candidates"] if not c.get("index"))
    content = first.setdefault("content", {"role": "model", "parts": []})
    content["parts"] = [copy.deepcopy(_UNKNOWN_PART), *content.get("parts", [])]
    role = content.get("role", "model")
    opening: JSONObject = {
        "candidates": [{"content": {"role": role, "parts": [copy.deepcopy(_UNKNOWN_PART)]}}]
    }
    return [opening, *chunks], expected


def junk(claimed: frozenset[str], data: st.DataObject) -> list[JSON]:
    """Any JSON objects, their keys often the chunk's own, after a lossless stream's first
    chunk: the fold must not raise (GM-ROB-WRONG-TYPE)."""
    _, chunks = stream(claimed, data)
    keys = st.sampled_from(_JUNK_KEYS) | st.text(max_size=4)
    objects = st.dictionaries(keys, json_values(), max_size=4)
    found = data.draw(st.lists(objects, min_size=1, max_size=3), label="junk")
    return [*chunks[:1], *found, *chunks[1:]]


def _stream_only(claimed: frozenset[str], data: st.DataObject) -> list[JSONObject]:
    return stream(claimed, data)[1]


refused = Refusal(_stream_only, empty="GM-LIFE-EMPTY")
"""A value that is not an object, sent anywhere in a lossless stream (GM-ROB-NOT-OBJECT)."""
