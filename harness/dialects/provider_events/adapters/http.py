"""`http://host:port/path` events adapters: refold-events/1 (events.md §5) over HTTP POST.

Each message the harness sends (`begin`, `frame`, `end`, `fold`) is one POST of that JSON
object to the URL, exactly as the subprocess form writes it (no `seq` is stamped on it: a
frame carries its own); the body of the 200 response is the lines a subprocess adapter
would write in reply, one JSON object per line (blank lines ignored; an empty body is no
line, as for `begin`). The hello a subprocess speaks first is asked for: `{"op": "hello"}`
answers `{"hello": {...}}`. The lines of a reply are read in order, as from a pipe, so a
frame's events are those before its ack, and a reply that ends before the line the
protocol waits for (the ack of a frame, the outcome and persisted lines of `end`) is a
protocol failure.

The POST is `refold.targets.http`'s: one deadline for the whole exchange
(`--target-timeout`), a body of at most `--target-max-reply` bytes, no compression. A
non-200 status, a line that is not a JSON object, a timeout or a dropped connection fails
the stream under test; a service is never restarted, so the next stream simply tries
again, without a new hello. A service may serve several harness processes at once (one
per pytest-xdist worker), so each target numbers its streams from a random start.
"""

from __future__ import annotations

import collections
import json
import random

from refold.errors import TargetError
from refold.reference import JSONObject
from refold.targets.http import HttpTransport
from refold.targets.remote import DEFAULT_MAX_REPLY

from .protocol import EventsProtocolTarget

__all__ = ["EventsHttpTarget", "EventsHttpTransport"]

_STREAM_IDS = 2**40
"""Stream ids start below this (exact in JavaScript's numbers): two targets sharing a
service, thousands of streams each, collide once in about 10^8 runs."""


class EventsHttpTransport:
    """refold-events/1 lines over one URL: a POST per message, its reply lines queued."""

    def __init__(self, url: str, *, timeout: float, max_reply: int = DEFAULT_MAX_REPLY) -> None:
        self._http = HttpTransport(url, timeout=timeout, max_reply=max_reply)
        self.where = url
        self._lines: collections.deque[JSONObject] = collections.deque()
        self._replied = ""
        """What the last reply answered ('frame 3'), for failures."""

    def running(self) -> bool:
        """False: a service is never restarted, so it never greets again."""
        return False

    def send(self, message: JSONObject) -> None:
        """POST the message; queue the lines of its reply (a reply that cannot be read
        fails here, and nothing of it is queued)."""
        op = message.get("op")
        self._replied = f"{op} {message.get('seq')}" if op == "frame" else str(op)
        try:
            body = self._http.post(
                json.dumps(message, separators=(",", ":")).encode(), self._replied
            )
        except TargetError:
            self._lines.clear()
            raise
        self._lines.extend(self._parsed(body))

    def _parsed(self, body: bytes) -> list[JSONObject]:
        lines: list[JSONObject] = []
        for number, raw in enumerate(body.split(b"\n"), 1):
            if not raw.strip():
                continue
            where = f"line {number} of the reply to {self._replied!r}"
            try:
                line = json.loads(raw)
            except ValueError:
                raise self.fail(
                    "protocol",
                    f"{where} is not JSON: {raw[:200]!r} (a reply is JSON lines, one object each)",
                ) from None
            if not isinstance(line, dict):
                raise self.fail("protocol", f"{where} is {raw[:200]!r}, expected a JSON object")
            lines.append(line)
        return lines

    def receive(self, what: str) -> JSONObject:
        """The next line of the replies so far; for "hello", the reply to
        `{"op": "hello"}`. Reading past the last line is a protocol failure."""
        if not self._lines and what == "hello":
            self.send({"op": "hello"})
        if not self._lines:
            raise self.fail(
                "protocol",
                f"the reply to {self._replied!r} ended before "
                f"{_awaited(what)} (over HTTP a reply holds every "
                f"line the adapter writes for the message: "
                f"docs/events.md)",
            )
        return self._lines.popleft()

    def fail(self, kind: str, what: str) -> TargetError:
        """Forget what is left of the replies (the next stream starts clean); the
        failure."""
        self._lines.clear()
        return TargetError(f"{self.where}: {what}", kind=kind)

    def close(self) -> None:
        """Close the connection."""
        self._http.close()


def _awaited(what: str) -> str:
    """The line the protocol waits for while reading for `what`."""
    if what.startswith("frame"):
        return "its ack"
    return {
        "hello": "a hello",
        "end": "its outcome",
        "end (persisted)": "its persisted line",
        "fold": "its turn",
    }.get(what, "the next line")


class EventsHttpTarget(EventsProtocolTarget):
    """An events adapter served over HTTP, speaking refold-events/1."""

    @classmethod
    def connect(
        cls,
        url: str,
        *,
        features: frozenset[str] | None,
        timeout: float,
        max_reply: int = DEFAULT_MAX_REPLY,
    ) -> EventsHttpTarget:
        """Ask the service for its hello; an unreachable service, or one that does not
        answer with a refold-events/1 hello, is a usage error."""
        transport = EventsHttpTransport(url, timeout=timeout, max_reply=max_reply)
        # Not seeded from the run: two processes of one run must not draw the same start.
        first = random.SystemRandom().randrange(1, _STREAM_IDS)
        return cls.greeted(transport, spec=url, features=features, first_stream=first)
