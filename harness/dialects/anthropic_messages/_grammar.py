"""The documented order of Anthropic Messages stream events, as data (verdicts.md §1).

Each `GrammarLine` says one order rule as Anthropic's streaming page says it and cites the
section; its check names the events that break it. Together: `message_start`, then per
block `content_block_start`, `content_block_delta`*, `content_block_stop` with indexes
0, 1, 2 … in order, `ping` anywhere after the start, then `message_delta`+, then
`message_stop`; an `error` may end the stream anywhere. Only what the pages say: what
the events hold is the schema's business, and an event of a type the grammar does not
know is left to the schema (it is skipped here).

The walk over the events is shared (`findings`), so that the departures of
`_departures.py` can name exactly the events a line found.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from refold.reference import JSON, non_blank

from ...verdicts.shapes import GrammarLine, Violation

__all__ = ["DEFINED_DELTAS", "GRAMMAR", "Finding", "event_type", "findings"]

PAGE = "https://docs.anthropic.com/en/docs/build-with-claude/streaming"
_CITATIONS_PAGE = "https://docs.anthropic.com/en/docs/build-with-claude/citations"
_MESSAGES_PAGE = "https://docs.anthropic.com/en/api/messages"

_KNOWN = frozenset(
    {
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "ping",
        "error",
    }
)
_BLOCK_EVENTS = frozenset({"content_block_start", "content_block_delta", "content_block_stop"})

DEFINED_DELTAS: dict[str, frozenset[str]] = {
    "text_delta": frozenset({"text"}),
    "citations_delta": frozenset({"text"}),
    "input_json_delta": frozenset({"tool_use", "server_tool_use"}),
    "thinking_delta": frozenset({"thinking"}),
    "signature_delta": frozenset({"thinking"}),
}
"""The block types each documented delta type updates (the page's "Content block delta
types"; citations_delta: the citations page)."""


class Finding(NamedTuple):
    """One event that breaks a grammar line: which line, what kind of break, where."""

    line: str
    kind: str
    item: int
    pointer: str
    what: str


def event_type(item: JSON) -> str | None:
    """The event's `type` when it is one the grammar knows; None otherwise."""
    kind = item.get("type") if isinstance(item, dict) else None
    return kind if isinstance(kind, str) and kind in _KNOWN else None


def _index(item: JSON) -> object:
    return item.get("index") if isinstance(item, dict) else None


def _ended(items: Sequence[JSON]) -> int:
    """Where the stream ends: its first `error`, or its length."""
    return next((n for n, item in enumerate(items) if event_type(item) == "error"), len(items))


def _first(items: Sequence[JSON], kind: str, end: int) -> int | None:
    return next((n for n in range(end) if event_type(items[n]) == kind), None)


def _live(items: Sequence[JSON]) -> range:
    """The events between the first message_start and the first message_stop (or the end)."""
    end = _ended(items)
    start = _first(items, "message_start", end)
    if start is None:
        return range(0)
    stop = _first(items, "message_stop", end)
    return range(start + 1, end if stop is None else stop)


def _start_findings(items: Sequence[JSON]) -> Iterator[Finding]:
    end = _ended(items)
    start = _first(items, "message_start", end)
    for n in range(end if start is None else start):
        kind = event_type(items[n])
        if kind is not None and kind != "ping":
            yield Finding("start", "before start", n, "", f"a {kind} before message_start")
    if start is None:
        return
    message = items[start].get("message") if isinstance(items[start], dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list) and content:
        yield Finding(
            "start",
            "start content",
            start,
            "/message/content",
            f"message_start's content holds {len(content)} block(s), not none",
        )
    for n in range(start + 1, end):
        if event_type(items[n]) == "message_start":
            yield Finding("start", "second start", n, "", "a second message_start")


def _block_findings(items: Sequence[JSON]) -> Iterator[Finding]:
    """Each block's events in one run: its start, its deltas, its stop."""
    open_index: object = None
    is_open = False
    for n in _live(items):
        kind, index = event_type(items[n]), _index(items[n])
        if kind == "content_block_start":
            if is_open:
                yield Finding(
                    "blocks",
                    "not stopped",
                    n,
                    "",
                    f"block {index!r} starts before block {open_index!r} stopped",
                )
            open_index, is_open = index, True
        elif kind in ("content_block_delta", "content_block_stop"):
            if not is_open or index != open_index:
                yield Finding(
                    "blocks",
                    "outside its block",
                    n,
                    "/index",
                    f"a {kind} for block {index!r} outside that block's start and stop",
                )
            elif kind == "content_block_stop":
                is_open = False
        elif kind in ("message_delta", "message_stop") and is_open:
            yield Finding(
                "blocks", "not stopped", n, "", f"a {kind} before block {open_index!r} stopped"
            )
            is_open = False


def _index_findings(items: Sequence[JSON]) -> Iterator[Finding]:
    started = 0
    for n in _live(items):
        if event_type(items[n]) == "content_block_start":
            index = _index(items[n])
            if isinstance(index, bool) or not isinstance(index, int | float) or (index != started):
                yield Finding(
                    "index",
                    "index order",
                    n,
                    "/index",
                    f"block number {started} started with index {index!r}",
                )
            started += 1


def _delta_type_findings(items: Sequence[JSON]) -> Iterator[Finding]:
    types: dict[object, object] = {}
    for n in _live(items):
        item = items[n]
        if not isinstance(item, dict):
            continue
        kind, index = event_type(item), _index(item)
        block = item.get("content_block")
        if kind == "content_block_start" and isinstance(block, dict):
            types.setdefault(_key(index), block.get("type"))
        delta = item.get("delta")
        delta_type = delta.get("type") if isinstance(delta, dict) else None
        block_type = types.get(_key(index))
        if (
            kind == "content_block_delta"
            and isinstance(delta_type, str)
            and (delta_type in DEFINED_DELTAS)
            and isinstance(block_type, str)
            and (block_type not in DEFINED_DELTAS[delta_type])
        ):
            yield Finding(
                "delta types",
                "delta type",
                n,
                "/delta/type",
                f"a {delta_type} for a {block_type} block",
            )


def _signature_findings(items: Sequence[JSON]) -> Iterator[Finding]:
    """A thinking block's signature_delta is its last delta and it has one: any delta of the
    block after one (a second signature, more thinking) makes that one not "just before"
    the stop, and a block stopped without one was sent none."""
    thinking: dict[str, bool] = {}  # a thinking block's key -> whether a signature came
    signed: dict[str, int] = {}
    for n in _live(items):
        item = items[n]
        kind, key = event_type(item), _key(_index(item))
        if kind == "content_block_start":
            block = item.get("content_block") if isinstance(item, dict) else None
            if isinstance(block, dict) and block.get("type") == "thinking":
                thinking[key] = False
        elif kind == "content_block_stop" and key in thinking:
            signed.pop(key, None)
            if not thinking.pop(key):
                yield Finding(
                    "signature",
                    "unsigned",
                    n,
                    "",
                    f"thinking block {_index(item)!r} stopped without a signature_delta",
                )
        elif kind == "content_block_delta" and key in thinking:
            if key in signed:
                yield Finding(
                    "signature",
                    "signature not last",
                    signed.pop(key),
                    "/delta",
                    f"a signature_delta of block {_index(item)!r} followed by another delta "
                    "before its content_block_stop",
                )
            delta = item.get("delta") if isinstance(item, dict) else None
            if isinstance(delta, dict) and delta.get("type") == "signature_delta":
                signed[key], thinking[key] = n, True


def _key(value: object) -> str:
    """A hashable key of a JSON index: 1 and 1.0 alike (one JSON number), True apart."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{type(value).__name__}:{value!r}"


def _delta_findings(items: Sequence[JSON]) -> Iterator[Finding]:
    live = _live(items)
    seen_delta = False
    for n in live:
        kind = event_type(items[n])
        if kind == "message_delta":
            seen_delta = True
        elif kind in _BLOCK_EVENTS and seen_delta:
            yield Finding("message_delta", "late block", n, "", f"a {kind} after a message_delta")
    stop = live.stop
    if stop < len(items) and event_type(items[stop]) == "message_stop" and not seen_delta:
        yield Finding(
            "message_delta",
            "no message_delta",
            stop,
            "",
            "message_stop with no message_delta before it",
        )


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and non_blank(value) is None)


def _stop_values(item: JSON) -> tuple[object, object]:
    """A message_delta's (`stop_reason`, `stop_sequence`); None where absent."""
    delta = item.get("delta") if isinstance(item, dict) else None
    if not isinstance(delta, dict):
        return None, None
    return delta.get("stop_reason"), delta.get("stop_sequence")


def _stop_reason_findings(items: Sequence[JSON]) -> Iterator[Finding]:
    deltas = [n for n in _live(items) if event_type(items[n]) == "message_delta"]
    set_at = [n for n in deltas if not _blank(_stop_values(items[n])[0])]
    for n in deltas:
        reason, sequence = _stop_values(items[n])
        # one before the delta that sets it is the schema's (its stop_reason is nullable)
        if _blank(reason) and not (set_at and n < set_at[-1]):
            yield Finding(
                "stop_reason",
                "stop reason unset",
                n,
                "/delta/stop_reason",
                "a message_delta without a stop_reason after the last one that set it",
            )
        if isinstance(sequence, str) and reason != "stop_sequence":
            yield Finding(
                "stop_reason",
                "stop sequence alone",
                n,
                "/delta/stop_sequence",
                "a message_delta with a stop_sequence whose stop_reason is not stop_sequence",
            )


def _stop_findings(items: Sequence[JSON]) -> Iterator[Finding]:
    end = _ended(items)
    stop = _first(items, "message_stop", end)
    if stop is not None:
        for n in range(stop + 1, len(items)):
            yield Finding("stop", "after stop", n, "", "an event after message_stop")
    elif end == len(items):
        last = max(len(items) - 1, 0)
        yield Finding("stop", "cut", last, "", "the stream ends without message_stop (or an error)")


def _ping_findings(items: Sequence[JSON]) -> Iterator[Finding]:
    end = _ended(items)
    start = _first(items, "message_start", end)
    for n in range(end if start is None else start):
        if event_type(items[n]) == "ping":
            yield Finding("ping", "ping before start", n, "", "a ping before message_start")


def _error_findings(items: Sequence[JSON]) -> Iterator[Finding]:
    for n in range(_ended(items) + 1, len(items)):
        yield Finding("error", "after error", n, "", "an event after an error")


_WALKS: tuple[Callable[[Sequence[JSON]], Iterator[Finding]], ...] = (
    _start_findings,
    _block_findings,
    _index_findings,
    _delta_type_findings,
    _signature_findings,
    _delta_findings,
    _stop_reason_findings,
    _stop_findings,
    _ping_findings,
    _error_findings,
)


def findings(items: Sequence[JSON]) -> list[Finding]:
    """Every break of every grammar line in `items`."""
    return [found for walk in _WALKS for found in walk(items)]


def _line(
    walk: Callable[[Sequence[JSON]], Iterator[Finding]],
) -> Callable[[Sequence[JSON]], list[Violation]]:
    def check(items: Sequence[JSON]) -> list[Violation]:
        return [Violation(f.item, f.pointer, f"grammar: {f.what}") for f in walk(items)]

    return check


GRAMMAR: tuple[GrammarLine, ...] = (
    GrammarLine(
        "message_start: contains a Message object with empty content.",
        f"{PAGE} (Event types: the event flow, 1)",
        _line(_start_findings),
    ),
    GrammarLine(
        "A series of content blocks, each of which have a content_block_start, one "
        "or more content_block_delta events, and a content_block_stop event.",
        f"{PAGE} (Event types: the event flow, 2; Raw HTTP Stream response; "
        "Web search tool use example)",
        _line(_block_findings),
    ),
    GrammarLine(
        "Each content block will have an index that corresponds to its index in the "
        "final Message content array.",
        f"{PAGE} (Event types: the event flow, 2)",
        _line(_index_findings),
    ),
    GrammarLine(
        "Each content_block_delta event contains a delta of a type that updates the "
        "content block at a given index: text_delta a text block, input_json_delta a "
        "tool_use (and server_tool_use) block, thinking_delta and signature_delta a "
        "thinking block, citations_delta a text block.",
        f"{PAGE} (Content block delta types); {_CITATIONS_PAGE} (Streaming support)",
        _line(_delta_type_findings),
    ),
    GrammarLine(
        "For thinking content, a special signature_delta event is sent just before the "
        "content_block_stop event.",
        f"{PAGE} (Content block delta types: Thinking delta)",
        _line(_signature_findings),
    ),
    GrammarLine(
        "One or more message_delta events, indicating top-level changes to the final "
        "Message object.",
        f"{PAGE} (Event types: the event flow, 3)",
        _line(_delta_findings),
    ),
    GrammarLine(
        "stop_reason: in streaming mode, this is null in the message_start event and "
        "non-null otherwise. stop_sequence: this value will be a non-null string if one "
        "of your custom stop sequences was generated.",
        f"{_MESSAGES_PAGE} (Returns: stop_reason, stop_sequence); "
        f"{PAGE} (Event types: the event flow, 3)",
        _line(_stop_reason_findings),
    ),
    GrammarLine(
        "A final message_stop event.",
        f"{PAGE} (Event types: the event flow, 4)",
        _line(_stop_findings),
    ),
    GrammarLine(
        "Event streams may also include any number of ping events.",
        f"{PAGE} (Event types: Ping events; Raw HTTP Stream response)",
        _line(_ping_findings),
    ),
    GrammarLine(
        "We may occasionally send errors in the event stream.",
        f"{PAGE} (Event types: Error events)",
        _line(_error_findings),
    ),
)
"""The documented grammar of an Anthropic Messages stream, one line per rule of order."""
