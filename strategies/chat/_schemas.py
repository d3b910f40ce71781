"""The JSON Schemas (Draft 2020-12) shipped with the strategies; see schemas/README.md."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from refold.reference import JSONObject

__all__ = ["chunk_schema", "completion_schema"]


@cache
def _load(name: str) -> JSONObject:
    text = resources.files(__package__).joinpath("schemas", name).read_text("utf-8")
    schema: JSONObject = json.loads(text)
    return schema


def chunk_schema() -> JSONObject:
    """The schema of one `chat.completion.chunk` (a fresh copy)."""
    return json.loads(json.dumps(_load("chat.completion.chunk.json")))  # type: ignore[no-any-return]


def completion_schema() -> JSONObject:
    """The schema of one `chat.completion` (a fresh copy)."""
    return json.loads(json.dumps(_load("chat.completion.json")))  # type: ignore[no-any-return]
