"""`exec:COMMAND` events adapters: refold-events/1 (events.md §5) on stdin and stdout.

The process speaks first, its hello; the exchange itself is `EventsProtocolTarget`'s. A
line that is not JSON, a missing ack within the deadline, a crash or a hang kills the
process and fails the stream (the rule under test); the next stream gets a fresh process,
which greets again.
"""

from __future__ import annotations

import shlex
from typing import ClassVar

from refold.targets.confinement import anchored
from refold.targets.exec import ExecTransport
from refold.targets.remote import DEFAULT_MAX_REPLY

from .protocol import EVENTS_PROTOCOL, EventsProtocolTarget

__all__ = ["EVENTS_PROTOCOL", "EventsExecTarget"]

_HELLO_SECONDS = 30.0


class EventsExecTarget(EventsProtocolTarget):
    """An events adapter run as a subprocess speaking refold-events/1."""

    _SILENT_HELLO: ClassVar[str] = (
        f' (an events adapter speaks first, {{"hello": {{"protocol": '
        f'"{EVENTS_PROTOCOL}", ...}}}}; a fold target waits for the harness\'s hello: '
        f"check it without --dialect provider-events)"
    )

    @classmethod
    def start(
        cls,
        command: str,
        *,
        features: frozenset[str] | None,
        timeout: float,
        max_reply: int = DEFAULT_MAX_REPLY,
    ) -> EventsExecTarget:
        """Start the adapter and read its hello; a missing or wrong hello is a usage
        error."""
        transport = ExecTransport(
            anchored(shlex.split(command)),
            where=f"exec:{command}",
            timeout=timeout,
            hello_timeout=max(timeout, _HELLO_SECONDS),
            max_reply=max_reply,
        )
        return cls.greeted(transport, spec=f"exec:{command}", features=features)
