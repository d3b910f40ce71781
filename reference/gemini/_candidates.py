"""Candidates, keyed by `index`, and what each one accumulates over the chunks.

Each chunk's candidate entry is a snapshot of the candidate *so far*, except `content`,
whose parts are deltas (GM-TEXT-JOIN). So parts are folded by `._parts`, and every other
key takes its last non-null value (GM-CAND-KEYS), with the merges the spec names for
finishReason, safetyRatings, citationMetadata and groundingMetadata.
"""

from __future__ import annotations

from .._json import (
    JSON,
    JSONObject,
    copy_json,
    json_equal,
    non_blank,
    non_negative_int,
    object_or_none,
)
from ._parts import Parts

__all__ = ["Candidates"]

_MERGED = frozenset(
    {"content", "finishReason", "index", "safetyRatings", "citationMetadata", "groundingMetadata"}
)
"""Candidate keys with a rule of their own; the others take their last non-null value."""

_CITATION_LISTS = ("citationSources", "citations")
"""The Gemini API's and Vertex's names of the citation list (GM-CITATIONS)."""


def _last_non_null(into: JSONObject, source: JSONObject, skip: frozenset[str]) -> None:
    for key, value in source.items():
        if key not in skip and value is not None:
            into[key] = value


def _objects(value: JSON) -> list[JSONObject]:
    """The object entries of a list (GM-ROB-NULL-ENTRIES); a non-list holds none."""
    return [entry for entry in value if isinstance(entry, dict)] if isinstance(value, list) else []


class _Content:
    """A candidate's `content`: role (first non-blank), parts, other keys (last non-null)."""

    __slots__ = ("_keys", "_parts", "_role")

    def __init__(self) -> None:
        self._keys: JSONObject = {}
        self._role: str | None = None
        self._parts = Parts()

    def add(self, content: JSONObject) -> None:
        if self._role is None:
            self._role = non_blank(content.get("role"))  # GM-ROLE: the first non-blank
        # GM-UNKNOWN-KEYS: every key kept; `role` and `parts` are written over on output
        _last_non_null(self._keys, content, frozenset())
        parts = content.get("parts")
        for part in parts if isinstance(parts, list) else []:
            self._parts.add(part)

    @property
    def open_call(self) -> int | None:
        return self._parts.open_call

    def output(self) -> JSONObject:
        content: JSONObject = copy_json(self._keys)
        content["role"] = self._role or "model"  # GM-ROLE
        content["parts"] = self._parts.output()
        return content


class _Citations:
    """citationMetadata: lists joined without repeats, other keys last non-null."""

    __slots__ = ("_keys", "_lists")

    def __init__(self) -> None:
        self._keys: JSONObject = {}
        self._lists: dict[str, list[JSONObject]] = {}

    def add(self, metadata: JSONObject) -> None:
        _last_non_null(self._keys, metadata, frozenset(_CITATION_LISTS))
        for key in _CITATION_LISTS:
            kept = self._lists.setdefault(key, [])
            for entry in _objects(metadata.get(key)):
                if not any(json_equal(entry, earlier) for earlier in kept):
                    kept.append(entry)  # GM-CITATIONS: a resent citation is not repeated

    def output(self) -> JSONObject:
        metadata: JSONObject = copy_json(self._keys)
        for key, entries in self._lists.items():
            if entries:
                metadata[key] = copy_json(entries)
        return metadata


class _Candidate:
    """One candidate, as far as the stream got."""

    __slots__ = ("_citations", "_content", "_finish", "_grounding", "_keys", "_safety", "index")

    def __init__(self, index: int) -> None:
        self.index = index
        self._keys: JSONObject = {}
        self._content: _Content | None = None
        self._finish: str | None = None
        self._safety: dict[str | None, JSONObject] = {}
        self._citations: _Citations | None = None
        self._grounding: JSONObject | None = None

    @property
    def finished(self) -> bool:
        return self._finish is not None

    @property
    def open_call(self) -> int | None:
        return None if self._content is None else self._content.open_call

    def add(self, entry: JSONObject) -> None:
        """Fold one chunk's entry for this candidate."""
        _last_non_null(self._keys, entry, _MERGED)  # GM-CAND-KEYS, GM-UNKNOWN-KEYS
        content = object_or_none(entry.get("content"))
        if content is not None:
            self._content = self._content or _Content()
            self._content.add(content)
        self._finish = non_blank(entry.get("finishReason")) or self._finish  # GM-FINISH
        for rating in _objects(entry.get("safetyRatings")):
            self._safety[non_blank(rating.get("category"))] = rating  # GM-SAFETY: in place
        citations = object_or_none(entry.get("citationMetadata"))
        if citations is not None:
            self._citations = self._citations or _Citations()
            self._citations.add(citations)
        grounding = object_or_none(entry.get("groundingMetadata"))
        if grounding is not None:
            self._grounding = self._grounding or {}
            _last_non_null(self._grounding, grounding, frozenset())  # GM-GROUNDING: per key

    def output(self) -> JSONObject:
        candidate: JSONObject = copy_json(self._keys)
        if self._content is not None:
            candidate["content"] = self._content.output()  # GM-ROLE: only when one arrived
        if self._finish is not None:
            candidate["finishReason"] = self._finish
        candidate["index"] = self.index  # GM-CAND-ORDER
        if self._safety:
            candidate["safetyRatings"] = copy_json(list(self._safety.values()))
        if self._citations is not None:
            candidate["citationMetadata"] = self._citations.output()
        if self._grounding is not None:
            candidate["groundingMetadata"] = copy_json(self._grounding)
        return candidate


class Candidates:
    """Every candidate any chunk carried, by index."""

    __slots__ = ("_candidates",)

    def __init__(self) -> None:
        self._candidates: dict[int, _Candidate] = {}

    def add(self, candidates: JSON) -> None:
        """Fold one chunk's `candidates` list."""
        for entry in _objects(candidates):
            index = non_negative_int(entry.get("index")) or 0  # GM-CAND-INDEX: absent is 0
            if index not in self._candidates:
                self._candidates[index] = _Candidate(index)
            self._candidates[index].add(entry)

    @property
    def any(self) -> bool:
        """True once a chunk carried a candidate object (GM-CAND-NONE)."""
        return bool(self._candidates)

    @property
    def finished(self) -> bool:
        """True when there is a candidate and every one has a finishReason."""
        return self.any and all(c.finished for c in self._candidates.values())

    def open_call(self, index: int) -> int | None:
        """The position, in candidate `index`'s parts, of its streamed call still open."""
        candidate = self._candidates.get(index)
        return None if candidate is None else candidate.open_call

    def output(self) -> list[JSONObject]:
        """The candidates by ascending index, gaps closed up (GM-CAND-ORDER)."""
        return [self._candidates[index].output() for index in sorted(self._candidates)]
