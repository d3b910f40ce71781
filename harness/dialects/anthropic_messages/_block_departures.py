"""The block-level departures of an Anthropic event stream from family 1, each named after
its rule, and how to undo them (`refold.dialects.anthropic_messages.ablation` holds the event-level
ones).

Family 1 opens blocks at indexes n..n+k-1 in that order (n: the blocks message_start
already holds), once each, sends each block's deltas (of the types its block type is
defined for) between its start and its stop, and does not interleave blocks. A stream
that does otherwise departs in the way one rule decides; undoing it gives a stream the
reference folds identically (`applicable_undos` checks that on the stream at hand).
Plain JSON in, plain JSON out; the input is never mutated.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from refold.reference import JSON

from .._reading import index_of

_BLOCK_EVENTS = frozenset({"content_block_start", "content_block_delta", "content_block_stop"})
_DEFINED = {
    "text": frozenset({"text_delta", "citations_delta"}),
    "thinking": frozenset({"thinking_delta", "signature_delta"}),
    **{
        kind: frozenset({"input_json_delta"})
        for kind in ("tool_use", "server_tool_use", "mcp_tool_use")
    },
}
_KNOWN_DELTAS = frozenset().union(*_DEFINED.values())


def _live(stream: list[JSON]) -> range:
    """The positions between the first message_start that starts the Message and the
    first message_stop after it: block events elsewhere are AM-BEFORE-START's or
    AM-LIFE-AFTER-STOP's departures, not these."""
    start = next(
        (
            n
            for n, e in enumerate(stream)
            if _kind(e) == "message_start"
            and isinstance(e, dict)
            and isinstance(e.get("message"), dict)
        ),
        len(stream),
    )
    stop = next(
        (n for n, e in enumerate(stream) if n > start and _kind(e) == "message_stop"), len(stream)
    )
    return range(start + 1, stop)


def _in_live(stream: list[JSON], undo: Callable[[list[JSON]], list[JSON]]) -> list[JSON]:
    """`undo` applied to the live part of `stream` only."""
    live = _live(stream)
    return [
        *copy.deepcopy(stream[: live.start]),
        *undo(stream[live.start : live.stop]),
        *copy.deepcopy(stream[live.stop :]),
    ]


def _index(event: JSON) -> int | None:
    """A block event's index when it is a non-negative JSON integer (1.0 counts)."""
    if not isinstance(event, dict) or event.get("type") not in _BLOCK_EVENTS:
        return None
    return index_of(event.get("index"))


def _kind(event: JSON) -> Any:
    return event.get("type") if isinstance(event, dict) else None


def _block_type(event: JSON) -> Any:
    block = event.get("content_block") if isinstance(event, dict) else None
    return block.get("type") if isinstance(block, dict) else None


def _started(stream: list[JSON]) -> int:
    """How many blocks the first message_start holds (family 1 opens the others after)."""
    for event in stream:
        message = (
            event.get("message")
            if _kind(event) == "message_start" and isinstance(event, dict)
            else None
        )
        if isinstance(message, dict):
            content = message.get("content")
            return len(content) if isinstance(content, list) else 0
    return 0


def _block_reopen(stream: list[JSON]) -> list[JSON]:
    """AM-BLOCK-REOPEN: drop a content_block_start for an index that already holds a
    block (the first one wins)."""
    opened: set[int] = set()
    kept: list[JSON] = []
    for event in stream:
        index = _index(event)
        if _kind(event) == "content_block_start" and index is not None:
            if index in opened:
                continue
            opened.add(index)
        kept.append(copy.deepcopy(event))
    return kept


def _delta_route(stream: list[JSON]) -> list[JSON]:
    """AM-DELTA-ROUTE: drop the deltas for an index that holds no block when they arrive."""
    opened: set[int] = set()
    kept: list[JSON] = []
    for event in stream:
        index = _index(event)
        if _kind(event) == "content_block_start" and index is not None:
            opened.add(index)
        elif _kind(event) == "content_block_delta" and index not in opened:
            continue
        kept.append(copy.deepcopy(event))
    return kept


def _delta_match(stream: list[JSON]) -> list[JSON]:
    """AM-DELTA-MATCH: drop the deltas of a known type sent to a block whose type it is
    not defined for (unknown delta types are AM-UNKNOWN-DELTA's)."""
    types: dict[int, Any] = {}
    kept: list[JSON] = []
    for event in stream:
        index = _index(event)
        if _kind(event) == "content_block_start" and index is not None:
            types.setdefault(index, _block_type(event))
        elif _kind(event) == "content_block_delta" and index in types:
            delta = event.get("delta") if isinstance(event, dict) else None
            kind = delta.get("type") if isinstance(delta, dict) else None
            if kind in _KNOWN_DELTAS and kind not in _DEFINED.get(types[index], ()):
                continue
        kept.append(copy.deepcopy(event))
    return kept


def _block_order(stream: list[JSON], first: int) -> list[JSON]:
    """AM-BLOCK-ORDER: the block events moved so that blocks arrive one after the other
    in ascending index order (each block's own events in their order), and the indexes
    renumbered to close the gaps."""
    indexed = [(n, index) for n, event in enumerate(stream) if (index := _index(event)) is not None]
    ranks = {index: rank for rank, index in enumerate(sorted({i for _, i in indexed}))}
    ordered = sorted(indexed, key=lambda pair: pair[1])  # stable: each block's own order
    result = [copy.deepcopy(event) for event in stream]
    for (position, _), (source, index) in zip(indexed, ordered, strict=True):
        moved = copy.deepcopy(stream[source])
        assert isinstance(moved, dict)  # a block event with an index is an object
        moved["index"] = first + ranks[index]
        result[position] = moved
    return result


def _block_stop(stream: list[JSON]) -> list[JSON]:
    """AM-BLOCK-STOP: every block's content_block_stop sent once, right after its last
    delta (or its start), none for an index that holds no block."""
    last: dict[int, int] = {}
    for n, event in enumerate(stream):
        index = _index(event)
        if index is not None and (
            _kind(event) == "content_block_start"
            or (_kind(event) == "content_block_delta" and index in last)
        ):
            last[index] = n
    after = {n: index for index, n in last.items()}
    stops = {
        index: event
        for event in reversed(stream)
        if _kind(event) == "content_block_stop" and (index := _index(event)) is not None
    }
    result: list[JSON] = []
    for n, event in enumerate(stream):
        if _kind(event) != "content_block_stop":
            result.append(copy.deepcopy(event))
        if n in after:  # the block's first stop, as sent, moved here (or a new one)
            stop = stops.get(after[n], {"type": "content_block_stop", "index": after[n]})
            result.append(copy.deepcopy(stop))
    return result


def _signature(event: JSON) -> str | None:
    """The string signature of a signature_delta event (None: not one, or not a string)."""
    delta = event.get("delta") if isinstance(event, dict) else None
    if _kind(event) != "content_block_delta" or not isinstance(delta, dict):
        return None
    if delta.get("type") != "signature_delta":
        return None
    signature = delta.get("signature")
    return signature if isinstance(signature, str) else None


def _signature_last(stream: list[JSON]) -> list[JSON]:
    """AM-THINK-SIGNATURE: each thinking block's string signature_deltas reduced to the
    last one, the one that decides, and that one moved right after the block's last other
    delta when one follows it; a block whose one signature is its last delta is as sent."""
    thinking = {
        index
        for event in stream
        if _kind(event) == "content_block_start"
        and _block_type(event) == "thinking"
        and (index := _index(event)) is not None
    }
    signatures: dict[int, list[int]] = {}  # a thinking block's string signatures, by place
    last_other: dict[int, int] = {}  # where its last other delta is
    for n, event in enumerate(stream):
        if (index := _index(event)) in thinking and _kind(event) == "content_block_delta":
            if _signature(event) is None:
                last_other[index] = n
            else:
                signatures.setdefault(index, []).append(n)
    dropped: set[int] = set()
    moved: dict[int, int] = {}  # the place a signature is moved after -> its own place
    for index, places in signatures.items():
        *earlier, deciding = places
        dropped.update(earlier)
        if last_other.get(index, -1) > deciding:
            dropped.add(deciding)
            moved[last_other[index]] = deciding
    result: list[JSON] = []
    for n, event in enumerate(stream):
        if n not in dropped:
            result.append(copy.deepcopy(event))
        if n in moved:
            result.append(copy.deepcopy(stream[moved[n]]))
    return result


def block_reopen(stream: list[JSON]) -> list[JSON]:
    """AM-BLOCK-REOPEN: drop a content_block_start for an index that already holds a
    block (the first one wins)."""
    return _in_live(stream, _block_reopen)


def delta_route(stream: list[JSON]) -> list[JSON]:
    """AM-DELTA-ROUTE: drop the deltas for an index that holds no block when they arrive."""
    return _in_live(stream, _delta_route)


def delta_match(stream: list[JSON]) -> list[JSON]:
    """AM-DELTA-MATCH: drop the deltas of a known type sent to a block whose type it is
    not defined for (unknown delta types are AM-UNKNOWN-DELTA's)."""
    return _in_live(stream, _delta_match)


def block_order(stream: list[JSON]) -> list[JSON]:
    """AM-BLOCK-ORDER: blocks arrive one after the other in ascending index order, their
    indexes renumbered to close the gaps (after the blocks message_start holds)."""
    first = _started(stream)
    return _in_live(stream, lambda live: _block_order(live, first))


def block_stop(stream: list[JSON]) -> list[JSON]:
    """AM-BLOCK-STOP: every block's content_block_stop sent once, right after its last
    delta (or its start), none for an index that holds no block."""
    return _in_live(stream, _block_stop)


def signature_last(stream: list[JSON]) -> list[JSON]:
    """AM-THINK-SIGNATURE: each thinking block's string signature_deltas reduced to the
    last one, sent after the block's other deltas (the page sends one, "just before the
    content_block_stop event")."""
    return _in_live(stream, _signature_last)
