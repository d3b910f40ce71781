"""The source dialects the reference adapters and the checker read, found in the reference.

Each is the `SourceDialect` of a dialect's reference package (its `neutral` subpackage):
`refold.reference.events` lists none, so adding a source dialect is adding its package.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._neutral import SourceDialect, source_dialects

__all__ = ["SOURCE_DIALECTS"]

SOURCE_DIALECTS: Mapping[str, SourceDialect] = source_dialects(__name__.rsplit(".", 2)[0])
"""Every source dialect, by name, sorted: the dialects refold has a reference fold for."""
