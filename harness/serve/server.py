"""A loopback server that answers a dialect's API with drawn results.

What a dialect serves is its `Endpoint` (`refold.serve.cases`, `Dialect.endpoint`): the
path it answers, where a request carries its seed, how a drawn result is streamed. A
request's seed draws the result (0 when absent), so the same seed always gives the same
result and different seeds different ones. Streamed, the result is sent as server-sent
events (or the dialect's own framing): split by the spec's lossless families, framed with
real-server variations and cut into byte pieces, each written and flushed on its own;
otherwise it is the JSON body. A client under test is pointed at the base URL, makes both
calls with one seed, and compares its streamed fold with its non-streaming result.

Only the standard library's HTTP server: no credentials, nothing persisted, loopback by
default (`refold serve` binds another address only with `--allow-remote`). A malformed
request (a bad or huge `Content-Length`, a body that is not a JSON object or nests too
deeply) gets a 400 or 413 answer saying what was expected.
"""

from __future__ import annotations

import copy
import ipaddress
import json
import re
import socket
import sys
import threading
from collections.abc import Collection
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple

from refold.reference import JSON

from ..dialects import DEFAULT_DIALECT
from .cases import ENDPOINTS, Endpoint, ServedCase

__all__ = [
    "DEFAULT_FEATURES",
    "MAX_BODY_BYTES",
    "BadLength",
    "CompletionServer",
    "ServedCase",
    "declared_length",
    "is_loopback",
    "served_case",
]

DEFAULT_FEATURES = ENDPOINTS[DEFAULT_DIALECT].features
"""What an OpenAI-compatible client is asked to fold by default."""

MAX_BODY_BYTES = 8 * 1024 * 1024
"""The largest request body read; a larger declared `Content-Length` gets 413 unread."""

_BYTE_COUNT = re.compile(r"[0-9]+", re.ASCII)


_DRAWN: dict[tuple[str, int, frozenset[str], frozenset[int]], ServedCase] = {}
_DRAWING = threading.Lock()


def _case(
    endpoint: Endpoint, case_seed: int, features: frozenset[str], families: frozenset[int]
) -> ServedCase:
    # Drawn once per process: Hypothesis mixes into its draws string constants of every
    # local module imported so far, so drawing the same seed again after more imports can
    # give another case; a server must serve one case per seed.
    key = (endpoint.path, case_seed, features, families)
    with _DRAWING:
        if key not in _DRAWN:
            _DRAWN[key] = endpoint.draw(case_seed, features, families)
        return copy.deepcopy(_DRAWN[key])


def served_case(
    case_seed: int,
    *,
    features: Collection[str] | None = None,
    families: Collection[int] = frozenset({1}),
    dialect: str = DEFAULT_DIALECT,
) -> ServedCase:
    """Draw the case for `case_seed` in `dialect` (features None: the endpoint's
    default ones): the same seed and options always give the same case."""
    endpoint = ENDPOINTS[dialect]
    chosen = endpoint.features if features is None else frozenset(features)
    return _case(endpoint, case_seed, chosen, frozenset(families))


class CompletionServer(ThreadingHTTPServer):
    """The server of `dialect`'s endpoint (`refold.serve.cases.ENDPOINTS`); `max_requests`
    makes it stop itself after that many requests."""

    daemon_threads = True
    request_queue_size = 128
    """The listen backlog: socketserver's 5 reset clients sending 20 requests at once."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        features: Collection[str] | None = None,
        families: Collection[int] = frozenset({1}),
        max_requests: int | None = None,
        dialect: str = DEFAULT_DIALECT,
    ) -> None:
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        super().__init__((host, port), _Handler)
        self.dialect = dialect
        self.endpoint: Endpoint = ENDPOINTS[dialect]
        self.features = self.endpoint.features if features is None else frozenset(features)
        self.families = frozenset(families)
        self.max_requests = max_requests
        self._served = 0
        self._lock = threading.Lock()

    @property
    def base_url(self) -> str:
        """The base URL the dialect's clients take (`.../v1` for OpenAI's, the bare
        origin for Anthropic's)."""
        host, port = self.server_address[:2]
        shown = f"[{host!s}]" if ":" in str(host) else str(host)
        return f"http://{shown}:{port}{self.endpoint.client_base}"

    @property
    def url(self) -> str:
        """The URL requests are posted to."""
        return self.base_url + self.endpoint.path.removeprefix(self.endpoint.client_base)

    def case(self, case_seed: int) -> ServedCase:
        """The case this server serves for `case_seed`."""
        return _case(self.endpoint, case_seed, self.features, self.families)

    def count_request(self) -> None:
        """Record one answered request; the last one allowed stops the server."""
        with self._lock:
            self._served += 1
            last = self.max_requests is not None and self._served >= self.max_requests
        if last:
            threading.Thread(target=self.shutdown, daemon=True).start()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """One line on stderr instead of socketserver's traceback: a client that hangs up
        or stalls mid-request ends only its own connection."""
        exc = sys.exc_info()[1]
        print(
            f"refold serve: the request from {client_address[0]} ended early: "
            f"{type(exc).__name__}: {exc}",
            file=sys.stderr,
        )


class BadLength(NamedTuple):
    """A request's `Content-Length` this server refuses: the status and why."""

    status: int
    message: str


def declared_length(headers: Message) -> int | BadLength:
    """The body length a request declares (0 when it declares none), or why it is
    refused: one header of ASCII digits only (`int()` also reads `²` and `٣`), at most
    `MAX_BODY_BYTES`."""
    declared = headers.get_all("content-length") or []
    if not declared:
        return 0
    value = declared[0].strip()
    if len(declared) > 1 or not _BYTE_COUNT.fullmatch(value):
        return BadLength(
            400,
            f"Content-Length {', '.join(declared)!r} is not a byte count; "
            f"expected one non-negative integer in ASCII digits",
        )
    if int(value) > MAX_BODY_BYTES:
        return BadLength(
            413, f"Content-Length {value} is more than this server reads ({MAX_BODY_BYTES} bytes)"
        )
    return int(value)


class _Handler(BaseHTTPRequestHandler):
    server: CompletionServer
    protocol_version = "HTTP/1.0"  # the connection closes after each response
    timeout = 30  # seconds a client may take to send its request

    def do_POST(self) -> None:
        try:
            endpoint = self.server.endpoint
            asked = endpoint.asked(self.path)
            if asked is None:
                self._send_json(
                    404, self._error(f"unknown path {self.path!r}; expected {endpoint.path}")
                )
                return
            request = self._read_json()
            if request is None:
                return
            case = self.server.case(endpoint.seed_of(request))
            stream = request.get("stream") is True if asked.stream is None else asked.stream
            if stream:
                self._send_events(case.framed(asked.framing), asked.content_type)
            else:
                self._send_json(200, case.result)
        finally:
            self.server.count_request()

    def _read_json(self) -> dict[str, Any] | None:
        length = self._content_length()
        if length is None:
            return None
        try:
            request = json.loads(self.rfile.read(length) or b"{}")
        except RecursionError:
            self._send_json(400, self._error("the request body is nested too deeply to read"))
            return None
        except ValueError as exc:
            self._send_json(400, self._error(f"the request body is not JSON: {exc}"))
            return None
        if not isinstance(request, dict):
            self._send_json(400, self._error("the request body must be a JSON object"))
            return None
        return request

    def _content_length(self) -> int | None:
        """The declared body length; None once an error answer was sent."""
        found = declared_length(self.headers)
        if isinstance(found, BadLength):
            self._send_json(found.status, self._error(found.message))
            return None
        return found

    def _error(self, message: str) -> JSON:
        return self.server.endpoint.error(message)

    def _send_json(self, status: int, body: JSON) -> None:
        encoded = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(encoded)))
        self.end_headers()
        self.wfile.write(encoded)

    def _send_events(self, parts: list[bytes], content_type: str) -> None:
        self.send_response(200)
        self.send_header("content-type", content_type)
        self.send_header("cache-control", "no-cache")
        self.end_headers()
        for part in parts:
            self.wfile.write(part)
            self.wfile.flush()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the request log would interleave with the client's output."""


def is_loopback(host: str) -> bool:
    """Whether every address `host` names is a loopback address (`localhost`, 127.0.0.1,
    ::1); a wildcard such as 0.0.0.0 or `::` is not."""
    try:
        found = socket.getaddrinfo(host, None)
    except (OSError, UnicodeError):
        return False
    addresses = {str(info[4][0]).partition("%")[0] for info in found}
    return bool(addresses) and all(ipaddress.ip_address(a).is_loopback for a in addresses)
