"""Serve an events adapter over HTTP: refold-events/1 (docs/events.md), one POST a message.

    python examples/targets/events_server.py --port 8081                    the reference
    python examples/targets/events_server.py --port 8081 --adapter example  its example

(the example is examples/events_adapter.py), and check it with
`refold check --dialect provider-events --target http://127.0.0.1:8081/`.

Each POST carries one harness message of events.md §5 (`hello`, `begin`, `frame`, `end`,
`fold`) as its JSON body; the 200 response's body is the lines a subprocess adapter would
write in reply to it, one JSON object per line (none for `begin`). A service may be shared
by several harness processes at once: its adapters are kept by stream id (the harness
starts each target's ids at a random number), and a stream that never ends is forgotten
once `KEEP` newer ones began.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from refold.reference.events import DIALECTS, FEATURES, Adapter, fold_turn

KEEP = 1024
"""How many streams begun and not yet ended a service keeps."""

Line = dict[str, Any]


class ReferenceAdapter:
    """`refold.reference.events.Adapter` in the interface of examples/events_adapter.py."""

    def __init__(self) -> None:
        self._adapter: Adapter | None = None

    def begin(self, dialect: str) -> None:
        """Start a stream of `dialect`."""
        self._adapter = Adapter(dialect)

    def frame(self, frame: Any) -> list[Line]:
        """The events of one frame."""
        assert self._adapter is not None, "begin() starts a stream"
        return list(self._adapter.frame(frame))

    def end(self) -> Line:
        """The outcome, with the events of the end of the body."""
        assert self._adapter is not None, "begin() starts a stream"
        return dict(self._adapter.end())

    def persisted(self) -> Any:
        """What the reference runtime persists."""
        assert self._adapter is not None, "begin() starts a stream"
        return self._adapter.persisted()

    def fold(self, events: list[Line]) -> Line:
        """The reference fold of events into their turn."""
        return dict(fold_turn(events))


def reference_service() -> EventsService:
    """The reference adapter, as a service."""
    return EventsService(
        ReferenceAdapter,
        {
            "protocol": "refold-events/1",
            "dialects": list(DIALECTS),
            "features": list(FEATURES),
            "operations": ["fold"],
            "description": "refold.reference.events.Adapter over HTTP",
        },
    )


def example_service() -> EventsService:
    """examples/events_adapter.py, as a service."""
    path = Path(__file__).resolve().parent.parent / "events_adapter.py"
    spec = importlib.util.spec_from_file_location("refold_example_events_adapter", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    declared = module.refold_target
    return EventsService(
        declared["adapter"],
        {
            "protocol": "refold-events/1",
            "provider": declared["provider"],
            "dialects": declared["accepts"],
            "features": declared["features"],
            "operations": ["fold"],
            "description": f"{declared['description']}, over HTTP",
        },
    )


class EventsService:
    """refold-events/1 messages in, reply lines out: one adapter per open stream."""

    def __init__(self, factory: Callable[[], Any], hello: Line) -> None:
        self._factory = factory
        self._hello = hello
        self._streams: collections.OrderedDict[Any, Any] = collections.OrderedDict()
        self._lock = threading.Lock()  # the streams of several harness processes

    def reply(self, message: Line) -> list[Line]:
        """The lines answering one message (an adapter that raises raises here)."""
        op, stream = message.get("op"), message.get("stream")
        if op == "hello":
            return [{"hello": self._hello}]
        if op == "begin":
            adapter = self._factory()
            adapter.begin(message["dialect"])
            with self._lock:
                self._streams[stream] = adapter
                while len(self._streams) > KEEP:
                    self._streams.popitem(last=False)
            return []
        if op == "frame":
            lines = [
                {"stream": stream, "event": e}
                for e in self._adapter(stream).frame(message["frame"])
            ]
            return [*lines, {"stream": stream, "ack": message["seq"]}]
        if op == "end":
            with self._lock:
                adapter = self._streams.pop(stream)
            outcome = dict(adapter.end())
            lines = [{"stream": stream, "event": e} for e in outcome.pop("events", [])]
            return [
                *lines,
                {"stream": stream, **outcome},
                {"stream": stream, "persisted": adapter.persisted()},
            ]
        if op == "fold":
            return [{"stream": stream, "turn": self._factory().fold(message["events"])}]
        raise ValueError(f"unknown op {op!r}")

    def _adapter(self, stream: Any) -> Any:
        with self._lock:
            return self._streams[stream]


def http_server(
    service: EventsService, host: str = "127.0.0.1", port: int = 0
) -> ThreadingHTTPServer:
    """An HTTP server answering POSTed messages with `service` (call serve_forever)."""

    class _Messages(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive: one connection serves the whole run
        wbufsize = -1  # one write per response: no wait on delayed ACKs (docs/protocol.md)

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            try:
                lines = service.reply(json.loads(self.rfile.read(length)))
            except Exception as exc:  # the harness fails the stream with this status
                self._send(500, f"{type(exc).__name__}: {exc}".encode(), "text/plain")
                return
            body = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
            self._send(200, body.encode(), "application/x-ndjson")

        def _send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            """Keep stdout and stderr quiet."""

    return ThreadingHTTPServer((host, port), _Messages)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8081, help="0: any free port")
    parser.add_argument("--adapter", choices=("reference", "example"), default="reference")
    args = parser.parse_args()
    service = reference_service() if args.adapter == "reference" else example_service()
    server = http_server(service, args.host, args.port)
    print(f"listening on http://{args.host}:{server.server_port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
