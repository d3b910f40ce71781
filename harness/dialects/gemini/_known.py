"""The vendored schema of one Gemini stream chunk (`schema/generate-content-response.json`,
transcribed from Google's API reference of `GenerateContentResponse`), read once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from refold.verdicts.shapes import load_schema

__all__ = ["SCHEMA", "SCHEMA_NAME"]

SCHEMA_NAME = "generate-content-response.json"
SCHEMA: Mapping[str, Any] = load_schema(__package__ or "refold.dialects.gemini", SCHEMA_NAME)
