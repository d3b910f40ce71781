"""`http://host:port/path` targets: an implementation running as a service.

The same protocol as `exec:` (docs/protocol.md), one request per HTTP POST: the
request message is the JSON body, the reply is the JSON body of a 200 response. The
harness cannot restart a service, so a timeout or a dropped connection fails the call
and the next call simply tries again; accumulator ids stay valid as long as the
service keeps them.

Every call is bounded as a whole: `--target-timeout` is the deadline of the exchange,
not of each read (a watchdog shuts the socket down when it passes, so a reply dripping
one byte at a time cannot stretch it), and the reply body may hold at most
`--target-max-reply` bytes. The harness asks for no compression (`accept-encoding:
identity`) and inflates nothing, so a compressed body cannot grow past the limit.
"""

from __future__ import annotations

import contextlib
import http.client
import itertools
import json
import select
import socket
import threading
import urllib.parse

from refold.reference import JSONObject

from ..dialects import Dialect
from ..errors import TargetError, UsageError
from .remote import DEFAULT_MAX_REPLY, RemoteTarget, misanswered, stamped

__all__ = ["HttpTarget", "HttpTransport"]

_HEADERS = {
    "content-type": "application/json",
    "user-agent": "refold",
    "accept-encoding": "identity",
}


class HttpTransport:
    """JSON messages over HTTP POST to one URL, with one keep-alive connection."""

    def __init__(self, url: str, *, timeout: float, max_reply: int = DEFAULT_MAX_REPLY) -> None:
        self.where = url
        self.url = url
        self.timeout = timeout
        self.max_reply = max_reply
        parts = urllib.parse.urlsplit(url)
        if not parts.hostname:
            raise UsageError(f"target URL {url!r} names no host; expected http://host:port/path")
        self._https = parts.scheme == "https"
        self._host, self._port = parts.hostname, parts.port
        self._path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self._connection: http.client.HTTPConnection | None = None
        self._seq = itertools.count(1)

    def generation(self) -> int:
        """Always 1: a service is never restarted by the harness."""
        return 1

    def request(self, message: JSONObject) -> JSONObject:
        """POST the message; the reply is the response body."""
        sent = stamped(message, next(self._seq))
        op = sent.get("op")
        body = self.post(json.dumps(sent).encode(), op)
        text = body[:200].decode("utf-8", "replace")
        try:
            reply = json.loads(body)
        except ValueError:
            raise TargetError(
                f"{self.url}: the reply to {op!r} is not JSON: {text!r}", kind="protocol"
            ) from None
        if not isinstance(reply, dict):
            raise TargetError(
                f"{self.url}: the reply to {op!r} is {text!r}, expected a JSON object",
                kind="protocol",
            )
        problem = misanswered(sent, reply)
        if problem is not None:
            raise TargetError(f"{self.url}: {problem}", kind="protocol")
        return reply

    def post(self, body: bytes, op: object) -> bytes:
        """POST `body` under one deadline (`timeout` for the whole exchange) and return
        the (bounded, unencoded) body of the 200 response; `op` names the message in
        failures. Any other status, a timeout, a dropped connection, a body over
        `max_reply` bytes or one with a content-encoding is a TargetError."""
        status, data = self._exchange(body, op)
        if status != 200:
            text = data[:200].decode("utf-8", "replace")
            raise TargetError(
                f"{self.url}: {op!r} answered HTTP {status}: {text!r}", kind="protocol"
            )
        return data

    def _exchange(self, body: bytes, op: object) -> tuple[int, bytes]:
        """One POST under one deadline: the status and the (bounded) body."""
        connection = self._connect()
        expired = threading.Event()
        watchdog = threading.Timer(self.timeout, _cut, (connection, expired))
        watchdog.daemon = True
        watchdog.start()
        try:
            connection.request("POST", self._path, body=body, headers=_HEADERS)
            response = connection.getresponse()
            data = self._read(response, op)
        except (OSError, http.client.HTTPException) as exc:
            self._drop()
            # The socket's own timeout is the same deadline, per read: on a loaded machine
            # it can fire before the watchdog thread runs.
            if expired.is_set() or isinstance(exc, TimeoutError):
                raise TargetError(
                    f"{self.url}: no complete reply to {op!r} within {self.timeout:g} s",
                    kind="timeout",
                ) from exc
            raise TargetError(
                f"{self.url}: {op!r} failed: {type(exc).__name__}: {exc}", kind="crashed"
            ) from exc
        except TargetError:
            self._drop()
            raise
        finally:
            watchdog.cancel()
        if expired.is_set():
            self._drop()
            raise TargetError(
                f"{self.url}: no complete reply to {op!r} within {self.timeout:g} s", kind="timeout"
            )
        return response.status, data

    def _read(self, response: http.client.HTTPResponse, op: object) -> bytes:
        declared = response.getheader("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_reply:
            raise self._oversize(op, f"declares {declared} bytes, more")
        data = response.read(self.max_reply + 1)
        if len(data) > self.max_reply:
            raise self._oversize(op, "is longer")
        if response.getheader("content-encoding", "identity").lower() != "identity":
            raise TargetError(
                f"{self.url}: the reply to {op!r} is encoded "
                f"{response.getheader('content-encoding')!r}; the harness asks "
                f"for identity and inflates nothing",
                kind="protocol",
            )
        return data

    def _oversize(self, op: object, how: str) -> TargetError:
        return TargetError(
            f"{self.url}: the reply to {op!r} {how} than the limit of "
            f"{self.max_reply} bytes (--target-max-reply)",
            kind="protocol",
        )

    def _connect(self) -> http.client.HTTPConnection:
        connection = self._connection
        if connection is not None and connection.sock is not None and _readable(connection.sock):
            self._drop()  # the service closed it while idle (or wrote unasked): start anew
            connection = None
        if connection is None:
            kind = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            connection = kind(self._host, self._port, timeout=self.timeout)
            self._connection = connection
        return connection

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()

    def close(self) -> None:
        """Close the connection."""
        self._drop()


def _readable(sock: socket.socket) -> bool:
    try:
        return bool(select.select([sock], [], [], 0)[0])
    except (OSError, ValueError):
        return True


def _cut(connection: http.client.HTTPConnection, expired: threading.Event) -> None:
    """The deadline passed: end the exchange by shutting the socket down under it."""
    expired.set()
    sock = connection.sock
    if sock is not None:
        with contextlib.suppress(OSError):  # already closed
            sock.shutdown(socket.SHUT_RDWR)


class HttpTarget(RemoteTarget):
    """A target reached over HTTP, speaking the JSON protocol."""

    @classmethod
    def connect(
        cls,
        url: str,
        *,
        features: frozenset[str] | None,
        timeout: float,
        dialect: Dialect | None = None,
        max_reply: int = DEFAULT_MAX_REPLY,
    ) -> HttpTarget:
        """Say hello to the service; an unreachable or silent one is a usage error."""
        transport = HttpTransport(url, timeout=timeout, max_reply=max_reply)
        return cls.greeted(transport, spec=url, features=features, dialect=dialect)
