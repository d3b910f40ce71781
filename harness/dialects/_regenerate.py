"""What each dialect's `regenerate_schema` shares: writing the vendored schema file, and
the run that builds it, writes it and says so.

A dialect's documented shape is a JSON Schema vendored in its package (`schema/`),
rebuilt from its source (an SDK, an API definition) by `python -m
refold.dialects.<dialect>.regenerate_schema`; how it is read and built is the dialect's,
how it is written, and what the command says and exits with, is this.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["regenerate", "write_schema"]


def write_schema(
    path: Path, schema: Any, *, ensure_ascii: bool = False, sort_keys: bool = False
) -> None:
    """Write `schema` to `path` (its folder made if missing) as JSON indented by one
    space, with a final newline, in UTF-8."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(schema, indent=1, ensure_ascii=ensure_ascii, sort_keys=sort_keys)
    path.write_text(text + "\n", encoding="utf-8")


def regenerate(
    build: Callable[[], Any],
    path: Path,
    *,
    unreadable: tuple[type[Exception], ...],
    failure: Callable[[Exception], str],
    wrote: Callable[[Any], str],
    ensure_ascii: bool = False,
    sort_keys: bool = False,
) -> int:
    """Build the schema, write it to `path` (`write_schema`) and print `wrote(schema)`: 0.

    Returns:
        2 after printing `failure(exc)` to stderr when `build` raises one of
        `unreadable` (a source that cannot be read or is not of the expected shape).
    """
    try:
        schema = build()
    except unreadable as exc:
        print(failure(exc), file=sys.stderr)
        return 2
    write_schema(path, schema, ensure_ascii=ensure_ascii, sort_keys=sort_keys)
    print(wrote(schema))
    return 0
