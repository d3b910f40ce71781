"""Arbitrary chunk streams, lossless or not, for differential checks.

A stream starts as a lossless split of a drawn completion and is then damaged the way
real streams are: cut off, with chunks lost, repeated or swapped, an error chunk in the
middle, and (with `robustness`) fields of the wrong type, blank values, `null` entries
and tool fragments that lost their index. Each damage sits behind its own branch so a
failure shrinks to the one that matters. There is no expected value: the reference's
fold of the same chunks is the oracle.
"""

from __future__ import annotations

import copy
from collections.abc import Collection

from hypothesis import event
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.reference.chat import FEATURES

from .._text import BOOLEANS, below
from ._claims import allows, families_for
from ._completions import _check_options, completions
from ._splits import chunk_splits

__all__ = ["chunk_streams"]

_ODD_VALUES: tuple[JSON, ...] = (None, "", " ", 0, -1, 2.5, True, [], {}, [None], "x")
"""Values of the wrong type or blank, for any field (ROB-WRONG-TYPE, ROB-BLANK)."""

_ERROR_CHUNK: JSONObject = {
    "object": "chat.completion.chunk",
    "error": {"code": "server_error", "message": "Provider disconnected unexpectedly"},
    "choices": [{"index": 0, "delta": {"content": ""}, "finish_reason": "error"}],
}
"""OpenRouter's mid-stream error chunk (LIFE-ERROR, ENV-NO-ERROR; Q18)."""


@st.composite
def chunk_streams(
    draw: st.DrawFn, *, features: Collection[str] = frozenset(FEATURES)
) -> list[JSONObject]:
    """Draw a chunk stream that need not be lossless, using only shapes whose fold a
    target claiming `features` is judged on (see `families_for`)."""
    _check_options(features, 1, 0)
    completion = draw(completions(features=features))
    chunks = copy.deepcopy(draw(chunk_splits(completion, families=families_for(features))))
    has_calls = any("tool_calls" in c["message"] for c in completion["choices"])
    # Without `empty_arguments` a call left without arguments has no defined fold,
    # and losing chunks can leave one; with `tool_call_repair` anything goes.
    may_lose = "empty_arguments" in features or not has_calls
    may_repeat = "tool_call_repair" in features or not has_calls
    damages = [
        ("cut off", _cut_off, may_lose),
        ("chunks lost", _lose, may_lose),
        ("chunk repeated", _repeat, may_repeat),
        ("chunks swapped", _swap, may_repeat),
        ("error chunk", _error_chunk, allows("error chunk", features)),
        # a wrongly typed `arguments` can leave a call without arguments (like a
        # loss), a wrongly typed `index` makes a fragment index-less (TOOL-NO-INDEX)
        ("wrong types", _wrong_types, allows("wrong types", features) and may_lose and may_repeat),
        # an index-less fragment joins the last call touched, which can leave the
        # call it belonged to without arguments (like a loss)
        ("index lost", _index_lost, allows("index lost", features) and may_lose),
    ]
    for name, damage, allowed in damages:
        if allowed and len(chunks) > 1 and draw(BOOLEANS):
            event(f"stream: {name}")
            chunks = damage(draw, chunks)
    return chunks


def _cut_off(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
    return chunks[: 1 + draw(below(len(chunks) - 1))]


def _lose(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
    lost = draw(st.sets(below(len(chunks)), min_size=1, max_size=len(chunks) - 1))
    return [chunk for number, chunk in enumerate(chunks) if number not in lost]


def _repeat(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
    number = draw(below(len(chunks)))
    return [*chunks[: number + 1], copy.deepcopy(chunks[number]), *chunks[number + 1 :]]


def _swap(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
    number = draw(below(len(chunks) - 1))
    chunks[number], chunks[number + 1] = chunks[number + 1], chunks[number]
    return chunks


def _error_chunk(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
    """OpenRouter's error chunk, with the stream's envelope: a missing id or model is a
    blank value (ROB-BLANK), which only a target claiming `robustness` is sent."""
    number = draw(below(len(chunks) + 1))
    envelope = {key: chunks[0][key] for key in ("id", "created", "model") if key in chunks[0]}
    return [*chunks[:number], {**envelope, **copy.deepcopy(_ERROR_CHUNK)}, *chunks[number:]]


def _wrong_types(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
    """Replace a few values anywhere in the stream by blank or wrongly typed ones."""
    for _ in range(1 + draw(below(3))):
        places = [place for chunk in chunks for place in _places(chunk)]
        if not places:
            break
        parent, key = places[draw(below(len(places)))]
        parent[key] = copy.deepcopy(draw(_ODD))
    return chunks


_ODD = st.sampled_from(_ODD_VALUES)


def _places(value: JSON) -> list[tuple[JSON, str | int]]:
    """Every (container, key) pair under `value`, depth first."""
    found: list[tuple[JSON, str | int]] = []
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        found.append((value, key))
        if isinstance(item, dict | list):
            found += _places(item)
    return found


def _index_lost(draw: st.DrawFn, chunks: list[JSONObject]) -> list[JSONObject]:
    """Tool fragments without their index, wherever they are (TOOL-NO-INDEX)."""
    for chunk in chunks:
        choices = chunk.get("choices")
        for entry in choices if isinstance(choices, list) else []:
            delta = entry.get("delta") if isinstance(entry, dict) else None
            calls = delta.get("tool_calls") if isinstance(delta, dict) else None
            for fragment in calls if isinstance(calls, list) else []:
                if isinstance(fragment, dict) and draw(BOOLEANS):
                    fragment.pop("index", None)
    return chunks
