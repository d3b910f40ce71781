"""The incremental fold: Gemini `streamGenerateContent` chunks in, one response out, no I/O.

`add(chunk)` takes a JSON object as decoded from one SSE `data:` field (or one element of
the JSON-array body), `response()` returns a new plain JSON value shaped like the
`GenerateContentResponse` the unstreamed call returns, `finished` and `error` expose the
lifecycle. `fold(chunks)` is the whole-list form on top.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._json import JSON, JSONObject, copy_json, object_or_none
from ._candidates import Candidates
from ._envelope import Envelope
from ._errors import GeminiChunkTypeError, NoResponseError

__all__ = ["Accumulator", "fold"]


class Accumulator:
    """Folds the chunks of one streamed Gemini response, in arrival order.

    Not thread-safe. Chunks are read, never mutated; nested values of a chunk are
    referenced until a response is built, and every response is a fresh deep copy.
    """

    __slots__ = ("_candidates", "_envelope", "_error", "_received", "_refused")

    def __init__(self) -> None:
        self._received = 0  # add() calls, refused ones included: chunk numbers
        self._refused = 0  # add() calls whose chunk was not an object
        self._envelope = Envelope()
        self._candidates = Candidates()
        self._error: JSONObject | None = None

    def add(self, chunk: JSON) -> None:
        """Fold one chunk.

        Raises:
            GeminiChunkTypeError: `chunk` is not a JSON object (GM-ROB-NOT-OBJECT); the
                fold is unchanged. Any JSON object is folded, whatever its fields hold.
        """
        number = self._received
        self._received += 1
        if not isinstance(chunk, dict):
            self._refused += 1
            raise GeminiChunkTypeError(chunk, chunk_number=number)
        if self._error is not None:
            return  # GM-LIFE-ERROR: terminal, later chunks change nothing
        if chunk.get("error") is not None:
            # GM-LIFE-ERROR, GM-ENV-NO-ERROR: recorded, never copied into the response
            self._error = object_or_none(chunk["error"]) or {}
            return
        self._envelope.add(chunk)
        self._candidates.add(chunk.get("candidates"))

    @property
    def finished(self) -> bool:
        """True once every candidate (at least one) has a finishReason, or promptFeedback
        names a blockReason, and no error chunk came (GM-LIFE-FINISHED); a truncated
        stream is never finished (GM-LIFE-TRUNCATED)."""
        done = self._candidates.finished or self._envelope.blocked
        return self._error is None and done

    @property
    def error(self) -> JSONObject | None:
        """The `error` object of the error chunk, `{}` when it was not an object, or None
        when no error chunk was folded (GM-LIFE-ERROR). A new value on every read."""
        return None if self._error is None else copy_json(self._error)

    def open_call(self, index: int = 0) -> int | None:
        """The position, in the parts of candidate `index`, of the Vertex streamed call
        that nameless fragments still continue, or None (GM-CALL-STREAMED). Every other
        call part of the response is final: a reader of the stream (the provider-neutral
        events) completes a call once it is not open."""
        return self._candidates.open_call(index)

    def response(self) -> JSONObject:
        """Build the `GenerateContentResponse` the chunks so far fold into, as a new value.

        A stream cut short (no finishReason, or an error chunk) gives the partial response
        (GM-LIFE-TRUNCATED, GM-LIFE-ERROR).

        Raises:
            NoResponseError: no chunk has been folded yet (GM-LIFE-EMPTY).
        """
        if self._received == self._refused:
            raise NoResponseError(refused=self._refused)
        response: JSONObject = {}
        if self._candidates.any:  # GM-CAND-NONE: a blocked prompt streams no candidate
            response["candidates"] = self._candidates.output()
        response.update(self._envelope.output())  # GM-LIFE-SNAPSHOT: fresh copies
        return response


def fold(chunks: Iterable[JSON]) -> JSONObject:
    """Fold a whole list of chunks into the response they stand for.

    Raises:
        GeminiChunkTypeError: a chunk is not a JSON object (GM-ROB-NOT-OBJECT).
        NoResponseError: no chunk was folded (GM-LIFE-EMPTY).
    """
    accumulator = Accumulator()
    for chunk in chunks:
        accumulator.add(chunk)
    return accumulator.response()
