"""Which drawn streams the Gemini suites leave out: those reading an open ambiguity.

GM-CALL-STREAMED says a functionCall with `willContinue: true` or a `partialArgs` list
opens a streamed call, and also that "a nameless fragment when no call is open is kept
whole": a nameless opening fragment with no call open reads both ways. No suite sends
such a stream (the reference opens a call; an independent fold may keep it whole).
"""

from __future__ import annotations

from refold.reference import JSONObject

__all__ = ["no_orphan_fragment"]


def _opens(call: JSONObject) -> bool:
    return call.get("willContinue") is True or isinstance(call.get("partialArgs"), list)


def _index(entry: JSONObject) -> int:
    """GM-CAND-INDEX: a non-negative integral number, else 0."""
    value = entry.get("index")
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return 0
    return int(value) if value == int(value) else 0


def no_orphan_fragment(stream: list[JSONObject]) -> bool:
    """Whether no nameless fragment that would open a call arrives while no call is open:
    the spec reads that case two ways (GM-CALL-STREAMED opens a call, "a nameless fragment
    when no call is open is kept whole"), so no stream here depends on it."""
    open_calls: dict[int, bool] = {}  # candidate index -> a streamed call is open
    for chunk in stream:
        entries = chunk.get("candidates") if isinstance(chunk, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            content = entry.get("content") if isinstance(entry, dict) else None
            parts = content.get("parts") if isinstance(content, dict) else None
            for part in parts if isinstance(parts, list) else []:
                call = part.get("functionCall") if isinstance(part, dict) else None
                if not isinstance(call, dict):
                    continue
                index = _index(entry)
                name = call.get("name")
                if isinstance(name, str) and name.strip():
                    open_calls[index] = _opens(call)
                elif open_calls.get(index):
                    open_calls[index] = call.get("willContinue") is True
                elif _opens(call):
                    return False
    return True
