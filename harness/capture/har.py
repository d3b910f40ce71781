"""The streams of a HAR file: every response in it whose body is server-sent events.

HAR 1.2 (what browsers' devtools and Playwright save): `log.entries[]`, each with a
`request` (method, url, headers) and a `response` (status, headers, `content` with
`mimeType`, `text` and, for a binary body, `encoding: "base64"`). An entry is a stream
when its content type is `text/event-stream`, or when its body reads as events (a
recording tool may drop the type). A HAR keeps a body whole, so its pieces are one.

The exchange around each stream is kept for provenance, headers as a name → value object
so that the one scrubber recognises `authorization`, `x-api-key`, `cookie` by their names;
request bodies are not kept (they hold the prompt, not the stream).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from refold.reference import JSON, cut_text

from ..dialects import Dialect
from .input import CaptureError, Stream, check_lines, sse_stream

__all__ = ["har_streams"]


def _parse(data: bytes, where: str) -> Any:
    try:
        return json.loads(data)
    except UnicodeDecodeError as exc:
        raise CaptureError(
            f"{where}: byte offset {exc.start} is not UTF-8; a HAR file is UTF-8 JSON"
        ) from exc
    except json.JSONDecodeError as exc:
        ended = not data.rstrip().endswith(b"}")
        cut = (
            f" (the file ends at byte {len(data)} without closing it: truncated?)" if ended else ""
        )
        raise CaptureError(
            f"{where}: not valid HAR JSON at line {exc.lineno}, column "
            f"{exc.colno} (byte offset {exc.pos}): {exc.msg}{cut}; expected a "
            f'HAR 1.2 object {{"log": {{"entries": [...]}}}}'
        ) from exc
    except (ValueError, RecursionError) as exc:  # nested too deeply, an integer too long
        raise CaptureError(
            f"{where}: cannot be read as HAR JSON ({cut_text(str(exc), 160)})"
            f'; expected a HAR 1.2 object {{"log": {{"entries": [...]}}}}'
        ) from exc


def _entries(har: Any, where: str) -> list[Any]:
    log = har.get("log") if isinstance(har, dict) else None
    entries = log.get("entries") if isinstance(log, dict) else None
    if not isinstance(entries, list):
        raise CaptureError(
            f"{where}: `log.entries` is missing or not a list; expected a HAR "
            f'1.2 object {{"log": {{"entries": [...]}}}}'
        )
    return entries


def _headers(value: Any) -> dict[str, JSON]:
    """HAR's [{name, value}] as one object (a repeated name's values joined by ", ")."""
    found: dict[str, JSON] = {}
    for header in value if isinstance(value, list) else []:
        if isinstance(header, dict) and isinstance(header.get("name"), str):
            name, text = header["name"], str(header.get("value", ""))
            found[name] = f"{found[name]}, {text}" if name in found else text
    return found


def _mime(content: dict[str, Any], response: dict[str, Any]) -> str:
    mime = content.get("mimeType")
    if isinstance(mime, str) and mime:
        return mime.lower()
    return str(_headers(response.get("headers")).get("content-type", "")).lower()


def _body(content: dict[str, Any], where: str) -> bytes | None:
    text = content.get("text")
    if not isinstance(text, str):
        return None
    if content.get("encoding") == "base64":
        try:
            return base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise CaptureError(
                f"{where}: `response.content.text` is marked base64 but is "
                f"not ({exc}); expected the body in base64"
            ) from exc
    return text.encode("utf-8", errors="surrogatepass")


def _looks_like_events(body: bytes) -> bool:
    head = body[:2048].lstrip()
    return head.startswith((b"data:", b"event:", b":", b"id:", b"retry:"))


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _exchange(entry: dict[str, Any]) -> dict[str, JSON]:
    request: dict[str, Any] = _object(entry.get("request"))
    response: dict[str, Any] = _object(entry.get("response"))
    return {
        "method": str(request.get("method", "")),
        "url": str(request.get("url", "")),
        "request_headers": _headers(request.get("headers")),
        "status": response.get("status") if isinstance(response.get("status"), int) else None,
        "response_headers": _headers(response.get("headers")),
        "started": str(entry.get("startedDateTime", "")),
    }


def har_streams(data: bytes, source: str, dialect: Dialect | None) -> list[Stream]:
    """Every streamed response of the HAR file `data` (named `source` in messages).

    Raises:
        CaptureError: not HAR JSON (where it breaks), an entry of the wrong shape, a body
            that is not UTF-8 or not events of the dialect, or no streamed response.
    """
    entries = _entries(_parse(data, source), source)
    streams: list[Stream] = []
    for number, entry in enumerate(entries):
        where = f"{source}: HAR entry {number}"
        if not isinstance(entry, dict):
            raise CaptureError(
                f"{where} is a {type(entry).__name__}, expected an object "
                f"with `request` and `response`"
            )
        response = _object(entry.get("response"))
        content = response.get("content")
        if not isinstance(content, dict):
            continue
        body = _body(content, where)
        if body is None or not body.strip():
            continue
        if "event-stream" not in _mime(content, response) and not _looks_like_events(body):
            continue
        url = str(_object(entry.get("request")).get("url", ""))
        shown = f"{where} ({cut_text(url, 120)}), response body"
        check_lines(body, shown)
        stream = sse_stream(body, shown, dialect)
        stream.exchange = _exchange(entry)
        stream.where = f"entry {number}"
        streams.append(stream)
    if not streams:
        raise CaptureError(
            f"{source}: none of its {len(entries)} HAR entries has a streamed "
            f"response (content type text/event-stream, or a body of server-"
            f"sent events with its text kept); expected at least one"
        )
    return streams
