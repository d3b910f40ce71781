"""Anthropic Messages as a source of provider-neutral events (events.md §4.3): the reference
adapter's mapping (`_mapping`) and how the event checker reads the frames (`_reading`),
offered to `refold.reference.events` as one `SourceDialect`."""

from ..._neutral import SourceDialect
from ._mapping import AnthropicMapping
from ._reading import SOURCE

__all__ = ["SOURCE_DIALECT", "AnthropicMapping"]

SOURCE_DIALECT = SourceDialect(mapping=AnthropicMapping, reading=SOURCE)
"""This dialect's mapping to neutral events, and the checker's reading of its frames."""
