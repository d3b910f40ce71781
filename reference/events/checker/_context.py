"""One stream as the checks read it: the inputs, read once, and the frame each event came from.

Events do not say which frame produced them, so the checker infers it (`origin`): an
event's `opaque` (an Opaque's `payload`) is matched to the first frame, at or after the
frame of the event before it, that it is JSON-equal to. Events therefore come from frames
in non-decreasing order; an opaque equal only to an earlier frame is an EV-FRAME-ORDER
break, one equal to no frame an EV-OPAQUE-FRAME one. The exception is EV-ARGS-BUFFER: the
ToolCallArgumentsDelta events right after their call's ToolCallStarted may carry earlier
frames (fragments held until the id was known), in order among themselves.

With `emitted` (for each event, the frame during which it arrived, before that frame's
ack; `len(frames)` for the events of `end()`), the frame an event came from is known up
to JSON-equal frames: it is the latest frame equal to its opaque that had been sent when
it arrived. An opaque of a frame before the one it arrived at is look-ahead
(EV-FRAME-ORDER), unless it is a held fragment released right after its call's
ToolCallStarted (EV-ARGS-BUFFER), or an event of `end()` carrying the last frame.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from ..._json import JSON, JSONObject
from ..._neutral.source import arrived
from ._dialects import Analysis, View, analyse, view_of
from ._grammar import Outcome, read_outcome

__all__ = ["Ops", "Stream", "check_emitted", "frame_key", "make_stream"]


@dataclass(frozen=True)
class Ops:
    """The adapter's own operations, for the PERSIST rules that need them (§5.5)."""

    fold: Callable[[list[JSON]], JSON] | None = None
    strip: Callable[[JSON], JSON] | None = None


@dataclass
class Stream:
    """Everything the checks read about one stream."""

    dialect: str
    frames: Sequence[JSON]
    events: list[JSON]
    outcome: Outcome
    analysis: Analysis
    expected: View | None
    provider: str | None
    turn_opaque: bool
    persisted: JSON
    canaries: tuple[str, ...]
    ops: Ops
    emitted: tuple[int, ...] | None = None
    origin: list[int | None] = field(default_factory=list)
    order_breaks: set[int] = field(default_factory=set)
    released: set[int] = field(default_factory=set)  # deltas released after their start

    def of_type(self, kind: str) -> Iterator[tuple[int, JSONObject]]:
        """The events of one variant, with their indexes."""
        for number, event in enumerate(self.events):
            if isinstance(event, dict) and event.get("type") == kind:
                yield number, event

    @property
    def completed(self) -> bool:
        return self.outcome.name == "completed"

    @property
    def turn(self) -> tuple[int, JSONObject] | None:
        """The last Completed event whose `turn` is an object, when the outcome is
        `completed`: the turn rules are about a successful stream's turn only."""
        if not self.completed:
            return None
        found = [
            (n, e["turn"]) for n, e in self.of_type("Completed") if isinstance(e.get("turn"), dict)
        ]
        return found[-1] if found else None


def frame_key(value: JSON) -> str:
    """A text equal for JSON-equal values: keys sorted, integral floats as integers."""
    return json.dumps(_integral(value), sort_keys=True, ensure_ascii=False, default=repr)


def _integral(value: JSON) -> JSON:
    if isinstance(value, dict):
        return {str(k): _integral(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_integral(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def make_stream(
    dialect: str,
    frames: Sequence[JSON],
    events: Sequence[JSON],
    outcome: JSON,
    *,
    known: JSON,
    persisted: JSON,
    canaries: Sequence[str],
    provider: str | None,
    turn_opaque: bool,
    ops: Ops,
    emitted: Sequence[int] | None = None,
) -> Stream:
    """Read the inputs once and match each event to its frame."""
    analysis = analyse(dialect, frames)
    expected = (
        _calls_as_completed(view_of(dialect, known), analysis.view)
        if known is not None
        else analysis.view
    )
    stream = Stream(
        dialect,
        frames,
        list(events),
        read_outcome(outcome),
        analysis,
        expected,
        provider,
        turn_opaque,
        persisted,
        tuple(c for c in canaries if c),
        ops,
        None if emitted is None else tuple(emitted),
    )
    if stream.emitted is None:
        _match(stream)
    else:
        _match_emitted(stream, stream.emitted)
    return stream


def _carried(event: JSON) -> tuple[bool, JSON]:
    if isinstance(event, dict):
        for key in ("opaque", "payload"):
            if key in event and event.get("type") != "Completed":
                return True, event[key]
    return False, None


def _match(stream: Stream) -> None:
    positions: dict[str, list[int]] = {}
    for number, frame in enumerate(stream.frames):
        positions.setdefault(frame_key(frame), []).append(number)
    cursor = 0
    released: str | None = None  # the call whose buffered deltas may follow (EV-ARGS-BUFFER)
    run_cursor = 0
    for number, event in enumerate(stream.events):
        carries, value = _carried(event)
        kind = event.get("type") if isinstance(event, dict) else None
        if not carries:
            stream.origin.append(None)
            continue
        where = positions.get(frame_key(value), [])
        if (
            kind == "ToolCallArgumentsDelta"
            and released is not None
            and event.get("id") == released
        ):
            found = _first_at(where, run_cursor)
            if found is not None:
                run_cursor = found
                cursor = max(cursor, found)
                stream.origin.append(found)
                continue
        released = (
            event.get("id")
            if kind == "ToolCallStarted" and isinstance(event.get("id"), str)
            else None
        )
        run_cursor = 0
        found = _first_at(where, cursor)
        if found is None and where:
            found = where[0]
            stream.order_breaks.add(number)
        else:
            cursor = found if found is not None else cursor
        stream.origin.append(found)


def _match_emitted(stream: Stream, emitted: tuple[int, ...]) -> None:
    positions: dict[str, list[int]] = {}
    for number, frame in enumerate(stream.frames):
        positions.setdefault(frame_key(frame), []).append(number)
    released: str | None = None
    for number, event in enumerate(stream.events):
        carries, value = _carried(event)
        kind = event.get("type") if isinstance(event, dict) else None
        if (
            kind == "ToolCallArgumentsDelta"
            and released is not None
            and event.get("id") == released
        ):
            stream.released.add(number)  # EV-ARGS-BUFFER: the run right after the start
        else:
            released = (
                event.get("id")
                if kind == "ToolCallStarted" and isinstance(event.get("id"), str)
                else None
            )
        if not carries:
            stream.origin.append(None)
            continue
        where = positions.get(frame_key(value), [])
        sent = [at for at in where if at <= emitted[number]]
        stream.origin.append(sent[-1] if sent else (where[0] if where else None))
        if where and not sent:
            stream.order_breaks.add(number)  # a frame not sent yet when it arrived


def check_emitted(emitted: Sequence[int], frames: int, events: int) -> None:
    """`emitted` is the caller's: one frame number per event, in order, 0..`frames`.

    Raises:
        ValueError: it is not.
    """
    numbers = list(emitted)
    if (
        len(numbers) != events
        or any(
            not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= frames for n in numbers
        )
        or numbers != sorted(numbers)
    ):
        raise ValueError(
            f"emitted must give, for each of the {events} events, the number "
            f"of the frame it arrived at (0..{frames}, {frames} for end()), "
            f"in non-decreasing order; received {numbers!r:.200}"
        )


def _first_at(positions: list[int], low: int) -> int | None:
    at = bisect_left(positions, low)
    return positions[at] if at < len(positions) else None


def _calls_as_completed(known: View | None, read: View | None) -> View | None:
    """The known completion's view with its calls in the order the frames complete them,
    as the fold's own view is read (`_source.arrived`, see `_ends`): T is the fold of the
    events (PERSIST-PORTABLE), so a call the frames complete only at the terminal (a
    Responses item added `completed` and never done) comes after one completed earlier,
    whatever the known result's order. Calls the frames never complete keep their place
    after the others."""
    if read is None:
        return known
    return arrived(known, [call.get("id") for call in read.tool_calls], None)
