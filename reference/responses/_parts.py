"""Content parts and summary parts: text, refusal, reasoning text, annotations.

A part is keyed by its index in its list (`content_index`, `summary_index`; RS-CONTENT-
INDEX), and each text-bearing part type has the one text key its deltas join into
(RS-TEXT-JOIN, RS-REFUSAL, RS-REASONING-TEXT, RS-REASONING-SUMMARY). Text is a list of
fragments joined on read, so folding one character per event is linear in the stream. A
`.done` event is the provider's final word for what it covers (RS-DONE-REPLACES): it sets
that value, and the deltas after it change nothing.
"""

from __future__ import annotations

from .._joined import Joined
from .._json import JSON, JSONObject, copy_json, non_blank, non_negative_int, object_or_none

__all__ = ["TEXT_KEYS", "Parts"]

TEXT_KEYS: dict[str | None, str] = {
    "output_text": "text",  # RS-TEXT-JOIN
    "refusal": "refusal",  # RS-REFUSAL: a refusal part has its own key
    "reasoning_text": "text",  # RS-REASONING-TEXT
    "summary_text": "text",  # RS-REASONING-SUMMARY
}
"""The part types deltas are defined for, and the key their deltas join into."""

_PLACEHOLDERS: dict[str, JSONObject] = {
    "output_text": {"type": "output_text", "text": "", "annotations": []},
    "refusal": {"type": "refusal", "refusal": ""},
    "reasoning_text": {"type": "reasoning_text", "text": ""},
    "summary_text": {"type": "summary_text", "text": ""},
}
"""RS-RECOVER-FROM-DELTAS: the part a delta opens at an index no part.added opened."""


class _Part:
    """One part: its fields as sent, its joined text, its annotations."""

    __slots__ = ("_annotations", "_closed", "_fields", "_text", "_text_closed")

    def __init__(self, fields: JSONObject) -> None:
        self._fields = fields  # every key of the part as sent (RS-UNKNOWN-KEYS: kept)
        self._text = _text(fields)  # the text key and its joined text
        self._annotations = _annotations(fields)
        self._text_closed = self._closed = False

    @property
    def type(self) -> str | None:
        """The part's `type`, None when blank."""
        return non_blank(self._fields.get("type"))

    def reopen(self, fields: JSONObject) -> None:
        """A second part.added at this index (or one after a placeholder): its fields take
        over, what was streamed for a part of its type is kept, and what is still empty is
        filled (as RS-READD); a part of a type no delta is defined for is kept as sent, and
        text streamed as another type is not carried over (RS-KIND-MATCH, RS-REFUSAL:
        refusal text never enters an output_text part, nor output text a refusal)."""
        kept, same = self._text, self.type == non_blank(fields.get("type"))
        self._fields = fields
        self._text = _text(fields)
        streamed = kept is not None and (not kept[1].empty or self._text_closed)
        if same and streamed and kept is not None and self._text is not None:
            self._text = (self._text[0], kept[1])  # the text streamed (or done) is kept
        if not same or not self._annotations:
            self._annotations = _annotations(fields) or (self._annotations if same else None)

    def append(self, fragment: JSON) -> None:
        """Join one delta (RS-TEXT-JOIN), unless a .done already set the text."""
        if self._text is not None and not self._text_closed:
            self._text[1].append(fragment)

    def set_text(self, value: JSON) -> None:
        """RS-DONE-REPLACES: a text/refusal .done sets the text; a non-string is absent."""
        key = TEXT_KEYS.get(self.type)
        if isinstance(value, str) and key is not None:
            self._text = (key, Joined(value))
            self._text_closed = True

    def annotate(self, position: JSON, annotation: JSON) -> None:
        """RS-ANNOTATIONS: put `annotation` at `position`, appended past the end."""
        found = object_or_none(annotation)
        if found is None or self._closed:
            return  # RS-WRONG-TYPE; RS-DONE-REPLACES: the done part is the final word
        annotations = self._annotations = [] if self._annotations is None else self._annotations
        index = non_negative_int(position)
        if index is not None and index < len(annotations):
            annotations[index] = found  # RS-CONTENT-INDEX: keyed by annotation_index
        else:
            annotations.append(found)  # RS-CONTENT-INDEX: past the end (or absent): appended

    def replace(self, fields: JSONObject) -> None:
        """RS-DONE-REPLACES: content_part.done / summary_part.done replaces the part."""
        self._fields = fields
        self._text = self._annotations = None  # exactly as the done part has them
        self._text_closed = self._closed = True

    @property
    def text(self) -> str | None:
        """The part's joined text (its `text` or `refusal`), None for a part without."""
        # the events suites test it, not the Responses suites: no mutants here
        return None if self._text is None else self._text[1].text  # pragma: no mutate

    def output(self) -> JSONObject:
        """The part as the non-streamed Response holds it, as a new value."""
        part: JSONObject = {key: copy_json(value) for key, value in self._fields.items()}
        if self._text is not None:
            key, joined = self._text
            part[key] = joined.text
        if self._annotations is not None:
            part["annotations"] = copy_json(self._annotations)
        return part


def _text(fields: JSONObject) -> tuple[str, Joined] | None:
    """The key a part's deltas join into and its text so far (the part's value there), or
    None for a part of a type no delta is defined for: it is kept exactly as sent."""
    key = TEXT_KEYS.get(non_blank(fields.get("type")))
    return None if key is None else (key, Joined(fields.get(key)))


def _annotations(fields: JSONObject) -> list[JSON] | None:
    annotations = fields.get("annotations")
    return list(annotations) if isinstance(annotations, list) else None


class Parts:
    """One list of parts (an item's `content` or a reasoning item's `summary`), by index."""

    __slots__ = ("_parts",)

    def __init__(self) -> None:
        self._parts: dict[int, _Part] = {}

    def __bool__(self) -> bool:
        return bool(self._parts)

    def seed(self, parts: JSON) -> None:
        """The parts an announced item already holds, at indexes 0..n-1, where no part is."""
        if isinstance(parts, list):
            for index, fields in enumerate(parts):
                if isinstance(fields, dict) and index not in self._parts:
                    self._parts[index] = _Part(fields)

    def opened(self, position: JSON, fields: JSON) -> None:
        """part.added: open the part at `position`, or reopen the one there."""
        index, found = non_negative_int(position), object_or_none(fields)
        if index is None or found is None:
            return  # RS-WRONG-TYPE: nothing to place
        part = self._parts.get(index)
        if part is None:
            self._parts[index] = _Part(found)
        else:
            part.reopen(found)

    def done(self, position: JSON, fields: JSON) -> None:
        """part.done: replace the part at `position` (RS-DONE-REPLACES)."""
        index, found = non_negative_int(position), object_or_none(fields)
        if index is None or found is None:
            return  # RS-WRONG-TYPE
        part = self._parts.setdefault(index, _Part(found))
        part.replace(found)

    def at(self, position: int) -> _Part | None:
        """The part at `position`, or None (nothing opened)."""
        return self._parts.get(position)  # pragma: no mutate (the events suites test it)

    def part(self, position: JSON, part_type: str) -> _Part | None:
        """The part at `position` a `part_type` event applies to: opened as a placeholder
        when there is none (RS-RECOVER-FROM-DELTAS), None when the part there is of
        another type (RS-KIND-MATCH, RS-REFUSAL) or the index is not one (RS-WRONG-TYPE)."""
        index = non_negative_int(position)
        if index is None:
            return None
        part = self._parts.get(index)
        if part is None:
            part = self._parts[index] = _Part(_PLACEHOLDERS[part_type])
        return part if part.type == part_type else None

    def output(self) -> list[JSONObject]:
        """The parts by ascending index, gaps closed up."""
        return [self._parts[index].output() for index in sorted(self._parts)]
