"""Google Gemini `streamGenerateContent` as a source of provider-neutral events
(gemini-fold.md, "Provider-neutral events"): the reference adapter's mapping (`_mapping`)
and how the event checker reads the frames (`_reading`), offered to
`refold.reference.events` as one `SourceDialect`."""

from ..._neutral import SourceDialect
from ._mapping import GeminiMapping
from ._reading import SOURCE

__all__ = ["SOURCE_DIALECT", "GeminiMapping"]

SOURCE_DIALECT = SourceDialect(mapping=GeminiMapping, reading=SOURCE)
"""This dialect's mapping to neutral events, and the checker's reading of its frames."""
