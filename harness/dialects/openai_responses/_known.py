"""What the vendored schema names: the documented event and output item types and the keys
a Response requires (read once from `schema/response-stream-events.json`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from refold.verdicts.shapes import load_schema

__all__ = [
    "DOCUMENTED_ITEM_TYPES",
    "DOCUMENTED_TYPES",
    "RESPONSE_REQUIRED",
    "SCHEMA",
    "SCHEMA_NAME",
]

SCHEMA_NAME = "response-stream-events.json"
SCHEMA: Mapping[str, Any] = load_schema(
    __package__ or "refold.dialects.openai_responses", SCHEMA_NAME
)
DOCUMENTED_TYPES: frozenset[str] = frozenset(
    SCHEMA["$defs"]["ResponseStreamEvent"]["properties"]["type"]["enum"]
)
"""Every event type of `ResponseStreamEvent`."""
DOCUMENTED_ITEM_TYPES: frozenset[str] = frozenset(
    SCHEMA["$defs"]["OutputItem"]["properties"]["type"]["enum"]
)
"""Every output item type of `OutputItem`."""
RESPONSE_REQUIRED: frozenset[str] = frozenset(
    key for part in SCHEMA["$defs"]["Response"]["allOf"] for key in part.get("required", ())
)
"""The keys every `Response` holds."""
