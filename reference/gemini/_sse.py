"""The wire layer of the Gemini dialect: response bytes in, chunk objects out.

Two framings carry the same chunks. With `?alt=sse` each SSE event's data is one chunk,
with no event names and no terminal sentinel (GM-WIRE-SSE); it is read with the WHATWG
decoder of `refold.reference.sse`. Without it the body is one JSON array whose elements
are the chunks, streamed as they are produced (GM-WIRE-ARRAY); an error body is a bare
JSON object, handed out as one chunk so that the fold's GM-LIFE-ERROR decides.
"""

from __future__ import annotations

from collections.abc import Iterable
from encodings import utf_8

from .._json import JSON, parse_json
from ..sse import Event, EventStreamDecoder
from ._errors import ChunkDataError

__all__ = ["ArrayStreamDecoder", "SSEStreamDecoder", "decode_array", "decode_sse"]

_JSON_WHITESPACE = " \t\n\r"
_OPENERS = "{["
_CLOSERS = "}]"
_WHERE = {"before": "before the body", "after": "after the body"}
_OUTSIDE_STRING, _IN_STRING, _AFTER_BACKSLASH = 0, 1, 2
_STRING_STEP = {"\\": _AFTER_BACKSLASH, '"': _OUTSIDE_STRING}
"""Inside a string: a backslash escapes the next character, a quote ends the string."""


def _parse(text: str, *, chunk_number: int, pointer: str) -> JSON:
    try:
        return parse_json(text)
    except ValueError as exc:
        raise ChunkDataError(
            text, chunk_number=chunk_number, pointer=pointer, reason=str(exc)
        ) from None


class SSEStreamDecoder:
    """`alt=sse` bytes in, the JSON chunks they complete out, incrementally."""

    def __init__(self) -> None:
        self.events = EventStreamDecoder()
        """The event-stream decoder underneath."""
        self._chunks = 0

    def feed(self, data: bytes) -> list[JSON]:
        """Decode `data` and return the chunks it completed.

        Raises:
            ChunkDataError: an event's data is not JSON.
        """
        return [value for event in self.events.feed(data) for value in self._value(event)]

    def close(self) -> list[JSON]:
        """End of stream: nothing more (an unterminated final event is discarded)."""
        self.events.close()
        return []

    def _value(self, event: Event) -> list[JSON]:
        if not event.data.strip(_JSON_WHITESPACE):
            return []  # GM-WIRE-SSE: a frame without data carries no chunk
        number = self._chunks
        self._chunks += 1
        return [_parse(event.data, chunk_number=number, pointer="")]  # the name is ignored


class ArrayStreamDecoder:
    """JSON-array body bytes in, each element out as soon as it is complete.

    A scanner that tracks strings and nesting only, so each element is parsed once; a
    body cut short leaves its unfinished element unreported (the fold decides what a
    truncated stream means, GM-LIFE-TRUNCATED).
    """

    _depth: int  # open brackets, the body's own included: set when the body opens
    _bare: bool  # the body is one object, not an array: set when the body opens

    def __init__(self) -> None:
        self._text = utf_8.IncrementalDecoder("replace")
        self._element: list[str] = []  # the text of the element being read
        self._quote = _OUTSIDE_STRING
        self._state = "before"  # "before" the body, "inside" it, "after" it
        self._chunks = 0

    def feed(self, data: bytes) -> list[JSON]:
        """Decode `data` and return the chunks it completed.

        Raises:
            ChunkDataError: the body is not a JSON array (or object), or an element is
                not JSON.
        """
        return self._scan(self._text.decode(data))

    def close(self) -> list[JSON]:
        """End of stream: the chunks the last bytes complete (an unfinished element is
        discarded; an unfinished UTF-8 sequence is U+FFFD).

        Raises:
            ChunkDataError: as `feed`.
        """
        return self._scan(self._text.decode(b"", final=True))

    def _scan(self, text: str) -> list[JSON]:
        found: list[JSON] = []
        for char in text:
            element = self._read(char)
            if element is not None:
                found.append(self._complete(element))
        return found

    def _complete(self, text: str) -> JSON:
        number = self._chunks
        self._chunks += 1
        return _parse(text, chunk_number=number, pointer="" if self._bare else f"/{number}")

    def _read(self, char: str) -> str | None:
        """Read one character; return an element's text when it completes one."""
        if self._quote == _OUTSIDE_STRING:
            return self._read_structure(char)
        self._element.append(char)
        steps = self._quote == _IN_STRING and char in _STRING_STEP
        self._quote = _STRING_STEP[char] if steps else _IN_STRING  # an escaped char steps not
        return None

    def _read_structure(self, char: str) -> str | None:
        if self._state != "inside":
            return self._outside(char)
        if self._depth == 1 and char in ",]":
            return self._end_scalar(char)
        if self._depth == 1 and char in _JSON_WHITESPACE and not self._element:
            return None
        return self._inside(char)

    def _outside(self, char: str) -> str | None:
        if char in _JSON_WHITESPACE or (char == "\ufeff" and self._state == "before"):
            return None
        if self._state == "before" and char in _OPENERS:
            self._state, self._depth, self._bare = "inside", 1, char == "{"
            return self._inside(char) if self._bare else None
        raise self._framing(char, f"{char!r} {_WHERE[self._state]}")

    def _end_scalar(self, char: str) -> str | None:
        """A `,` or `]` between elements: ends a scalar element, and `]` the body."""
        text = "".join(self._element)
        self._element.clear()
        if char == "]":
            self._state = "after"
        return text or None

    def _inside(self, char: str) -> str | None:
        self._element.append(char)
        if char == '"':
            self._quote = _IN_STRING
        elif char in _OPENERS:
            self._depth += 1
        elif char in _CLOSERS:
            self._depth -= 1
            if self._depth == 1:
                return self._end_container()
            if self._depth == 0:
                raise self._framing(char, f"unbalanced {char!r}")
        return None

    def _end_container(self) -> str:
        text = "".join(self._element)
        self._element.clear()
        if self._bare:
            self._state = "after"  # GM-WIRE-ARRAY: the error body is one object
        return text

    def _framing(self, text: str, what: str) -> ChunkDataError:
        return ChunkDataError(
            text,
            chunk_number=self._chunks,
            pointer="",
            reason=f"{what}: the body must be one JSON array of chunks, or an object",
        )


def decode_sse(parts: Iterable[bytes]) -> list[JSON]:
    """Decode a whole `alt=sse` stream given as byte pieces into its chunks.

    Raises:
        ChunkDataError: an event's data is not JSON.
    """
    decoder = SSEStreamDecoder()
    values = [value for part in parts for value in decoder.feed(part)]
    return values + decoder.close()


def decode_array(parts: Iterable[bytes]) -> list[JSON]:
    """Decode a whole JSON-array body given as byte pieces into its chunks.

    Raises:
        ChunkDataError: the body is not a JSON array of chunks, or an element is not JSON.
    """
    decoder = ArrayStreamDecoder()
    values = [value for part in parts for value in decoder.feed(part)]
    return values + decoder.close()
