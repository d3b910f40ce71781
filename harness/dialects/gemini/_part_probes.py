"""Probes that take one kind of part, or candidate, out of a Gemini stream's way.

A difference under `…/content/parts/m` is owned by every rule that decides which part a
slot holds (GM-TEXT-JOIN to GM-PART-OTHER): a target that drops `fileData` parts joins
the text around them, and differs at a text pointer as a target that joins text wrongly
does. Which kind of part the difference needs is found out as for the other departures
(`refold.verdicts.difference_ablation`): the stream is changed so that one kind is no
longer there, by a change the reference folds identically except at pointers that kind's
rule owns, and the target folds the changed stream again. A difference that goes away
needs that kind, and is charged to its rule.

    GM-INLINE, GM-CODE, GM-PART-OTHER  each part of the kind becomes a *stand-in*: a part
        of another kind the target claims, kept as sent, with the part's signature, so
        the slot stays where it was and only the kind changes
    GM-SIGNATURE       every `thoughtSignature` removed
    GM-CALL-STREAMED   every streamed call sent whole: `willContinue` and `partialArgs`
        removed, the `args` the reference assembles put on its opening, nameless
        continuing fragments dropped (its pieces are also GM-CALL-PARTIAL-ARGS's when it
        has any)
    GM-CAND-ORDER      only the entries of candidate 0 kept (with GM-CAND-INDEX: which
        candidate an entry belongs to)

A stand-in's kind is one the target claims (its feature) and the replaced kind is not, so
a target failing on every part but text is not cleared by a stand-in it also fails on:
the first of code execution results, inline data and a whole function call that fits.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator

from refold.reference import JSON, JSONObject, RefoldError, non_blank
from refold.reference.gemini import NoResponseError, differences, fold
from refold.verdicts.undoing import Probe, Undoing, folded_or_none

from ._chunks import entries, index_of, is_plain_text, is_streamed, parts_of
from .attribution import rules_at

__all__ = ["kind_probes"]


_MEDIA = frozenset({"inlineData", "fileData"})
_CODE = frozenset({"executableCode", "codeExecutionResult"})

_STAND_INS: tuple[tuple[str, str, JSONObject], ...] = (
    (
        "code_execution",
        "GM-CODE",
        {"executableCode": {"language": "PYTHON", "code": "print('refold stand-in')\n"}},
    ),
    ("media", "GM-INLINE", {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}),
    ("tool_calls", "GM-CALL-WHOLE", {"functionCall": {"name": "refold_stand_in", "args": {}}}),
)
"""(feature, rule, part) of the kinds a part may be swapped for, in order of preference:
each is kept whole, as sent, and never joins a neighbour; each as a provider sends one
(code with its language, a PNG; not a code result, which a client may pair with
the code before it), so a target reads it as it reads a real one."""


def _is_stand_in(part: JSONObject) -> bool:
    """Whether `part` is a stand-in an earlier probe put there (a walk goes on from a
    changed stream): it is no part of the target's stream, so no probe swaps it again."""
    unsigned = {key: value for key, value in part.items() if key != "thoughtSignature"}
    return any(unsigned == stand_in for _, _, stand_in in _STAND_INS)


def _kind(part: JSONObject) -> str | None:
    """The rule of a part's kind among those a stand-in replaces; None for the others
    (text, calls, parts that carry nothing)."""
    if all(value is None for value in part.values()) or "functionCall" in part:
        return None
    if _is_stand_in(part):
        return None
    if is_plain_text(part):
        return None
    if part.keys() & _MEDIA:
        return "GM-INLINE"
    if part.keys() & _CODE:
        return "GM-CODE"
    return "GM-PART-OTHER"


def _every_part(stream: list[JSON]) -> Iterator[tuple[list[JSON], int, JSONObject]]:
    """(parts list, position, part) for every part object of every entry, in order."""
    for _, entry in entries(stream):
        parts = parts_of(entry)
        for position, part in enumerate(parts):
            if isinstance(part, dict):
                yield parts, position, part


def _stand_in(kind: str, claimed: frozenset[str]) -> tuple[str, JSONObject] | None:
    return next(
        ((rule, part) for feature, rule, part in _STAND_INS if feature in claimed and rule != kind),
        None,
    )


def _swapped(stream: list[JSON], kind: str, stand_in: JSONObject) -> list[JSON]:
    """`stream` with every part of `kind` replaced by `stand_in` (keeping its signature)."""
    undone = copy.deepcopy(stream)
    for parts, position, part in _every_part(undone):
        if _kind(part) == kind:
            signature = {k: v for k, v in part.items() if k == "thoughtSignature"}
            parts[position] = {**copy.deepcopy(stand_in), **signature}
    return undone


def _unsigned(stream: list[JSON]) -> list[JSON]:
    undone = copy.deepcopy(stream)
    for _, _, part in _every_part(undone):
        part.pop("thoughtSignature", None)
    return undone


def _signature_decides(stream: list[JSON]) -> frozenset[str]:
    """GM-SIGNATURE, and GM-TEXT-JOIN when a signature closes a run the next fragment of a
    candidate would otherwise join ("joins … a text run of the same kind that has no
    signature yet"): a signed fragment with text, then a plain one of the same kind."""
    runs: dict[int, tuple[bool, bool, bool]] = {}  # candidate → (thought, signed, has text)
    for _, entry in entries(stream):
        index = index_of(entry)
        for part in parts_of(entry):
            if not isinstance(part, dict) or all(value is None for value in part.values()):
                continue  # skipped by the fold: ends no run
            if not is_plain_text(part):
                runs.pop(index, None)
                continue
            text = part.get("text")
            signed = "thoughtSignature" in part
            if text == "" and not signed:
                continue  # GM-TEXT-EMPTY: changes no run
            thought = part.get("thought") is True
            run = runs.get(index)
            if run is not None and run[0] == thought and not run[1]:
                runs[index] = (thought, signed, run[2] or text != "")  # joins the run
            elif run == (thought, True, True):
                return frozenset({"GM-SIGNATURE", "GM-TEXT-JOIN"})  # unsigned, it would join
            else:
                runs[index] = (thought, signed, text != "")
    return frozenset({"GM-SIGNATURE"})


def _nameless(call: JSON) -> bool:
    name = call.get("name") if isinstance(call, dict) else None
    return non_blank(name) is None


def _folded_args(stream: list[JSON]) -> dict[int, list[JSON]]:
    """Per candidate index, the `args` of each call the reference folds, in order (none
    when it refuses the stream)."""
    try:
        folded = fold(copy.deepcopy(stream))
    except RefoldError:
        return {}
    found: dict[int, list[JSON]] = {}
    listed = folded.get("candidates")
    for candidate in listed if isinstance(listed, list) else []:
        if isinstance(candidate, dict):
            found[index_of(candidate)] = [
                part["functionCall"].get("args", {})
                for part in parts_of(candidate)
                if isinstance(part, dict) and isinstance(part.get("functionCall"), dict)
            ]
    return found


def _sent_whole(stream: list[JSON]) -> list[JSON]:
    """Every streamed call sent whole, as GM-CALL-WHOLE's calls are: its opening without
    the streaming keys and with the `args` the reference assembles for it (a whole call
    carries them), and no nameless fragment (a stream without a streamed call is returned
    as it was)."""
    calls = [part.get("functionCall") for _, _, part in _every_part(stream)]
    if not any(is_streamed(call) for call in calls):
        return stream
    assembled = _folded_args(stream)
    named: dict[int, int] = {}  # candidate index -> calls opened so far
    undone = copy.deepcopy(stream)
    for _, entry in entries(undone):
        candidate = index_of(entry)
        parts = parts_of(entry)
        parts[:] = [
            part
            for part in parts
            if not (isinstance(part, dict) and "functionCall" in part)
            or not _nameless(part["functionCall"])
        ]
        for part in parts:
            call = part.get("functionCall") if isinstance(part, dict) else None
            if isinstance(call, dict):
                nth = named[candidate] = named.get(candidate, -1) + 1
                args = assembled.get(candidate, [])
                if is_streamed(call) and "args" not in call:
                    call["args"] = copy.deepcopy(args[nth]) if nth < len(args) else {}
                call.pop("willContinue", None)
                call.pop("partialArgs", None)
    return undone


def _has_pieces(stream: list[JSON]) -> bool:
    return any(
        isinstance(call := part.get("functionCall"), dict)
        and isinstance(call.get("partialArgs"), list)
        for _, _, part in _every_part(stream)
    )


def _candidate_zero_only(stream: list[JSON]) -> list[JSON]:
    """Every candidate entry but those of candidate 0 removed (GM-CAND-INDEX: an absent
    or unreadable `index` is 0)."""
    undone = copy.deepcopy(stream)
    for chunk in undone:
        listed = chunk.get("candidates") if isinstance(chunk, dict) else None
        if isinstance(listed, list):
            listed[:] = [e for e in listed if not isinstance(e, dict) or index_of(e) == 0]
    return undone


_reference_fold = folded_or_none(fold, NoResponseError)


_OWNED = Undoing(departures=(), fold=_reference_fold, differences=differences, rules_at=rules_at)
"""Only its `folds_alike`: a probe is trusted where the reference's fold changes only at
pointers the rules it names own."""


def kind_probes(stream: list[JSON], claimed: frozenset[str]) -> list[Probe]:
    """(rule, the rules charged when the difference needs it, changed stream) for each
    kind of part (and candidate) of `stream` the module docstring names, when the
    reference folds the changed stream identically but at the pointers that rule (and a
    stand-in's) owns."""
    try:
        expected = _reference_fold(stream)
    except RefoldError:
        return []
    found: list[Probe] = []
    for rule, deciding, owned, change in _changes(stream, claimed):
        undone = change(stream)
        if undone != stream and _OWNED.folds_alike(expected, undone, owned):
            found.append((rule, deciding, undone))
    return found


_Change = tuple[str, frozenset[str], frozenset[str], Callable[[list[JSON]], list[JSON]]]


def _changes(stream: list[JSON], claimed: frozenset[str]) -> list[_Change]:
    """(rule, deciding rules, rules whose pointers may change, change) per probe."""
    kinds = {_kind(part) for _, _, part in _every_part(stream)} - {None}
    changes: list[_Change] = []
    for kind in ("GM-INLINE", "GM-CODE", "GM-PART-OTHER"):
        stand_in = _stand_in(kind, claimed) if kind in kinds else None
        if stand_in is not None:
            rule, part = stand_in
            changes.append((kind, frozenset({kind}), frozenset({kind, rule}), _swap(kind, part)))
    pieces = {"GM-CALL-PARTIAL-ARGS"} if _has_pieces(stream) else set()
    streamed = frozenset({"GM-CALL-STREAMED", *pieces})
    changes += [
        ("GM-SIGNATURE", _signature_decides(stream), frozenset({"GM-SIGNATURE"}), _unsigned),
        ("GM-CALL-STREAMED", streamed, frozenset({"GM-CALL-STREAMED"}), _sent_whole),
        (
            "GM-CAND-ORDER",
            frozenset({"GM-CAND-ORDER", "GM-CAND-INDEX"}),
            frozenset({"GM-CAND-ORDER"}),
            _candidate_zero_only,
        ),
    ]
    return changes


def _swap(kind: str, stand_in: JSONObject) -> Callable[[list[JSON]], list[JSON]]:
    return lambda stream: _swapped(stream, kind, stand_in)
