"""Corpus cases: one JSON file per captured stream, replayed against any target.

A case file (`refold-case/1`) is what `refold capture` writes and what `refold check
--corpus DIR` (`pytest --corpus DIR`) and `refold serve --corpus DIR` read:

    {"format": "refold-case/1", "name", "dialect",
     "items": [...],              the stream's chunks or events, as the fold is given them
     "parts": ["..."] | null,     the SSE text in the pieces it arrived in, when known
     "outcome": "folds" | "raises",
     "expected": {...} | null,    the reference fold ("folds"); null when it raises
     "refusal": "..." | null,     the reference's error ("raises")
     "provenance": {"source", "captured", "sha256", "pieces", ...},
     "question": {...}            only when a stated expectation disagreed (see below)}

The expectation is the reference fold of `items`, unless the user stated one that the
reference agrees with (`refold capture --expect`). A stated one it disagrees with is not
kept: the case holds the reference's, and `question` records the stated value and each
difference (JSON pointer, both values, the rules deciding the place), to be settled in
the contract, not in the case.

A case is data from elsewhere: reading one checks its shape and its dialect, and never
runs or imports anything. Everything in it went through the one scrubber on the way in.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from refold.reference import JSON, JSONObject, cut_text

from ..dialects import DIALECTS, Dialect
from ..errors import UsageError
from ..records.bounded import json_document, read_regular_file

__all__ = [
    "CASE_FORMAT",
    "CORPUS_DIALECTS",
    "Case",
    "case_rules",
    "load_corpus",
    "read_case",
    "reference_outcome",
]

CASE_FORMAT = "refold-case/1"
CORPUS_DIALECTS = tuple(name for name, one in DIALECTS.items() if one.sniff is not None)
"""The dialects a capture can be of: provider streams, each telling its items by `sniff`
(an events adapter's input is one of them, so it has no captures of its own)."""
_MAX_CASE_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Case:
    """One recorded stream and what the reference folds it to."""

    name: str
    dialect: Dialect
    items: list[JSON]
    parts: list[str] | None
    outcome: str
    expected: JSONObject | None
    refusal: str | None
    provenance: dict[str, Any]
    question: dict[str, Any] | None = None
    path: Path | None = None

    @property
    def wire(self) -> list[bytes]:
        """The byte pieces to serve: the recorded ones, else the items framed as the
        dialect's server frames them (one frame per item)."""
        if self.parts is not None:
            return [part.encode("utf-8") for part in self.parts]
        return [frame.encode("utf-8") for frame in frames(self.dialect, self.items)]

    def document(self) -> dict[str, Any]:
        """The case file's content."""
        content: dict[str, Any] = {
            "format": CASE_FORMAT,
            "name": self.name,
            "dialect": self.dialect.name,
            "items": self.items,
            "parts": self.parts,
            "outcome": self.outcome,
            "expected": self.expected,
            "refusal": self.refusal,
            "provenance": self.provenance,
        }
        if self.question is not None:
            content["question"] = self.question
        return content


def frames(dialect: Dialect, items: list[JSON]) -> list[str]:
    """SSE frames of `items` as the dialect's API sends them: bare `data:` lines ended by
    the dialect's end sentinel (chat's `[DONE]`), or, for a dialect whose frames are named
    (`Dialect.named_frames`: Anthropic, Responses), an `event:` line naming each item's type."""
    if not dialect.named_frames:
        sentinel = getattr(dialect.shapes, "end_sentinel", None)
        end = [f"data: {sentinel}\n\n"] if isinstance(sentinel, str) else []
        return [f"data: {json.dumps(item, ensure_ascii=False)}\n\n" for item in items] + end
    found = []
    for item in items:
        kind = item.get("type") if isinstance(item, dict) else None
        head = f"event: {kind}\n" if isinstance(kind, str) and "\n" not in kind else ""
        found.append(f"{head}data: {json.dumps(item, ensure_ascii=False)}\n\n")
    return found


def reference_outcome(
    dialect: Dialect, items: list[JSON]
) -> tuple[str, JSONObject | None, str | None]:
    """("folds", the reference fold, None) or ("raises", None, the reference's error)."""
    try:
        return "folds", dialect.fold(items), None
    except Exception as exc:  # the reference refuses the stream: that is its outcome
        return "raises", None, f"{type(exc).__name__}: {exc}"


def _pointers(value: JSON, at: str = "") -> Iterator[str]:
    """The pointers of the places `value` holds something at (not null, "", [] or {}: an
    empty place is no evidence that the stream exercises the rules deciding it)."""
    if value is None or value in ("", [], {}):
        return
    yield at
    if isinstance(value, dict):
        for key, inner in value.items():
            escaped = str(key).replace("~", "~0").replace("/", "~1")
            yield from _pointers(inner, f"{at}/{escaped}")
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _pointers(inner, f"{at}/{index}")


def case_rules(case: Case) -> tuple[str, ...]:
    """The rules a case is a test of: those deciding a place its expectation has (less
    the departure rules its stream gives no evidence about); for a refused stream, the
    rule the reference's refusal names."""
    registry = case.dialect.rules
    if case.outcome == "raises":
        named = (case.refusal or "").partition(": ")[2].partition(":")[0].strip()
        return (named,) if named in registry else (next(iter(registry)),)
    found: set[str] = set()
    for pointer in _pointers(case.expected):
        found |= case.dialect.rules_at(pointer)
    absent = case.dialect.absent_departures
    if absent is not None:
        found -= absent(case.items)
    ordered = tuple(r for r in registry if r in found)
    return ordered or tuple(sorted(case.dialect.rules_at("")))


def read_case(path: Path) -> Case:
    """Read and check one case file.

    Raises:
        UsageError: not readable, not JSON, not a `refold-case/1` object, or a key of the
            wrong shape; the message names the file and the key.
    """
    data = read_regular_file(path, limit=_MAX_CASE_BYTES, what="case file")
    content = json_document(
        data,
        where=f"case file {path}",
        expected=f"a {CASE_FORMAT} object as `refold capture` writes",
    )
    if not isinstance(content, dict) or content.get("format") != CASE_FORMAT:
        raise UsageError(
            f"{path} is not a refold case file: expected an object with "
            f'"format": "{CASE_FORMAT}" (refold capture writes them)'
        )
    case = _case_of(path, content)
    _check_expectation(case)
    return case


def _check_expectation(case: Case) -> None:
    """Refuse a case whose recorded outcome the reference does not reproduce, unless the
    disagreement is recorded as a question about the contract: an `expected` edited to
    garbage would otherwise make a garbage target pass and the reference fail."""
    outcome, expected, _ = reference_outcome(case.dialect, case.items)
    if outcome == case.outcome and (
        outcome == "raises" or not case.dialect.differences(expected, case.expected)
    ):
        return
    question = case.question
    if question is not None and _json_same(question.get("stated"), case.expected):
        return
    found = (
        "the reference refuses the stream"
        if outcome == "raises"
        else f"the reference folds it to {cut_text(json.dumps(expected), 160)}"
    )
    raise UsageError(
        f"case file {case.path}: it records outcome {case.outcome!r}"
        f"{' and an expected result' if case.outcome == 'folds' else ''} that "
        f"the reference does not reproduce ({found}); expected the case as "
        f"`refold capture` wrote it, or a `question` recording the stated result "
        f"as a question about the contract (`refold capture --expect`)"
    )


def _json_same(left: Any, right: Any) -> bool:
    return json.dumps(left, sort_keys=True) == json.dumps(right, sort_keys=True)


def _need(path: Path, content: dict[str, Any], key: str, kinds: Any, what: str) -> Any:
    value = content.get(key)
    if not isinstance(value, kinds):
        raise UsageError(
            f"case file {path}: `{key}` is {cut_text(json.dumps(value), 120)}, expected {what}"
        )
    return value


def _case_of(path: Path, content: dict[str, Any]) -> Case:
    name = _need(path, content, "dialect", str, f"one of {', '.join(CORPUS_DIALECTS)}")
    if name not in CORPUS_DIALECTS:
        raise UsageError(
            f"case file {path}: `dialect` is {cut_text(repr(name), 80)}, "
            f"expected one of {', '.join(CORPUS_DIALECTS)}"
        )
    items = _need(path, content, "items", list, "the list of the stream's items")
    parts = content.get("parts")
    if parts is not None and not (
        isinstance(parts, list) and all(isinstance(p, str) for p in parts)
    ):
        raise UsageError(
            f"case file {path}: `parts` must be null or a list of strings "
            f"(the SSE text in the pieces it arrived in)"
        )
    outcome = content.get("outcome")
    if outcome not in ("folds", "raises"):
        raise UsageError(
            f"case file {path}: `outcome` is {cut_text(repr(outcome), 80)}, "
            f'expected "folds" or "raises"'
        )
    expected = content.get("expected")
    if outcome == "folds" and not isinstance(expected, dict):
        raise UsageError(
            f'case file {path}: `expected` must be the folded object when `outcome` is "folds"'
        )
    provenance = _need(path, content, "provenance", dict, "an object (source, captured, sha256)")
    stem = content.get("name")
    return Case(
        name=stem if isinstance(stem, str) and stem else path.stem,
        dialect=DIALECTS[name],
        items=items,
        parts=parts,
        outcome=str(outcome),
        expected=expected if outcome == "folds" else None,
        refusal=content.get("refusal") if isinstance(content.get("refusal"), str) else None,
        provenance=provenance,
        question=content.get("question") if isinstance(content.get("question"), dict) else None,
        path=path,
    )


def load_corpus(directory: str | Path) -> list[Case]:
    """Every case file (`*.json`) of a corpus folder and its sub-folders, by path.

    Raises:
        UsageError: the folder does not exist, holds no case file, or one is invalid.
    """
    folder = Path(directory)
    if not folder.is_dir():
        raise UsageError(
            f"--corpus {directory}: no such folder; expected a folder of case "
            f"files written by `refold capture`"
        )
    cases = [read_case(path) for path in sorted(folder.rglob("*.json"))]
    if not cases:
        raise UsageError(
            f"--corpus {directory}: the folder holds no case file (*.json); "
            f"write some with `refold capture FILE --corpus {directory}`"
        )
    return cases
