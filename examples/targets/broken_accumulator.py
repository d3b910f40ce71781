"""A deliberately broken accumulator, the kind of bug refold exists to catch.

It makes two mistakes that real SDKs have made: every `id` of a chunk replaces the
previous one (ENV-ID wants the first non-blank id), and a later empty finish reason
erases an earlier one (CHOICE-FINISH). Everything else it delegates to the reference.
`refold check --target examples/targets/broken_accumulator.py` reports both rules.
"""

from __future__ import annotations

from typing import Any

from refold.reference.chat import Accumulator as _Reference


class Accumulator:
    """The reference fold with two bugs layered on top."""

    def __init__(self) -> None:
        self._reference = _Reference()
        self._last_id: Any = None
        self._finish: dict[int, Any] = {}

    def add(self, chunk: Any) -> None:
        self._reference.add(chunk)
        if chunk.get("id") is not None:
            self._last_id = chunk["id"]  # bug: last id wins
        for entry in chunk.get("choices") or []:
            if isinstance(entry, dict) and "finish_reason" in entry:
                index = entry.get("index", 0)
                self._finish[index if isinstance(index, int) else 0] = entry["finish_reason"]

    def response(self) -> dict[str, Any]:
        response = self._reference.response()
        if self._last_id is not None:
            response["id"] = self._last_id
        for choice in response["choices"]:
            if choice["index"] in self._finish:
                choice["finish_reason"] = self._finish[choice["index"]] or None  # bug
        return response

    @property
    def finished(self) -> bool:
        return self._reference.finished

    def mark_done(self) -> None:
        self._reference.mark_done()
