"""The documented grammar of an OpenAI Responses event stream, as data.

Each line says one order rule as OpenAI's pages put it, cites the page, and finds the
events that break it. Only what the pages say: the streaming guide's lifecycle ("some key
lifecycle events are emitted only once"), and the API reference's event pages (an item is
added, its parts are added, their deltas and `.done` events follow, the part and the item
are marked done, and the response completes, fails or finishes incomplete with the whole
response; every event carries its `sequence_number`). Which keys each event holds is the
vendored schema's business, not the grammar's.

Events are read by `output_index` (OpenAI's own events name their item by it); a stream
that routes otherwise departs, and its departures say how.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from refold.reference import JSON
from refold.verdicts.shapes import GrammarLine, Violation

__all__ = ["GRAMMAR", "LIFECYCLE", "TERMINALS", "is_int", "kind"]

GUIDE = "https://platform.openai.com/docs/guides/streaming-responses?api-mode=responses"
REFERENCE = "https://platform.openai.com/docs/api-reference/responses-streaming"

LIFECYCLE = ("response.created", "response.queued", "response.in_progress")
TERMINALS = ("response.completed", "response.incomplete", "response.failed")
_ADDED = "response.output_item.added"
_DONE = "response.output_item.done"
_PARTS = {
    "content_index": ("response.content_part.added", "response.content_part.done"),
    "summary_index": (
        "response.reasoning_summary_part.added",
        "response.reasoning_summary_part.done",
    ),
}


def kind(item: JSON) -> object:
    """An event's `type` (None for what is not an object)."""
    return item.get("type") if isinstance(item, dict) else None


def is_int(value: object) -> bool:
    """A non-negative integral JSON number, as the schema's `integer` reads one."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return float(value).is_integer() and value >= 0


def _index(item: JSON, key: str = "output_index") -> int | None:
    value = item.get(key) if isinstance(item, dict) else None
    return int(value) if is_int(value) else None  # type: ignore[arg-type]


def _terminal_at(items: Sequence[JSON]) -> int | None:
    return next((n for n, item in enumerate(items) if kind(item) in TERMINALS), None)


def _opens_with_created(items: Sequence[JSON]) -> Iterator[Violation]:
    if items and kind(items[0]) != "response.created":
        yield Violation(0, "", "grammar: the stream opens with response.created")


def _lifecycle_once_first(items: Sequence[JSON]) -> Iterator[Violation]:
    seen: set[object] = set()
    first_item = next(
        (
            n
            for n, item in enumerate(items)
            if _index(item) is not None or kind(item) in (_ADDED, _DONE)
        ),
        len(items),
    )
    for number, item in enumerate(items):
        if kind(item) not in LIFECYCLE:
            continue
        if kind(item) in seen or number > first_item:
            yield Violation(
                number, "", "grammar: each lifecycle event comes once, before the output items"
            )
        seen.add(kind(item))


def _items_announced_in_order(items: Sequence[JSON]) -> Iterator[Violation]:
    """output_item.added at 0, 1, 2 ... once each; every item event after its added."""
    announced: set[int] = set()
    for number, item in enumerate(items):
        index = _index(item)
        if kind(item) == _ADDED:
            if index != len(announced):
                yield Violation(
                    number,
                    "/output_index",
                    f"grammar: the next item is added at output_index {len(announced)}",
                )
            if index is not None:
                announced.add(index)
        elif index is not None and index not in announced:
            yield Violation(
                number,
                "/output_index",
                "grammar: an item's events follow its response.output_item.added",
            )


def _item_events_before_done(items: Sequence[JSON]) -> Iterator[Violation]:
    done: set[int] = set()
    for number, item in enumerate(items):
        index = _index(item)
        if index is None or kind(item) == _ADDED:
            continue
        if index in done:
            yield Violation(
                number, "", "grammar: nothing of an item follows its response.output_item.done"
            )
        if kind(item) == _DONE:
            done.add(index)


def _parts_in_order(items: Sequence[JSON]) -> Iterator[Violation]:
    """Parts added at 0, 1, 2 ... per item; their events between added and done."""
    for key, (added, done) in _PARTS.items():
        opened: dict[int, list[int]] = {}
        closed: set[tuple[int, int]] = set()
        for number, item in enumerate(items):
            index, part = _index(item), _index(item, key)
            if index is None or part is None:
                continue
            parts = opened.setdefault(index, [])
            if kind(item) == added:
                if part != len(parts):
                    yield Violation(
                        number, f"/{key}", f"grammar: the next part is added at {key} {len(parts)}"
                    )
                parts.append(part)
            elif part not in parts or (index, part) in closed:
                yield Violation(
                    number,
                    f"/{key}",
                    f"grammar: a part's events come between its {added} and its {done}",
                )
            if kind(item) == done:
                closed.add((index, part))


def _finished_before_terminal(items: Sequence[JSON]) -> Iterator[Violation]:
    end = _terminal_at(items)
    if end is None:
        return
    added = {
        (_index(item), number) for number, item in enumerate(items[:end]) if kind(item) == _ADDED
    }
    done = {_index(item) for item in items[:end] if kind(item) == _DONE}
    for index, number in sorted(added, key=lambda pair: pair[1]):
        if index is not None and index not in done:
            yield Violation(
                number, "", "grammar: every item is marked done before the response completes"
            )


def _one_terminal_at_the_end(items: Sequence[JSON]) -> Iterator[Violation]:
    end = _terminal_at(items)
    if end is None:
        if items and kind(items[-1]) != "error":
            yield Violation(
                len(items) - 1,
                "",
                "grammar: the stream ends with a terminal event (or an error event)",
            )
        return
    for number in range(end + 1, len(items)):
        yield Violation(number, "", "grammar: nothing follows the terminal event")


def _terminal_holds_the_output(items: Sequence[JSON]) -> Iterator[Violation]:
    end = _terminal_at(items)
    if end is None:
        return
    response = items[end].get("response") if isinstance(items[end], dict) else None
    output = response.get("output") if isinstance(response, dict) else None
    streamed = {_index(item) for item in items[:end] if kind(item) in (_ADDED, _DONE)} - {None}
    if isinstance(output, list) and len(output) < len(streamed):
        yield Violation(
            end,
            "/response/output",
            f"grammar: the completed response holds all {len(streamed)} output items streamed",
        )


def _sequence_increases(items: Sequence[JSON]) -> Iterator[Violation]:
    last: float = -1
    for number, item in enumerate(items):
        value = item.get("sequence_number") if isinstance(item, dict) else None
        if not is_int(value):
            continue  # a missing or mistyped one is the schema's finding
        assert isinstance(value, int | float)
        if value <= last:
            yield Violation(
                number, "/sequence_number", "grammar: sequence_number increases with every event"
            )
        last = max(last, value)


GRAMMAR: tuple[GrammarLine, ...] = (
    GrammarLine(
        'The stream opens with `response.created` ("An event that is emitted when '
        'a response is created").',
        f"{REFERENCE}/response/created",
        lambda items: list(_opens_with_created(items)),
    ),
    GrammarLine(
        "Lifecycle events are emitted once (`response.created`, `response.queued`, "
        "`response.in_progress`), before the output items.",
        f'{GUIDE} (Read the responses: "some key lifecycle events are emitted only '
        f'once"); {REFERENCE}/response/in_progress',
        lambda items: list(_lifecycle_once_first(items)),
    ),
    GrammarLine(
        "Each output item is added by `response.output_item.added` at the next "
        "`output_index` (0, 1, 2 ...), before any event of that item.",
        f"{REFERENCE}/response/output_item/added",
        lambda items: list(_items_announced_in_order(items)),
    ),
    GrammarLine(
        "`response.output_item.done` marks an item done: nothing of that item follows it.",
        f"{REFERENCE}/response/output_item/done",
        lambda items: list(_item_events_before_done(items)),
    ),
    GrammarLine(
        "A content part (a reasoning summary part) is added at the next "
        "`content_index` (`summary_index`); its deltas and `.done` events follow, "
        "and `response.content_part.done` (`…summary_part.done`) marks it done.",
        f"{REFERENCE}/response/content_part/added; "
        f"{REFERENCE}/response/reasoning_summary_part/added",
        lambda items: list(_parts_in_order(items)),
    ),
    GrammarLine(
        "Every output item is marked done before the response completes.",
        f"{REFERENCE}/response/output_item/done; {REFERENCE}/response/completed",
        lambda items: list(_finished_before_terminal(items)),
    ),
    GrammarLine(
        "The stream ends with one terminal event (`response.completed`, "
        "`response.incomplete` or `response.failed`), or with an `error` event "
        '("Emitted when an error occurs").',
        f"{REFERENCE}/response/completed; {REFERENCE}/response/failed; "
        f"{REFERENCE}/response/incomplete; {REFERENCE}/error",
        lambda items: list(_one_terminal_at_the_end(items)),
    ),
    GrammarLine(
        'The terminal event carries the whole response ("Properties of the '
        'completed response"): its `output` holds every output item.',
        f"{REFERENCE}/response/completed",
        lambda items: list(_terminal_holds_the_output(items)),
    ),
    GrammarLine(
        'Every event carries its `sequence_number` ("The sequence number for this '
        'event"), increasing in stream order.',
        f"{REFERENCE} (every event's sequence_number); {GUIDE}",
        lambda items: list(_sequence_increases(items)),
    ),
)
"""The documented order of a Responses stream, one line per rule."""
