"""Departures from the plain shape, each named after its rule, and how to undo them.

A crash says nothing about where a target went wrong. Ablation finds out: a stream that
crashes the target is compared with the same stream with one departure from OpenAI's own
shape (the spec's split family 1) undone at a time, each by a transformation the
reference folds identically. The departures whose undoing makes the crash go away are
the ones the crash is evidence against (`refold.crashes` runs the target).

Each departure is one function `undo(stream) -> stream`, named after the rule that says
how the departure folds; the departure is present in a stream when undoing it changes
the stream, so detection and undoing cannot disagree. `applicable_undos` keeps only the
undos that change the stream and that the reference folds identically by the canonical
comparison (checked on the stream at hand, so an undo that is only usually lossless is
never trusted on a stream where it is not).

Plain JSON in, plain JSON out; the input is never mutated.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

from refold.reference import JSON, JSONObject, RefoldError, differences, fold

__all__ = ["DEPARTURES", "Undo", "applicable_undos", "departures_alone"]

Undo = Callable[[list[JSON]], list[JSON]]

_ENTRY_LISTS = ("tool_calls", "reasoning_details", "annotations")
_CHUNK_KEYS = frozenset({"id", "object", "created", "model", "choices", "usage", "provider",
                         "system_fingerprint", "service_tier", "error"})
_ENTRY_KEYS = frozenset({"index", "delta", "finish_reason", "native_finish_reason",
                         "logprobs"})
_DELTA_KEYS = frozenset({"role", "content", "refusal", "reasoning", "reasoning_content",
                         *_ENTRY_LISTS})
_FRAGMENT_KEYS = frozenset({"index", "id", "type", "function"})
_FUNCTION_KEYS = frozenset({"name", "arguments"})
_STRING_FIELDS = {
    "chunk": ("id", "model", "provider", "system_fingerprint", "service_tier", "object"),
    "entry": ("finish_reason", "native_finish_reason"),
    "delta": ("role", "content", "refusal", "reasoning", "reasoning_content"),
    "fragment": ("id", "type"),
    "function": ("name", "arguments"),
}
_IDENTITY = {"chunk": ("id", "model", "provider", "system_fingerprint", "service_tier"),
             "entry": ("finish_reason", "native_finish_reason"), "delta": ("role",),
             "fragment": ("id", "type"), "function": ("name",)}


def _index(value: Any) -> int | None:
    """A non-negative JSON integer (1.0 counts, true does not), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if value >= 0 else None


def _blank(value: Any) -> bool:
    return not (isinstance(value, str) and value.strip())


def _entries(chunk: JSON) -> Iterator[JSONObject]:
    """The choice entries of a chunk that are objects."""
    choices = chunk.get("choices") if isinstance(chunk, dict) else None
    for entry in choices if isinstance(choices, list) else []:
        if isinstance(entry, dict):
            yield entry


def _delta(entry: JSONObject) -> JSONObject:
    delta = entry.get("delta")
    return delta if isinstance(delta, dict) else {}


def _fragments(entry: JSONObject) -> Iterator[JSONObject]:
    calls = _delta(entry).get("tool_calls")
    for fragment in calls if isinstance(calls, list) else []:
        if isinstance(fragment, dict):
            yield fragment


def _function(fragment: JSONObject) -> JSONObject:
    function = fragment.get("function")
    return function if isinstance(function, dict) else {}


def _choice_key(entry: JSONObject) -> int:
    return _index(entry.get("index")) or 0


def _objects_only(values: list[Any]) -> list[Any]:
    return [value for value in values if isinstance(value, dict)]


def rob_null_entries(stream: list[JSON]) -> list[JSON]:
    """ROB-NULL-ENTRIES: drop null and non-object entries of the entry lists."""
    stream = copy.deepcopy(stream)
    for chunk in stream:
        if isinstance(chunk, dict) and isinstance(chunk.get("choices"), list):
            chunk["choices"] = _objects_only(chunk["choices"])
        for entry in _entries(chunk):
            delta = _delta(entry)
            for key in _ENTRY_LISTS:
                if isinstance(delta.get(key), list):
                    delta[key] = _objects_only(delta[key])
            logprobs = entry.get("logprobs")
            for key in ("content", "refusal"):
                if isinstance(logprobs, dict) and isinstance(logprobs.get(key), list):
                    logprobs[key] = _objects_only(logprobs[key])
    return stream


def choice_delta_null(stream: list[JSON]) -> list[JSON]:
    """CHOICE-DELTA-NULL: a null, absent or non-object delta becomes `{}`."""
    stream = copy.deepcopy(stream)
    for chunk in stream:
        for entry in _entries(chunk):
            if not isinstance(entry.get("delta"), dict):
                entry["delta"] = {}
    return stream


def _levels(chunk: JSONObject) -> Iterator[tuple[str, JSONObject]]:
    """(level, object) for every object of a chunk the fold reads fields of."""
    yield "chunk", chunk
    for entry in _entries(chunk):
        yield "entry", entry
        if isinstance(entry.get("delta"), dict):
            yield "delta", entry["delta"]
        for fragment in _fragments(entry):
            yield "fragment", fragment
            if isinstance(fragment.get("function"), dict):
                yield "function", fragment["function"]


def rob_blank(stream: list[JSON]) -> list[JSON]:
    """ROB-BLANK: drop blank identity fields (null, empty or whitespace-only strings)."""
    stream = copy.deepcopy(stream)
    for chunk in stream:
        if not isinstance(chunk, dict):
            continue
        for level, value in _levels(chunk):
            for key in _IDENTITY.get(level, ()):
                if key in value and (value[key] is None or (
                        isinstance(value[key], str) and not value[key].strip())):
                    del value[key]
    return stream


def rob_wrong_type(stream: list[JSON]) -> list[JSON]:
    """ROB-WRONG-TYPE: drop fields of the wrong JSON type (a string field holding a
    number, an index that is not a non-negative integer, a list that is not a list)."""
    stream = copy.deepcopy(stream)
    for chunk in stream:
        if not isinstance(chunk, dict):
            continue
        if "choices" in chunk and not isinstance(chunk["choices"], list):
            del chunk["choices"]
        for level, value in _levels(chunk):
            for key in _STRING_FIELDS.get(level, ()):
                if key in value and value[key] is not None and not isinstance(value[key], str):
                    del value[key]
            if level in ("entry", "fragment") and "index" in value and _index(
                    value["index"]) is None:
                del value["index"]
            if level == "delta":
                for key in _ENTRY_LISTS:
                    if key in value and not isinstance(value[key], list):
                        del value[key]
    return stream


def lp_skip(stream: list[JSON]) -> list[JSON]:
    """LP-SKIP: drop a `logprobs` that is not an object, and its non-list lists."""
    stream = copy.deepcopy(stream)
    for chunk in stream:
        for entry in _entries(chunk):
            logprobs = entry.get("logprobs")
            if "logprobs" in entry and logprobs is not None and not isinstance(logprobs, dict):
                del entry["logprobs"]
            elif isinstance(logprobs, dict):
                for key in ("content", "refusal"):
                    if logprobs.get(key) is not None and not isinstance(logprobs[key], list):
                        logprobs[key] = None
    return stream


def rob_unknown_keys(stream: list[JSON]) -> list[JSON]:
    """ROB-UNKNOWN-KEYS: drop keys the spec does not name at the levels the fold reads."""
    known = {"chunk": _CHUNK_KEYS, "entry": _ENTRY_KEYS, "delta": _DELTA_KEYS,
             "fragment": _FRAGMENT_KEYS, "function": _FUNCTION_KEYS}
    stream = copy.deepcopy(stream)
    for chunk in stream:
        if isinstance(chunk, dict):
            for level, value in list(_levels(chunk)):
                for key in [k for k in value if k not in known[level]]:
                    del value[key]
    return stream


def _calls_by_choice(stream: list[JSON]) -> dict[int, list[JSONObject]]:
    """Every tool fragment that is an object, per choice, in arrival order."""
    found: dict[int, list[JSONObject]] = {}
    for chunk in stream:
        for entry in _entries(chunk):
            found.setdefault(_choice_key(entry), []).extend(_fragments(entry))
    return found


def _fragment_slots(stream: list[JSON]) -> dict[int, list[tuple[list[Any], int]]]:
    """Where each tool fragment that is an object sits, per choice, in arrival order."""
    found: dict[int, list[tuple[list[Any], int]]] = {}
    for chunk in stream:
        for entry in _entries(chunk):
            calls = _delta(entry).get("tool_calls")
            slots = found.setdefault(_choice_key(entry), [])
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
        present = [_index(f.get("index")) for f in fragments]
        indexes = [i for i in present if i is not None]
        if len(indexes) != len(present):
            continue
        dense = {old: new for new, old in enumerate(sorted(set(indexes)))}
        for fragment, old in zip(fragments, indexes, strict=True):
            fragment["index"] = dense[old]
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
            index = _index(fragment.get("index"))
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
        index = _index(fragment.get("index")) or 0
        ident = None if _blank(fragment.get("id")) else str(fragment["id"])
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
        if any(_index(f.get("index")) is None for f in fragments):
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
            holder = _function(fragment) if key == "name" else fragment
            if key not in holder:
                continue
            if call in known:
                del holder[key]
            elif not _blank(holder[key]):
                known.add(call)
    return stream


def tool_name(stream: list[JSON]) -> list[JSON]:
    """TOOL-NAME: a name repeated (or changed) on later fragments of a call is dropped."""
    return _repeated(stream, "name")


def tool_type(stream: list[JSON]) -> list[JSON]:
    """TOOL-TYPE: a type repeated on later fragments of a call is dropped."""
    return _repeated(stream, "type")


def tool_adopt_id(stream: list[JSON]) -> list[JSON]:
    """TOOL-ADOPT-ID: an id repeated on later fragments of a call is dropped."""
    return _repeated(stream, "id")


_JOINED = {"reasoning.text": "text", "reasoning.summary": "summary"}


def rd_indexless(stream: list[JSON]) -> list[JSON]:
    """RD-INDEXLESS: an index-less text or summary segment split across fragments becomes
    one fragment where it first arrived (its text joined, its other fields the last)."""
    stream = copy.deepcopy(stream)
    for slots in _detail_slots(stream).values():
        open_: dict[str, JSONObject] = {}
        for details, fragment in slots:
            kind = fragment.get("type")
            if kind not in _JOINED or "index" in fragment:
                continue
            first = open_.get(kind)
            if first is None:
                open_[kind] = fragment
            else:
                _merge_detail(first, fragment, _JOINED[kind])
                details.remove(fragment)
            if not _blank(fragment.get("signature")):
                del open_[kind]  # a signature closes the segment
    return stream


def _detail_slots(stream: list[JSON]) -> dict[int, list[tuple[list[Any], JSONObject]]]:
    found: dict[int, list[tuple[list[Any], JSONObject]]] = {}
    for chunk in stream:
        for entry in _entries(chunk):
            details = _delta(entry).get("reasoning_details")
            if isinstance(details, list):
                found.setdefault(_choice_key(entry), []).extend(
                    (details, d) for d in details if isinstance(d, dict))
    return found


def _merge_detail(first: JSONObject, later: JSONObject, joined: str) -> None:
    for key, value in later.items():
        if key == joined:
            first[key] = (first.get(key) if isinstance(first.get(key), str) else "") + (
                value if isinstance(value, str) else "")
        elif (isinstance(value, str) and value.strip()) or not (
                value is None or isinstance(value, str)):
            first[key] = value


def choice_role(stream: list[JSON]) -> list[JSON]:
    """CHOICE-ROLE: a role on a later entry of a choice than its first role is dropped."""
    stream = copy.deepcopy(stream)
    seen: set[int] = set()
    for chunk in stream:
        for entry in _entries(chunk):
            delta = _delta(entry)
            if _blank(delta.get("role")):
                continue
            if _choice_key(entry) in seen:
                del delta["role"]
            seen.add(_choice_key(entry))
    return stream


def choice_key(stream: list[JSON]) -> list[JSON]:
    """CHOICE-KEY: a chunk with several entries of one choice becomes one chunk per
    entry (OpenAI sends at most one entry per choice in a chunk)."""
    result: list[JSON] = []
    for chunk in copy.deepcopy(stream):
        entries = list(_entries(chunk))
        keys = [_choice_key(e) for e in entries]
        if len(set(keys)) == len(keys) or len(entries) != len(chunk["choices"]):
            result.append(chunk)
            continue
        rest = {k: v for k, v in chunk.items() if k != "choices"}
        groups: list[list[JSONObject]] = [[]]
        for entry, key in zip(entries, keys, strict=True):
            if key in (_choice_key(e) for e in groups[-1]):
                groups.append([])
            groups[-1].append(entry)
        result += [{**copy.deepcopy(rest), "choices": group} for group in groups]
    return result


def choice_order(stream: list[JSON]) -> list[JSON]:
    """CHOICE-ORDER: when a choice first arrives before one of a lower index, the choices
    one after the other in index order, each entry in a chunk of its own with its chunk's
    envelope; the other chunk fields follow on `choices: []` chunks, in their order.
    (Choices that first arrive in index order and then interleave are OpenAI's shape.)"""
    chunks = [c for c in stream if isinstance(c, dict)]
    if len(chunks) != len(stream):
        return copy.deepcopy(stream)
    keys = [_choice_key(e) for c in chunks for e in _entries(c)]
    first = list(dict.fromkeys(keys))
    if first == sorted(first):
        return copy.deepcopy(stream)
    envelope = ("id", "object", "created", "model")
    ordered: list[JSON] = []
    for key in sorted(set(keys)):
        for chunk in chunks:
            head = {k: chunk[k] for k in envelope if k in chunk}
            ordered += [{**head, "choices": [e]} for e in _entries(chunk) if _choice_key(e) == key]
    for chunk in chunks:
        rest = {k: v for k, v in chunk.items() if k != "choices" and k not in envelope}
        if rest:
            ordered.append({**{k: chunk[k] for k in envelope if k in chunk}, "choices": [],
                            **rest})
    return copy.deepcopy(ordered)


def _first_wins(stream: list[JSON], key: str, valid: Callable[[Any], bool]) -> list[JSON]:
    stream = copy.deepcopy(stream)
    first = next((c[key] for c in stream if isinstance(c, dict) and valid(c.get(key))), None)
    for chunk in stream:
        if first is not None and isinstance(chunk, dict) and valid(chunk.get(key)):
            chunk[key] = first
    return stream


def env_id(stream: list[JSON]) -> list[JSON]:
    """ENV-ID: a later chunk id that differs from the first non-blank one takes its value."""
    return _first_wins(stream, "id", lambda value: not _blank(value))


def env_model(stream: list[JSON]) -> list[JSON]:
    """ENV-MODEL: a later model that differs from the first non-blank one takes its value."""
    return _first_wins(stream, "model", lambda value: not _blank(value))


def env_created(stream: list[JSON]) -> list[JSON]:
    """ENV-CREATED: a later positive `created` takes the first one's value."""
    return _first_wins(stream, "created", lambda value: (_index(value) or 0) > 0)


def prov_last(stream: list[JSON]) -> list[JSON]:
    """PROV-LAST: an earlier provider field that differs from the last takes its value."""
    stream = copy.deepcopy(stream)
    for key in ("provider", "system_fingerprint", "service_tier"):
        values = [c[key] for c in stream if isinstance(c, dict) and not _blank(c.get(key))]
        for chunk in stream:
            if values and isinstance(chunk, dict) and not _blank(chunk.get(key)):
                chunk[key] = values[-1]
    return stream


def usage_last(stream: list[JSON]) -> list[JSON]:
    """USAGE-LAST: `usage` only on the last chunk that carries a usage object."""
    stream = copy.deepcopy(stream)
    carrying = [i for i, c in enumerate(stream)
                if isinstance(c, dict) and isinstance(c.get("usage"), dict)]
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
        for entry in _entries(chunk):
            if not _blank(entry.get("finish_reason")):
                last[_choice_key(entry)] = entry
    for chunk in stream:
        for entry in _entries(chunk):
            if not _blank(entry.get("finish_reason")) and last[_choice_key(entry)] is not entry:
                del entry["finish_reason"]
    return stream


DEPARTURES: tuple[tuple[str, Undo], ...] = (
    ("ROB-NULL-ENTRIES", rob_null_entries),
    ("CHOICE-DELTA-NULL", choice_delta_null),
    ("ROB-WRONG-TYPE", rob_wrong_type),
    ("LP-SKIP", lp_skip),
    ("ROB-BLANK", rob_blank),
    ("ROB-UNKNOWN-KEYS", rob_unknown_keys),
    ("TOOL-INDEX", tool_index),
    ("TOOL-NO-INDEX", tool_no_index),
    ("TOOL-2-NEW-ID", tool_2_new_id),
    ("TOOL-NAME", tool_name),
    ("TOOL-TYPE", tool_type),
    ("TOOL-ADOPT-ID", tool_adopt_id),
    ("RD-INDEXLESS", rd_indexless),
    ("CHOICE-ROLE", choice_role),
    ("CHOICE-KEY", choice_key),
    ("CHOICE-ORDER", choice_order),
    ("ENV-ID", env_id),
    ("ENV-MODEL", env_model),
    ("ENV-CREATED", env_created),
    ("PROV-LAST", prov_last),
    ("USAGE-LAST", usage_last),
    ("CHOICE-FINISH", choice_finish),
)
"""(rule id, undo) per departure from the plain shape, in the order they are tried."""


def applicable_undos(stream: list[JSON]) -> list[tuple[str, list[JSON]]]:
    """(rule id, undone stream) for every departure present in `stream` whose undoing the
    reference folds identically (canonical comparison) on this very stream."""
    try:
        expected = fold(stream)
    except RefoldError:
        return []  # a stream the reference refuses has no plain shape to return to
    found: list[tuple[str, list[JSON]]] = []
    for rule_id, undo in DEPARTURES:
        undone = undo(stream)
        if undone == stream:
            continue
        try:
            if not differences(expected, fold(undone)):
                found.append((rule_id, undone))
        except RefoldError:
            continue
    return found


def departures_alone(stream: list[JSON]) -> list[tuple[str, list[JSON]]]:
    """(rule id, stream) per departure present in `stream`: the stream with every other
    departure undone, so it departs from the plain shape by that one alone; first
    ("", stream) with every departure undone. Only streams the reference folds as it
    folds `stream` are given (canonical comparison), and none when the plain one is not.
    """
    try:
        expected = fold(stream)
    except RefoldError:
        return []
    present = [rule_id for rule_id, undo in DEPARTURES if undo(stream) != stream]
    found: list[tuple[str, list[JSON]]] = []
    for kept in ["", *present]:
        undone = stream
        for rule_id, undo in DEPARTURES:
            if rule_id in present and rule_id != kept:
                undone = undo(undone)
        try:
            identical = not differences(expected, fold(undone))
        except RefoldError:
            identical = False
        if not kept and not identical:
            return []
        if identical and undone != stream:
            found.append((kept, undone))
    return found
