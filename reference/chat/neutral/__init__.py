"""OpenAI Chat Completions as a source of provider-neutral events (events.md §4.1): the reference
adapter's mapping (`_mapping`) and how the event checker reads the frames (`_reading`),
offered to `refold.reference.events` as one `SourceDialect`."""

from ..._neutral import SourceDialect
from ._mapping import ChatMapping
from ._reading import SOURCE

__all__ = ["SOURCE_DIALECT", "ChatMapping"]

SOURCE_DIALECT = SourceDialect(mapping=ChatMapping, reading=SOURCE)
"""This dialect's mapping to neutral events, and the checker's reading of its frames."""
