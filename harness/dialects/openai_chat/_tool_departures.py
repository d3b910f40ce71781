"""The tool-call departures from the plain shape (see `refold.dialects.openai_chat.ablation`):
sparse indexes,
index-less fragments, calls sharing an index, identity repeated on later fragments,
fragments without a function."""

from __future__ import annotations

import copy
from typing import Any

from refold.reference import JSON, JSONObject

from ._chunk_walk import (
    blank,
    choice_key_of,
    delta_of,
    entries,
    fragments_of,
    function_of,
    index_of,
    renumber_densely,
)

__all__ = [
    "tool_2_new_id",
    "tool_5_append",
    "tool_adopt_id",
    "tool_index",
    "tool_name",
    "tool_no_index",
    "tool_type",
]


def _calls_by_choice(stream: list[JSON]) -> dict[int, list[JSONObject]]:
    """Every tool fragment that is an object, per choice, in arrival order."""
    found: dict[int, list[JSONObject]] = {}
    for chunk in stream:
        for entry in entries(chunk):
            found.setdefault(choice_key_of(entry), []).extend(fragments_of(entry))
    return found


def _fragment_slots(stream: list[JSON]) -> dict[int, list[tuple[list[Any], int]]]:
    """Where each tool fragment that is an object sits, per choice, in arrival order."""
    found: dict[int, list[tuple[list[Any], int]]] = {}
    for chunk in stream:
        for entry in entries(chunk):
            calls = delta_of(entry).get("tool_calls")
            slots = found.setdefault(choice_key_of(entry), [])
            if isinstance(calls, list):
                slots += [(calls, i) for i, f in enumerate(calls) if isinstance(f, dict)]
    return found


def tool_index(stream: list[JSON]) -> list[JSON]:
    """TOOL-INDEX: renumber sparse or non-zero-based tool indexes densely, in their order,
    and let the calls arrive in index order (the fragments of one index keep theirs), for
    a choice whose fragments all carry an index."""
    stream = copy.deepcopy(stream)
    for slots in _fragment_slots(stream).values():
        fragments = [calls[i] for calls, i in slots]
        if not renumber_densely(fragments):
            continue
        ordered = sorted(fragments, key=lambda f: int(f["index"]))  # stable: arrival kept
        for (calls, i), fragment in zip(slots, ordered, strict=True):
            calls[i] = fragment
    return stream


def tool_no_index(stream: list[JSON]) -> list[JSON]:
    """TOOL-NO-INDEX: give an index-less fragment the index it belongs to (the choice's
    most recently touched index, 0 when none)."""
    stream = copy.deepcopy(stream)
    for fragments in _calls_by_choice(stream).values():
        last = 0
        for fragment in fragments:
            index = index_of(fragment.get("index"))
            if index is None:
                fragment["index"] = last
            else:
                last = index
    return stream


def _call_numbers(fragments: list[JSONObject]) -> list[tuple[int, int]]:
    """(index, n) per fragment: the n-th call on that index, a new call on each new id."""
    current: dict[int, tuple[int, str | None]] = {}
    numbers: list[tuple[int, int]] = []
    for fragment in fragments:
        index = index_of(fragment.get("index")) or 0
        ident = None if blank(fragment.get("id")) else str(fragment["id"])
        count, known = current.get(index, (0, None))
        if index in current and ident is not None and known is not None and ident != known:
            count += 1
        current[index] = (count, ident or known)
        numbers.append((index, count))
    return numbers


def tool_2_new_id(stream: list[JSON]) -> list[JSON]:
    """TOOL-2-NEW-ID: move the later calls sharing an index to indexes of their own,
    keeping the order of the output and the gaps between indexes."""
    stream = copy.deepcopy(stream)
    for fragments in _calls_by_choice(stream).values():
        if any(index_of(f.get("index")) is None for f in fragments):
            continue
        numbers = _call_numbers(fragments)
        extra: dict[int, int] = {}
        for index, count in numbers:
            extra[index] = max(extra.get(index, 0), count)
        for fragment, (index, count) in zip(fragments, numbers, strict=True):
            fragment["index"] = index + count + sum(n for i, n in extra.items() if i < index)
    return stream


def _repeated(stream: list[JSON], key: str) -> list[JSON]:
    """Drop `key` of a tool fragment (`name`: of its function) once its call has a
    non-blank one; a fragment with a new id starts a new call, which keeps its own."""
    stream = copy.deepcopy(stream)
    for fragments in _calls_by_choice(stream).values():
        known: set[tuple[int, int]] = set()
        for fragment, call in zip(fragments, _call_numbers(fragments), strict=True):
            holder = function_of(fragment) if key == "name" else fragment
            if key not in holder:
                continue
            if call in known:
                del holder[key]
            elif not blank(holder[key]):
                known.add(call)
    return stream


def tool_name(stream: list[JSON]) -> list[JSON]:
    """TOOL-NAME: a name repeated (or changed) on later fragments of a call is dropped."""
    return _repeated(stream, "name")


def tool_type(stream: list[JSON]) -> list[JSON]:
    """TOOL-TYPE: a type repeated on later fragments of a call is dropped, and a call's
    type other than "function" is "function", the only one OpenAI's schema names for a
    chunk's tool call (the fold then differs at that call's type alone)."""
    stream = _repeated(stream, "type")
    for fragments in _calls_by_choice(stream).values():
        for fragment in fragments:
            if not blank(fragment.get("type")) and fragment["type"] != "function":
                fragment["type"] = "function"
    return stream


def tool_adopt_id(stream: list[JSON]) -> list[JSON]:
    """TOOL-ADOPT-ID: an id repeated on later fragments of a call is dropped."""
    return _repeated(stream, "id")


def tool_5_append(stream: list[JSON]) -> list[JSON]:
    """TOOL-5-APPEND: a fragment without a `function` object (absent or null: OpenAI's
    schema makes it optional) gets `"function": {"arguments": ""}`, as OpenAI sends a
    fragment that adds nothing to its call's arguments."""
    stream = copy.deepcopy(stream)
    for fragments in _calls_by_choice(stream).values():
        for fragment in fragments:
            if fragment.get("function") is None:
                fragment["function"] = {"arguments": ""}
    return stream
