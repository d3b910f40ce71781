"""Which GM rule a crash or a difference is evidence against, beyond its pointer.

Undoing (`refold.verdicts.undoing`): each departure below is undone by a change the
reference folds identically, everywhere (`Ablation`: a crash or a difference that goes
away with the departure is charged to the departure's rule, `refold.verdicts.crashes`,
`refold.verdicts.difference_ablation`):

    GM-ROB-NULL-ENTRIES   null and non-object entries of `candidates` and `parts` removed
    GM-PART-OTHER         parts whose every value is null (`{}`) removed
    GM-TEXT-EMPTY         unsigned plain `{"text": ""}` parts removed
    GM-CAND-INDEX         candidate entries without `index` given `"index": 0`
    GM-USAGE-LAST         every `usageMetadata` object but the last removed
    GM-CALL-WHOLE         a whole call without `args` given `"args": {}` (alike, GM-CALL-WHOLE)
    GM-LIFE-ERROR         an `error` that is not an object sent as a Status object (the
                          response never holds it, GM-ENV-NO-ERROR)

`absent_departures(stream)` names the rules about a shape the stream does not have: a
difference in its fold is never evidence against them (`Dialect.absent_departures`,
read by `refold.run.checks.implicated_by`). The pointer table gives a part's
`thoughtSignature` to GM-SIGNATURE and GM-CALL-STREAMED and its `text` to the thought
and signature rules too; in a stream with no streamed call, no signature or no `thought`
key, those rules decide nothing there.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator

from refold.reference import JSON, JSONObject, non_blank
from refold.reference.gemini import NoResponseError, differences, fold
from refold.verdicts.undoing import Probe, Undoing, folded_or_none

from .._dialect import Ablation
from ._chunks import entries, is_streamed, parts_of
from ._part_probes import kind_probes

__all__ = ["ABLATION", "absent_departures"]


def _parts(stream: list[JSON]) -> Iterator[JSONObject]:
    """Every part object of every candidate of every chunk object."""
    for _, entry in entries(stream):
        yield from (part for part in parts_of(entry) if isinstance(part, dict))


def absent_departures(stream: list[JSON]) -> frozenset[str]:
    """The rules about a shape `stream` does not have: streamed call fragments
    (GM-CALL-STREAMED, GM-CALL-PARTIAL-ARGS), any `thoughtSignature` (GM-SIGNATURE),
    any `thought` key (GM-THOUGHT-APART), an unsigned empty text part (GM-TEXT-EMPTY), a
    null or non-object entry of a list the rule names (GM-ROB-NULL-ENTRIES), a chunk of
    several candidate entries or of one without `"index": 0` (GM-CAND-INDEX)."""
    parts = list(_parts(stream))
    absent: set[str] = set()
    if not any(_empty_text(part) for part in parts):
        absent.add("GM-TEXT-EMPTY")
    if not any(_has_blank_entry(chunk) for chunk in stream):
        absent.add("GM-ROB-NULL-ENTRIES")
    if not any(is_streamed(part.get("functionCall")) for part in parts):
        absent |= {"GM-CALL-STREAMED", "GM-CALL-PARTIAL-ARGS"}
    if not any("thoughtSignature" in part for part in parts):
        absent.add("GM-SIGNATURE")
    if not any("thought" in part for part in parts):
        absent.add("GM-THOUGHT-APART")
    if all(_one_entry_of_index_zero(chunk) for chunk in stream):
        absent.add("GM-CAND-INDEX")
    return frozenset(absent)


def _one_entry_of_index_zero(chunk: JSON) -> bool:
    """GM-CAND-INDEX decides nothing in a chunk of at most one candidate entry that names
    index 0 itself: by index or by position, it is candidate 0's."""
    entries = chunk.get("candidates") if isinstance(chunk, dict) else None
    if not isinstance(entries, list) or not entries:
        return True
    entry = entries[0]
    return (
        len(entries) == 1
        and isinstance(entry, dict)
        and type(entry.get("index")) is int
        and entry["index"] == 0
    )


_ENTRY_LISTS = frozenset(
    {"candidates", "parts", "safetyRatings", "citationSources", "citations", "partialArgs"}
)
"""GM-ROB-NULL-ENTRIES: the lists whose null and non-object entries are skipped."""


def _has_blank_entry(value: JSON) -> bool:
    """Whether a list GM-ROB-NULL-ENTRIES names holds a null or non-object entry, anywhere
    in `value` (a chunk that is no object is GM-ROB-NOT-OBJECT's, not this rule's)."""
    if isinstance(value, list):
        return any(_has_blank_entry(item) for item in value)
    if not isinstance(value, dict):
        return False
    for key, item in value.items():
        listed = key in _ENTRY_LISTS and isinstance(item, list)
        if listed and any(not isinstance(entry, dict) for entry in item):
            return True
        if _has_blank_entry(item):
            return True
    return False


def _part_lists(chunk: JSONObject) -> Iterator[list[JSON]]:
    """The `parts` list of every candidate entry of `chunk` (to change in place)."""
    for _, entry in entries([chunk]):
        content = entry.get("content")
        if isinstance(content, dict) and isinstance(content.get("parts"), list):
            yield content["parts"]


def _copied(stream: list[JSON]) -> list[JSON]:
    """A copy of every chunk on its own: a chunk object sent twice is two chunks."""
    return [copy.deepcopy(chunk) for chunk in stream]


def _each_chunk(change: Callable[[JSONObject], None]) -> Callable[[list[JSON]], list[JSON]]:
    """The undo applying `change` to a copy of every chunk object (others kept)."""

    def undo(stream: list[JSON]) -> list[JSON]:
        undone = _copied(stream)
        for chunk in undone:
            if isinstance(chunk, dict):
                change(chunk)
        return undone

    return undo


def _drop_blank_entries(chunk: JSONObject) -> None:
    if isinstance(chunk.get("candidates"), list):
        chunk["candidates"] = [e for e in chunk["candidates"] if isinstance(e, dict)]
    for parts in _part_lists(chunk):
        parts[:] = [part for part in parts if isinstance(part, dict)]


def _drop_null_parts(chunk: JSONObject) -> None:
    for parts in _part_lists(chunk):
        parts[:] = [p for p in parts if not _carries_nothing(p)]


def _carries_nothing(part: JSON) -> bool:
    """GM-PART-OTHER: an object part whose every value is null (`{}` included)."""
    return isinstance(part, dict) and all(value is None for value in part.values())


def _drop_empty_texts(chunk: JSONObject) -> None:
    for parts in _part_lists(chunk):
        parts[:] = [part for part in parts if not _empty_text(part)]


def _empty_text(part: JSON) -> bool:
    """GM-TEXT-EMPTY: a plain text part of `""` without a signature."""
    if not isinstance(part, dict) or part.get("text") != "":
        return False
    return set(part) <= {"text", "thought"}


def _index_zero(chunk: JSONObject) -> None:
    for _, entry in entries([chunk]):
        entry.setdefault("index", 0)


def _call_args(chunk: JSONObject) -> None:
    for parts in _part_lists(chunk):
        for part in parts:
            call = part.get("functionCall") if isinstance(part, dict) else None
            if isinstance(call, dict) and _whole_without_args(call):
                call["args"] = {}


def _whole_without_args(call: JSONObject) -> bool:
    """A named call sent whole (no streamed fragment) and without `args` (GM-CALL-WHOLE: a
    call without arguments may have none; the canonical comparison reads `{}` alike)."""
    name = call.get("name")
    named = non_blank(name) is not None
    return named and not is_streamed(call) and "args" not in call


def _error_object(chunk: JSONObject) -> None:
    """An error chunk's `error` that is not an object sent as the Status object Google
    documents (`{code, message, status}`, its message the string sent, if any)."""
    error = chunk.get("error")
    if "error" in chunk and error is not None and not isinstance(error, dict):
        message = error if isinstance(error, str) else ""
        chunk["error"] = {"code": 500, "message": message, "status": "INTERNAL"}


def _last_usage_only(stream: list[JSON]) -> list[JSON]:
    carrying = [
        number
        for number, chunk in enumerate(stream)
        if isinstance(chunk, dict) and isinstance(chunk.get("usageMetadata"), dict)
    ]
    undone = _copied(stream)
    for number in carrying[:-1]:
        chunk = undone[number]
        assert isinstance(chunk, dict)
        del chunk["usageMetadata"]
    return undone


_DEPARTURES: tuple[tuple[str, Callable[[list[JSON]], list[JSON]]], ...] = (
    ("GM-ROB-NULL-ENTRIES", _each_chunk(_drop_blank_entries)),
    ("GM-PART-OTHER", _each_chunk(_drop_null_parts)),
    ("GM-TEXT-EMPTY", _each_chunk(_drop_empty_texts)),
    ("GM-CAND-INDEX", _each_chunk(_index_zero)),
    ("GM-USAGE-LAST", _last_usage_only),
    ("GM-CALL-WHOLE", _each_chunk(_call_args)),
    ("GM-LIFE-ERROR", _each_chunk(_error_object)),
)


# nothing folded yet (None) is alike only another stream of nothing
_reference_fold = folded_or_none(fold, NoResponseError)


_CRASH_ONLY = frozenset({"GM-CALL-WHOLE"})
"""Departures whose rule also decides the plain shape (every whole call, not only one
without `args`): a difference their undoing leaves in place may still be that rule's, so
they are not probed for differences, which would clear the rule
(`refold.verdicts.difference_ablation`); a crash their undoing makes go away is still
charged to them."""


_UNDOING = Undoing(
    departures=_DEPARTURES,
    fold=_reference_fold,
    differences=differences,
    rules_at=lambda pointer: frozenset(),  # an undo must leave the fold unchanged everywhere
    crash_only=_CRASH_ONLY,
)


def applicable_undos(stream: list[JSON]) -> list[tuple[str, list[JSON]]]:
    """(rule, undone stream) per departure present that the reference folds identically."""
    return _UNDOING.applicable_undos(stream)


def departures_alone(stream: list[JSON]) -> list[tuple[str, list[JSON]]]:
    """(rule, stream departing by that one alone), after ("", every departure undone)."""
    return _UNDOING.departures_alone(stream)


def difference_undos(stream: list[JSON], claimed: frozenset[str]) -> list[Probe]:
    """(rule, the rules deciding how its departure folds: its own, undone stream) per
    departure present in `stream` that the reference folds identically but
    `_CRASH_ONLY`'s, then the probes that take one kind of part or candidate out of the
    way (`_part_probes`)."""
    return _UNDOING.difference_probes(stream) + kind_probes(stream, claimed)


ABLATION = Ablation(applicable_undos, departures_alone, difference_undos)
"""How a crash and a difference are charged to a rule here (`Dialect.ablation`)."""
