"""The choice and envelope departures from the plain shape (see
`refold.dialects.openai_chat.ablation`): a role
or finish reason repeated, several entries of a choice in one chunk, choices out of index
order, envelope and provider fields that change, usage on more than the last chunk."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from refold.reference import JSON, JSONObject

from ._chunk_walk import blank, choice_key_of, delta_of, entries, index_of, renumber_densely

__all__ = [
    "choice_finish",
    "choice_key",
    "choice_order",
    "choice_role",
    "env_created",
    "env_id",
    "env_model",
    "prov_last",
    "usage_last",
]


def choice_role(stream: list[JSON]) -> list[JSON]:
    """CHOICE-ROLE: a role on a later entry of a choice than its first role is dropped."""
    stream = copy.deepcopy(stream)
    seen: set[int] = set()
    for chunk in stream:
        for entry in entries(chunk):
            delta = delta_of(entry)
            if blank(delta.get("role")):
                continue
            if choice_key_of(entry) in seen:
                del delta["role"]
            seen.add(choice_key_of(entry))
    return stream


def choice_key(stream: list[JSON]) -> list[JSON]:
    """CHOICE-KEY: an entry without `index` gets index 0, the choice it is; sparse or
    non-zero-based choice indexes are renumbered densely in their order (OpenAI numbers
    the n choices 0 to n - 1); a chunk with several entries of one choice becomes one
    chunk per entry (OpenAI sends at most one entry per choice in a chunk)."""
    result: list[JSON] = []
    for chunk in _dense_choice_indexes(stream):
        found = list(entries(chunk))
        keys = [choice_key_of(e) for e in found]
        if len(set(keys)) == len(keys) or len(found) != len(chunk["choices"]):
            result.append(chunk)
            continue
        rest = {k: v for k, v in chunk.items() if k != "choices"}
        groups: list[list[JSONObject]] = [[]]
        for entry, key in zip(found, keys, strict=True):
            if key in (choice_key_of(e) for e in groups[-1]):
                groups.append([])
            groups[-1].append(entry)
        result += [{**copy.deepcopy(rest), "choices": group} for group in groups]
    return result


def _dense_choice_indexes(stream: list[JSON]) -> list[JSON]:
    """The stream with index-less entries at index 0 and the choice indexes dense from 0,
    renumbered only when every entry carries one (an entry without one is choice 0) and
    every choice has finished: a stream cut before (the prefix a crash is located in)
    may still send the lower choices, and a choice first arriving before them is
    CHOICE-ORDER's departure."""
    stream = copy.deepcopy(stream)
    found = [e for chunk in stream for e in entries(chunk)]
    for entry in found:
        entry.setdefault("index", 0)
    finished = {choice_key_of(e) for e in found if not blank(e.get("finish_reason"))}
    if finished >= {index_of(e["index"]) for e in found} - {None}:
        renumber_densely(found)
    return stream


def choice_order(stream: list[JSON]) -> list[JSON]:
    """CHOICE-ORDER: when a choice first arrives before one of a lower index, the choices
    one after the other in index order, each entry in a chunk of its own with its chunk's
    envelope; the other chunk fields follow on `choices: []` chunks, in their order.
    (Choices that first arrive in index order and then interleave are OpenAI's shape.)"""
    chunks = [c for c in stream if isinstance(c, dict)]
    if len(chunks) != len(stream) or any(_non_object_entries(c) for c in chunks):
        # rebuilt from its object entries, it would drop the others too: ROB-NULL-ENTRIES's
        # departure, undone by its own undo (and by both, one after the other)
        return copy.deepcopy(stream)
    keys = [choice_key_of(e) for c in chunks for e in entries(c)]
    first = list(dict.fromkeys(keys))
    if first == sorted(first):
        return copy.deepcopy(stream)
    envelope = ("id", "object", "created", "model")
    ordered: list[JSON] = []
    for key in sorted(set(keys)):
        for chunk in chunks:
            head = {k: chunk[k] for k in envelope if k in chunk}
            ordered += [{**head, "choices": [e]} for e in entries(chunk) if choice_key_of(e) == key]
    for chunk in chunks:
        rest = {k: v for k, v in chunk.items() if k != "choices" and k not in envelope}
        if rest:
            ordered.append({**{k: chunk[k] for k in envelope if k in chunk}, "choices": [], **rest})
    return copy.deepcopy(ordered)


def _non_object_entries(chunk: JSONObject) -> bool:
    choices = chunk.get("choices")
    return isinstance(choices, list) and any(not isinstance(e, dict) for e in choices)


def _first_wins(stream: list[JSON], key: str, valid: Callable[[Any], bool]) -> list[JSON]:
    stream = copy.deepcopy(stream)
    first = next((c[key] for c in stream if isinstance(c, dict) and valid(c.get(key))), None)
    for chunk in stream:
        if first is not None and isinstance(chunk, dict) and valid(chunk.get(key)):
            chunk[key] = first
    return stream


def env_id(stream: list[JSON]) -> list[JSON]:
    """ENV-ID: a later chunk id that differs from the first non-blank one takes its value."""
    return _first_wins(stream, "id", lambda value: not blank(value))


def env_model(stream: list[JSON]) -> list[JSON]:
    """ENV-MODEL: a later model that differs from the first non-blank one takes its value."""
    return _first_wins(stream, "model", lambda value: not blank(value))


def env_created(stream: list[JSON]) -> list[JSON]:
    """ENV-CREATED: a later positive `created` takes the first one's value."""
    return _first_wins(stream, "created", lambda value: (index_of(value) or 0) > 0)


def prov_last(stream: list[JSON]) -> list[JSON]:
    """PROV-LAST: an earlier provider field that differs from the last takes its value."""
    stream = copy.deepcopy(stream)
    for key in ("provider", "system_fingerprint", "service_tier"):
        values = [c[key] for c in stream if isinstance(c, dict) and not blank(c.get(key))]
        for chunk in stream:
            if values and isinstance(chunk, dict) and not blank(chunk.get(key)):
                chunk[key] = values[-1]
    return stream


def usage_last(stream: list[JSON]) -> list[JSON]:
    """USAGE-LAST: `usage` only on the last chunk that carries a usage object."""
    stream = copy.deepcopy(stream)
    carrying = [
        i for i, c in enumerate(stream) if isinstance(c, dict) and isinstance(c.get("usage"), dict)
    ]
    for position, chunk in enumerate(stream):
        usage = chunk.get("usage", 0) if isinstance(chunk, dict) else 0
        if carrying[-1:] != [position] and (usage is None or isinstance(usage, dict)):
            del chunk["usage"]
    return stream


def choice_finish(stream: list[JSON]) -> list[JSON]:
    """CHOICE-FINISH: a non-blank finish reason before a choice's last one is dropped."""
    stream = copy.deepcopy(stream)
    last: dict[int, JSONObject] = {}
    for chunk in stream:
        for entry in entries(chunk):
            if not blank(entry.get("finish_reason")):
                last[choice_key_of(entry)] = entry
    for chunk in stream:
        for entry in entries(chunk):
            if not blank(entry.get("finish_reason")) and last[choice_key_of(entry)] is not entry:
                del entry["finish_reason"]
    return stream
