"""A loopback server that serves a corpus's cases byte for byte (`refold serve --corpus`).

Each case is answered as server-sent events in its recorded pieces, each piece written and
flushed on its own, so a real client (an SDK, `curl -N`, a browser's `fetch`) meets the
stream as it was captured:

* `GET /cases` lists the cases: `[{"name", "dialect", "path"}]`;
* `GET` or `POST /cases/NAME` streams case NAME;
* `POST` to a dialect's API path (each served dialect's `Endpoint`: `/v1/chat/completions`,
  `/v1/messages`, `/v1/responses`, `/v1beta/models/{model}:streamGenerateContent?alt=sse`)
  streams the case named by the body's `case` field (an SDK's extra body field), which
  must be of that dialect; without one, the first case of that dialect.

A case without recorded pieces (captured from JSON lines) is framed one event an item, as
the dialect's API frames them. Standard library only, loopback unless `--allow-remote`.
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote

from ..capture.corpus import Case
from .cases import ENDPOINTS
from .server import BadLength, declared_length

__all__ = ["CorpusServer"]


class CorpusServer(ThreadingHTTPServer):
    """Serves `cases` by name; `base_url` is the origin (`http://127.0.0.1:PORT`)."""

    daemon_threads = True
    request_queue_size = 128

    def __init__(
        self,
        cases: list[Case],
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        max_requests: int | None = None,
    ) -> None:
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        super().__init__((host, port), _Handler)
        self.cases = {case.name: case for case in cases}
        self.max_requests = max_requests
        self._served = 0
        self._lock = threading.Lock()

    def count_request(self) -> None:
        """Record one answered request; the last one allowed stops the server."""
        with self._lock:
            self._served += 1
            last = self.max_requests is not None and self._served >= self.max_requests
        if last:
            threading.Thread(target=self.shutdown, daemon=True).start()

    @property
    def base_url(self) -> str:
        """The server's origin."""
        host, port = self.server_address[:2]
        shown = f"[{host!s}]" if ":" in str(host) else str(host)
        return f"http://{shown}:{port}"

    def for_path(self, path: str, name: Any) -> Case | str:
        """The case a request to a dialect's API `path` (with its query) asks for, or why
        there is none. Cases are streamed as SSE: a request for another framing (Gemini
        without `?alt=sse`) is told so."""
        asked = {d: e.asked(path) for d, e in ENDPOINTS.items()}
        dialect = next((d for d, found in asked.items() if found is not None), None)
        if dialect is None:
            return (
                f"unknown path {path.split('?', 1)[0]!r}; expected /cases, /cases/NAME or "
                f"one of {', '.join(e.path for e in ENDPOINTS.values())}"
            )
        framing = asked[dialect]
        if framing is not None and framing.framing != "sse":
            return (
                f"{path!r} asks for the {framing.framing} framing; this server streams "
                f"a corpus case as server-sent events only"
            )
        if isinstance(name, str):
            case = self.cases.get(name)
            if case is None or case.dialect.name != dialect:
                return f"no {dialect} case named {name!r} in this corpus"
            return case
        found = next((c for c in self.cases.values() if c.dialect.name == dialect), None)
        return found if found is not None else f"this corpus has no {dialect} case"


class _Handler(BaseHTTPRequestHandler):
    server: CorpusServer
    protocol_version = "HTTP/1.0"
    timeout = 30

    def do_GET(self) -> None:
        try:
            self._get()
        finally:
            self.server.count_request()

    def do_POST(self) -> None:
        try:
            self._post()
        finally:
            self.server.count_request()

    def _get(self) -> None:
        path = self.path.split("?", 1)[0].rstrip("/")
        if path == "/cases":
            self._send_json(
                200,
                [
                    {"name": c.name, "dialect": c.dialect.name, "path": f"/cases/{c.name}"}
                    for c in self.server.cases.values()
                ],
            )
        elif path.startswith("/cases/"):
            self._send_named(unquote(path.removeprefix("/cases/")))
        else:
            self._send_json(
                404,
                {
                    "error": {
                        "message": f"unknown path {self.path!r}; expected /cases or /cases/NAME"
                    }
                },
            )

    def _post(self) -> None:
        path = self.path.split("?", 1)[0].rstrip("/")
        body = self._body()
        if body is None:
            return
        if path.startswith("/cases/"):
            self._send_named(unquote(path.removeprefix("/cases/")))
            return
        found = self.server.for_path(self.path, body.get("case"))
        if isinstance(found, str):
            self._send_json(404, {"error": {"message": found}})
        else:
            self._send_case(found)

    def _body(self) -> dict[str, Any] | None:
        declared = declared_length(self.headers)
        if isinstance(declared, BadLength):
            self._send_json(declared.status, {"error": {"message": declared.message}})
            return None
        raw = self.rfile.read(declared)
        try:
            request = json.loads(raw or b"{}")
        except (ValueError, RecursionError):
            request = {}
        return request if isinstance(request, dict) else {}

    def _send_named(self, name: str) -> None:
        case = self.server.cases.get(name)
        if case is None:
            self._send_json(
                404, {"error": {"message": f"no case named {name!r}; GET /cases lists them"}}
            )
        else:
            self._send_case(case)

    def _send_case(self, case: Case) -> None:
        self.send_response(200)
        # SSE is UTF-8 (WHATWG); said outright, since a browser decodes a body without a
        # charset as windows-1252 and its HAR keeps the mojibake of any non-ASCII text
        self.send_header("content-type", "text/event-stream; charset=utf-8")
        self.send_header("cache-control", "no-cache")
        self.end_headers()
        for part in case.wire:
            self.wfile.write(part)
            self.wfile.flush()

    def _send_json(self, status: int, body: Any) -> None:
        encoded = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(encoded)))
        self.end_headers()
        self.wfile.write(encoded)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the request log would interleave with the client's output."""
