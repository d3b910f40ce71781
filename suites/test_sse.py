"""Feature `sse`: a decoder of `text/event-stream` bytes yields what the WHATWG rules yield.

Run against every decoder in `refold.sdk.decoders.DECODERS`: the reference, and the SSE
layers of openai-python and httpx-sse (skipped when the `openai` extra is absent). Each check
has a suite-local id `SSE-*` (the spec's registry has no SSE rows yet), shown in the test id.
A decoder's documented deviation is a strict xfail naming the check: it is reported on
every run, and the day the decoder is fixed the xfail turns into a failure that says so.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.reference.sse import Event, decode_chunks
from refold.sdk.decoders import DECODERS, DecodedStream, SSEDecoderTarget
from refold.strategies.wire import sse_bytes


@dataclass(frozen=True)
class _Case:
    check: str
    statement: str
    stream: bytes
    events: tuple[Event, ...]
    retry: int | None = None


def _message(data: str, last_event_id: str = "") -> Event:
    return Event("message", data, last_event_id)


CASES = (
    _Case("SSE-LINE-ENDS", "LF, CRLF and CR all end a line",
          b"data: a\n\ndata: b\r\n\r\ndata: c\r\r", (_message("a"), _message("b"), _message("c"))),
    _Case("SSE-SPACE", "exactly one space after the colon is removed",
          b"data:a\n\ndata:  b\n\n", (_message("a"), _message(" b"))),
    _Case("SSE-MULTILINE", "data lines join with a line feed",
          b"data: a\ndata\ndata: b\n\n", (_message("a\n\nb"),)),
    _Case("SSE-COMMENT", "a line starting with a colon is a comment",
          b": OPENROUTER PROCESSING\ndata: a\n:\n\n", (_message("a"),)),
    _Case("SSE-EVENT-TYPE", "`event` names the dispatched event's type",
          b"event: error\ndata: a\n\ndata: b\n\n", (Event("error", "a"), _message("b"))),
    _Case("SSE-EMPTY-DATA", "`data:` alone fires an event whose data is empty",
          b"data:\n\n", (_message(""),)),
    _Case("SSE-UNTERMINATED", "an event without its blank line is discarded at the end",
          b"data: a\n\ndata: b", (_message("a"),)),
    _Case("SSE-UNICODE-LINES", "only CR and LF end lines, not U+2028, U+0085 or form feed",
          "data: a\u2028b\u0085c\x0cd\n\n".encode(), (_message("a\u2028b\u0085c\x0cd"),)),
    _Case("SSE-ID", "the last event id persists across events; an id with NUL is ignored",
          b"id: 7\ndata: a\n\nid: 8\x00\ndata: b\n\n", (_message("a", "7"), _message("b", "7"))),
    _Case("SSE-UNKNOWN-FIELD", "unknown fields are ignored",
          b"foo: bar\ndata: a\n\n", (_message("a"),)),
    _Case("SSE-BOM", "one leading byte order mark is ignored",
          b"\xef\xbb\xbfdata: a\n\n", (_message("a"),)),
    _Case("SSE-EVENT-NO-DATA", "an event with an empty data buffer is not fired",
          b"event: ping\n\ndata: a\n\n", (_message("a"),)),
    _Case("SSE-ID-BLANK-LINE", "a blank line with no data fires nothing, even once an id is set",
          b"id: 1\ndata: a\n\n\ndata: b\n\n", (_message("a", "1"), _message("b", "1"))),
    _Case("SSE-RETRY-DIGITS", "`retry` counts only when it is all ASCII digits",
          b"retry: 1000\ndata: a\n\nretry: -5\ndata: b\n\nretry: 1e3\ndata: c\n\n",
          (_message("a"), _message("b"), _message("c")), retry=1000),
    _Case("SSE-RETRY-ONLY", "a `retry` alone sets the reconnection time and fires nothing",
          b"retry: 250\n\ndata: a\n\n", (_message("a"),), retry=250),
    _Case("SSE-INVALID-UTF8", "an invalid UTF-8 sequence decodes as U+FFFD",
          b"data: a\xffb\n\n", (_message("a\ufffdb"),)),
)

KNOWN_DEVIATIONS: dict[str, dict[str, str]] = {
    "openai": {
        "SSE-BOM": "the BOM stays in the first field name (`\\ufeffdata`): first event lost",
        "SSE-EVENT-NO-DATA": "fires the event with data \"\"",
        "SSE-ID-BLANK-LINE": "fires an extra event with data \"\" whenever an id is set",
        "SSE-RETRY-DIGITS": "accepts int(value): `-5` is taken",
        "SSE-RETRY-ONLY": "fires an event with data \"\" for a lone retry",
        "SSE-INVALID-UTF8": "decodes lines strictly: UnicodeDecodeError ends the stream",
    },
    "httpx-sse": {
        "SSE-BOM": "the BOM stays in the first field name (`\\ufeffdata`): first event lost",
        "SSE-EVENT-NO-DATA": "fires the event with data \"\"",
        "SSE-ID-BLANK-LINE": "fires an extra event with data \"\" whenever an id is set",
        "SSE-RETRY-DIGITS": "accepts int(value): `-5` is taken",
        "SSE-RETRY-ONLY": "fires an event with data \"\" for a lone retry",
    },
}
"""Documented deviations from WHATWG (harness-tech.md §5.4), by decoder and check."""


def _decoder_params() -> list[object]:
    return [pytest.param(decoder, id=name) for name, decoder in DECODERS.items()]


def _case_params() -> list[object]:
    params = []
    for name, decoder in DECODERS.items():
        for case in CASES:
            marks = []
            deviation = KNOWN_DEVIATIONS.get(name, {}).get(case.check)
            if deviation is not None:
                marks.append(pytest.mark.xfail(
                    strict=True, reason=f"{name} deviates from {case.check}: {deviation}"))
            params.append(pytest.param(decoder, case, marks=marks, id=f"{name}-{case.check}"))
    return params


def _decode(decoder: SSEDecoderTarget, parts: list[bytes]) -> DecodedStream:
    if decoder.extra is not None:
        pytest.importorskip("openai" if decoder.name == "openai" else "httpx_sse",
                            reason=f"install refold[{decoder.extra}] to check {decoder.name}")
    return decoder.decode(parts)


def _described(case: _Case, received: DecodedStream, cut: str) -> str:
    return (f"{case.check}: {case.statement} ({cut})\n"
            f"  stream   {case.stream!r}\n"
            f"  expected {list(case.events)}, retry {case.retry}\n"
            f"  received {list(received.events)}, retry {received.retry}")


@pytest.mark.parametrize(("decoder", "case"), _case_params())
def test_decoder_follows_the_whatwg_event_stream_rules(
    decoder: SSEDecoderTarget, case: _Case
) -> None:
    for cut, parts in (("whole", [case.stream]),
                       ("byte by byte", [bytes([b]) for b in case.stream])):
        received = _decode(decoder, parts)
        assert (received.events, received.retry) == (case.events, case.retry), \
            _described(case, received, cut)


@pytest.mark.parametrize("decoder", _decoder_params())
@given(data=st.data())
def test_decoder_yields_the_reference_events_for_any_server_framing_and_cuts(
    decoder: SSEDecoderTarget, data: st.DataObject
) -> None:
    chunks = data.draw(_chunk_lists(), label="chunks")
    parts = data.draw(sse_bytes(chunks), label="parts")
    expected = DECODERS["reference"].decode(parts)
    received = _decode(decoder, parts)
    assert received == expected, f"cut into {parts!r}"
    assert decode_chunks(parts) == chunks


def _chunk_lists() -> st.SearchStrategy[list[dict[str, object]]]:
    text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
    deltas = st.fixed_dictionaries({"content": text})
    chunk = st.builds(lambda d: {"id": "chatcmpl-x", "object": "chat.completion.chunk",
                                 "choices": [{"index": 0, "delta": d}]}, deltas)
    return st.lists(chunk, min_size=1, max_size=4)
