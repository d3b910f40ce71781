"""What `refold serve` answers, per dialect: each registered dialect's `Endpoint`
(`Dialect.endpoint`), by dialect name; the server (`refold.serve.server`) only looks it up
(`ENDPOINTS[name].path` is the path it answers).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..dialects import DIALECTS
from .endpoint import Endpoint, ServedCase

__all__ = ["ENDPOINTS", "Endpoint", "ServedCase"]

ENDPOINTS: Mapping[str, Endpoint] = MappingProxyType(
    {name: one.endpoint for name, one in DIALECTS.items() if one.endpoint is not None}
)
"""The served endpoint of every dialect that has one, by dialect name."""
