"""Lossless chunk splits of a known completion: `fold(split(c)) == c`.

A split is built bottom-up so that it shrinks toward one fragment per field: each
field is cut into lanes (`_fragments`), the lanes of a choice are interleaved and
packed into choice entries, the entries of all choices are interleaved and grouped
into chunks, the envelope goes on every chunk, and family 8 adds its noise last.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TypeVar

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from refold.reference import JSONObject
from refold.reference.chat import FEATURES

from .._text import BOOLEANS, below
from ._completions import completions, is_finished
from ._fragments import (
    Lane,
    annotation_lanes,
    logprob_lanes,
    reasoning_lanes,
    text_lanes,
    tool_call_lanes,
)
from ._noise import with_noise

__all__ = ["SPLIT_FAMILIES", "chunk_splits", "round_trips"]

T = TypeVar("T")

SPLIT_FAMILIES: frozenset[int] = frozenset(range(1, 9))
"""The spec's lossless split families, 1 (OpenAI's own shape) to 8 (noise)."""

_TEXT_KEYS = ("content", "refusal", "reasoning", "reasoning_content")
_LIST_KEYS = frozenset({"tool_calls", "reasoning_details", "annotations"})
_PROVIDER_KEYS = ("provider", "system_fingerprint", "service_tier")


@st.composite
def chunk_splits(
    draw: st.DrawFn, completion: JSONObject, *, families: Collection[int] = SPLIT_FAMILIES
) -> list[JSONObject]:
    """Draw a chunk stream whose fold is exactly `completion` (canonical comparison).

    `completion` is a value drawn by `completions()`. The stream is drawn from the
    given lossless split families of the spec, mixed per call and per choice: family 1,
    OpenAI's own shape, is the base every split starts from, and each other family
    adds its shapes on top (2 repeated identity, 3 calls sharing an index, 4 calls
    without index, 5 late ids, 6 re-sent arguments, 7 calls without arguments, 8 noise).
    """
    unknown = sorted(set(families) - SPLIT_FAMILIES)
    if unknown or not families:
        raise InvalidArgument(f"families={sorted(families)!r}: each must be one of 1..8")
    finished = is_finished(completion)
    # family 1 alone is OpenAI's documented shape: choices first arriving in index
    # order (Q16), one fragment per tool index in a delta (Q4), a finish_reason key on
    # every entry (Q13), usage on a final `choices: []` chunk (Q14)
    plain = set(families) == {1}
    per_choice = [
        _choice_entries(draw, choice, families=families, finished=finished)
        for choice in completion["choices"]
    ]
    entries = _interleavings(draw, per_choice, in_order=plain)
    chunks = [{**_envelope(completion), "choices": group} for group in _groups(draw, entries)]
    chunks = _with_stream_fields(draw, chunks, completion, plain=plain)
    if 8 in families:
        chunks = with_noise(draw, chunks, completion)
    event(f"split: {min(len(chunks), 10)}{'+' if len(chunks) >= 10 else ''} chunks")
    return chunks


def _envelope(completion: JSONObject) -> JSONObject:
    return {
        "id": completion["id"],
        "object": "chat.completion.chunk",
        "created": completion["created"],
        "model": completion["model"],
    }


def _choice_entries(
    draw: st.DrawFn, choice: JSONObject, *, families: Collection[int], finished: bool
) -> list[JSONObject]:
    message = choice["message"]
    lanes: list[Lane] = []
    for key in _TEXT_KEYS:
        lanes += text_lanes(draw, key, message.get(key))
    lanes += tool_call_lanes(draw, message.get("tool_calls"), families=families, finished=finished)
    lanes += reasoning_lanes(draw, message.get("reasoning_details"), families=families)
    lanes += annotation_lanes(draw, message.get("annotations"))
    lanes += logprob_lanes(draw, choice.get("logprobs"))
    plain = set(families) == {1}
    items = _interleavings(draw, lanes, in_order=plain)  # calls first arrive in index order
    if not (8 in families and draw(BOOLEANS)):
        items.insert(0, {"delta": {"role": message["role"]}})  # OpenAI's role chunk
    items.append(_finish_item(choice))
    entries = _packed(draw, items, one_fragment_per_index=plain)
    repeat_role = 2 in families and draw(BOOLEANS)
    finish_key = plain or not (8 in families and draw(BOOLEANS))
    for entry in entries:
        entry.setdefault("delta", {})
        if finish_key:
            entry.setdefault("finish_reason", None)  # OpenAI sends the key on every entry
        if repeat_role:
            entry["delta"] = {"role": message["role"], **entry["delta"]}  # CHOICE-ROLE
        entry["index"] = choice["index"]
    return entries


def _finish_item(choice: JSONObject) -> JSONObject:
    """CHOICE-FINISH, PROV-NATIVE-FINISH: on the last delta or a separate empty one."""
    item: JSONObject = {"delta": {}, "finish_reason": choice["finish_reason"]}
    if "native_finish_reason" in choice:
        item["native_finish_reason"] = choice["native_finish_reason"]
    return item


def _interleavings(
    draw: st.DrawFn, lanes: Sequence[Sequence[T]], *, in_order: bool = False
) -> list[T]:
    """Merge lanes in any order that keeps each lane's own order (`in_order`: and
    starts them in their order); shrinks toward one lane after the other."""
    remaining = [list(lane) for lane in lanes if lane]
    merged: list[T] = []
    opened = 0  # with `in_order`, the lanes started so far are remaining[:opened]
    while remaining:
        choosable = min(opened + 1, len(remaining)) if in_order else len(remaining)
        position = draw(below(choosable)) if choosable > 1 else 0
        opened = max(opened, position + 1)
        merged.append(remaining[position].pop(0))
        if not remaining[position]:
            del remaining[position]
            opened -= 1
    return merged


def _packed(
    draw: st.DrawFn, items: list[JSONObject], *, one_fragment_per_index: bool
) -> list[JSONObject]:
    """Pack consecutive items of one choice into entries where they fit together;
    shrinks toward as few entries as possible."""
    entries: list[JSONObject] = []
    for item in items:
        joined = _joined(entries[-1], item) if entries else None
        if joined is not None and one_fragment_per_index and _index_twice(joined):
            joined = None
        if joined is not None and not draw(BOOLEANS):
            entries[-1] = joined
        else:
            entries.append(dict(item))
    return entries


def _joined(entry: JSONObject, item: JSONObject) -> JSONObject | None:
    """The entry carrying both, or None when they set the same field."""
    joined = dict(entry)
    for key, value in item.items():
        if key == "delta":
            delta = dict(joined.get("delta") or {})
            for field, part in value.items():
                if field in delta and field not in _LIST_KEYS:
                    return None
                delta[field] = delta[field] + part if field in delta else part
            joined["delta"] = delta
        elif key == "logprobs" and key in joined:
            joined[key] = _joined_logprobs(joined[key], value)
        elif key in joined:
            return None
        else:
            joined[key] = value
    return joined


def _index_twice(entry: JSONObject) -> bool:
    indexes = [f.get("index") for f in entry.get("delta", {}).get("tool_calls", [])]
    return len(indexes) != len(set(indexes))


def _joined_logprobs(first: JSONObject, second: JSONObject) -> JSONObject:
    refusal = (first["refusal"] or []) + (second["refusal"] or [])
    return {"content": first["content"] + second["content"], "refusal": refusal or None}


def _groups(draw: st.DrawFn, entries: list[JSONObject]) -> list[list[JSONObject]]:
    """Group consecutive entries into chunks, never two of one choice in a chunk (the API
    sends one entry per choice; CHAT-CHOICE-TWICE is a synthetic departure); shrinks
    toward one entry per chunk."""
    groups: list[list[JSONObject]] = []
    for entry in entries:
        together: bool = (
            draw(BOOLEANS)
            if groups and all(other.get("index") != entry.get("index") for other in groups[-1])
            else False
        )
        if together:
            groups[-1].append(entry)
        else:
            groups.append([entry])
    return groups


def _with_stream_fields(
    draw: st.DrawFn, chunks: list[JSONObject], completion: JSONObject, *, plain: bool
) -> list[JSONObject]:
    """Usage and provider fields: on every chunk or on the last one, which is either a
    final `choices: []` chunk (OpenAI's usage chunk) or the last chunk with choices."""
    tail: JSONObject = {}
    for key in _PROVIDER_KEYS:
        if key in completion:
            if draw(BOOLEANS):  # OpenRouter sends `provider` on every chunk
                for chunk in chunks:
                    chunk[key] = completion[key]
            else:
                tail[key] = completion[key]
    if "usage" in completion:
        tail["usage"] = completion["usage"]
    on_last: bool = draw(BOOLEANS) if tail and not plain else False  # Q14 when True
    if tail and not on_last:
        chunks.append({**_envelope(completion), "choices": [], **tail})
    else:
        chunks[-1].update(tail)
    for chunk in chunks:
        if any(entry.get("finish_reason") == "error" for entry in chunk["choices"]):
            chunk["error"] = {"code": 502, "message": "Provider disconnected"}  # Q18
    return chunks


@st.composite
def round_trips(
    draw: st.DrawFn,
    *,
    features: Collection[str] = frozenset(FEATURES),
    families: Collection[int] = SPLIT_FAMILIES,
    max_tool_calls: int = 3,
) -> tuple[JSONObject, list[JSONObject]]:
    """Draw `(completion, chunks)`: a known completion over `features` and a lossless
    split of it from `families`, the two stages of the round-trip property."""
    completion = draw(completions(features=features, max_tool_calls=max_tool_calls))
    return completion, draw(chunk_splits(completion, families=families))
