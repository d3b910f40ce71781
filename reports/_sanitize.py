"""What may be persisted: every document a report writes passes through the one scrubber.

The scrubber and the size caps live in `refold.reference` (`scrub`, `persistable`), so
the harness (results, replay files, baselines) and the reports apply the same patterns:
credential-named members and credential-shaped strings become `REDACTED`, `opaque` and
`payload` values become `NOT_KEPT`. The renderers get scrubbed, bounded input, and every
rendered document is scrubbed again as text before it is written (`scrub_document`).
"""

from __future__ import annotations

from typing import Any

from refold.reference import NOT_KEPT, REDACTED, persistable, scrub, scrub_text

__all__ = ["NOT_KEPT", "REDACTED", "safe_input", "scrub", "scrub_document", "scrub_text"]


def safe_input(document: Any) -> Any:
    """A document the renderers may show: scrubbed, bounded, finite JSON."""
    return persistable(document, document=True)


def scrub_document(text: str) -> str:
    """A rendered document (HTML, XML, Markdown, JSON text) with credential shapes
    that survived the structured scrub (inside text) replaced."""
    return scrub_text(text)
