"""What `refold capture` reads: a file's bytes, its input format, its streams' dialect.

Three input formats, told apart by content: a HAR file (a JSON object with `log.entries`,
as browsers' devtools and Playwright save them), JSON lines (one chunk or event object a
line, as a log keeps them) and raw server-sent events (`curl -N` output, a proxy's dump
of a body). Every refusal is a `CaptureError`: one paragraph naming the file, where in it
(line, byte offset, HAR entry) and what was expected there.

Limits, so that a hostile capture costs bounded memory and time: a file of at most
`MAX_FILE_BYTES`, no line longer than `MAX_LINE_BYTES` (checked before anything is parsed).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from refold.reference import JSON, cut_text

from ..dialects import DIALECTS, Dialect
from ..errors import UsageError

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_LINE_BYTES",
    "CaptureError",
    "Stream",
    "check_items",
    "check_lines",
    "decode_text",
    "detect_dialect",
    "detect_format",
    "jsonl_stream",
    "read_capture",
    "split_http_head",
    "sse_stream",
]

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_LINE_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 128
"""The deepest nesting an item may have (a provider's deepest is a dozen levels); deeper
would exhaust the scrubber's and the fold's recursion."""


class CaptureError(UsageError):
    """A capture refold cannot read; the message says where and what was expected."""


@dataclass
class Stream:
    """One stream found in a capture: its items, the SSE text pieces when the source has
    them, where it was found, and what the source said around it (HAR headers)."""

    items: list[JSON]
    parts: list[str] | None
    where: str
    pieces: str
    """How `parts` came about: "recorded" (as the source holds them), "none" (items only)."""
    dialect: Dialect | None = None
    exchange: dict[str, JSON] | None = None


def read_capture(path: Path) -> bytes:
    """The file's bytes, refused past `MAX_FILE_BYTES` before it is read whole."""
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise CaptureError(
                f"capture {path}: not a file; expected a HAR, JSON lines or SSE file"
            )
        if size > MAX_FILE_BYTES:
            raise CaptureError(
                f"capture {path} is {size} bytes; refold capture reads files "
                f"of at most {MAX_FILE_BYTES} bytes (64 MiB): split the capture"
            )
        return path.read_bytes()
    except OSError as exc:
        raise CaptureError(f"capture {path}: cannot read it: {exc.strerror or exc}") from exc


def check_lines(data: bytes, where: str, *, base: int = 0) -> None:
    """Refuse a line longer than `MAX_LINE_BYTES`, naming its number and byte offset."""
    start, number = 0, 1
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        if end - start > MAX_LINE_BYTES:
            raise CaptureError(
                f"{where}: line {number} (byte offset {base + start}) is {end - start} bytes "
                f"long; refold capture reads lines of at most {MAX_LINE_BYTES} bytes (8 MiB)"
            )
        start, number = end + 1, number + 1


def decode_text(data: bytes, where: str, *, base: int = 0) -> str:
    """`data` as UTF-8 text (a leading byte-order mark dropped), or a refusal naming the
    byte offset of the first invalid byte."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CaptureError(
            f"{where}: byte offset {base + exc.start} (line {line}) is not UTF-8 "
            f"({data[exc.start : exc.start + 4]!r}); expected UTF-8 text, as server-sent events "
            f"and JSON are"
        ) from exc


def check_items(items: list[JSON], where: str, item: str) -> None:
    """Refuse an item nested deeper than `MAX_DEPTH` or holding NaN or an infinity (which
    Python's JSON reader accepts and JSON cannot hold), naming the item's number."""
    for number, value in enumerate(items, start=1):
        stack: list[tuple[JSON, int]] = [(value, 1)]
        while stack:
            found, depth = stack.pop()
            if isinstance(found, float) and not math.isfinite(found):
                raise CaptureError(
                    f"{where}: {item} {number} holds {found!r}, which JSON "
                    f"cannot hold; expected finite numbers only"
                )
            if isinstance(found, dict | list):
                if depth > MAX_DEPTH:
                    raise CaptureError(
                        f"{where}: {item} {number} is nested deeper than "
                        f"{MAX_DEPTH} levels; expected a chunk or event as a "
                        f"provider sends it"
                    )
                inner = found.values() if isinstance(found, dict) else found
                stack.extend((entry, depth + 1) for entry in inner)


def detect_format(data: bytes) -> str:
    """ "har", "jsonl", "har-array" or "sse", from the content's first non-blank line."""
    head = data[: MAX_LINE_BYTES + 1].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"["):
        return "har-array"
    if not head.startswith(b"{"):
        return "sse"
    try:
        first = json.loads(head.split(b"\n", 1)[0])
    except (ValueError, RecursionError):
        # not one object on its own line: a HAR spread over lines (or broken JSON lines,
        # which the JSON lines reader then names by line)
        return "har" if b'"log"' in head[:4096] else "jsonl"
    return "har" if isinstance(first, dict) and isinstance(first.get("log"), dict) else "jsonl"


_CAPTURED = tuple(one for one in DIALECTS.values() if one.sniff is not None)


def detect_dialect(items: Iterable[JSON], where: str) -> Dialect:
    """The dialect whose item shape the stream's objects have.

    Raises:
        CaptureError: no item has a shape refold knows, so `--dialect` must say.
    """
    for item in items:
        if not isinstance(item, dict):
            continue
        found = next((one for one in _CAPTURED if one.sniff is not None and one.sniff(item)), None)
        if found is not None:
            return found
    shapes = "; ".join(f"{one.title}: {one.sniffed}" for one in _CAPTURED)
    raise CaptureError(
        f"{where}: no item is of a dialect refold knows ({shapes}); name the dialect with --dialect"
    )


def _sse_data_objects(text: str) -> Iterable[JSON]:
    """The JSON objects of `data:` lines, for telling the dialect (not for folding)."""
    for line in text.splitlines():
        if line.startswith("data:"):
            try:
                yield json.loads(line[5:].strip())
            except (ValueError, RecursionError):
                continue


def split_http_head(data: bytes) -> tuple[dict[str, JSON] | None, bytes]:
    """A response's status line and headers (`curl -i` output) as an exchange record, and
    the body after them; (None, data) when `data` does not start with `HTTP/`."""
    if not data.startswith(b"HTTP/"):
        return None, data
    for blank in (b"\r\n\r\n", b"\n\n"):
        at = data.find(blank)
        if at >= 0:
            break
    else:
        return None, data
    lines = data[:at].decode("utf-8", errors="replace").splitlines()
    status = lines[0].split()
    headers: dict[str, JSON] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip()] = value.strip()
    code = int(status[1]) if len(status) > 1 and status[1].isdigit() else None
    return {"status": code, "response_headers": headers}, data[at + len(blank) :]


def sse_stream(
    data: bytes, where: str, dialect: Dialect | None, *, parts: list[bytes] | None = None
) -> Stream:
    """The stream in server-sent events `data`, decoded by its dialect's own SSE layer
    (`Dialect.decode_sse`); `parts` are the pieces it arrived in (default: one)."""
    check_lines(data, where)
    text = decode_text(data, where)
    check_terminated(text, where)
    chosen = dialect or detect_dialect(_sse_data_objects(text), where)
    pieces = parts if parts is not None else [data]
    try:
        items = chosen.decode_sse(pieces)
    except (ValueError, RecursionError) as exc:
        raise CaptureError(
            f"{where}: {cut_text(str(exc), 400)} (read as {chosen.name} server-sent events)"
        ) from exc
    check_items(items, where, chosen.item)
    return Stream(items, [decode_text(p, where) for p in pieces], where, "recorded", chosen)


def check_terminated(text: str, where: str) -> None:
    """Refuse SSE text whose last event no blank line ends: the decoder drops such an
    event without a word (WHATWG: an event is dispatched at a blank line), so a capture
    whose events are not separated by blank lines would become an empty case."""
    start: tuple[int, str] | None = None
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":  # the end of the last line, not an empty line after it
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if not line:
            start = None
        elif start is None and not line.startswith(":"):
            start = (number, line)
    if start is not None:
        number, line = start
        raise CaptureError(
            f"{where}: the server-sent events end inside an event that no "
            f"blank line ends (it starts at line {number}: "
            f"{cut_text(line, 80)!r}); a decoder drops such an event, so "
            f"expected every event to end with an empty line (events "
            f"separated by blank lines, as the provider sends them)"
        )


def jsonl_stream(data: bytes, where: str, dialect: Dialect | None) -> Stream:
    """The stream of a JSON lines file: one item object a line; blank lines and a chat
    stream's `[DONE]` are skipped."""
    check_lines(data, where)
    text = decode_text(data, where)
    items: list[JSON] = []
    offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        at = offset
        offset += len(line.encode("utf-8")) + 1
        if not stripped or stripped in ("[DONE]", '"[DONE]"'):
            continue
        try:
            item = json.loads(stripped)
        except (ValueError, RecursionError) as exc:
            raise CaptureError(
                f"{where}: line {number} (byte offset {at}) is not JSON "
                f"({cut_text(str(exc), 120)}): {cut_text(stripped, 80)!r}; "
                f"expected one chunk or event object a line"
            ) from exc
        if not isinstance(item, dict):
            raise CaptureError(
                f"{where}: line {number} (byte offset {at}) is a "
                f"{type(item).__name__}, expected one chunk or event object "
                f"a line"
            )
        items.append(item)
    if not items:
        raise CaptureError(
            f"{where}: no JSON object in it; expected one chunk or event object a line"
        )
    check_items(items, where, "line")
    return Stream(items, None, where, "none", dialect or detect_dialect(items, where))
