"""`http://host:port/path` targets: an implementation running as a service.

The same protocol as `exec:` (docs/protocol.md), one request per HTTP POST: the
request message is the JSON body, the reply is the JSON body of a 200 response. The
harness cannot restart a service, so a timeout or a dropped connection fails the call
and the next call simply tries again; accumulator ids stay valid as long as the
service keeps them.
"""

from __future__ import annotations

import json

import httpx

from refold.reference import JSONObject

from .errors import TargetError
from .targets import RemoteTarget

__all__ = ["HttpTarget", "HttpTransport"]


class HttpTransport:
    """JSON messages over HTTP POST to one URL, with one keep-alive connection."""

    def __init__(self, url: str, *, timeout: float) -> None:
        self.where = url
        self.url = url
        self._client = httpx.Client(timeout=timeout, headers={"user-agent": "refold"})

    def generation(self) -> int:
        """Always 1: a service is never restarted by the harness."""
        return 1

    def request(self, message: JSONObject) -> JSONObject:
        """POST the message; the reply is the response body."""
        op = message.get("op")
        try:
            response = self._client.post(self.url, content=json.dumps(message),
                                         headers={"content-type": "application/json"})
        except httpx.TimeoutException as exc:
            raise TargetError(f"{self.url}: no reply to {op!r} within the timeout "
                              f"({type(exc).__name__})", kind="timeout") from exc
        except httpx.HTTPError as exc:
            raise TargetError(f"{self.url}: {op!r} failed: {type(exc).__name__}: {exc}",
                              kind="crashed") from exc
        if response.status_code != 200:
            raise TargetError(f"{self.url}: {op!r} answered HTTP {response.status_code}: "
                              f"{response.text[:200]!r}", kind="protocol")
        try:
            reply = response.json()
        except ValueError:
            raise TargetError(f"{self.url}: the reply to {op!r} is not JSON: "
                              f"{response.text[:200]!r}", kind="protocol") from None
        if not isinstance(reply, dict):
            raise TargetError(f"{self.url}: the reply to {op!r} is {response.text[:200]!r}, "
                              f"expected a JSON object", kind="protocol")
        return reply

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()


class HttpTarget(RemoteTarget):
    """A target reached over HTTP, speaking the JSON protocol."""

    @classmethod
    def connect(cls, url: str, *, features: frozenset[str] | None,
                timeout: float) -> HttpTarget:
        """Say hello to the service; an unreachable or silent one is a usage error."""
        return cls.greeted(HttpTransport(url, timeout=timeout), spec=url, features=features)
