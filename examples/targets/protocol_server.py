"""Serve a Python fold over the refold protocol (docs/protocol.md), on stdin or HTTP.

    python protocol_server.py                        exec: protocol on stdin/stdout
    python protocol_server.py --http 127.0.0.1:0     HTTP; prints "listening on URL"

It serves the reference fold. The fault options make it misbehave on purpose, for the
harness's own tests: `--hang-on TEXT` stops answering a request whose line contains
TEXT, `--exit-on TEXT` exits there, `--garble-on TEXT` answers with a line that is not
JSON, `--list-on TEXT` answers a JSON array instead of an object. `--projection JSON` says in
its hello reply that only those places of its fold are compared (docs/protocol.md,
"Projection"), as a library that builds no chat.completion would.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from refold.reference.chat import Accumulator, fold

OPERATIONS = ["fold", "new", "add", "response", "finished", "mark_done"]


class ProtocolHandler:
    """Answers protocol messages with the reference fold; one instance per target."""

    def __init__(self, name: str = "reference-over-protocol", projection: Any = None) -> None:
        self.name = name
        self.projection = projection
        self._accumulators: dict[str, Accumulator] = {}
        self._next_id = 0
        self._lock = threading.Lock()

    def answer(self, message: Any) -> dict[str, Any]:
        """The reply to one request, errors included, echoing the request's `seq`."""
        if not isinstance(message, dict):
            return _error("ProtocolError", f"a request must be a JSON object: {message!r}")
        return {**self._answer(message), "seq": message.get("seq")}

    def _answer(self, message: dict[str, Any]) -> dict[str, Any]:
        handler = getattr(self, f"_op_{message.get('op')}", None)
        if handler is None:
            return _error("ProtocolError", f"unknown op {message.get('op')!r}")
        try:
            with self._lock:
                return {"ok": True, **handler(message)}
        except Exception as exc:
            return _error(type(exc).__name__, str(exc))

    def _op_hello(self, message: dict[str, Any]) -> dict[str, Any]:
        hello = {"protocol": 2, "name": self.name, "version": "1", "operations": OPERATIONS}
        if self.projection is not None:
            hello["projection"] = self.projection
        return hello

    def _op_fold(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"response": fold(message["chunks"])}

    def _op_new(self, message: dict[str, Any]) -> dict[str, Any]:
        for handle in message.get("release", []):
            self._accumulators.pop(handle, None)
        self._next_id += 1
        handle = f"a{self._next_id}"
        self._accumulators[handle] = Accumulator()
        return {"id": handle}

    def _op_add(self, message: dict[str, Any]) -> dict[str, Any]:
        self._accumulators[message["id"]].add(message["chunk"])
        return {}

    def _op_response(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"response": self._accumulators[message["id"]].response()}

    def _op_finished(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"finished": self._accumulators[message["id"]].finished}

    def _op_mark_done(self, message: dict[str, Any]) -> dict[str, Any]:
        self._accumulators[message["id"]].mark_done()
        return {}


def _error(kind: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"type": kind, "message": message}}


def serve_lines(handler: ProtocolHandler, faults: argparse.Namespace) -> None:
    """The exec: protocol: a request per stdin line, a reply per stdout line."""
    for line in sys.stdin:
        if not line.strip():
            continue
        if faults.hang_on and faults.hang_on in line:
            time.sleep(3600)
        if faults.exit_on and faults.exit_on in line:
            print("exiting on purpose", file=sys.stderr, flush=True)
            os._exit(3)
        if faults.garble_on and faults.garble_on in line:
            print("this is not JSON", flush=True)
            continue
        reply: Any = handler.answer(json.loads(line))
        if faults.list_on and faults.list_on in line:
            reply = reply.get("response", [reply])
            reply = [reply]
        print(json.dumps(reply), flush=True)


def http_server(
    handler: ProtocolHandler, host: str = "127.0.0.1", port: int = 0
) -> ThreadingHTTPServer:
    """An HTTP server answering POSTed protocol messages (call serve_forever on it)."""

    class _Requests(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            body = json.dumps(handler.answer(json.loads(self.rfile.read(length)))).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            """Keep stdout and stderr quiet."""

    return ThreadingHTTPServer((host, port), _Requests)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", metavar="HOST:PORT")
    for fault in ("hang-on", "exit-on", "garble-on", "list-on"):
        parser.add_argument(f"--{fault}", metavar="TEXT")
    parser.add_argument(
        "--projection",
        metavar="JSON",
        type=json.loads,
        help="the projection its hello reply declares",
    )
    args = parser.parse_args()
    handler = ProtocolHandler(projection=args.projection)
    if args.http:
        host, _, port = args.http.rpartition(":")
        server = http_server(handler, host or "127.0.0.1", int(port))
        print(
            f"listening on http://{server.server_address[0]}:{server.server_address[1]}/",
            flush=True,
        )
        server.serve_forever()
    else:
        serve_lines(handler, args)


if __name__ == "__main__":
    main()
