"""refold-events/1 (events.md §5), whatever carries its lines.

The adapter greets (`{"hello": {"protocol": "refold-events/1", "provider", "dialects",
"features"}}`); then, per stream, the harness sends `begin`, each frame (and waits for its
`ack` before the next, so an event that arrives after ack k was emitted after frame k+1
was sent: look-ahead is visible), then `end`, and reads the final events, the outcome and
what the runtime persists. `EventsProtocolTarget` is that exchange over any
`LineTransport`: a subprocess's stdin and stdout (`exec:`, `.exec`)
or one HTTP POST per message (`http://`, `.http`). A line that is not
JSON, a line of another stream, a missing ack, a crash or a hang fails the stream (the rule
under test) through `LineTransport.fail`, and the next stream goes on.
"""

from __future__ import annotations

import itertools
from typing import Any, ClassVar, Protocol, Self

from refold.errors import TargetError, UsageError
from refold.reference import JSON, JSONObject
from refold.targets.remote import check_features

from .. import PROVIDER_EVENTS, frames_of, source_of
from . import EVENTS_PROTOCOL
from .python import EventsTarget, accepted_sources, outcome_of

__all__ = ["EVENTS_PROTOCOL", "EventsProtocolTarget", "LineTransport"]


class LineTransport(Protocol):
    """The lines of refold-events/1 to and from one adapter."""

    where: str
    """The adapter as failure messages name it."""

    def running(self) -> bool:
        """Make sure the adapter can be spoken to; True when this call started it anew
        (it greets again then)."""
        ...

    def send(self, message: JSONObject) -> None:
        """Send one message as it is (no `seq` is stamped on it)."""
        ...

    def receive(self, what: str) -> JSONObject:
        """The adapter's next line, a JSON object; `what` names what it answers
        ("hello", "frame 3", "end", ...). A transport whose adapter does not speak first
        asks for the hello when `what` is "hello"."""
        ...

    def fail(self, kind: str, what: str) -> TargetError:
        """Give up the current exchange (the next stream starts clean); the failure."""
        ...

    def close(self) -> None:
        """Release the process or connection."""
        ...


class EventsProtocolTarget(EventsTarget):
    """An events adapter speaking refold-events/1 over a `LineTransport`."""

    _SILENT_HELLO: ClassVar[str] = ""
    """What a transport adds to a timeout at hello (why an adapter may be silent)."""

    def __init__(
        self,
        transport: LineTransport,
        *,
        spec: str,
        features: frozenset[str] | None,
        first_stream: int = 1,
    ) -> None:
        self._transport = transport
        self._streams = itertools.count(first_stream)
        hello = self._greeting()
        self.name = spec
        self.description = str(hello.get("description") or spec)
        self.accepts = accepted_sources(hello.get("dialects"), f"{spec} hello")
        provider = hello.get("provider")
        self.provider = None if provider is None else str(provider)
        declared = hello.get("features")
        claimed = (
            features
            if features is not None
            else frozenset(str(f) for f in declared)
            if isinstance(declared, list)
            else frozenset({"events"})
        )
        self.features = check_features(
            claimed,
            supported=frozenset(PROVIDER_EVENTS.features),
            origin=spec,
            dialect=PROVIDER_EVENTS,
        )
        # §5's hello lists no operations; an adapter offering the optional `fold` says
        # so with "operations": ["fold"] (without it, PERSIST-NO-SEMANTICS is not run).
        operations = hello.get("operations")
        self.offers_fold = isinstance(operations, list) and "fold" in operations

    @classmethod
    def greeted(
        cls,
        transport: LineTransport,
        *,
        spec: str,
        features: frozenset[str] | None,
        first_stream: int = 1,
    ) -> Self:
        """The adapter behind `transport`, once it said hello; a missing or wrong hello
        is a usage error, and the transport is closed."""
        try:
            return cls(transport, spec=spec, features=features, first_stream=first_stream)
        except TargetError as exc:
            transport.close()
            raise UsageError(f"{spec} did not say hello: {exc}") from exc
        except UsageError:
            transport.close()
            raise

    def _greeting(self) -> JSONObject:
        try:
            line = self._transport.receive("hello")
        except TargetError as exc:
            if exc.kind != "timeout" or not self._SILENT_HELLO:
                raise
            raise TargetError(f"{exc}{self._SILENT_HELLO}", kind="timeout") from exc
        hello = line.get("hello")
        if isinstance(hello, dict) and hello.get("protocol") == EVENTS_PROTOCOL:
            return hello
        expected = f'expected {{"hello": {{"protocol": "{EVENTS_PROTOCOL}", ...}}}} (events.md §5)'
        if "ok" in line and "protocol" in line:
            raise self._transport.fail(
                "protocol",
                (
                    f"it answers hello as a fold target speaking protocol "
                    f"{str(line.get('protocol'))[:20]} (docs/protocol.md), not as an events "
                    f"adapter: {expected}; check it without --dialect provider-events"
                ),
            )
        raise self._transport.fail("protocol", f"the first line is {str(line)[:200]}; {expected}")

    def _ready(self) -> None:
        if self._transport.running():  # a fresh process after a failure greets again
            self._greeting()

    def _run(self, chunks: list[JSON]) -> JSONObject:
        """Run one stream through the protocol: begin, frames with acks, end."""
        self._ready()
        stream = next(self._streams)
        frames = frames_of(chunks)
        self._transport.send({"op": "begin", "stream": stream, "dialect": source_of(chunks)})
        events: list[JSON] = []
        emitted: list[int] = []
        for seq, frame in enumerate(frames):
            self._transport.send({"op": "frame", "stream": stream, "seq": seq, "frame": frame})
            produced = self._until(stream, "ack", seq, f"frame {seq}")
            events += produced[0]
            emitted += [seq] * len(produced[0])
        self._transport.send({"op": "end", "stream": stream})
        final, outcome_line = self._until(stream, "outcome", None, "end")
        events += final
        emitted += [len(frames)] * len(final)
        try:
            outcome = outcome_of({k: v for k, v in outcome_line.items() if k != "stream"}, "end")
        except TargetError as exc:  # its persisted line must not be read by the next stream
            raise self._transport.fail(exc.kind, str(exc)) from None
        persisted_line = self._line(stream, "end (persisted)")
        if "persisted" not in persisted_line:
            raise self._unexpected(persisted_line, "the persisted line")
        return {
            "events": events,
            "emitted": emitted,
            "outcome": outcome,
            "persisted": persisted_line["persisted"],
        }

    def _until(self, stream: int, key: str, value: Any, what: str) -> tuple[list[JSON], JSONObject]:
        """The events read before the line carrying `key` (equal to `value` unless
        None), and that line."""
        events: list[JSON] = []
        while True:
            line = self._line(stream, what)
            if "event" in line:
                events.append(line["event"])
            elif key in line and (value is None or line[key] == value):
                return events, line
            else:
                raise self._unexpected(
                    line, f"an event or the {key}" + (f" {value}" if value is not None else "")
                )

    def _line(self, stream: int, what: str) -> JSONObject:
        line = self._transport.receive(what)
        if line.get("stream") != stream:
            raise self._unexpected(line, f"a line of stream {stream}")
        return line

    def _unexpected(self, line: JSONObject, expected: str) -> TargetError:
        return self._transport.fail(
            "protocol", f"received {str(line)[:200]}; expected {expected} (events.md §5)"
        )

    def fold_events(self, events: list[JSON]) -> JSON:
        """The adapter's `fold` op: its turn for the given events."""
        if not self.offers_fold:
            return super().fold_events(events)
        self._ready()
        stream = next(self._streams)
        self._transport.send({"op": "fold", "stream": stream, "events": events})
        line = self._line(stream, "fold")
        if "turn" not in line:
            raise self._unexpected(line, "the turn")
        turn: JSON = line["turn"]
        return turn

    def close(self) -> None:
        """End the process or close the connection."""
        self._transport.close()
