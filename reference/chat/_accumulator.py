"""The incremental fold: chunks in, one `chat.completion` out, no I/O.

Like h11, the accumulator only transforms values: `add(chunk)` takes a JSON object as
decoded from one SSE `data:` line, `response()` returns a new plain JSON value, and the
caller decides where chunks come from. `fold(chunks)` is the whole-list form on top.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._errors import ChunkTypeError, EmptyFoldError
from .._json import JSON, JSONObject, copy_json, non_blank, non_negative_int, positive_int
from ._choice import ChoiceFold

__all__ = ["Accumulator", "fold"]

_PROVIDER_FIELDS = ("provider", "system_fingerprint", "service_tier")
"""Envelope fields that keep their last non-blank value (PROV-LAST)."""


class Accumulator:
    """Folds the chunks of one streamed chat completion, in arrival order.

    Not thread-safe. Chunks are read, never mutated; nested values of a chunk are
    referenced until a response is built, and every response is a fresh deep copy.
    """

    __slots__ = (
        "_choices",
        "_created",
        "_done",
        "_folded",
        "_id",
        "_model",
        "_provider",
        "_received",
        "_usage",
    )

    def __init__(self) -> None:
        self._received = 0  # add() calls, refused ones included: chunk numbers
        self._folded = False  # LIFE-EMPTY: whether any chunk was folded, not how many
        self._done = False
        self._id: str | None = None
        self._model: str | None = None
        self._created: int | None = None
        self._provider: dict[str, str] = {}
        self._usage: JSONObject | None = None
        self._choices: dict[int, ChoiceFold] = {}

    def add(self, chunk: JSON) -> None:
        """Fold one chunk.

        Raises:
            ChunkTypeError: `chunk` is not a JSON object (ROB-NOT-OBJECT); the fold is
                unchanged. Any JSON object is folded, whatever its fields hold.
        """
        number = self._received
        self._received += 1
        if not isinstance(chunk, dict):
            raise ChunkTypeError(chunk, chunk_number=number)
        self._folded = True
        self._add_envelope(chunk)
        usage = chunk.get("usage")
        if isinstance(usage, dict):
            self._usage = usage  # USAGE-LAST: replaced whole, never cleared by null
        choices = chunk.get("choices")
        if isinstance(choices, list):
            for entry in choices:
                if isinstance(entry, dict):  # ROB-NULL-ENTRIES
                    self._choice(entry).add(entry)

    def _add_envelope(self, chunk: JSONObject) -> None:
        if self._id is None:
            self._id = non_blank(chunk.get("id"))  # ENV-ID
        if self._model is None:
            self._model = non_blank(chunk.get("model"))  # ENV-MODEL
        if self._created is None:
            self._created = positive_int(chunk.get("created"))  # ENV-CREATED
        for key in _PROVIDER_FIELDS:
            value = non_blank(chunk.get(key))
            if value is not None:
                self._provider[key] = value  # PROV-LAST

    def _choice(self, entry: JSONObject) -> ChoiceFold:
        index = non_negative_int(entry.get("index"))
        if index is None:
            index = 0  # CHOICE-KEY
        choice = self._choices.get(index)
        if choice is None:
            choice = self._choices[index] = ChoiceFold(index)
        return choice

    def mark_done(self) -> None:
        """Record the `[DONE]` sentinel: the fold is finished from now on (LIFE-DONE)."""
        self._done = True

    @property
    def finished(self) -> bool:
        """True once `[DONE]` was recorded, or once at least one choice exists and every
        choice has a finish reason other than "error" (LIFE-FINISHED)."""
        if self._done:
            return True
        return bool(self._choices) and all(c.finished for c in self._choices.values())

    def response(self) -> JSONObject:
        """Build the `chat.completion` the chunks so far fold into, as a new value.

        Raises:
            EmptyFoldError: no chunk has been folded yet (LIFE-EMPTY).
        """
        if not self._folded:
            raise EmptyFoldError()
        finished = self.finished
        response: JSONObject = {
            "id": self._id,
            "object": "chat.completion",  # ENV-OBJECT
            "created": self._created,
            "model": self._model,
            **self._provider,
            "choices": [
                self._choices[index].output(finished=finished)
                for index in sorted(self._choices)  # CHOICE-ORDER
            ],
        }
        if self._usage is not None:
            response["usage"] = copy_json(self._usage)
        return response


def fold(chunks: Iterable[JSON]) -> JSONObject:
    """Fold a whole list of chunks into the `chat.completion` they stand for.

    The list form never records `[DONE]`: it is finished on finish reasons alone.

    Raises:
        ChunkTypeError: a chunk is not a JSON object.
        EmptyFoldError: `chunks` is empty.
    """
    accumulator = Accumulator()
    for chunk in chunks:
        accumulator.add(chunk)
    return accumulator.response()
