"""How a Gemini fold policy changes the reference fold (`refold.reference.gemini.fold`):
the chunks it reads, each part of a candidate's content before the reference folds it, or
each folded candidate (and its parts) after.

Only what the fold reads is looked at: chunks that are objects, up to the first error
chunk (GM-LIFE-ERROR), their `candidates` entries that are objects, keyed as the fold keys
them (an absent or unreadable index is 0), and the parts of an entry's `content.parts`
list. A chunk that is not an object is left in the stream, for the reference to refuse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from refold.reference import JSON, JSONObject
from refold.reference.gemini import Accumulator, fold

from .._reading import index_of
from ._chunks import is_plain_text

__all__ = [
    "Fold",
    "LastPart",
    "candidates_rewritten",
    "chunks_rewritten",
    "entries_by_candidate",
    "is_answer_run",
    "is_run",
    "parts_rewritten",
    "read_chunks",
]

Fold = Callable[[list[JSON]], JSONObject]
LastPart = Callable[[], JSON]
"""The last part the policy has folded so far for the candidate a part is sent to."""


def is_run(part: JSON) -> bool:
    """A plain text part (`is_plain_text`). Folded, it is a text run; no other folded part
    is one."""
    return is_plain_text(part)


def is_answer_run(part: JSON) -> bool:
    """A plain text part that is not a thought."""
    return is_run(part) and isinstance(part, dict) and part.get("thought") is not True


def read_chunks(chunks: list[JSON]) -> Iterator[JSONObject]:
    """The chunks the fold reads: the objects before the first error chunk."""
    for chunk in chunks:
        if not isinstance(chunk, dict):
            continue  # the reference refuses it, and so the whole stream
        if chunk.get("error") is not None:
            return
        yield chunk


def entries_by_candidate(chunks: list[JSON]) -> dict[int, list[JSONObject]]:
    """Every candidate entry the fold reads, by the candidate it folds into, in order."""
    found: dict[int, list[JSONObject]] = {}
    for chunk in read_chunks(chunks):
        candidates = chunk.get("candidates")
        for entry in candidates if isinstance(candidates, list) else []:
            if isinstance(entry, dict):
                found.setdefault(index_of(entry.get("index")) or 0, []).append(entry)
    return found


def chunks_rewritten(rewrite: Callable[[JSONObject], JSONObject]) -> Fold:
    """The reference fold of the stream with every object chunk rewritten by `rewrite`
    (a chunk after an error chunk too: nothing reads it)."""

    def policy_fold(chunks: list[JSON]) -> JSONObject:
        return fold([rewrite(chunk) if isinstance(chunk, dict) else chunk for chunk in chunks])

    return policy_fold


class _FoldedParts:
    """The parts each candidate holds so far, folded by the reference one at a time (a
    candidate's parts depend on nothing but its parts, in order)."""

    def __init__(self) -> None:
        self._folds: dict[int, Accumulator] = {}

    def add(self, index: int, part: JSON) -> None:
        folded = self._folds.setdefault(index, Accumulator())
        folded.add({"candidates": [{"content": {"parts": [part]}}]})

    def last(self, index: int) -> JSON:
        folded = self._folds.get(index)
        if folded is None:
            return None
        parts = folded.response()["candidates"][0]["content"]["parts"]
        return parts[-1] if parts else None


def parts_rewritten(rewrite: Callable[[JSON, LastPart], JSON | None]) -> Fold:
    """The reference fold of the stream with each part it reads rewritten by `rewrite`,
    given the candidate's last part folded so far (read only when asked); None drops the
    part (as a null part, it would fold to nothing)."""

    def policy_fold(chunks: list[JSON]) -> JSONObject:
        folded = _FoldedParts()

        def entry_rewritten(entry: JSON) -> JSON:
            if not isinstance(entry, dict):
                return entry
            content = entry.get("content")
            parts = content.get("parts") if isinstance(content, dict) else None
            if not isinstance(content, dict) or not isinstance(parts, list):
                return entry
            index = index_of(entry.get("index")) or 0
            kept: list[JSON] = []
            for part in parts:
                new = rewrite(part, lambda: folded.last(index))
                if new is not None:
                    folded.add(index, new)
                    kept.append(new)
            return {**entry, "content": {**content, "parts": kept}}

        rewritten: list[JSON] = []
        for chunk in chunks:
            candidates = chunk.get("candidates") if isinstance(chunk, dict) else None
            if isinstance(chunk, dict) and chunk.get("error") is not None:
                return fold([*rewritten, *chunks[len(rewritten) :]])  # nothing after is read
            if isinstance(chunk, dict) and isinstance(candidates, list):
                chunk = {**chunk, "candidates": [entry_rewritten(e) for e in candidates]}
            rewritten.append(chunk)
        return fold(rewritten)

    return policy_fold


def candidates_rewritten(rewrite: Callable[[JSONObject, list[JSONObject]], None]) -> Fold:
    """The reference fold, each folded candidate then rewritten in place by `rewrite`,
    given the entries the fold read for it."""

    def policy_fold(chunks: list[JSON]) -> JSONObject:
        folded = fold(chunks)
        entries = entries_by_candidate(chunks)
        for candidate in folded.get("candidates", []):
            rewrite(candidate, entries[candidate["index"]])
        return folded

    return policy_fold
