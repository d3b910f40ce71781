"""How a Gemini difference is kept from rules the failing stream gives nothing to decide.

`absent_departures(stream)` names the rules about a shape the stream does not have: a
difference in its fold is never evidence against them (`Dialect.absent_departures`,
read by `refold.run.checks.implicated_by`). The pointer table gives a part's
`thoughtSignature` to GM-SIGNATURE and GM-CALL-STREAMED and its `text` to the thought
and signature rules too; in a stream with no streamed call, no signature or no `thought`
key, those rules decide nothing there. Undoing departures one at a time (the other
dialects' `applicable_undos`) is not written for Gemini yet: a crash is charged to the
rules of the test that met it.
"""

from __future__ import annotations

from collections.abc import Iterator

from refold.reference import JSON, JSONObject

__all__ = ["absent_departures"]


def _parts(stream: list[JSON]) -> Iterator[JSONObject]:
    """Every part object of every candidate of every chunk object."""
    for chunk in stream:
        entries = chunk.get("candidates") if isinstance(chunk, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            content = entry.get("content") if isinstance(entry, dict) else None
            parts = content.get("parts") if isinstance(content, dict) else None
            for part in parts if isinstance(parts, list) else []:
                if isinstance(part, dict):
                    yield part


def _opens_a_streamed_call(part: JSONObject) -> bool:
    """GM-CALL-STREAMED: `willContinue: true` or a `partialArgs` list opens a call."""
    call = part.get("functionCall")
    if not isinstance(call, dict):
        return False
    return call.get("willContinue") is True or isinstance(call.get("partialArgs"), list)


def absent_departures(stream: list[JSON]) -> frozenset[str]:
    """The rules about a shape `stream` does not have: streamed call fragments
    (GM-CALL-STREAMED, GM-CALL-PARTIAL-ARGS), any `thoughtSignature` (GM-SIGNATURE),
    any `thought` key (GM-THOUGHT-APART)."""
    parts = list(_parts(stream))
    absent: set[str] = set()
    if not any(_opens_a_streamed_call(part) for part in parts):
        absent |= {"GM-CALL-STREAMED", "GM-CALL-PARTIAL-ARGS"}
    if not any("thoughtSignature" in part for part in parts):
        absent.add("GM-SIGNATURE")
    if not any("thought" in part for part in parts):
        absent.add("GM-THOUGHT-APART")
    return frozenset(absent)
