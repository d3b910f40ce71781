"""A library's streaming call run on a thread of its own, its response body fed frame by frame.

Python's SDKs pull their response body: `ChatOpenAI.stream()` asks the HTTP response for
bytes only when it needs the next chunk. `FedStream` runs such a call on a worker thread
whose response body is a queue: `feed(piece)` hands it one frame's bytes and returns every
item the call yielded until it asked for the next piece (or ended). So what comes out of a
frame is known before the next frame is written, and no look-ahead is possible.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ._requires import quiet

__all__ = ["Ended", "FedStream", "Raised"]

_TIMEOUT = 60.0
"""Seconds to wait for the library to answer one frame: far beyond any offline step, so
only a hang reaches it."""


class _Want:
    """The library asked the body for its next piece."""


class _EndOfBody:
    """The body has no more pieces."""


@dataclass(frozen=True)
class Ended:
    """The call returned normally."""


@dataclass(frozen=True)
class Raised:
    """The call raised `error`."""

    error: BaseException


Item = Any
"""What the call yields, or an `Ended` / `Raised` as its last item."""


class FedStream:
    """One streaming call over a body fed one piece at a time (see the module docstring)."""

    def __init__(self, call: Callable[[Iterator[bytes]], Iterator[Item]]) -> None:
        """`call(body)` starts the library's streaming call over the byte iterator `body`."""
        self._inbox: queue.Queue[bytes | _EndOfBody] = queue.Queue()
        self._outbox: queue.Queue[Item] = queue.Queue()
        self._finished = False
        self._thread = threading.Thread(
            target=self._run, args=(call,), daemon=True, name="refold-fed-stream"
        )
        self._thread.start()
        # What the call yields before it reads the body: nothing, unless it raises (say,
        # building its request), which the first frame then reports.
        self._early = self._until_wanted()

    @property
    def finished(self) -> bool:
        """The call has ended (returned or raised)."""
        return self._finished

    def feed(self, piece: bytes) -> list[Item]:
        """Give the body `piece`; return what the call yielded until it wanted more."""
        early, self._early = self._early, []
        if self._finished:
            return early
        self._inbox.put(piece)
        return early + self._until_wanted()

    def end(self) -> list[Item]:
        """End the body; return what the call yielded until it ended."""
        early, self._early = self._early, []
        if self._finished:
            return early
        self._inbox.put(_EndOfBody())
        # An ended body asks for nothing more, so this returns once the call has ended.
        items = self._until_wanted()
        self._thread.join(_TIMEOUT)
        return early + items

    def _body(self) -> Iterator[bytes]:
        while True:
            self._outbox.put(_Want())
            piece = self._inbox.get()
            if isinstance(piece, _EndOfBody):
                return
            yield piece

    def _run(self, call: Callable[[Iterator[bytes]], Iterator[Item]]) -> None:
        try:
            with quiet():
                for item in call(self._body()):
                    self._outbox.put(item)
        except BaseException as error:  # handed to the adapter, which decides
            self._outbox.put(Raised(error))
        else:
            self._outbox.put(Ended())

    def _until_wanted(self) -> list[Item]:
        items: list[Item] = []
        while True:
            try:
                item = self._outbox.get(timeout=_TIMEOUT)
            except queue.Empty:
                raise TimeoutError(
                    f"the library neither asked for the next frame nor ended within {_TIMEOUT:.0f}s"
                ) from None
            if isinstance(item, _Want):
                return items
            items.append(item)
            if isinstance(item, Ended | Raised):
                self._finished = True
                return items
