"""What the LangChain targets share: the events a fold serves to an offline chat model,
the sum of its chunks with `+` (as `.stream()` users sum them), that sum as the message
the chat model sends back on the next turn, and the versions a target's description names.

Standard library only: each dialect's target imports LangChain and its SDK itself (after
`require`-ing them) and gives its chunks here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from refold.reference import JSON

__all__ = ["Served", "sent_back", "summed", "versions"]

_Message = TypeVar("_Message")

_SENT_BACK = ("content", "tool_calls", "invalid_tool_calls", "response_metadata", "id")
"""The fields of a summed chunk every LangChain target's message keeps."""


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


def summed(chunks: Iterable[Any], of: type | None = None) -> Any:
    """The chunks added with `+`, in order; given `of`, only those of that type (what
    else a stream yields is not a message chunk).

    Raises:
        ValueError: there was no chunk.
    """
    total: Any = None
    for chunk in chunks:
        if of is not None and not isinstance(chunk, of):
            continue
        total = chunk if total is None else total + chunk
    if total is None:
        raise ValueError("LangChain produced no message chunk for this stream")
    return total


def sent_back(total: Any, message: Callable[..., _Message], *kept: str) -> _Message:
    """The summed chunk `total` as the `message` class (`AIMessage`) a chat model sends
    back on the next turn: its content, tool calls (valid and invalid), response metadata
    and id, and the fields `kept` names."""
    return message(**{name: getattr(total, name) for name in (*_SENT_BACK, *kept)})


def versions(*distributions: str) -> str:
    """Each installed distribution and its version (`langchain-core 1.2.3, ...`)."""
    from importlib.metadata import version

    return ", ".join(f"{name} {version(name)}" for name in distributions)
