"""Which owners of a place under a candidate's parts its stream gives nothing to decide.

The pointer table gives a slot of `…/content/parts` to every rule that decides which part
a slot holds, whatever the parts are (gemini-fold.md, "Pointer → rule attribution"). A
rule about a kind of part decides nothing where no part of its kind is: a dropped
`fileData` part is no evidence against function calls, text joining or thought parts. So
(`Dialect.undecided_at`, read where a difference is charged by its pointer):

* at a slot (`…/parts/m`, or the whole `…/parts`), the kind rules of neither the part the
  reference folded there nor the value the target returned there are undecided;
* below a slot (`…/parts/m/text`, `…/thought`, `…/thoughtSignature`, …), the kind rules
  of no part the candidate was sent are.

Which candidate a slot holds (GM-CAND-INDEX, GM-ROB-NULL-ENTRIES) stays decided: that is
the slot, not its kind. A part's kinds and their rules (`kind_rules`):

    plain text (`text`, `thought`, `thoughtSignature` only)  GM-TEXT-JOIN; `""` unsigned
        GM-TEXT-EMPTY; a `thought` key GM-THOUGHT-APART
    any `thoughtSignature`                                   GM-SIGNATURE
    `functionCall`                                           GM-CALL-WHOLE; streamed
        (`willContinue`, `partialArgs` or nameless) GM-CALL-STREAMED instead
    `executableCode`, `codeExecutionResult`                  GM-CODE
    `inlineData`, `fileData`                                 GM-INLINE
    any other (text with other keys too, unknown kinds, parts of nulls)  GM-PART-OTHER,
        and GM-TEXT-JOIN for text with other keys (it ends a run)
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from refold.reference import ABSENT, JSON, JSONObject, RefoldError, non_blank
from refold.reference.gemini import fold

from ._chunks import entries, index_of, is_plain_text, is_streamed, parts_of
from .attribution import rules_at

__all__ = ["KIND_RULES", "kind_rules", "undecided_at"]

_SLOT_RULES = frozenset({"GM-CAND-INDEX", "GM-ROB-NULL-ENTRIES"})
KIND_RULES = rules_at("/candidates/0/content/parts/0") - _SLOT_RULES
"""The owners of a parts slot that decide a kind of part (the others decide the slot)."""

_SLOT = re.compile(r"/candidates/(\d+)/content/parts(/\d+)?")
_BELOW_SLOT = re.compile(r"/candidates/(\d+)/content/parts/\d+/.+")
_UNKNOWN: object = object()
"""No received value given (the ablation asks about a pointer alone)."""


def kind_rules(part: JSON) -> frozenset[str]:
    """The rules that decide how a part of this kind folds (the module docstring's table);
    none for an entry that is not an object (GM-ROB-NULL-ENTRIES decides the slot)."""
    if not isinstance(part, dict):
        return frozenset()
    if all(value is None for value in part.values()):
        return frozenset({"GM-PART-OTHER"})
    found = {"GM-SIGNATURE"} if "thoughtSignature" in part else set()
    text = part.get("text")
    if is_plain_text(part):
        found.add("GM-TEXT-JOIN")
        found |= {"GM-THOUGHT-APART"} if "thought" in part else set()
        found |= {"GM-TEXT-EMPTY"} if text == "" and "thoughtSignature" not in part else set()
        return frozenset(found)
    call = part.get("functionCall")
    if isinstance(call, dict):
        found.add("GM-CALL-STREAMED" if _streamed(call) else "GM-CALL-WHOLE")
    elif part.keys() & {"executableCode", "codeExecutionResult"}:
        found.add("GM-CODE")
    elif part.keys() & {"inlineData", "fileData"}:
        found.add("GM-INLINE")
    else:
        found |= {"GM-PART-OTHER", "GM-TEXT-JOIN"} if "text" in part else {"GM-PART-OTHER"}
    return frozenset(found)


def _streamed(call: JSONObject) -> bool:
    name = call.get("name")
    nameless = non_blank(name) is None
    return nameless or is_streamed(call)


def _decided_by(parts: Iterable[JSON]) -> frozenset[str]:
    return frozenset[str]().union(*(kind_rules(part) for part in parts))


def _sent_to(stream: list[JSON], index: int) -> list[JSON]:
    """Every part of every entry of the candidate `index` names (GM-CAND-INDEX: an
    unreadable index is 0)."""
    return [
        part for _, entry in entries(stream) if index_of(entry) == index for part in parts_of(entry)
    ]


def _folded_candidate(stream: list[JSON], slot: int) -> JSONObject | None:
    """The candidate the reference folded at position `slot` of `candidates`."""
    try:
        listed = fold(stream).get("candidates")
    except RefoldError:
        return None
    found = listed[slot] if isinstance(listed, list) and slot < len(listed) else None
    return found if isinstance(found, dict) else None


def _folded_at(candidate: JSONObject | None, position: str | None) -> list[JSON]:
    """The reference's parts at the slot (all of the candidate's when `position` is None)."""
    parts = parts_of(candidate) if candidate is not None else []
    if position is None:
        return parts
    at = int(position[1:])
    return parts[at : at + 1]


def _received_parts(received: object, *, whole_list: bool) -> list[JSON]:
    if received is ABSENT:
        return []
    if whole_list:
        return list(received) if isinstance(received, list) else []
    return [received]


def undecided_at(stream: list[JSON], pointer: str, received: object = _UNKNOWN) -> frozenset[str]:
    """The kind rules owning `pointer` that decide nothing there (the module docstring)."""
    slot = _SLOT.fullmatch(pointer)
    below = _BELOW_SLOT.fullmatch(pointer)
    if slot is None and below is None:
        return frozenset()
    matched = slot or below
    assert matched is not None
    position = int(matched[1])
    candidate = _folded_candidate(stream, position)
    if slot is not None and received is not _UNKNOWN:
        there = _folded_at(candidate, slot[2])
        there += _received_parts(received, whole_list=slot[2] is None)
        return KIND_RULES - _decided_by(there)
    index = candidate.get("index", position) if candidate is not None else position
    return KIND_RULES - _decided_by(_sent_to(stream, index if isinstance(index, int) else 0))
