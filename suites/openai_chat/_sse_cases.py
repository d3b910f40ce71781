"""The wire rules' examples: one byte stream per SSE rule and what WHATWG makes of it.

Shared by the `sse` suite (which checks the target's decoder, `--target`) and by
tests/dialects/openai_chat/test_sdk_sse_decoders.py (which checks openai-python's and
httpx-sse's decoders directly, whatever the target). Each case's `rule` is an id of
`refold.reference.chat.SSE_RULES`; `KNOWN_DEVIATIONS` are the real decoders' documented
departures from those rules, applied as strict xfails.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from refold.reference.sse import Event
from refold.targets.sdk.decoders import DecodedStream, SSEDecode

__all__ = [
    "CASES",
    "KNOWN_DEVIATIONS",
    "PROPERTY_RULES",
    "SSECase",
    "chunk_lists",
    "cuts_of",
    "mismatch",
]


@dataclass(frozen=True)
class SSECase:
    """A byte stream, the wire rule it illustrates and what a WHATWG decoder yields."""

    rule: str
    statement: str
    stream: bytes
    events: tuple[Event, ...]
    retry: int | None = None


def _message(data: str, last_event_id: str = "") -> Event:
    return Event("message", data, last_event_id)


CASES = (
    SSECase(
        "SSE-LINE-ENDS",
        "LF, CRLF and CR all end a line",
        b"data: a\n\ndata: b\r\n\r\ndata: c\r\r",
        (_message("a"), _message("b"), _message("c")),
    ),
    SSECase(
        "SSE-SPACE",
        "exactly one space after the colon is removed",
        b"data:a\n\ndata:  b\n\n",
        (_message("a"), _message(" b")),
    ),
    SSECase(
        "SSE-MULTILINE",
        "data lines join with a line feed",
        b"data: a\ndata\ndata: b\n\n",
        (_message("a\n\nb"),),
    ),
    SSECase(
        "SSE-COMMENT",
        "a line starting with a colon is a comment",
        b": OPENROUTER PROCESSING\ndata: a\n:\n\n",
        (_message("a"),),
    ),
    SSECase(
        "SSE-EVENT-TYPE",
        "`event` names the dispatched event's type",
        b"event: error\ndata: a\n\ndata: b\n\n",
        (Event("error", "a"), _message("b")),
    ),
    SSECase(
        "SSE-EMPTY-DATA",
        "`data:` alone fires an event whose data is empty",
        b"data:\n\n",
        (_message(""),),
    ),
    SSECase(
        "SSE-UNTERMINATED",
        "an event without its blank line is discarded at the end",
        b"data: a\n\ndata: b",
        (_message("a"),),
    ),
    SSECase(
        "SSE-UNICODE-LINES",
        "only CR and LF end lines, not U+2028, U+0085 or form feed",
        "data: a\u2028b\u0085c\x0cd\n\n".encode(),
        (_message("a\u2028b\u0085c\x0cd"),),
    ),
    SSECase(
        "SSE-ID",
        "the last event id persists across events; an id with NUL is ignored",
        b"id: 7\ndata: a\n\nid: 8\x00\ndata: b\n\n",
        (_message("a", "7"), _message("b", "7")),
    ),
    SSECase(
        "SSE-UNKNOWN-FIELD",
        "unknown fields are ignored",
        b"foo: bar\ndata: a\n\n",
        (_message("a"),),
    ),
    SSECase(
        "SSE-BOM",
        "one leading byte order mark is ignored",
        b"\xef\xbb\xbfdata: a\n\n",
        (_message("a"),),
    ),
    SSECase(
        "SSE-EVENT-NO-DATA",
        "an event with an empty data buffer is not fired",
        b"event: ping\n\ndata: a\n\n",
        (_message("a"),),
    ),
    SSECase(
        "SSE-ID-BLANK-LINE",
        "a blank line with no data fires nothing, even once an id is set",
        b"id: 1\ndata: a\n\n\ndata: b\n\n",
        (_message("a", "1"), _message("b", "1")),
    ),
    SSECase(
        "SSE-RETRY-DIGITS",
        "`retry` counts only when it is all ASCII digits",
        b"retry: 1000\ndata: a\n\nretry: -5\ndata: b\n\nretry: 1e3\ndata: c\n\n",
        (_message("a"), _message("b"), _message("c")),
        retry=1000,
    ),
    SSECase(
        "SSE-RETRY-ONLY",
        "a `retry` alone sets the reconnection time and fires nothing",
        b"retry: 250\n\ndata: a\n\n",
        (_message("a"),),
        retry=250,
    ),
    SSECase(
        "SSE-INVALID-UTF8",
        "an invalid UTF-8 sequence decodes as U+FFFD",
        b"data: a\xffb\n\n",
        (_message("a\ufffdb"),),
    ),
)

_SHARED_DEVIATIONS = {
    "SSE-BOM": "the BOM stays in the first field name (`\\ufeffdata`): first event lost",
    "SSE-EVENT-NO-DATA": 'fires the event with data ""',
    "SSE-ID-BLANK-LINE": 'fires an extra event with data "" whenever an id is set',
    "SSE-RETRY-DIGITS": "accepts int(value): `-5` is taken",
    "SSE-RETRY-ONLY": 'fires an event with data "" for a lone retry',
}

KNOWN_DEVIATIONS: dict[str, dict[str, str]] = {
    "openai": {
        **_SHARED_DEVIATIONS,
        "SSE-INVALID-UTF8": "decodes lines strictly: UnicodeDecodeError ends the stream",
    },
    "httpx-sse": dict(_SHARED_DEVIATIONS),
}
"""Documented deviations from WHATWG (harness-tech.md §5.4), by decoder and wire rule. The
`openai` entry is also the `openai` target's, whose decoder is openai-python's."""

PROPERTY_RULES = ("SSE-LINE-ENDS", "SSE-SPACE", "SSE-MULTILINE", "SSE-COMMENT", "SSE-EVENT-NO-DATA")
"""The wire rules the framing property exercises: `sse_bytes` mixes line ends, drops or
keeps the space, spreads JSON over data lines, adds comments and extra blank lines."""


def cuts_of(case: SSECase) -> tuple[tuple[str, list[bytes]], ...]:
    """The case's stream whole, and cut byte by byte (a CRLF and UTF-8 split on the way)."""
    return (("whole", [case.stream]), ("byte by byte", [bytes([b]) for b in case.stream]))


def mismatch(case: SSECase, decode: SSEDecode) -> str | None:
    """Why `decode` breaks the case's rule under some cut, or None when it follows it."""
    for cut, parts in cuts_of(case):
        received = decode(parts)
        if (received.events, received.retry) != (case.events, case.retry):
            return _described(case, received, cut)
    return None


def _described(case: SSECase, received: DecodedStream, cut: str) -> str:
    return (
        f"{case.rule}: {case.statement} ({cut})\n"
        f"  stream   {case.stream!r}\n"
        f"  expected {list(case.events)}, retry {case.retry}\n"
        f"  received {list(received.events)}, retry {received.retry}"
    )


def chunk_lists() -> st.SearchStrategy[list[dict[str, object]]]:
    """Small chat-completion chunk streams whose text may need any UTF-8 length."""
    text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
    return st.lists(text.map(_chunk), min_size=1, max_size=4)


def _chunk(content: str) -> dict[str, object]:
    return {
        "id": "chatcmpl-x",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": {"content": content}}],
    }
