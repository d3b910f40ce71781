"""What the LangChain targets share: the events a fold serves to an offline chat model,
the sum of its chunks with `+` (as `.stream()` users sum them), and the versions a
target's description names.

Standard library only: each dialect's target imports LangChain and its SDK itself (after
`require`-ing them) and gives its chunks here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from refold.reference import JSON

__all__ = ["Served", "summed", "versions"]


class Served:
    """The events the current fold serves (a stack: a fold runs inside no other), read by
    the offline transport or client that answers the chat model's request."""

    def __init__(self) -> None:
        self._stack: list[list[JSON]] = []

    @contextmanager
    def serving(self, events: list[JSON]) -> Iterator[None]:
        """Serve `events` while the block runs."""
        self._stack.append(events)
        try:
            yield
        finally:
            self._stack.pop()

    @property
    def events(self) -> list[JSON]:
        """The events being served."""
        return self._stack[-1]


def summed(chunks: Iterable[Any]) -> Any:
    """The chunks added with `+`, in order.

    Raises:
        ValueError: there was no chunk.
    """
    total: Any = None
    for chunk in chunks:
        total = chunk if total is None else total + chunk
    if total is None:
        raise ValueError("LangChain produced no message chunk for this stream")
    return total


def versions(*distributions: str) -> str:
    """Each installed distribution and its version (`langchain-core 1.2.3, ...`)."""
    from importlib.metadata import version

    return ", ".join(f"{name} {version(name)}" for name in distributions)
