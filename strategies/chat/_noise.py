"""Split family 8: noise that must not change the fold.

Each kind of noise sits behind its own branch, so a failing example shrinks to the one
kind that matters: Azure's prompt-filter chunk, `choices: []` chunks, `null` entries,
empty and `null` deltas, blank finish reasons, `usage: null`, unknown keys, later
values of first-wins fields and earlier values of last-wins fields.
"""

from __future__ import annotations

import copy

from hypothesis import event
from hypothesis import strategies as st

from refold.reference import JSONObject

from .._text import BOOLEANS, below

__all__ = ["with_noise"]

_PROVIDER_KEYS = ("provider", "system_fingerprint", "service_tier")
_LISTS_IN_DELTA = ("tool_calls", "reasoning_details", "annotations")
_EMPTY_CHOICES = st.sampled_from([[], [None], [None, 7]])  # ROB-NULL-ENTRIES
_EMPTY_DELTAS = st.sampled_from([{}, None, "absent", {"role": ""}, {"content": None}])
_BLANK_FINISH_REASONS = st.sampled_from(["", None, " "])
_EARLIER = {
    "provider": "EarlierProvider",
    "system_fingerprint": "fp_earlier",
    "service_tier": "scale",
}
"""Values a last-wins provider field may hold before its final one (PROV-LAST)."""


def with_noise(
    draw: st.DrawFn, chunks: list[JSONObject], completion: JSONObject
) -> list[JSONObject]:
    """The chunks with family-8 noise added; the fold is unchanged."""
    chunks = copy.deepcopy(chunks)
    envelope = {key: chunks[0][key] for key in ("id", "object", "created", "model")}
    indexes = [choice["index"] for choice in completion["choices"]]
    for name, noise in _NOISE:
        if draw(BOOLEANS):
            event(f"noise: {name}")
            chunks = noise(draw, chunks, envelope, indexes, completion)
    return chunks


def _prompt_filter_chunk(
    draw: st.DrawFn,
    chunks: list[JSONObject],
    envelope: JSONObject,
    indexes: list[int],
    completion: JSONObject,
) -> list[JSONObject]:
    """Azure's first chunk: blank id and model, `created: 0`, no choices (Q15)."""
    first = {
        "id": "",
        "object": "",
        "created": 0,
        "model": "",
        "choices": [],
        "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": {}}],
    }
    return [first, *chunks]


def _empty_chunks(
    draw: st.DrawFn,
    chunks: list[JSONObject],
    envelope: JSONObject,
    indexes: list[int],
    completion: JSONObject,
) -> list[JSONObject]:
    """`choices: []` and `choices: [null]` chunks, and `usage: null`, anywhere."""
    for _ in range(1 + draw(below(3))):
        choices = draw(_EMPTY_CHOICES)  # ROB-NULL-ENTRIES
        extra = {"usage": None} if draw(BOOLEANS) else {}
        chunks.insert(draw(below(len(chunks) + 1)), {**envelope, "choices": choices, **extra})
    return chunks


def _empty_deltas(
    draw: st.DrawFn,
    chunks: list[JSONObject],
    envelope: JSONObject,
    indexes: list[int],
    completion: JSONObject,
) -> list[JSONObject]:
    """Entries of known choices with an empty, null or missing delta, a blank finish
    reason and a blank role (CHOICE-DELTA-NULL, ROB-BLANK)."""
    for _ in range(1 + draw(below(3))):
        entry: JSONObject = {"index": indexes[draw(below(len(indexes)))]}
        delta = draw(_EMPTY_DELTAS)
        if delta != "absent":
            entry["delta"] = delta
        entry["finish_reason"] = draw(_BLANK_FINISH_REASONS)
        chunks.insert(draw(below(len(chunks) + 1)), {**envelope, "choices": [entry]})
    return chunks


def _null_list_entries(
    draw: st.DrawFn,
    chunks: list[JSONObject],
    envelope: JSONObject,
    indexes: list[int],
    completion: JSONObject,
) -> list[JSONObject]:
    """`null` and non-object entries in the lists of one chunk (ROB-NULL-ENTRIES)."""
    chunk = chunks[draw(below(len(chunks)))]
    chunk["choices"] = [None, *chunk["choices"]]
    for entry in chunk["choices"]:
        if not isinstance(entry, dict):
            continue
        delta = entry.get("delta")
        for key in _LISTS_IN_DELTA:
            if isinstance(delta, dict) and key in delta:
                delta[key] = [None, *delta[key], "x"]
        logprobs = entry.get("logprobs")
        if isinstance(logprobs, dict):
            logprobs["content"] = [None, *logprobs["content"]]
    return chunks


def _unknown_keys(
    draw: st.DrawFn,
    chunks: list[JSONObject],
    envelope: JSONObject,
    indexes: list[int],
    completion: JSONObject,
) -> list[JSONObject]:
    """Keys the fold must ignore, at every level (ROB-UNKNOWN-KEYS)."""
    for chunk in chunks:
        chunk["obfuscation"] = "x7Q"
        for entry in chunk["choices"]:
            if isinstance(entry, dict):
                entry["stop_reason"] = None
                entry["token_ids"] = [1, 2]
                if isinstance(entry.get("delta"), dict):
                    entry["delta"]["extra_content"] = {"google": {"thought": True}}
    return chunks


def _later_identity(
    draw: st.DrawFn,
    chunks: list[JSONObject],
    envelope: JSONObject,
    indexes: list[int],
    completion: JSONObject,
) -> list[JSONObject]:
    """First-wins fields with other values after the first (ENV-ID, ENV-MODEL, ENV-CREATED),
    and blank ones before it."""
    later = {"id": "chatcmpl-later", "model": "later-model", "created": 1}
    blank = {"id": " ", "model": None, "created": -1}
    first = next(i for i, chunk in enumerate(chunks) if chunk.get("id") == envelope["id"])
    position = first + 1 + draw(below(len(chunks) - first))
    for chunk in chunks[position:]:
        chunk.update(later)
    chunks.insert(0, {**envelope, **blank, "choices": []})
    return chunks


def _earlier_last_wins(
    draw: st.DrawFn,
    chunks: list[JSONObject],
    envelope: JSONObject,
    indexes: list[int],
    completion: JSONObject,
) -> list[JSONObject]:
    """Last-wins fields with other values before the last (USAGE-LAST, PROV-LAST,
    CHOICE-FINISH) and blank ones after it."""
    earlier: JSONObject = {key: value for key, value in _EARLIER.items() if key in completion}
    if "usage" in completion:
        earlier["usage"] = {"prompt_tokens": 1, "completion_tokens": 0, "total_tokens": 1}
    entries = [
        {"index": choice["index"], "delta": {}, "finish_reason": "length"}
        for choice in completion["choices"]
        if choice["finish_reason"] is not None
    ]
    chunks.insert(0, {**envelope, "choices": entries, **earlier})
    blank = {key: "" for key in _PROVIDER_KEYS if key in completion}
    trailing = [{"index": index, "delta": {}, "finish_reason": ""} for index in indexes]
    chunks.append({**envelope, "choices": trailing, "usage": None, **blank})
    return chunks


_NOISE = (
    ("prompt-filter chunk", _prompt_filter_chunk),
    ("empty chunks", _empty_chunks),
    ("empty deltas", _empty_deltas),
    ("null list entries", _null_list_entries),
    ("unknown keys", _unknown_keys),
    ("later first-wins values", _later_identity),
    ("earlier last-wins values", _earlier_last_wins),
)
