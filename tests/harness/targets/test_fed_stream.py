"""`FedStream`: a pulling call run over a body fed one piece at a time (the langchain-events
target's transport), with no piece read ahead."""

from __future__ import annotations

from collections.abc import Iterator

from refold.targets.sdk._fed_stream import Ended, FedStream, Raised


def _echo(body: Iterator[bytes]) -> Iterator[bytes]:
    for piece in body:
        yield piece.upper()
        yield piece


def _fails_before_reading(body: Iterator[bytes]) -> Iterator[bytes]:
    raise ValueError("before the body")
    yield from body  # unreachable: makes this a generator


def test_what_a_piece_yields_comes_out_of_its_own_feed() -> None:
    stream = FedStream(_echo)
    assert stream.feed(b"a") == [b"A", b"a"]
    assert stream.feed(b"b") == [b"B", b"b"]
    assert stream.end() == [Ended()]
    assert stream.finished


def test_nothing_comes_out_after_the_call_ended() -> None:
    stream = FedStream(_echo)
    stream.end()
    assert stream.feed(b"late") == []
    assert stream.end() == []


def test_a_raise_before_the_body_is_read_is_reported_by_the_first_feed() -> None:
    stream = FedStream(_fails_before_reading)
    [raised] = stream.feed(b"a")
    assert isinstance(raised, Raised)
    assert str(raised.error) == "before the body"
