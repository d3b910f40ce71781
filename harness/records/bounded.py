"""Files from elsewhere are bounded data: replay files, corpus cases and captures travel in
bug reports, so reading one must never hang, exhaust memory or end in a traceback.

`read_regular_file` reads only a regular file (a FIFO, a device, a socket or a directory
is refused with its path, and is never opened for a blocking read) and never more than
its limit; `json_document` parses JSON only after a linear scan has shown that it nests
no deeper than a limit, so Python's recursive decoder cannot overflow the stack.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from refold.reference import cut_text

from ..errors import UsageError

__all__ = ["MAX_JSON_DEPTH", "json_document", "read_regular_file"]

MAX_JSON_DEPTH = 128
"""The deepest nesting a document read from elsewhere may have: a provider's deepest
stream item is a dozen levels, a replay or case file adds three."""


def read_regular_file(path: str | Path, *, limit: int, what: str) -> bytes:
    """The bytes of `path`, a regular file of at most `limit` bytes.

    Symbolic links are followed, but what they lead to must be a regular file: a link to
    `/dev/zero` is refused, not read until memory runs out.

    Raises:
        UsageError: the path is missing, not a regular file, or larger than `limit`.
    """
    try:
        # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise UsageError(f"{what} {path}: cannot open it: {exc.strerror or exc}") from exc
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        raise UsageError(
            f"{what} {path} is {_kind(mode)}, not a regular file; expected "
            f"a file holding the {what}"
        )
    with os.fdopen(descriptor, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise UsageError(f"{what} {path} holds more than {limit} bytes, the most a {what} may hold")
    return data


def _kind(mode: int) -> str:
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def json_document(data: bytes, *, where: str, expected: str, depth: int = MAX_JSON_DEPTH) -> Any:
    """`data` parsed as UTF-8 JSON, refused when it nests deeper than `depth`.

    Raises:
        UsageError: not UTF-8, not JSON, or nested too deep; the message says where.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{where} is not UTF-8 (byte {exc.start}); expected {expected}") from exc
    deepest, offset = _deepest(text, depth)
    if deepest > depth:
        raise UsageError(
            f"{where} nests deeper than {depth} levels (at character {offset}); "
            f"expected {expected}, which nests a few levels"
        )
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise UsageError(
            f"{where} is not JSON ({cut_text(str(exc), 200)}); expected {expected}"
        ) from exc


def _deepest(text: str, limit: int) -> tuple[int, int]:
    """The deepest bracket nesting outside strings, and where it first passed `limit`."""
    level = deepest = 0
    in_string = escaped = False
    for offset, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            if level > deepest:
                deepest = level
                if deepest > limit:
                    return deepest, offset
        elif char in "]}":
            level -= 1
    return deepest, -1
