"""What each dialect's `regenerate_schema` shares: writing the vendored schema file.

A dialect's documented shape is a JSON Schema vendored in its package (`schema/`),
rebuilt from its source (an SDK, an API definition) by `python -m
refold.dialects.<dialect>.regenerate_schema`; how it is read and built is the dialect's,
how it is written is this.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["write_schema"]


def write_schema(
    path: Path, schema: Any, *, ensure_ascii: bool = False, sort_keys: bool = False
) -> None:
    """Write `schema` to `path` (its folder made if missing) as JSON indented by one
    space, with a final newline, in UTF-8."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(schema, indent=1, ensure_ascii=ensure_ascii, sort_keys=sort_keys)
    path.write_text(text + "\n", encoding="utf-8")
