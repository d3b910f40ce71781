"""A candidate's parts: text fragments joined into runs, everything else kept whole.

A *plain text part* has a string `text` and no keys but `text`, `thought` and
`thoughtSignature`. It joins the candidate's previous part when that is a plain text run
of the same kind (thought or answer) that carries no signature yet (GM-TEXT-JOIN,
GM-THOUGHT-APART, GM-SIGNATURE). Function calls, code, media and every other part are
their own parts, as sent (GM-CALL-WHOLE, GM-CODE, GM-INLINE, GM-PART-OTHER), except
Vertex's streamed calls, which fold into one part (GM-CALL-STREAMED).
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from .._json import JSON, JSONObject, copy_json, non_blank, object_or_none
from ._calls import StreamedCall, is_streamed

__all__ = ["Parts"]

_PLAIN_TEXT_KEYS = frozenset({"text", "thought", "thoughtSignature"})


class _Part(Protocol):
    def output(self) -> JSONObject: ...


class _Fragment(NamedTuple):
    text: str
    thought: bool
    signature: str | None


def _fragment(part: JSONObject) -> _Fragment | None:
    """The part as a text fragment, or None when it is not a plain text part."""
    text = part.get("text")
    if not isinstance(text, str) or not part.keys() <= _PLAIN_TEXT_KEYS:
        return None  # GM-PART-OTHER: extra keys may describe the fragment, so kept apart
    signature = non_blank(part.get("thoughtSignature"))  # GM-ROB-WRONG-TYPE: blank is none
    return _Fragment(text, part.get("thought") is True, signature)


class _TextRun:
    """Adjacent plain text fragments of one kind, joined verbatim in linear time."""

    __slots__ = ("_signature", "_texts", "_thought")

    def __init__(self, fragment: _Fragment) -> None:
        self._texts = [fragment.text]
        self._thought = fragment.thought
        self._signature = fragment.signature

    def takes(self, fragment: _Fragment) -> bool:
        """GM-THOUGHT-APART: same kind only; GM-SIGNATURE: a signed run is closed."""
        return self._signature is None and self._thought == fragment.thought

    def join(self, fragment: _Fragment) -> None:
        self._texts.append(fragment.text)  # GM-TEXT-JOIN: verbatim, in arrival order
        self._signature = fragment.signature  # GM-SIGNATURE: onto the run it joins

    def output(self) -> JSONObject:
        part: JSONObject = {"text": "".join(self._texts)}
        if self._thought:
            part["thought"] = True
        if self._signature is not None:
            part["thoughtSignature"] = self._signature
        return part


class _AsSent:
    """A part kept exactly as it arrived (GM-CALL-WHOLE, GM-CODE, GM-INLINE, GM-PART-OTHER)."""

    __slots__ = ("_part",)

    def __init__(self, part: JSONObject) -> None:
        self._part = part

    def output(self) -> JSONObject:
        return copy_json(self._part)  # type: ignore[no-any-return]


class Parts:
    """The parts of one candidate's content, in arrival order."""

    __slots__ = ("_parts", "_streamed")

    def __init__(self) -> None:
        self._parts: list[_Part] = []
        self._streamed: StreamedCall | None = None  # the call nameless fragments continue

    def add(self, part: JSON) -> None:
        """Fold one entry of a chunk's `content.parts`."""
        entry = object_or_none(part)
        if entry is None or all(value is None for value in entry.values()):
            return  # GM-ROB-NULL-ENTRIES, GM-PART-OTHER: a part that carries nothing
        call = object_or_none(entry.get("functionCall"))
        fragment = _fragment(entry)
        if call is not None:
            self._call(entry, call)
        elif fragment is not None:
            self._text(fragment)
        else:
            self._parts.append(_AsSent(entry))  # GM-CODE, GM-INLINE, GM-PART-OTHER

    def _text(self, fragment: _Fragment) -> None:
        last = self._parts[-1] if self._parts else None
        if isinstance(last, _TextRun) and last.takes(fragment):
            last.join(fragment)  # GM-TEXT-JOIN
        elif fragment.text or fragment.signature is not None:
            self._parts.append(_TextRun(fragment))
        # GM-TEXT-EMPTY: "" without a signature, starting no run, carries nothing

    def _call(self, part: JSONObject, call: JSONObject) -> None:
        streamed = self._streamed
        if streamed is not None and streamed.open and non_blank(call.get("name")) is None:
            streamed.extend(part, call)  # GM-CALL-STREAMED: a nameless fragment continues
            return
        # GM-CALL-STREAMED: any other call ends the open one, and may open a new one;
        # GM-CALL-WHOLE, GM-CALL-ID: a call that does not stream is kept as sent
        self._streamed = StreamedCall(part, call) if is_streamed(call) else None
        self._parts.append(self._streamed or _AsSent(part))

    @property
    def open_call(self) -> int | None:
        """The position of the streamed call nameless fragments still continue, or None
        (GM-CALL-STREAMED): every other call part is final."""
        streamed = self._streamed
        if streamed is None or not streamed.open:
            return None
        # the open call is the last call part: any later call would have ended it
        return max(at for at, part in enumerate(self._parts) if part is streamed)

    def output(self) -> list[JSONObject]:
        """The parts as new values."""
        return [part.output() for part in self._parts]
