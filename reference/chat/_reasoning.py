"""Reasoning details of one choice (OpenRouter `delta.reasoning_details`).

    RD-MERGE      reasoning.text / reasoning.summary fragments merge per (type, index),
                  their `text` / `summary` concatenated
    RD-FIELDS     every other string field keeps its last non-blank value
    RD-INDEXLESS  an index-less fragment joins the open index-less segment of its type;
                  a signature closes that segment
    RD-AS-SENT    encrypted and unknown types: one output segment per fragment, verbatim
    RD-ORDER      segments in order of first appearance, `index` kept when it arrived

The spec is silent on non-string fields other than `index`; a merged segment keeps their
last non-null value, as it keeps the last non-blank string.
"""

from __future__ import annotations

from .._json import JSON, JSONObject, copy_json, non_blank, non_negative_int

__all__ = ["ReasoningDetails"]

_JOINED_FIELD = {"reasoning.text": "text", "reasoning.summary": "summary"}
"""The merged segment types and the field each concatenates (RD-MERGE)."""


class _Merged:
    """A reasoning.text or reasoning.summary segment built from fragments."""

    __slots__ = ("closed", "fields", "index", "joined", "parts", "type")

    def __init__(self, kind: str, index: int | None) -> None:
        self.type = kind
        self.index = index
        self.joined = _JOINED_FIELD[kind]
        self.parts: list[str] | None = None
        self.fields: JSONObject = {}
        self.closed = False

    def merge(self, entry: JSONObject) -> None:
        for key, value in entry.items():
            if key == self.joined:
                if isinstance(value, str):
                    if self.parts is None:
                        self.parts = []
                    self.parts.append(value)
            elif key in ("type", "index"):
                continue
            elif isinstance(value, str):
                if non_blank(value) is not None:
                    self.fields[key] = value  # RD-FIELDS
            elif value is not None:
                self.fields[key] = value
        if self.index is None and non_blank(entry.get("signature")) is not None:
            self.closed = True  # RD-INDEXLESS

    def output(self) -> JSONObject:
        segment: JSONObject = {"type": self.type, **copy_json(self.fields)}
        if self.parts is not None:
            segment[self.joined] = "".join(self.parts)
        if self.index is not None:
            segment["index"] = self.index  # RD-ORDER
        return segment


class ReasoningDetails:
    """Every reasoning-details segment of one choice, in order of first appearance."""

    __slots__ = ("_indexed", "_open", "_segments")

    def __init__(self) -> None:
        self._segments: list[_Merged | JSONObject] = []
        self._indexed: dict[tuple[str, int], _Merged] = {}
        self._open: dict[str, _Merged] = {}

    def add(self, entries: JSON) -> None:
        """Fold one `delta.reasoning_details` value; non-object entries are skipped."""
        if not isinstance(entries, list):
            return  # ROB-WRONG-TYPE
        for entry in entries:
            if isinstance(entry, dict):  # ROB-NULL-ENTRIES
                self._add_segment(entry)

    def _add_segment(self, entry: JSONObject) -> None:
        kind = non_blank(entry.get("type"))
        if kind is None or kind not in _JOINED_FIELD:
            self._segments.append(entry)  # RD-AS-SENT
            return
        index = non_negative_int(entry.get("index"))
        segment = self._indexed.get((kind, index)) if index is not None else self._open.get(kind)
        if segment is None or segment.closed:
            segment = _Merged(kind, index)
            self._segments.append(segment)
            if index is None:
                self._open[kind] = segment
            else:
                self._indexed[(kind, index)] = segment
        segment.merge(entry)

    def output(self) -> list[JSONObject]:
        """The segments in order of first appearance (RD-ORDER)."""
        return [
            segment.output() if isinstance(segment, _Merged) else copy_json(segment)
            for segment in self._segments
        ]
