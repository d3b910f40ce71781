"""The PERSIST rules of §3: what the runtime persists, and what its strip and fold keep.

`persisted` is the JSON value the adapter says its runtime would write for the turn
(§5's `persisted` message). Strings are searched as decoded values and also for their
JSON-escaped forms, so a canary hidden in a nested JSON text (`"{\\"k\\": \\"CANARY\\"}"`)
or written with `\\u` escapes is found ("escaped or not").

PERSIST-STRIP and PERSIST-RESPONSE-ID are read together: the key `response_id` must be
gone at any depth (STRIP), and the raw id must appear nowhere, under any key (RESPONSE-ID:
"replaced by a value that does not contain it" is a value under another key).
The rules that need the adapter's own strip or fold are checked when `Ops` has them.

Decision (PERSIST-STRIP's "at any depth" vs PERSIST-PORTABLE's "strip(E) keeps every
`call` unchanged", for a tool whose argument object has a key `opaque` or `payload`):
`ToolCall.arguments` is the model's data, the tool input a runtime executes, not a
provider frame; stripping a key out of it would change the call PERSIST-PORTABLE and
EV-FOLD-AGREES hold unchanged, and the frames it came from are already gone with the
event's own `opaque`. So strip and the PERSIST-STRIP scan read `opaque`, `payload` and
`response_id` keys everywhere except inside a value under the key `arguments`, as the
reference's strip does (`_strip.py`); canaries are still searched there (PERSIST-CANARY).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

from ..._compare import pointer
from ..._json import JSON, json_equal
from ._context import Stream
from ._violation import Violation

__all__ = [
    "persist_canary",
    "persist_idempotent",
    "persist_no_semantics",
    "persist_portable",
    "persist_response_id",
    "persist_strip",
]

_STRIPPED = ("opaque", "payload", "response_id")
_DATA = "arguments"  # a ToolCall's arguments: the model's data, never stripped (see above)


def _strip(value: JSON) -> JSON:
    """§3's strip(x): every `opaque`, `payload` and `response_id` key removed, at any depth
    (a call's `arguments` kept whole)."""
    if isinstance(value, dict):
        return {k: v if k == _DATA else _strip(v) for k, v in value.items() if k not in _STRIPPED}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _nulled(value: JSON) -> JSON:
    """Every `opaque` and `payload` replaced by null, at any depth (PERSIST-NO-SEMANTICS)."""
    if isinstance(value, dict):
        return {
            k: None if k in ("opaque", "payload") else v if k == _DATA else _nulled(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_nulled(v) for v in value]
    return value


def _walk(
    value: JSON, path: list[str | int], *, data: bool = True
) -> Iterator[tuple[list[str | int], JSON, bool]]:
    """Every value and every key (flag True) of `value`, with its path; `data=False`
    leaves out what is under a call's `arguments`."""
    yield path, value, False
    if isinstance(value, dict):
        for key, item in value.items():
            yield [*path, key], key, True
            if data or key != _DATA:
                yield from _walk(item, [*path, key], data=data)
    elif isinstance(value, list):
        for number, item in enumerate(value):
            yield from _walk(item, [*path, number], data=data)


def _forms(text: str) -> set[str]:
    return {text, json.dumps(text)[1:-1], json.dumps(text, ensure_ascii=False)[1:-1]}


def _find(value: JSON, text: str, excused: frozenset[str] = frozenset()) -> str | None:
    """The pointer of the first string of `value` holding `text` in any form, or None;
    strings in `excused` are not searched."""
    forms = _forms(text)
    for path, item, _ in _walk(value, []):
        if isinstance(item, str) and item not in excused and any(f in item for f in forms):
            return pointer(path)
    return None


def _portable_strings(stream: Stream) -> frozenset[str]:
    """Every string (key or value) of strip(E): portable data the frames or the contract
    put there (a type name, a text delta, a tool name), never the response id itself."""
    return frozenset(
        item for _, item, _ in _walk(_strip(stream.events), []) if isinstance(item, str)
    )


def persist_strip(stream: Stream) -> Iterator[Violation]:
    """PERSIST-STRIP: no `opaque`, `payload` or `response_id` key at any depth."""
    if stream.persisted is None:
        return
    for path, item, is_key in _walk(stream.persisted, [], data=False):
        if is_key and item in _STRIPPED:
            yield Violation(
                "PERSIST-STRIP",
                f"the persisted value has a key {item!r}; expected it stripped",
                pointer=pointer(path),
            )


def persist_canary(stream: Stream) -> Iterator[Violation]:
    """PERSIST-CANARY: no planted canary appears in the persisted value, escaped or not."""
    if stream.persisted is None:
        return
    for canary in stream.canaries:
        where = _find(stream.persisted, canary)
        if where is not None:
            yield Violation(
                "PERSIST-CANARY",
                f"the canary {canary!r}, planted in a frame "
                f"outside the portable fields, is persisted",
                pointer=where,
            )


def _raw_ids(stream: Stream) -> list[str]:
    turn = stream.turn
    found = [turn[1].get("response_id")] if turn is not None else []
    if stream.analysis.view is not None:
        found.append(stream.analysis.view.response_id)
    return sorted({i for i in found if isinstance(i, str) and i.strip()})


def persist_response_id(stream: Stream) -> Iterator[Violation]:
    """PERSIST-RESPONSE-ID: the raw response id is persisted nowhere.

    A persisted string that is itself a string of strip(E) (the events' portable fields:
    `TextDelta`, a delta, a tool name) is not searched: a short id such as `x` inside the
    model's text or a variant name is the frames' data, not the id persisted; the id is
    persisted when a string strip(E) does not account for holds it."""
    if stream.persisted is None:
        return
    excused = _portable_strings(stream)
    for raw in _raw_ids(stream):
        where = _find(stream.persisted, raw, excused)
        if where is not None:
            yield Violation(
                "PERSIST-RESPONSE-ID",
                f"the raw response id {raw!r} is persisted; expected it removed or replaced",
                pointer=where,
            )


def _call(rule: str, op: Callable[..., JSON], argument: JSON) -> tuple[JSON, Violation | None]:
    try:
        return op(argument), None
    except Exception as error:  # the adapter's own code: any failure is a finding
        return None, Violation(
            rule,
            f"the adapter's {getattr(op, '__name__', 'op')} raised {type(error).__name__}: {error}",
        )


def _refold(stream: Stream, rule: str, events: list[JSON], what: str) -> Iterator[Violation]:
    turn, fold = stream.turn, stream.ops.fold
    if turn is None or fold is None:
        return
    refolded, failure = _call(rule, fold, events)
    if failure is not None:
        yield failure
        return
    received = _strip(refolded.get("turn", refolded) if isinstance(refolded, dict) else refolded)
    expected = _strip(turn[1])
    if not json_equal(received, expected):
        yield Violation(
            rule,
            f"folding {what} gives {received!r:.200}, expected strip(T) {expected!r:.200}",
            event=turn[0],
        )


def persist_portable(stream: Stream) -> Iterator[Violation]:
    """PERSIST-PORTABLE: strip(E) keeps every portable field; folding it gives strip(T)."""
    yield from _refold(stream, "PERSIST-PORTABLE", _strip(stream.events), "strip(E)")
    strip = stream.ops.strip
    if strip is None:
        return
    stripped, failure = _call("PERSIST-PORTABLE", strip, stream.events)
    if failure is not None:
        yield failure
    elif not _keeps_portable(_strip(stream.events), stripped):
        yield Violation(
            "PERSIST-PORTABLE",
            f"the adapter's strip(E) is {stripped!r:.200}; "
            f"expected the events with only opaque/payload/response_id removed "
            f"(Opaque events may be dropped)",
        )


def _keeps_portable(expected: list[JSON], received: JSON) -> bool:
    """`received` is `expected` with some Opaque events left out (§3 allows dropping them)."""
    if not isinstance(received, list):
        return False
    kept = iter(received)
    pending = next(kept, None)
    for event in expected:
        if pending is not None and json_equal(event, pending):
            pending = next(kept, None)
        elif not (isinstance(event, dict) and event.get("type") == "Opaque"):
            return False
    return pending is None


def persist_idempotent(stream: Stream) -> Iterator[Violation]:
    """PERSIST-IDEMPOTENT: the adapter's strip(strip(x)) == strip(x), for E and T."""
    strip, turn = stream.ops.strip, stream.turn
    if strip is None:
        return
    for what, value in (("E", stream.events), ("T", turn[1] if turn else None)):
        if value is None:
            continue
        once, failure = _call("PERSIST-IDEMPOTENT", strip, value)
        twice, again = (None, failure) if failure else _call("PERSIST-IDEMPOTENT", strip, once)
        if again is not None:
            yield again
        elif not json_equal(once, twice):
            yield Violation(
                "PERSIST-IDEMPOTENT",
                f"strip(strip({what})) is {twice!r:.200}, but strip({what}) is {once!r:.200}",
            )


def persist_no_semantics(stream: Stream) -> Iterator[Violation]:
    """PERSIST-NO-SEMANTICS: folding E with every opaque/payload null gives strip(T)."""
    yield from _refold(
        stream,
        "PERSIST-NO-SEMANTICS",
        _nulled(stream.events),
        "E with every opaque and payload null",
    )
