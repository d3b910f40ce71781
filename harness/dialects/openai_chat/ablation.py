"""Departures from the plain shape, each named after its rule, and how to undo them.

A crash says nothing about where a target went wrong. Ablation finds out: a stream that
crashes the target is compared with the same stream with one departure from OpenAI's own
shape (the spec's split family 1) undone at a time, each by a transformation the
reference folds identically. The departures whose undoing makes the crash go away are
the ones the crash is evidence against (`refold.verdicts.crashes` runs the target).

Each departure is one function `undo(stream) -> stream`, named after the rule that says
how the departure folds; the departure is present in a stream when undoing it changes
the stream, so detection and undoing cannot disagree. `applicable_undos` keeps only the
undos that change the stream and that the reference folds identically by the canonical
comparison (checked on the stream at hand, so an undo that is only usually lossless is
never trusted on a stream where it is not), but for what the undo's own rule gives
(`_UNDONE_PLACES`): a choice's index, once the choice indexes are dense, a call's type,
once it is "function", and a reasoning segment's index, when it arrived without one.

The plain shape is family 1 as OpenAI itself streams it, a little narrower than the
family the spec allows: tool indexes dense from 0 and calls first arriving in index
order, every tool fragment with a `function` object, every call of type "function",
choice indexes dense from 0 on every entry and first arriving in index order, at most one
entry per choice in a chunk, `choices` on every chunk, every reasoning segment in one
fragment with an index. Those narrowings are departures here (TOOL-INDEX, TOOL-5-APPEND,
TOOL-TYPE, CHOICE-KEY, CHOICE-ORDER, ROB-WRONG-TYPE, RD-INDEXLESS, RD-AS-SENT) because
SDKs that index a list by position, or read a key OpenAI's schema requires or always
sends, crash on them (openai-python: "Expected list delta entry to have an `index` key",
`choices[index]`; litellm and langchain-openai: a tool fragment's `function`; litellm: a
`custom` call's `custom`), and the rule they then break is that one.

Plain JSON in, plain JSON out; the input is never mutated. The robustness and reasoning
departures are here; the tool-call ones are in `_tool_departures`, the choice and envelope
ones in `_choice_departures`.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from typing import Any

from refold.reference import JSON, JSONObject
from refold.reference.chat import differences, fold
from refold.verdicts.undoing import Undo, Undoing

from .._dialect import Ablation
from ._choice_departures import (
    choice_finish,
    choice_key,
    choice_order,
    choice_role,
    env_created,
    env_id,
    env_model,
    prov_last,
    usage_last,
)
from ._chunk_walk import (
    blank,
    choice_key_of,
    delta_of,
    entries,
    fragments_of,
    index_of,
    objects_only,
)
from ._tool_departures import (
    tool_2_new_id,
    tool_5_append,
    tool_adopt_id,
    tool_index,
    tool_name,
    tool_no_index,
    tool_type,
)

__all__ = ["ABLATION", "DEPARTURES"]

_ENTRY_LISTS = ("tool_calls", "reasoning_details", "annotations")
_CHUNK_KEYS = frozenset(
    {
        "id",
        "object",
        "created",
        "model",
        "choices",
        "usage",
        "provider",
        "system_fingerprint",
        "service_tier",
        "error",
    }
)
_ENTRY_KEYS = frozenset({"index", "delta", "finish_reason", "native_finish_reason", "logprobs"})
_DELTA_KEYS = frozenset(
    {"role", "content", "refusal", "reasoning", "reasoning_content", *_ENTRY_LISTS}
)
_FRAGMENT_KEYS = frozenset({"index", "id", "type", "function"})
_FUNCTION_KEYS = frozenset({"name", "arguments"})
_STRING_FIELDS = {
    "chunk": ("id", "model", "provider", "system_fingerprint", "service_tier", "object"),
    "entry": ("finish_reason", "native_finish_reason"),
    "delta": ("role", "content", "refusal", "reasoning", "reasoning_content"),
    "fragment": ("id", "type"),
    "function": ("name", "arguments"),
}
_IDENTITY = {
    "chunk": ("id", "model", "provider", "system_fingerprint", "service_tier"),
    "entry": ("finish_reason", "native_finish_reason"),
    "delta": ("role",),
    "fragment": ("id", "type"),
    "function": ("name",),
}


def rob_null_entries(stream: list[JSON]) -> list[JSON]:
    """ROB-NULL-ENTRIES: drop null and non-object entries of the entry lists."""
    stream = copy.deepcopy(stream)
    for chunk in stream:
        if isinstance(chunk, dict) and isinstance(chunk.get("choices"), list):
            chunk["choices"] = objects_only(chunk["choices"])
        for entry in entries(chunk):
            delta = delta_of(entry)
            for key in _ENTRY_LISTS:
                if isinstance(delta.get(key), list):
                    delta[key] = objects_only(delta[key])
            logprobs = entry.get("logprobs")
            for key in ("content", "refusal"):
                if isinstance(logprobs, dict) and isinstance(logprobs.get(key), list):
                    logprobs[key] = objects_only(logprobs[key])
    return stream


def choice_delta_null(stream: list[JSON]) -> list[JSON]:
    """CHOICE-DELTA-NULL: a null, absent or non-object delta becomes `{}`."""
    stream = copy.deepcopy(stream)
    for chunk in stream:
        for entry in entries(chunk):
            if not isinstance(entry.get("delta"), dict):
                entry["delta"] = {}
    return stream


def _levels(chunk: JSONObject) -> Iterator[tuple[str, JSONObject]]:
    """(level, object) for every object of a chunk the fold reads fields of."""
    yield "chunk", chunk
    for entry in entries(chunk):
        yield "entry", entry
        if isinstance(entry.get("delta"), dict):
            yield "delta", entry["delta"]
        for fragment in fragments_of(entry):
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
                if key in value and (
                    value[key] is None or (isinstance(value[key], str) and not value[key].strip())
                ):
                    del value[key]
    return stream


def rob_wrong_type(stream: list[JSON]) -> list[JSON]:
    """ROB-WRONG-TYPE: drop fields of the wrong JSON type (a string field holding a
    number, an index that is not a non-negative integer, a list that is not a list); a
    chunk's `choices` that is not a list, or absent, becomes `[]`, as OpenAI sends a
    chunk without choices."""
    stream = copy.deepcopy(stream)
    for chunk in stream:
        if not isinstance(chunk, dict):
            continue
        if not isinstance(chunk.get("choices"), list):
            chunk["choices"] = []  # absent too: the fold never raises on a chunk object
        for level, value in _levels(chunk):
            for key in _STRING_FIELDS.get(level, ()):
                if key in value and value[key] is not None and not isinstance(value[key], str):
                    del value[key]
            if (
                level in ("entry", "fragment")
                and "index" in value
                and index_of(value["index"]) is None
            ):
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
        for entry in entries(chunk):
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
    known = {
        "chunk": _CHUNK_KEYS,
        "entry": _ENTRY_KEYS,
        "delta": _DELTA_KEYS,
        "fragment": _FRAGMENT_KEYS,
        "function": _FUNCTION_KEYS,
    }
    stream = copy.deepcopy(stream)
    for chunk in stream:
        if isinstance(chunk, dict):
            for level, value in list(_levels(chunk)):
                for key in [k for k in value if k not in known[level]]:
                    del value[key]
    return stream


_JOINED = {"reasoning.text": "text", "reasoning.summary": "summary"}


def rd_indexless(stream: list[JSON]) -> list[JSON]:
    """RD-INDEXLESS: an index-less text or summary segment split across fragments becomes
    one fragment where it first arrived (its text joined, its other fields the last),
    with an index of its own (`_indexed`)."""
    return _indexed(_joined(stream), lambda kind: kind in _JOINED)


def rd_as_sent(stream: list[JSON]) -> list[JSON]:
    """RD-AS-SENT: an index-less encrypted segment, or one of another type, gets an index
    of its own (`_indexed`)."""
    return _indexed(stream, lambda kind: kind not in _JOINED)


def _indexed(stream: list[JSON], of_kind: Callable[[Any], bool]) -> list[JSON]:
    """Every index-less segment of a kind `of_kind` takes, per choice, an index above every
    index its choice's segments carry: RD-MERGE merges by (type, index), so a fresh index
    merges it with nothing, and RD-ORDER keeps it where it first arrived. OpenRouter's
    docs make the index optional (Q17); openai-python merges list entries by index and
    raises on an entry without one. The fold differs only at the index the segment now
    carries (`_undone_place`)."""
    stream = copy.deepcopy(stream)
    for slots in _detail_slots(stream).values():
        carried = [index_of(d.get("index")) for _, d in slots]
        fresh = max((i for i in carried if i is not None), default=-1) + 1
        for _, detail in slots:
            if "index" not in detail and of_kind(detail.get("type")):
                detail["index"] = fresh
                fresh += 1
    return stream


def _joined(stream: list[JSON]) -> list[JSON]:
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
            if not blank(fragment.get("signature")):
                del open_[kind]  # a signature closes the segment
    return stream


def _detail_slots(stream: list[JSON]) -> dict[int, list[tuple[list[Any], JSONObject]]]:
    found: dict[int, list[tuple[list[Any], JSONObject]]] = {}
    for chunk in stream:
        for entry in entries(chunk):
            details = delta_of(entry).get("reasoning_details")
            if isinstance(details, list):
                found.setdefault(choice_key_of(entry), []).extend(
                    (details, d) for d in details if isinstance(d, dict)
                )
    return found


def _merge_detail(first: JSONObject, later: JSONObject, joined: str) -> None:
    for key, value in later.items():
        if key == joined:
            before = first.get(key)
            first[key] = (before if isinstance(before, str) else "") + (
                value if isinstance(value, str) else ""
            )
        elif (isinstance(value, str) and value.strip()) or not (
            value is None or isinstance(value, str)
        ):
            first[key] = value


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
    ("TOOL-5-APPEND", tool_5_append),
    ("RD-INDEXLESS", rd_indexless),
    ("RD-AS-SENT", rd_as_sent),
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


_UNDONE_PLACES: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = (
    (re.compile(r"/choices/\d+/index"), frozenset({"CHOICE-KEY"})),
    (re.compile(r"/choices/\d+/message/tool_calls/\d+/type"), frozenset({"TOOL-TYPE"})),
    (
        re.compile(r"/choices/\d+/message/reasoning_details/\d+/index"),
        frozenset({"RD-INDEXLESS", "RD-AS-SENT"}),
    ),
)
"""The only pointers an undo may change the fold at, by the rules whose undo gives them:
a choice's index once the indexes are dense (CHOICE-KEY keys a choice by its index), a
call's type once it is "function" (TOOL-TYPE keeps the first one that arrived), and the
index of a reasoning segment that arrived without one (RD-INDEXLESS and RD-AS-SENT
decide how such a segment folds: without one)."""


def _undone_place(pointer: str) -> frozenset[str]:
    """The rules whose undo may change the fold at `pointer` (`_UNDONE_PLACES`)."""
    return next((rules for at, rules in _UNDONE_PLACES if at.fullmatch(pointer)), frozenset())


UNDOING = Undoing(DEPARTURES, fold, differences, _undone_place)
"""The shared driver over these departures (`refold.verdicts.undoing`): an undo is trusted
only where the reference folds the undone stream identically (canonical comparison) on
this very stream, but for the places its own rule gives (`_UNDONE_PLACES`)."""
applicable_undos = UNDOING.applicable_undos
departures_alone = UNDOING.departures_alone

ABLATION = Ablation(applicable_undos, departures_alone)
"""How a crash is charged to a rule here (`Dialect.ablation`); a difference is charged by
its pointer alone."""
