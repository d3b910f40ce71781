"""`exec:COMMAND` events adapters: the refold-events/1 protocol of events.md §5.

The adapter speaks first (`{"hello": {"protocol": "refold-events/1", "provider",
"dialects", "features"}}`); then, per stream, the harness sends `begin`, each frame (and
waits for its `ack` before the next, so an event that arrives after ack k was emitted
after frame k+1 was sent: look-ahead is visible), then `end`, and reads the final events,
the outcome and what the runtime persists. A line that is not JSON, a missing ack within
the deadline, a crash or a hang fails the call (the rule under test) and the next stream
gets a fresh process, which greets again.
"""

from __future__ import annotations

import itertools
import shlex
from typing import Any

from refold.reference import JSON, JSONObject

from ..dialects.provider_events import PROVIDER_EVENTS, frames_of, source_of
from ..errors import TargetError, UsageError
from .events import EventsTarget, accepted_sources, outcome_of
from .exec import ExecTransport
from .remote import DEFAULT_MAX_REPLY, check_features

__all__ = ["EVENTS_PROTOCOL", "EventsExecTarget"]

EVENTS_PROTOCOL = "refold-events/1"

_HELLO_SECONDS = 30.0


class EventsExecTarget(EventsTarget):
    """An events adapter run as a subprocess speaking refold-events/1."""

    def __init__(self, transport: ExecTransport, *, spec: str,
                 features: frozenset[str] | None) -> None:
        self._transport = transport
        self._streams = itertools.count(1)
        hello = self._greeting()
        self.name = spec
        self.description = str(hello.get("description") or spec)
        self.accepts = accepted_sources(hello.get("dialects"), f"{spec} hello")
        provider = hello.get("provider")
        self.provider = None if provider is None else str(provider)
        declared = hello.get("features")
        claimed = features if features is not None else frozenset(
            str(f) for f in declared) if isinstance(declared, list) else frozenset({"events"})
        self.features = check_features(claimed, supported=frozenset(PROVIDER_EVENTS.features),
                                       origin=spec, dialect=PROVIDER_EVENTS)
        # §5's hello lists no operations; an adapter offering the optional `fold` says
        # so with "operations": ["fold"] (without it, PERSIST-NO-SEMANTICS is not run).
        operations = hello.get("operations")
        self.offers_fold = isinstance(operations, list) and "fold" in operations

    @classmethod
    def start(cls, command: str, *, features: frozenset[str] | None, timeout: float,
              max_reply: int = DEFAULT_MAX_REPLY) -> EventsExecTarget:
        """Start the adapter and read its hello; a missing or wrong hello is a usage
        error."""
        transport = ExecTransport(shlex.split(command), where=f"exec:{command}",
                                  timeout=timeout, hello_timeout=max(timeout, _HELLO_SECONDS),
                                  max_reply=max_reply)
        return cls.greeted(transport, spec=f"exec:{command}", features=features)

    @classmethod
    def greeted(cls, transport: ExecTransport, *, spec: str,
                features: frozenset[str] | None) -> EventsExecTarget:
        """The adapter behind `transport`, once it said hello; a missing or wrong hello
        is a usage error, and the process is ended."""
        try:
            return cls(transport, spec=spec, features=features)
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
            if exc.kind != "timeout":
                raise
            raise TargetError(f"{exc} (an events adapter speaks first, {{\"hello\": "
                              f"{{\"protocol\": \"{EVENTS_PROTOCOL}\", ...}}}}; a fold "
                              f"target waits for the harness's hello: check it without "
                              f"--dialect provider-events)", kind="timeout") from exc
        hello = line.get("hello")
        if not isinstance(hello, dict) or hello.get("protocol") != EVENTS_PROTOCOL:
            raise self._transport.fail("protocol", f"the first line is {str(line)[:200]}; "
                                       f"expected {{\"hello\": {{\"protocol\": "
                                       f"\"{EVENTS_PROTOCOL}\", ...}}}} (events.md §5)")
        return hello

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
        outcome = outcome_of({k: v for k, v in outcome_line.items() if k != "stream"}, "end")
        persisted_line = self._line(stream, "end (persisted)")
        if "persisted" not in persisted_line:
            raise self._unexpected(persisted_line, "the persisted line")
        return {"events": events, "emitted": emitted, "outcome": outcome,
                "persisted": persisted_line["persisted"]}

    def _until(self, stream: int, key: str, value: Any, what: str
               ) -> tuple[list[JSON], JSONObject]:
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
                raise self._unexpected(line, f"an event or the {key}"
                                       + (f" {value}" if value is not None else ""))

    def _line(self, stream: int, what: str) -> JSONObject:
        line = self._transport.receive(what)
        if line.get("stream") != stream:
            raise self._unexpected(line, f"a line of stream {stream}")
        return line

    def _unexpected(self, line: JSONObject, expected: str) -> TargetError:
        return self._transport.fail("protocol", f"received {str(line)[:200]}; expected "
                                    f"{expected} (events.md §5)")

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
        """End the process."""
        self._transport.close()
