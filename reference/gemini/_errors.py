"""The errors the Gemini reference fold and its wire layer raise.

Three things can go wrong: a chunk that is not a JSON object (GM-ROB-NOT-OBJECT), reading
the response before any chunk was folded (GM-LIFE-EMPTY), and wire bytes that do not
decode into chunks (feature `sse`). The first two subclass the chat fold's errors so that
code catching `ChunkTypeError` or `EmptyFoldError` catches every dialect. Each error names
the chunk number and the JSON pointer (into the array body, for the array framing) where
it was found.
"""

from __future__ import annotations

from .._errors import ChunkTypeError, EmptyFoldError, RefoldError, _json_type_name, _preview

__all__ = ["ChunkDataError", "GeminiChunkTypeError", "NoResponseError"]


class GeminiChunkTypeError(ChunkTypeError):
    """A chunk was not a JSON object (rule GM-ROB-NOT-OBJECT); the fold is unchanged."""

    def __init__(self, received: object, *, chunk_number: int) -> None:
        self.received_type = _json_type_name(received)
        self.chunk_number = chunk_number
        self.pointer = ""
        TypeError.__init__(
            self,
            f"GM-ROB-NOT-OBJECT: chunk {chunk_number} (pointer '') is a JSON "
            f"{self.received_type}, expected a JSON object (one GenerateContentResponse); "
            f"received {_preview(received)}",
        )


class NoResponseError(EmptyFoldError):
    """`response()` was called before any chunk was folded (rule GM-LIFE-EMPTY)."""

    def __init__(self, *, refused: int) -> None:
        self.refused = refused
        LookupError.__init__(
            self,
            f"GM-LIFE-EMPTY: no chunk has been folded yet ({refused} refused), so there is "
            f"no GenerateContentResponse to read; add a chunk object first",
        )


class ChunkDataError(RefoldError, ValueError):
    """Wire bytes that are not a chunk's JSON (feature `sse`).

    `chunk_number` counts the chunks of the stream from 0; `pointer` is where the bad value
    sits in the body: "" for an SSE event's data, `/n` for element n of the array framing.
    """

    def __init__(self, data: str, *, chunk_number: int, pointer: str, reason: str) -> None:
        self.data = data
        self.chunk_number = chunk_number
        self.pointer = pointer
        super().__init__(
            f"chunk {chunk_number} (pointer {pointer!r}) is not JSON ({reason}); expected one "
            f"GenerateContentResponse object, received {_preview(data)}"
        )
