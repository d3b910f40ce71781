"""The provider-neutral event model every source dialect maps to (events.md), shared by the
reference adapters (`refold.reference.events`) and each dialect's mapping.

A kernel package: it names no dialect and imports none. A dialect maps its stream to
neutral events in a `neutral` subpackage of its own reference package, which offers one
`SourceDialect` as `SOURCE_DIALECT`: its mapping (events.md §4, a `Mapping` subclass) and
how the checker reads its frames (a `Source`). `refold.reference.events` finds every
such subpackage (`source_dialects`); adding a source dialect is adding that subpackage.
"""

from .source import SourceDialect, source_dialects

__all__ = ["SourceDialect", "source_dialects"]
