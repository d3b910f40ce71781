"""Reading the parts of a chunk stream the fold reads, leniently (for
`refold.dialects.openai_chat.ablation`).

Every function accepts any JSON: a part that is missing or of the wrong type reads as
absent, never raises. `renumber_densely` alone changes what it is given: the choice and
tool-call undos renumber indexes the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from refold.reference import JSON, JSONObject

from .._reading import index_of

__all__ = [
    "blank",
    "choice_key_of",
    "delta_of",
    "entries",
    "fragments_of",
    "function_of",
    "index_of",
    "objects_only",
    "renumber_densely",
]


def blank(value: Any) -> bool:
    return not (isinstance(value, str) and value.strip())


def entries(chunk: JSON) -> Iterator[JSONObject]:
    """The choice entries of a chunk that are objects."""
    choices = chunk.get("choices") if isinstance(chunk, dict) else None
    for entry in choices if isinstance(choices, list) else []:
        if isinstance(entry, dict):
            yield entry


def delta_of(entry: JSONObject) -> JSONObject:
    delta = entry.get("delta")
    return delta if isinstance(delta, dict) else {}


def fragments_of(entry: JSONObject) -> Iterator[JSONObject]:
    calls = delta_of(entry).get("tool_calls")
    for fragment in calls if isinstance(calls, list) else []:
        if isinstance(fragment, dict):
            yield fragment


def function_of(fragment: JSONObject) -> JSONObject:
    function = fragment.get("function")
    return function if isinstance(function, dict) else {}


def choice_key_of(entry: JSONObject) -> int:
    return index_of(entry.get("index")) or 0


def objects_only(values: list[Any]) -> list[Any]:
    return [value for value in values if isinstance(value, dict)]


def renumber_densely(objects: list[JSONObject]) -> bool:
    """Give `objects` indexes dense from 0 in the order of the ones they carry, when every
    one carries a non-negative integer index; whether it did."""
    present = [index_of(o.get("index")) for o in objects]
    indexes = [i for i in present if i is not None]
    if len(indexes) != len(present):
        return False
    dense = {old: new for new, old in enumerate(sorted(set(indexes)))}
    for found, old in zip(objects, indexes, strict=True):
        found["index"] = dense[old]
    return True
