"""The `text/event-stream` wire layer: a WHATWG decoder and the chat-completions layer above it.

Sans-IO, standard library only, incremental: feed bytes in pieces of any size (a piece may
end inside a multi-byte UTF-8 character or between the CR and the LF of a CRLF) and
receive what those bytes completed.

`EventStreamDecoder` follows the HTML Living Standard, "Parsing an event stream"
(§9.2.5-9.2.6): UTF-8 with invalid sequences replaced by U+FFFD and one leading BOM
ignored; lines end with CRLF, LF or CR; `:` starts a comment; exactly one space after the
colon is removed; `data` lines join with `\\n`; an `id` containing NUL is ignored and the
last event id persists across events; `retry` counts only when it is all ASCII digits and
sets the connection's reconnection time; a blank line dispatches, and an event with an
empty data buffer is not fired; at the end of the stream an unterminated event is
discarded.

`ChunkStreamDecoder` reads the chat-completions convention above it: each `message`
event's data is one JSON chunk, `[DONE]` ends the stream, an `event: error` event carries
an error, and data that is not JSON is reported with the line it started on.

    >>> decoder = ChunkStreamDecoder()
    >>> decoder.feed(b'data: {"id": "c1"}\\r')
    []
    >>> decoder.feed(b'\\n\\r\\ndata: [DONE]\\n\\n')
    [Chunk(chunk={'id': 'c1'}, line=1), Done(line=3)]
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterable
from dataclasses import dataclass

from ._errors import EventDataError, RefoldError
from ._json import JSON, parse_json

__all__ = [
    "DONE",
    "Chunk",
    "ChunkStreamDecoder",
    "Done",
    "ErrorEvent",
    "Event",
    "EventStreamDecoder",
    "InvalidData",
    "JSONEventDecoder",
    "SSEDataError",
    "StreamItem",
    "decode_chunks",
    "decode_events",
    "decode_json_events",
    "event_name",
]

DONE = "[DONE]"
"""The data of the event that ends a chat-completions stream (not a chunk)."""

_BOM = "\ufeff"


@dataclass(frozen=True)
class Event:
    """One dispatched event: its type (`message` unless an `event` field set it), its
    data, the last event id in force when it fired, and the line its first field was on."""

    type: str
    data: str
    last_event_id: str = ""
    line: int = 0


class EventStreamDecoder:
    """The WHATWG event-stream parser, fed bytes incrementally."""

    def __init__(self) -> None:
        self.last_event_id = ""
        """The last event id buffer: set by `id`, never reset by a dispatch or a close."""
        self.retry: int | None = None
        """The reconnection time in milliseconds from the last valid `retry` field."""
        self._start_stream()

    def _start_stream(self) -> None:
        # What one connection's stream holds; the last event id and the reconnection
        # time belong to the connection's owner and outlive it (WHATWG reconnects).
        self._text = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._at_start = True
        self._skip_lf = False
        self._line = ""
        self._line_number = 0
        self._data: list[str] = []
        self._event_type = ""
        self._event_line = 0

    def feed(self, data: bytes) -> list[Event]:
        """Decode `data` and return the events the lines it completed dispatched."""
        text = self._text.decode(data)
        if self._at_start and text:
            self._at_start = False
            text = text.removeprefix(_BOM)
        return self._read_text(text)

    def close(self) -> list[Event]:
        """End of this stream: returns no events, since an event without its blank line
        is discarded (and every terminated line was read when its end arrived; bytes held
        back for an incomplete UTF-8 character never end a line). The decoder may then be
        fed the next connection's stream, which may start with a BOM of its own; the last
        event id and the reconnection time carry over, as a reconnecting client keeps
        them. A list, like `feed`, so that a loop can treat the end as one more piece."""
        self._start_stream()
        return []

    def _read_text(self, text: str) -> list[Event]:
        events: list[Event] = []
        start = 0
        for position, character in enumerate(text):
            if character not in "\r\n":
                continue
            if self._skip_lf and position == start and character == "\n":
                # The LF of a CRLF whose CR ended the previous piece or line.
                self._skip_lf = False
                start = position + 1
                continue
            self._line += text[start:position]
            self._skip_lf = character == "\r"
            start = position + 1
            event = self._read_line(self._line)
            self._line = ""
            if event is not None:
                events.append(event)
        if start < len(text):
            self._skip_lf = False
            self._line += text[start:]
        return events

    def _read_line(self, line: str) -> Event | None:
        self._line_number += 1
        if line == "":
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        self._read_field(name, value)
        return None

    def _read_field(self, name: str, value: str) -> None:
        if name == "data":
            if not self._data and not self._event_type:
                self._event_line = self._line_number
            self._data.append(value)
        elif name == "event":
            if not self._data and not self._event_type:
                self._event_line = self._line_number
            self._event_type = value
        elif name == "id":
            if "\0" not in value:
                self.last_event_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self.retry = int(value)

    def _dispatch(self) -> Event | None:
        data, event_type = self._data, self._event_type
        self._data, self._event_type = [], ""
        if not data:
            return None
        return Event(
            type=event_type or "message",
            data="\n".join(data),
            last_event_id=self.last_event_id,
            line=self._event_line,
        )


def decode_events(parts: Iterable[bytes]) -> list[Event]:
    """Decode a whole stream given as byte pieces (end of stream included)."""
    decoder = EventStreamDecoder()
    events = [event for part in parts for event in decoder.feed(part)]
    return events + decoder.close()


@dataclass(frozen=True)
class Chunk:
    """A `chat.completion.chunk` decoded from one event's data (a chunk carrying a
    top-level `error` is still a chunk: the fold keeps its deltas, LIFE-ERROR)."""

    chunk: JSON
    line: int


@dataclass(frozen=True)
class Done:
    """The `[DONE]` sentinel (LIFE-DONE): the stream is over."""

    line: int


@dataclass(frozen=True)
class ErrorEvent:
    """An `event: error` event: its data, parsed as JSON when it is JSON."""

    error: JSON
    line: int


@dataclass(frozen=True)
class InvalidData:
    """An event whose data is not JSON: what was received, where, and why."""

    data: str
    line: int
    reason: str


StreamItem = Chunk | Done | ErrorEvent | InvalidData
"""What the chat-completions layer makes of one event."""


class SSEDataError(RefoldError, ValueError):
    """A chat-completions stream held an event that is neither a chunk nor `[DONE]`."""

    def __init__(self, item: InvalidData | ErrorEvent) -> None:
        self.item = item
        self.line = item.line
        if isinstance(item, InvalidData):
            message = (
                f"line {item.line}: event data is not JSON ({item.reason}); "
                f"expected a chat.completion.chunk object or [DONE], "
                f"received {_preview(item.data)}"
            )
        else:
            message = (
                f"line {item.line}: the stream sent an error event: "
                f"{_preview(json.dumps(item.error))}"
            )
        super().__init__(message)


class ChunkStreamDecoder:
    """The chat-completions layer: bytes in, chunks, `[DONE]` and errors out."""

    def __init__(self) -> None:
        self.events = EventStreamDecoder()
        """The event-stream decoder underneath (its `retry` and `last_event_id`)."""

    def feed(self, data: bytes) -> list[StreamItem]:
        """Decode `data` and return the items the events it completed carry."""
        return [_item(event) for event in self.events.feed(data)]

    def close(self) -> list[StreamItem]:
        """End of stream: no items (an unterminated final event is discarded)."""
        self.events.close()
        return []


def _item(event: Event) -> StreamItem:
    if event.type == "message" and event.data == DONE:
        return Done(line=event.line)
    try:
        value = parse_json(event.data)
    except ValueError as exc:
        if event.type == "error":
            return ErrorEvent(error=event.data, line=event.line)
        return InvalidData(data=event.data, line=event.line, reason=str(exc))
    if event.type == "error":
        return ErrorEvent(error=value, line=event.line)
    return Chunk(chunk=value, line=event.line)


def decode_chunks(parts: Iterable[bytes]) -> list[JSON]:
    """Decode a whole chat-completions stream to its chunks, up to `[DONE]`.

    Raises:
        SSEDataError: an event's data is not JSON, or the stream sent an error event.
    """
    decoder = ChunkStreamDecoder()
    chunks: list[JSON] = []
    for part in [*parts, None]:
        items = decoder.close() if part is None else decoder.feed(part)
        for item in items:
            if isinstance(item, Done):
                return chunks
            if isinstance(item, InvalidData | ErrorEvent):
                raise SSEDataError(item)
            chunks.append(item.chunk)
    return chunks


def _preview(text: str, limit: int = 80) -> str:
    shown = text if len(text) <= limit else text[: limit - 3] + "..."
    return repr(shown)


_JSON_WHITESPACE = " \t\n\r"


class JSONEventDecoder:
    """Bytes in, the JSON objects of the events they complete out, incrementally: the item
    layer of a dialect whose frames each carry one JSON object told apart by its own
    `type`, so the SSE `event:` name is never consulted. A dialect's subclass names the
    error its data that is not JSON raises (`data_error`) and the data that is no event
    (`skipped`; data that is empty or blank is none either)."""

    data_error: type[EventDataError] = EventDataError
    skipped: frozenset[str] = frozenset()

    def __init__(self) -> None:
        self.events = EventStreamDecoder()
        """The event-stream decoder underneath."""

    def feed(self, data: bytes) -> list[JSON]:
        """Decode `data` and return the events it completed.

        Raises:
            EventDataError: an event's data is not JSON.
        """
        return [value for event in self.events.feed(data) for value in self._value(event)]

    def close(self) -> list[JSON]:
        """End of stream: nothing more (an unterminated final frame is discarded)."""
        self.events.close()
        return []

    def _value(self, event: Event) -> list[JSON]:
        data = event.data.strip(_JSON_WHITESPACE)
        if not data or data in self.skipped:
            return []  # no event: an `event:` line flushed without data, or a skipped one
        try:
            return [parse_json(event.data)]  # the data's `type` decides, not `event.type`
        except ValueError as exc:
            raise self.data_error(event.data, line=event.line, reason=str(exc)) from None


def decode_json_events(decoder: JSONEventDecoder, parts: Iterable[bytes]) -> list[JSON]:
    """Decode a whole stream given as byte pieces into its event objects with `decoder`."""
    values = [value for part in parts for value in decoder.feed(part)]
    return values + decoder.close()


def event_name(item: JSON) -> str | None:
    """The `event:` name of a frame named by its data's `type`: that type, when it can be
    one (a non-blank string without a line end), else None (the frame goes unnamed)."""
    kind = item.get("type") if isinstance(item, dict) else None
    if isinstance(kind, str) and kind.strip() and not any(c in kind for c in "\r\n"):
        return kind
    return None
