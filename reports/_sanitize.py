"""What may be persisted: every document a report writes passes through the one scrubber.

The scrubber and the size caps live in `refold.reference` (`scrub`, `persistable`), so
the harness (results, replay files, baselines) and the reports apply the same patterns:
credential-named members and credential-shaped strings become `REDACTED`, `opaque` and
`payload` values become `NOT_KEPT`. The renderers get scrubbed, bounded input, and every
rendered document is scrubbed again as text before it is written (`scrub_document`).

No control character from a run reaches a written document raw (a terminal showing it, or
a browser's view of its source, would obey an ESC, a BEL or a C1 CSI): each renderer
writes them visibly, in the JSON form the console uses (`\\u001b`, `\\u009b`;
`escape_controls`), where a string enters its markup (`html_text`, `html_attribute`;
Markdown and JUnit XML their own), keeping only newline and tab outside attribute values;
and `scrub_document` escapes any that a renderer let through.
"""

from __future__ import annotations

from html import escape
from typing import Any

from refold.reference import NOT_KEPT, REDACTED, escape_controls, persistable, scrub, scrub_text

__all__ = [
    "NOT_KEPT",
    "REDACTED",
    "escape_controls",
    "html_attribute",
    "html_text",
    "safe_input",
    "scrub",
    "scrub_document",
    "scrub_text",
]


def safe_input(document: Any) -> Any:
    """A document the renderers may show: scrubbed, bounded, finite JSON."""
    return persistable(document, document=True)


def html_text(value: Any) -> str:
    """`value` as HTML character data: markup escaped, control characters (but newline
    and tab) written as `\\u001b`."""
    return escape(escape_controls(str(value)), quote=True)


def html_attribute(value: Any) -> str:
    """`value` inside a quoted HTML attribute: as `html_text`, newline and tab escaped too."""
    return escape(escape_controls(str(value), keep=""), quote=True)


def scrub_document(text: str) -> str:
    """A rendered document (HTML, XML, Markdown, JSON text) with credential shapes
    that survived the structured scrub (inside text) replaced, and any control character
    but newline and tab written as `\\u001b` (in JSON text, the same string's escape)."""
    return escape_controls(scrub_text(text))
