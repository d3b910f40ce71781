"""What the SDK targets share in mapping an SDK's result to its dialect's shape."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

__all__ = ["without_keys"]


def without_keys(value: Any, keys: Collection[str]) -> Any:
    """`value` with every object's `keys` dropped, at any depth (an SDK's additions to the
    API's shape, such as openai-python's `parsed`/`parsed_arguments`)."""
    if isinstance(value, dict):
        return {key: without_keys(item, keys) for key, item in value.items() if key not in keys}
    if isinstance(value, list):
        return [without_keys(item, keys) for item in value]
    return value
