"""A detector per registered chat departure (`_departures`): the numbers of the chunks
where a stream departs that way. Every detector reads any JSON leniently and never raises."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from refold.reference import JSON, parse_complete

from ._chunk_walk import (
    blank,
    choice_key_of,
    delta_of,
    entries,
    fragments_of,
    function_of,
    index_of,
)

__all__ = ["DETECTORS"]

Detector = Callable[[Sequence[JSON]], Iterator[int]]


def _chunks_where(test: Callable[[Any], bool]) -> Detector:
    def detect(chunks: Sequence[JSON]) -> Iterator[int]:
        return (n for n, chunk in enumerate(chunks) if isinstance(chunk, dict) and test(chunk))

    return detect


def _fragments(chunk: JSON) -> Iterator[tuple[int, dict[str, Any]]]:
    for entry in entries(chunk):
        for fragment in fragments_of(entry):
            yield index_of(entry.get("index")) or 0, fragment


def _missing_index(chunk: dict[str, Any]) -> bool:
    return any(f.get("index") is None for _, f in _fragments(chunk))


def _calls(chunks: Sequence[JSON]) -> Iterator[tuple[int, int, dict[str, Any], bool, str]]:
    """(chunk number, the choice's tool index as one key, fragment, first of its call,
    the call's id so far)."""
    current: dict[tuple[int, int], str] = {}
    last: dict[int, int] = {}
    for number, chunk in enumerate(chunks):
        for choice, fragment in _fragments(chunk):
            index = index_of(fragment.get("index"))
            index = last.get(choice, 0) if index is None else index
            last[choice] = index
            key, ident = (choice, index), fragment.get("id")
            new = key not in current or (
                not blank(ident) and not blank(current[key]) and ident != current[key]
            )
            if new or blank(current[key]):
                current[key] = ident if isinstance(ident, str) else ""
            yield number, hash(key), fragment, new, current[key]


def _shared_index(chunks: Sequence[JSON]) -> Iterator[int]:
    seen: set[tuple[int, int]] = set()
    for number, index, _, new, _ in _calls(chunks):
        if new and index in {i for n, i in seen}:
            yield number
        seen.add((number, index))


def _sparse(chunks: Sequence[JSON]) -> Iterator[int]:
    opened: dict[int, set[int]] = {}
    for number, chunk in enumerate(chunks):
        for choice, fragment in _fragments(chunk):
            index = index_of(fragment.get("index"))
            known = opened.setdefault(choice, set())
            if index is not None and index not in known:
                if index != len(known):
                    yield number
                known.add(index)


def _same_index_twice(chunk: dict[str, Any]) -> bool:
    for entry in entries(chunk):
        indexes = [f.get("index") for f in fragments_of(entry) if f.get("index") is not None]
        if len(indexes) != len(set(map(str, indexes))):
            return True
    return False


def _resent(chunks: Sequence[JSON]) -> Iterator[int]:
    arguments: dict[tuple[int, str], str] = {}
    for number, index, fragment, new, ident in _calls(chunks):
        text = function_of(fragment).get("arguments")
        text = text if isinstance(text, str) else ""
        key = (index, ident)
        if (
            not new
            and parse_complete(arguments.get(key, "")) is not None
            and parse_complete(text) is not None
        ):
            yield number
        arguments[key] = text if new else arguments.get(key, "") + text


def _repeated_identity(chunks: Sequence[JSON]) -> Iterator[int]:
    had_id: set[tuple[int, str]] = set()
    for number, index, fragment, new, ident in _calls(chunks):
        repeated_id = (index, ident) in had_id and not blank(fragment.get("id"))
        if not new and (
            repeated_id
            or any(not blank(v) for v in (fragment.get("type"), function_of(fragment).get("name")))
        ):
            yield number
        if not blank(fragment.get("id")):
            had_id.add((index, ident))


def _explicit_blanks(chunk: dict[str, Any]) -> bool:
    for entry in entries(chunk):
        if "tool_calls" in delta_of(entry) and delta_of(entry)["tool_calls"] is None:
            return True
        for fragment in fragments_of(entry):
            values = [fragment.get(k, 0) for k in ("id", "type")]
            values += [function_of(fragment).get(k, 0) for k in ("name", "arguments")]
            if any(v is None or v == "" for v in values[:3]) or values[3] is None:
                return True
    return False


def _role_repeated(chunks: Sequence[JSON]) -> Iterator[int]:
    seen: set[int] = set()
    for number, chunk in enumerate(chunks):
        for entry in entries(chunk):
            choice = index_of(entry.get("index")) or 0
            if choice in seen and not blank(delta_of(entry).get("role")):
                yield number
            seen.add(choice)


def _call_texts(chunks: Sequence[JSON]) -> dict[tuple[int, int, str], tuple[int, str]]:
    """Per call (choice-less tool index, n, id): its first chunk and its joined arguments."""
    calls: dict[tuple[int, int, str], tuple[int, str]] = {}
    count: dict[int, int] = {}
    for number, index, fragment, new, ident in _calls(chunks):
        count[index] = count.get(index, -1) + new
        key = (index, count[index], ident if new else "")
        key = next((k for k in reversed(calls) if k[:2] == key[:2]), key)
        first, text = calls.get(key, (number, ""))
        part = function_of(fragment).get("arguments")
        calls[key] = (first, text + (part if isinstance(part, str) else ""))
    return calls


def _no_arguments(chunks: Sequence[JSON]) -> Iterator[int]:
    return (first for first, text in _call_texts(chunks).values() if text == "")


def _finish_reasons(chunks: Sequence[JSON]) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for chunk in chunks:
        for entry in entries(chunk):
            reason = entry.get("finish_reason")
            reasons = found.setdefault(index_of(entry.get("index")) or 0, [])
            if isinstance(reason, str) and reason.strip():
                reasons.append(reason)
    return found


def _cut_off(chunks: Sequence[JSON]) -> Iterator[int]:
    last = [rs[-1:] for rs in _finish_reasons(chunks).values()]
    if not all(last) or ["length"] in last:  # cut off by the limit, or interrupted
        return iter(())
    return (
        first
        for first, text in _call_texts(chunks).values()
        if text and not any(parse_complete(text[:k]) is not None for k in range(1, len(text) + 1))
    )


def _finish_quirks(chunks: Sequence[JSON]) -> Iterator[int]:
    for number, chunk in enumerate(chunks):
        for entry in entries(chunk):
            reason = entry.get("finish_reason", 0)
            if (
                reason == ""
                or "finish_reason" not in entry
                or entry.get("delta", 0) is None
                or "delta" not in entry
            ):
                yield number
    # (none at all is an interrupted stream, which the API reference allows for)
    yield from (n for n, empty in _after_finish(chunks) if empty)  # finish sent twice


def _after_finish(chunks: Sequence[JSON]) -> Iterator[tuple[int, bool]]:
    """(chunk number, whether its delta is empty) of each entry of a choice after the
    entry that carried the choice's finish_reason."""
    finished: set[int] = set()
    for number, chunk in enumerate(chunks):
        for entry in entries(chunk):
            choice = index_of(entry.get("index")) or 0
            if choice in finished:
                yield (
                    number,
                    not any(
                        v not in (None, "", []) for k, v in delta_of(entry).items() if k != "role"
                    ),
                )
            if entry.get("finish_reason") is not None:  # as the grammar line reads it
                finished.add(choice)


def _continued(chunks: Sequence[JSON]) -> Iterator[int]:
    return (n for n, empty in _after_finish(chunks) if not empty)


def _usage_early(chunks: Sequence[JSON]) -> Iterator[int]:
    for number, chunk in enumerate(chunks):
        if (
            isinstance(chunk, dict)
            and isinstance(chunk.get("usage"), dict)
            and (number < len(chunks) - 1 or chunk.get("choices") != [])
        ):
            yield number


def _prompt_filter(chunk: dict[str, Any]) -> bool:
    return (
        "prompt_filter_results" in chunk or chunk.get("object") == "" or chunk.get("created") == 0
    )


def _choices_out_of_order(chunks: Sequence[JSON]) -> Iterator[int]:
    seen: list[int] = []
    for number, chunk in enumerate(chunks):
        for entry in entries(chunk):
            # an entry without an index is choice 0 (CHOICE-KEY), not one out of order:
            # its missing key is CHAT-MISSING-KEY's, a wrong-typed one CHAT-WRONG-TYPE's
            choice = choice_key_of(entry)
            if choice not in seen:
                if choice != len(seen):
                    yield number
                seen.append(choice)


def _missing_key(chunk: dict[str, Any]) -> bool:
    return "choices" not in chunk or any("index" not in entry for entry in entries(chunk))


_REASONING_KEYS = ("reasoning", "reasoning_content", "reasoning_details")


def _reasoning_fields(chunk: dict[str, Any]) -> bool:
    return any(
        isinstance(delta := entry.get("delta"), dict)
        and any(key in delta for key in _REASONING_KEYS)
        for entry in entries(chunk)
    )


def _provider_fields(chunk: dict[str, Any]) -> bool:
    return "provider" in chunk or any("native_finish_reason" in entry for entry in entries(chunk))


def _choice_twice(chunk: dict[str, Any]) -> bool:
    # an entry without an index is choice 0 (CHOICE-KEY)
    seen = [index_of(entry.get("index")) or 0 for entry in entries(chunk)]
    return len(seen) != len(set(seen))


def _reasoning_without_index(chunk: dict[str, Any]) -> bool:
    return any(
        isinstance(d, dict) and "index" not in d
        for entry in entries(chunk)
        for d in _list(delta_of(entry).get("reasoning_details"))
    )


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _error_chunk(chunk: dict[str, Any]) -> bool:
    return "error" in chunk or any(e.get("finish_reason") == "error" for e in entries(chunk))


def _null_entries(chunk: dict[str, Any]) -> bool:
    lists = [_list(chunk.get("choices"))]
    for entry in entries(chunk):
        delta = delta_of(entry)
        lists += [_list(delta.get(k)) for k in ("tool_calls", "reasoning_details", "annotations")]
        logprobs = entry.get("logprobs")
        if isinstance(logprobs, dict):
            lists += [_list(logprobs.get("content")), _list(logprobs.get("refusal"))]
    return any(not isinstance(item, dict) for items in lists for item in items)


_STR, _INT, _OBJ, _LIST = (str,), (int,), (dict,), (list,)
_CHUNK_TYPES = {
    "id": _STR,
    "object": _STR,
    "created": _INT,
    "model": _STR,
    "choices": _LIST,
    "usage": _OBJ,
    "system_fingerprint": _STR,
    "service_tier": _STR,
    "provider": _STR,
    "error": _OBJ,
}
_ENTRY_TYPES = {
    "index": _INT,
    "delta": _OBJ,
    "finish_reason": _STR,
    "logprobs": _OBJ,
    "native_finish_reason": _STR,
}
_DELTA_TYPES = {
    "role": _STR,
    "content": _STR,
    "refusal": _STR,
    "reasoning": _STR,
    "reasoning_content": _STR,
    "tool_calls": _LIST,
    "reasoning_details": _LIST,
    "annotations": _LIST,
}
_FRAGMENT_TYPES = {"index": _INT, "id": _STR, "type": _STR, "function": _OBJ}
_FUNCTION_TYPES = {"name": _STR, "arguments": _STR}


_NEVER_NULL = frozenset(
    {
        "id",
        "object",
        "created",
        "model",
        "choices",
        "system_fingerprint",
        "error",
        "role",
        "function",
    }
)
"""Keys whose `null` no schema allows and no quirk explains (a chunk's id, a delta's role;
a tool fragment's id and type are Q7, its index Q1, a delta Q13)."""


def _mistyped(
    value: dict[str, Any],
    types: Mapping[str, tuple[type, ...]],
    never_null: frozenset[str] = frozenset(),
) -> bool:
    for key, allowed in types.items():
        found = value.get(key)
        if found is None:
            if key in value and key in never_null:
                return True
            continue
        if isinstance(found, bool) or not isinstance(found, allowed):
            return True
        if allowed == _INT and isinstance(found, int) and found < 0:
            return True
    return False


def _wrong_type(chunk: dict[str, Any]) -> bool:
    if _mistyped(chunk, _CHUNK_TYPES, _NEVER_NULL):
        return True
    for entry in entries(chunk):
        if _mistyped(entry, _ENTRY_TYPES, frozenset({"index"})) or _mistyped(
            delta_of(entry), _DELTA_TYPES, _NEVER_NULL
        ):
            return True
        if _logprobs_mistyped(entry.get("logprobs")):
            return True
        for fragment in fragments_of(entry):
            if _mistyped(fragment, _FRAGMENT_TYPES, _NEVER_NULL - {"id"}) or _mistyped(
                function_of(fragment), _FUNCTION_TYPES
            ):
                return True
    return False


_TOKEN_TYPES = {"token": _STR, "logprob": (int, float), "bytes": _LIST, "top_logprobs": _LIST}


def _logprobs_mistyped(logprobs: Any) -> bool:
    """A logprobs object missing its lists, or with an entry of the wrong shape."""
    if not isinstance(logprobs, dict):
        return False
    if any(
        k not in logprobs or not isinstance(logprobs[k], list | None)
        for k in ("content", "refusal")
    ):
        return True
    tokens = [e for k in ("content", "refusal") for e in _list(logprobs[k]) if isinstance(e, dict)]
    return any(
        _mistyped(e, _TOKEN_TYPES, frozenset({"token", "logprob", "top_logprobs"}))
        or any(k not in e for k in _TOKEN_TYPES)
        for e in tokens
    )


def _whitespace(value: Any) -> bool:
    return isinstance(value, str) and bool(value) and not value.strip()


def _blank(chunk: dict[str, Any]) -> bool:
    for entry in entries(chunk):
        role = delta_of(entry).get("role")
        if role == "" or _whitespace(role) or _whitespace(entry.get("finish_reason")):
            return True
        if any(_whitespace(f.get("id")) or _whitespace(f.get("type")) for f in fragments_of(entry)):
            return True
    return any(
        _whitespace(chunk.get(k)) or (k != "service_tier" and chunk.get(k) == "")
        for k in ("id", "model", "provider", "system_fingerprint", "service_tier")
    ) and not _prompt_filter(chunk)


def _other_object(chunk: dict[str, Any]) -> bool:
    # "" is Azure's prompt-filter chunk (Q15), null a wrong type (CHAT-WRONG-TYPE)
    found = chunk.get("object")
    return isinstance(found, str) and found not in ("chat.completion.chunk", "")


def _other_tool_type(chunk: dict[str, Any]) -> bool:
    # "" and null are Q7, whitespace CHAT-BLANK, another JSON type CHAT-WRONG-TYPE
    return any(
        not blank(f.get("type")) and f.get("type") != "function"
        for entry in entries(chunk)
        for f in fragments_of(entry)
    )


def _empty_choices(chunks: Sequence[JSON]) -> Iterator[int]:
    for number, chunk in enumerate(chunks[:-1]):
        if (
            isinstance(chunk, dict)
            and isinstance(chunk.get("choices"), list)
            and not list(entries(chunk))
            and not _prompt_filter(chunk)
        ):
            yield number


def _later_identity(chunks: Sequence[JSON]) -> Iterator[int]:
    """Every chunk carrying an id, model or created when the chunks carry several
    (which of them is the odd one is the grammar's to say, by majority)."""
    marked: set[int] = set()
    for key in ("id", "model", "created"):
        carrying = {
            n: json.dumps(c.get(key))
            for n, c in enumerate(chunks)
            if isinstance(c, dict)
            and not _prompt_filter(c)
            and (not blank(c.get(key)) if key != "created" else key in c)
        }
        if len(set(carrying.values())) > 1:
            marked |= set(carrying)
    return iter(sorted(marked))


def _earlier_last_wins(chunks: Sequence[JSON]) -> Iterator[int]:
    last: dict[Any, Any] = {}
    for number, chunk in enumerate(chunks):
        if not isinstance(chunk, dict):
            continue
        values: list[tuple[Any, Any]] = [
            (k, chunk.get(k)) for k in ("provider", "system_fingerprint", "service_tier")
        ]
        values += [
            (("finish", index_of(e.get("index")) or 0), e.get("finish_reason"))
            for e in entries(chunk)
        ]
        for key, value in values:
            if blank(value):
                continue
            if key in last and last[key] != value:
                yield number
            last[key] = value


def _renamed(chunks: Sequence[JSON]) -> Iterator[int]:
    names: dict[tuple[int, str], str] = {}
    for number, index, fragment, new, ident in _calls(chunks):
        name = function_of(fragment).get("name")
        key = (index, ident if new else next((k[1] for k in reversed(names) if k[0] == index), ""))
        if blank(name):
            continue
        if not new and key in names and names[key] != name:
            yield number
        names.setdefault(key, str(name))


def _late_id(chunks: Sequence[JSON]) -> Iterator[int]:
    without: set[int] = set()
    for number, index, fragment, new, _ in _calls(chunks):
        if new and blank(fragment.get("id")):
            without.add(index)
        elif index in without and not blank(fragment.get("id")):
            without.discard(index)
            yield number


DETECTORS: dict[str, Callable[[Sequence[JSON]], Iterator[int]]] = {
    "Q1": _chunks_where(_missing_index),
    "Q2": _shared_index,
    "Q3": _sparse,
    "Q4": _chunks_where(_same_index_twice),
    "Q5": _resent,
    "Q6": _repeated_identity,
    "Q7": _chunks_where(_explicit_blanks),
    "Q8": _role_repeated,
    "Q11": _no_arguments,
    "Q12": _cut_off,
    "Q13": _finish_quirks,
    "Q14": _usage_early,
    "Q15": _chunks_where(_prompt_filter),
    "Q16": _choices_out_of_order,
    "Q17": _chunks_where(_reasoning_without_index),
    "Q18": _chunks_where(_error_chunk),
    "CHAT-X-REASONING": _chunks_where(_reasoning_fields),
    "CHAT-X-PROVIDER": _chunks_where(_provider_fields),
    "Q20": _chunks_where(_null_entries),
    "CHAT-WRONG-TYPE": _chunks_where(_wrong_type),
    "CHAT-BLANK": _chunks_where(_blank),
    "CHAT-NOT-OBJECT": lambda chunks: (n for n, c in enumerate(chunks) if not isinstance(c, dict)),
    "CHAT-EMPTY-CHOICES": _empty_choices,
    "CHAT-MISSING-KEY": _chunks_where(_missing_key),
    "CHAT-LATER-IDENTITY": _later_identity,
    "CHAT-EARLIER-LAST-WINS": _earlier_last_wins,
    "CHAT-AFTER-FINISH": _continued,
    "CHAT-RENAMED": _renamed,
    "CHAT-LATE-ID": _late_id,
    "CHAT-OBJECT": _chunks_where(_other_object),
    "CHAT-TOOL-TYPE": _chunks_where(_other_tool_type),
    "CHAT-CHOICE-TWICE": _chunks_where(_choice_twice),
}
"""A detector per departure id."""
