"""One detector per registered Gemini departure: the numbers of the chunks where a stream
departs that way (`_departures` names them)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from refold.reference import JSON, JSONObject, non_blank

from ._chunks import entries, index_of, parts_of
from ._known import SCHEMA

__all__ = [
    "after_error",
    "args_mismatch",
    "content_after_finish",
    "cut",
    "early_grounding",
    "early_metadata",
    "empty_text",
    "error_chunk",
    "grounding_resent",
    "index_gap",
    "no_index",
    "not_object",
    "null_entry",
    "signature_split",
    "traffic_only_usage",
    "trailing_usage",
    "unknown_part",
    "usage_down",
    "wrong_type",
]

_OWN = frozenset({"content", "index", "finishReason"})


def _texts(items: Sequence[JSON]) -> Iterator[tuple[int, dict[str, JSON]]]:
    for number, entry in entries(items):
        for part in parts_of(entry):
            if isinstance(part, dict) and part.get("text") == "":
                yield number, part


def empty_text(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-EMPTY-TEXT: bare `{"text": ""}` parts (a signed empty part is the signature's own
    part: GMD-SIGNATURE-SPLIT after text, a whole part otherwise; one with other keys is a
    whole part of the response)."""
    return (number for number, part in _texts(items) if set(part) <= {"text", "thought"})


def signature_split(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-SIGNATURE-SPLIT: a signature on an empty text part of its own right after
    plain unsigned text of the same kind (the text it signs)."""
    previous: dict[int | None, JSON] = {}
    for number, entry in entries(items):
        index = index_of(entry)
        for part in parts_of(entry):
            before = previous.get(index)
            if (
                isinstance(part, dict)
                and part.get("text") == ""
                and "thoughtSignature" in part
                and isinstance(before, dict)
                and isinstance(before.get("text"), str)
                and set(before) <= {"text", "thought"}
                and before.get("thought") == part.get("thought")
            ):
                yield number
            previous[index] = part


def no_index(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-VERTEX-NO-INDEX: candidate entries without `index`."""
    return (number for number, entry in entries(items) if "index" not in entry)


def early_grounding(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-GROUNDING-EARLY: `groundingMetadata` on an entry that does not finish."""
    for number, entry in entries(items):
        if "groundingMetadata" in entry and entry.get("finishReason") is None:
            yield number


def grounding_resent(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-GROUNDING-RESENT: an entry's `groundingMetadata` sends a key (non-null) that an
    earlier entry of the same candidate (by `index`, absent 0) already sent."""
    sent: dict[int | None, set[str]] = {}
    for number, entry in entries(items):
        grounding = entry.get("groundingMetadata")
        if not isinstance(grounding, dict):
            continue
        keys = {key for key, value in grounding.items() if value is not None}
        earlier = sent.setdefault(index_of(entry), set())
        if keys & earlier:
            yield number
        earlier |= keys


def early_metadata(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-METADATA-EARLY: ratings, citations or other candidate keys before the finish."""
    for number, entry in entries(items):
        others = set(entry) - _OWN - {"groundingMetadata"}
        if others and entry.get("finishReason") is None:
            yield number


def _usage_counts(items: Sequence[JSON]) -> list[tuple[int, dict[str, int]]]:
    found = []
    for number, item in enumerate(items):
        usage = item.get("usageMetadata") if isinstance(item, dict) else None
        if isinstance(usage, dict):
            counts = {k: v for k, v in usage.items() if isinstance(v, int)}
            found.append((number, counts))
    return found


def usage_down(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-USAGE-DOWN: an earlier usage count above the last one sent for that count."""
    usages = _usage_counts(items)
    last: dict[str, int] = {}
    for _, counts in usages:
        last.update(counts)
    for number, counts in usages:
        if any(value > last[key] for key, value in counts.items()):
            yield number


def traffic_only_usage(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-VERTEX-USAGE-TRAFFIC: `usageMetadata` holding only `trafficType`."""
    for number, item in enumerate(items):
        usage = item.get("usageMetadata") if isinstance(item, dict) else None
        if isinstance(usage, dict) and set(usage) == {"trafficType"}:
            yield number


def _finish_at(items: Sequence[JSON]) -> dict[int | None, int]:
    finishes: dict[int | None, int] = {}
    for number, entry in entries(items):
        if entry.get("finishReason") is not None:
            finishes.setdefault(index_of(entry), number)
    return finishes


def trailing_usage(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-TRAILING-USAGE: a chunk with usage and no candidates after every finish."""
    finishes = _finish_at(items)
    last = max(finishes.values(), default=None)
    for number, item in enumerate(items):
        if last is None or number <= last or not isinstance(item, dict):
            continue
        if "usageMetadata" in item and not item.get("candidates"):
            yield number


def error_chunk(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-ERROR-CHUNK: an `{"error": {...}}` chunk (a Status object)."""
    for number, item in enumerate(items):
        if isinstance(item, dict) and isinstance(item.get("error"), dict):
            yield number


def after_error(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-AFTER-ERROR: chunks after an error chunk."""
    errors = [n for n, item in enumerate(items) if isinstance(item, dict) and "error" in item]
    return iter(range(errors[0] + 1, len(items))) if errors else iter(())


def cut(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-CUT: a candidate never finishes (and the stream does not end on an error)."""
    last = items[-1] if items else None
    if isinstance(last, dict) and "error" in last:
        return
    finishes = _finish_at(items)
    for number, entry in entries(items):
        if index_of(entry) not in finishes:
            yield number


def _sent_index(entry: JSONObject) -> int | None:
    """The integer index an entry sends (absent: 0), a negative one too; None for another
    type (GMD-WRONG-TYPE's)."""
    value = entry.get("index", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def index_gap(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-INDEX-GAP: candidate indexes sent that are not 0..n-1 (a negative one too, which
    the fold reads as 0)."""
    indexes = {_sent_index(entry) for _, entry in entries(items)}
    if indexes == set(range(len(indexes))):
        return
    for number, entry in entries(items):
        index = _sent_index(entry)
        if index is None or not 0 <= index < len(indexes):
            yield number


def _after_finish(items: Sequence[JSON]) -> Iterator[tuple[int, JSONObject, bool]]:
    """(chunk, entry, whether it repeats its candidate's first finish reason) for every
    entry with parts or a finish reason after its candidate's finish chunk."""
    first: dict[int | None, tuple[int, JSON]] = {}
    for number, entry in entries(items):
        index = index_of(entry)
        if index in first:
            at, reason = first[index]
            if number > at and (parts_of(entry) or "finishReason" in entry):
                yield number, entry, entry.get("finishReason") == reason
        elif entry.get("finishReason") is not None:
            first[index] = (number, entry["finishReason"])


def finish_every_chunk(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-FINISH-EVERY-CHUNK: an entry after its candidate's finish chunk that says the
    same finish reason again (gemini-pro put `STOP` on every chunk)."""
    return (number for number, _, repeats in _after_finish(items) if repeats)


def content_after_finish(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-AFTER-FINISH-CONTENT: an entry for a candidate after its finish chunk, other
    than one repeating the finish reason (GMD-FINISH-EVERY-CHUNK)."""
    return (number for number, _, repeats in _after_finish(items) if not repeats)


_PATH_PIECES = ("stringValue", "numberValue", "boolValue", "nullValue")


def _readable(piece: JSON) -> bool:
    if not isinstance(piece, dict):
        return False
    path = piece.get("jsonPath")
    # `args` is an object: a readable path starts with one of its keys
    keyed = isinstance(path, str) and path.startswith(("$.", '$["', "$['"))
    return keyed and any(key in piece for key in _PATH_PIECES)


def args_mismatch(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-ARGS-MISMATCH: streamed pieces with unreadable paths or values."""
    for number, entry in entries(items):
        for part in parts_of(entry):
            call = part.get("functionCall") if isinstance(part, dict) else None
            pieces = call.get("partialArgs") if isinstance(call, dict) else None
            if isinstance(pieces, list) and not all(_readable(p) for p in pieces):
                yield number


def not_object(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-NOT-OBJECT: a chunk that is not a JSON object."""
    return (number for number, item in enumerate(items) if not isinstance(item, dict))


_PART_KEYS = frozenset(SCHEMA["$defs"]["Part"]["properties"]) | {
    "mediaResolution",
    "partMetadata",
    "toolCall",
    "toolResponse",
    "audioTranscription",
    "mediaProcessing",
    "speechMetadata",
}
"""The `Part` fields Google's pages name: the schema's (Google's API reference) and the
2026 additions the schema does not hold yet (research/gemini-fold.md, "Part", R11)."""


def unknown_part(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-UNKNOWN-PART: a part with a key no page names."""
    for number, entry in entries(items):
        if any(isinstance(part, dict) and part.keys() - _PART_KEYS for part in parts_of(entry)):
            yield number


def null_entry(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-NULL-ENTRY: a null or non-object candidate or part, or an empty part."""
    for number, item in enumerate(items):
        candidates = item.get("candidates") if isinstance(item, dict) else None
        if isinstance(candidates, list) and not all(isinstance(c, dict) for c in candidates):
            yield number
    for number, entry in entries(items):
        if any(not isinstance(p, dict) or not p for p in parts_of(entry)):
            yield number


_TYPES: dict[str, type | tuple[type, ...]] = {
    "candidates": list,
    "modelVersion": str,
    "responseId": str,
    "usageMetadata": dict,
    "promptFeedback": dict,
    "error": dict,  # a Status object (GM-LIFE-ERROR reads any other as `{}`)
}
_ENTRY_TYPES: dict[str, type | tuple[type, ...]] = {
    "content": dict,
    "finishReason": str,
    "index": int,
    "safetyRatings": list,
    "groundingMetadata": dict,
}


def _wrong(holder: dict[str, JSON], types: dict[str, type | tuple[type, ...]]) -> bool:
    for key, kind in types.items():
        value = holder.get(key)
        if key in holder and (not isinstance(value, kind) or isinstance(value, bool)):
            return True
        if isinstance(value, str) and non_blank(value) is None and key != "content":
            return True  # a blank identity or enum value
    return False


def wrong_type(items: Sequence[JSON]) -> Iterator[int]:
    """GMD-WRONG-TYPE: a field of the wrong JSON type, or a blank identity / enum value."""
    for number, item in enumerate(items):
        if isinstance(item, dict) and _wrong(item, _TYPES):
            yield number
    for number, entry in entries(items):
        if _wrong(entry, _ENTRY_TYPES):
            yield number
