"""A loopback server that answers OpenAI-style chat completions with drawn completions.

`POST /v1/chat/completions` draws a completion from the request's `seed` (OpenAI's own
request field; 0 when absent), so the same seed always gives the same completion. With
`"stream": true` the completion is sent as server-sent events: split into chunks by the
spec's lossless families, framed with real-server variations and cut into byte pieces, each
written and flushed on its own; otherwise it is the JSON body. A client under test is
pointed at the base URL, makes both calls with one seed, and compares its streamed fold with
its non-streaming result. Only the standard library's HTTP server: no credentials, nothing
persisted, loopback by default.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Collection
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from refold.reference import JSON, JSONObject

__all__ = ["DEFAULT_FEATURES", "CompletionServer", "ServedCase", "served_case"]

DEFAULT_FEATURES = frozenset({"text", "choices", "tool_calls", "refusal", "logprobs", "usage"})
"""What an OpenAI-compatible client is asked to fold by default."""

_PATH = "/v1/chat/completions"


@dataclass(frozen=True)
class ServedCase:
    """One drawn case: the completion, its chunks and the byte pieces that carry them."""

    completion: JSONObject
    chunks: list[JSON]
    parts: list[bytes]


def served_case(case_seed: int, *, features: Collection[str] = DEFAULT_FEATURES,
                families: Collection[int] = frozenset({1})) -> ServedCase:
    """Draw the case for `case_seed`: the same seed and options always give the same case."""
    # Imported here: `refold check` imports every command before pytest starts, and
    # Hypothesis imported that early could not be assertion-rewritten by pytest.
    from hypothesis import HealthCheck, Phase, given, seed, settings
    from hypothesis import strategies as st

    from refold.strategies import chunk_splits, completions
    from refold.strategies.wire import sse_bytes

    drawn: list[ServedCase] = []

    @settings(max_examples=1, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @seed(case_seed)
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        completion = data.draw(completions(features=frozenset(features)))
        chunks = data.draw(chunk_splits(completion, families=frozenset(families)))
        drawn.append(ServedCase(completion, chunks, data.draw(sse_bytes(chunks, done=True))))

    draw()
    return drawn[0]


class CompletionServer(ThreadingHTTPServer):
    """The server; `max_requests` makes it stop itself after that many requests."""

    daemon_threads = True

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *,
                 features: Collection[str] = DEFAULT_FEATURES,
                 families: Collection[int] = frozenset({1}),
                 max_requests: int | None = None) -> None:
        super().__init__((host, port), _Handler)
        self.features = frozenset(features)
        self.families = frozenset(families)
        self.max_requests = max_requests
        self._served = 0
        self._lock = threading.Lock()

    @property
    def base_url(self) -> str:
        """The base URL an OpenAI client takes (`.../v1`)."""
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def case(self, case_seed: int) -> ServedCase:
        """The case this server serves for `case_seed`."""
        return served_case(case_seed, features=self.features, families=self.families)

    def count_request(self) -> None:
        """Record one answered request; the last one allowed stops the server."""
        with self._lock:
            self._served += 1
            last = self.max_requests is not None and self._served >= self.max_requests
        if last:
            threading.Thread(target=self.shutdown, daemon=True).start()


class _Handler(BaseHTTPRequestHandler):
    server: CompletionServer
    protocol_version = "HTTP/1.0"  # the connection closes after each response

    def do_POST(self) -> None:
        try:
            if self.path.rstrip("/") != _PATH:
                self._send_json(404, _error(f"unknown path {self.path!r}; expected {_PATH}"))
                return
            request = self._read_json()
            if request is None:
                return
            case = self.server.case(_seed_of(request))
            if request.get("stream") is True:
                self._send_events(case.parts)
            else:
                self._send_json(200, case.completion)
        finally:
            self.server.count_request()

    def _read_json(self) -> dict[str, Any] | None:
        length = int(self.headers.get("content-length") or 0)
        try:
            request = json.loads(self.rfile.read(length) or b"{}")
        except ValueError as exc:
            self._send_json(400, _error(f"the request body is not JSON: {exc}"))
            return None
        if not isinstance(request, dict):
            self._send_json(400, _error("the request body must be a JSON object"))
            return None
        return request

    def _send_json(self, status: int, body: JSON) -> None:
        encoded = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(encoded)))
        self.end_headers()
        self.wfile.write(encoded)

    def _send_events(self, parts: list[bytes]) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.end_headers()
        for part in parts:
            self.wfile.write(part)
            self.wfile.flush()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the request log would interleave with the client's output."""


def _seed_of(request: dict[str, Any]) -> int:
    value = request.get("seed")
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _error(message: str) -> JSONObject:
    return {"error": {"message": message, "type": "invalid_request_error"}}
