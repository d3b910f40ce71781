"""The detectors of the registered departures of a Responses stream (`_departures`): each
returns the numbers of the events where a stream departs one way. Events are read by
`output_index`, as OpenAI's own events name their item; nothing here raises on any JSON."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from refold.reference import JSON, JSONObject

from ._grammar import LIFECYCLE, TERMINALS, is_int, kind
from ._known import DOCUMENTED_ITEM_TYPES, DOCUMENTED_TYPES, RESPONSE_REQUIRED

__all__ = [
    "Detector",
    "after_done",
    "after_terminal",
    "args_done_without_name",
    "bare_error",
    "before_announced",
    "blank_item",
    "call_id_of",
    "call_without_id",
    "changed_identities",
    "cut",
    "done_again",
    "empty_terminal_output",
    "headless",
    "index_collisions",
    "keepalive",
    "kind_mismatch",
    "late_lifecycle",
    "lifecycle_output",
    "message_without_status",
    "missing_terminal_output",
    "nested_error",
    "never_done",
    "no_annotations",
    "no_item_id",
    "no_logprobs",
    "not_object",
    "not_response",
    "null_usage",
    "out_of_order",
    "repeated_terminal",
    "response_ids",
    "rotated_ids",
    "sequence_departs",
    "shared_call_ids",
    "sparse_response",
    "sparse_usage",
    "unknown_event",
    "unknown_item",
    "wrong_types",
]

Detector = Callable[[Sequence[JSON]], list[int]]

_ADDED = "response.output_item.added"
_DONE = "response.output_item.done"


def _objects(items: Sequence[JSON]) -> Iterator[tuple[int, JSONObject]]:
    for number, item in enumerate(items):
        if isinstance(item, dict):
            yield number, item


def _index(item: JSONObject) -> int | None:
    value = item.get("output_index")
    return int(value) if is_int(value) else None  # type: ignore[arg-type]


def _terminal_at(items: Sequence[JSON]) -> int | None:
    return next((n for n, item in enumerate(items) if kind(item) in TERMINALS), None)


def _responses(items: Sequence[JSON]) -> Iterator[tuple[int, JSONObject]]:
    for number, item in _objects(items):
        if kind(item) in (*LIFECYCLE, *TERMINALS) and isinstance(item.get("response"), dict):
            yield number, item["response"]


def _announced(items: Sequence[JSON]) -> dict[int, JSONObject]:
    """The first item added at each output_index."""
    found: dict[int, JSONObject] = {}
    for _, item in _objects(items):
        index = _index(item)
        if kind(item) == _ADDED and index is not None and isinstance(item.get("item"), dict):
            found.setdefault(index, item["item"])
    return found


def _item_events(items: Sequence[JSON]) -> Iterator[tuple[int, JSONObject, int]]:
    """(number, event, output_index) of every event of an item but its added and done."""
    for number, item in _objects(items):
        index = _index(item)
        if index is not None and kind(item) not in (_ADDED, _DONE):
            yield number, item, index


# observed


def empty_terminal_output(items: Sequence[JSON]) -> list[int]:
    end = _terminal_at(items)
    if end is None or not any(kind(i) in (_ADDED, _DONE) for i in items[:end]):
        return []
    return [
        n
        for n, i in _objects(items)
        if kind(i) in TERMINALS
        and isinstance(i.get("response"), dict)
        and i["response"].get("output") == []
    ]


def missing_terminal_output(items: Sequence[JSON]) -> list[int]:
    streamed = {_index(i) for _, i in _objects(items) if kind(i) in (_ADDED, _DONE)} - {None}
    found: list[int] = []
    for number, item in _objects(items):
        body = item.get("response")
        if kind(item) not in TERMINALS or not isinstance(body, dict):
            continue
        output = body.get("output")
        if output is None or (isinstance(output, list) and 0 < len(output) < len(streamed)):
            found.append(number)
    return found


def never_done(items: Sequence[JSON]) -> list[int]:
    end = _terminal_at(items)
    if end is None:
        return []
    done = {_index(i) for _, i in _objects(items[:end]) if kind(i) == _DONE}
    return [n for n, i in _objects(items[:end]) if kind(i) == _ADDED and _index(i) not in done]


def before_announced(items: Sequence[JSON]) -> list[int]:
    """Item events before their item's added, and an added that comes after an earlier
    index was streamed unannounced (it cannot be at the next index then)."""
    announced: set[int] = set()
    unannounced: set[int] = set()
    found: list[int] = []
    for number, item in _objects(items):
        index = _index(item)
        if index is None:
            continue
        if kind(item) == _ADDED:
            if index != len(announced) and any(i < index for i in unannounced - announced):
                found.append(number)
            announced.add(index)
        elif index not in announced:
            unannounced.add(index)
            found.append(number)
    return found


def blank_item(items: Sequence[JSON]) -> list[int]:
    """Items added null, and the item then added at an index only a null item took (the
    blank announced the index without an item; the grammar counts it taken)."""
    blank: set[int] = set()
    real: set[int] = set()
    found: list[int] = []
    for number, item in _objects(items):
        index = _index(item)
        if kind(item) != _ADDED:
            continue
        if not isinstance(item.get("item"), dict):
            found.append(number)
            if index is not None:
                blank.add(index)
        elif index is not None:
            if index in blank and index not in real:
                found.append(number)
            real.add(index)
    return found


def _ids(items: Sequence[JSON]) -> set[str]:
    return {
        str(item["id"]) for item in _announced(items).values() if isinstance(item.get("id"), str)
    }


def rotated_ids(items: Sequence[JSON]) -> list[int]:
    """An item's events naming it by another `item_id`, or its done item by another
    `id`, than it was added with."""
    announced, known = _announced(items), _ids(items)
    found: list[int] = []
    for number, event, index in _item_events(items):
        named, own = event.get("item_id"), announced.get(index, {}).get("id")
        if isinstance(named, str) and isinstance(own, str) and named != own and named not in known:
            found.append(number)
    return sorted(found + _done_renaming(items, ("id",)))


def _done_renaming(items: Sequence[JSON], keys: tuple[str, ...]) -> list[int]:
    """The `output_item.done` events naming their item, of the type it was added with, by
    another value of `keys` than it was added with."""
    announced = _announced(items)
    found: list[int] = []
    for number, item in _objects(items):
        index, done = _index(item), item.get("item")
        if index is None or kind(item) != _DONE or not isinstance(done, dict):
            continue
        added = announced.get(index, {})
        if added.get("type") == done.get("type") and _named_anew([added], done, keys):
            found.append(number)
    return found


def _streamed_forms(items: Sequence[JSON]) -> dict[int, list[JSONObject]]:
    """The item at each output_index as it was streamed: its added item, then its done."""
    found: dict[int, list[JSONObject]] = {}
    for _, item in _objects(items):
        index = _index(item)
        if (
            kind(item) in (_ADDED, _DONE)
            and index is not None
            and isinstance(item.get("item"), dict)
        ):
            found.setdefault(index, []).append(item["item"])
    return found


def _named_anew(
    forms: list[JSONObject], later: object, keys: tuple[str, ...] = ("id", "call_id")
) -> bool:
    """Whether `later` names the item of `forms` by a string value of one of `keys` that
    none of them has (where one of them has one)."""
    if not isinstance(later, dict):
        return False
    for key in keys:
        names = {form[key] for form in forms if isinstance(form.get(key), str)}
        if names and isinstance(later.get(key), str) and later[key] not in names:
            return True
    return False


def changed_identities(items: Sequence[JSON]) -> list[int]:
    """A `function_call` given another `call_id` by its `output_item.done` than it was
    added with, or a terminal `output` naming an item by an `id` or `call_id` it was not
    streamed with (a done item under another `id` is RQ7's rotation). The terminal's items
    are read by position, only where it lists one per streamed index from 0, so no item
    is compared with another's."""
    streamed = _streamed_forms(items)
    in_order = sorted(streamed) == list(range(len(streamed)))
    found = _done_renaming(items, ("call_id",))
    for number, item in _objects(items):
        body = item.get("response")
        if kind(item) in TERMINALS and isinstance(body, dict) and in_order:
            output = body.get("output")
            if (
                isinstance(output, list)
                and len(output) == len(streamed)
                and any(_named_anew(streamed[k], later) for k, later in enumerate(output))
            ):
                found.append(number)
    return found


def call_id_of(item: JSON) -> str | None:
    """The `call_id` of a `function_call` item (None: no item of that type, or no string)."""
    if isinstance(item, dict) and item.get("type") == "function_call":
        found = item.get("call_id")
        return found if isinstance(found, str) else None
    return None


def _call_ids(output: object) -> list[str]:
    found = map(call_id_of, output if isinstance(output, list) else [])
    return [call_id for call_id in found if call_id is not None]


def shared_call_ids(items: Sequence[JSON]) -> list[int]:
    """Function calls at several output indexes, or in one response's `output`, sharing
    one `call_id`: the events that send them."""
    at: dict[str, set[int]] = {}
    for _, item in _objects(items):
        index, call_id = _index(item), call_id_of(item.get("item"))
        if kind(item) in (_ADDED, _DONE) and index is not None and call_id is not None:
            at.setdefault(call_id, set()).add(index)
    shared = {call_id for call_id, indexes in at.items() if len(indexes) > 1}
    found: list[int] = []
    for number, item in _objects(items):
        if kind(item) in (_ADDED, _DONE) and call_id_of(item.get("item")) in shared:
            found.append(number)
        body = item.get("response")
        ids = _call_ids(body.get("output")) if isinstance(body, dict) else []
        if len(set(ids)) < len(ids):
            found.append(number)
    return found


def call_without_id(items: Sequence[JSON]) -> list[int]:
    bare = {
        index
        for index, item in _announced(items).items()
        if item.get("type") == "function_call" and "id" not in item
    }
    found = [
        n
        for n, i in _objects(items)
        if kind(i) in (_ADDED, _DONE)
        and isinstance(i.get("item"), dict)
        and i["item"].get("type") == "function_call"
        and "id" not in i["item"]
    ]
    found += [
        n for n, event, index in _item_events(items) if index in bare and "item_id" not in event
    ]
    return sorted(set(found))


def sequence_departs(items: Sequence[JSON]) -> list[int]:
    last: float = -1
    found: list[int] = []
    for number, item in _objects(items):
        value = item.get("sequence_number")
        if not is_int(value):
            found.append(number)
            continue
        assert isinstance(value, int | float)
        if value <= last:
            found.append(number)
        last = max(last, value)
    return found


def index_collisions(items: Sequence[JSON]) -> list[int]:
    first: dict[int, JSON] = {}
    ids: dict[str, int] = {}
    found: list[int] = []
    for number, item in _objects(items):
        index = _index(item)
        if kind(item) == _ADDED and index is not None and isinstance(item.get("item"), dict):
            own = item["item"].get("id")
            if (index in first and first[index] != own) or (found and index > len(first)):
                found.append(number)  # a collision, or the index it left unused skipped
            first.setdefault(index, own)
            if isinstance(own, str):
                ids.setdefault(own, index)
        elif index is not None:
            named = item.get("item_id")
            if kind(item) == _DONE and isinstance(item.get("item"), dict):
                named = item["item"].get("id")
            if isinstance(named, str) and ids.get(named, index) != index:
                found.append(number)
    return found


def nested_error(items: Sequence[JSON]) -> list[int]:
    return [
        n for n, i in _objects(items) if kind(i) == "error" and isinstance(i.get("error"), dict)
    ]


def repeated_terminal(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items) if kind(i) in TERMINALS][1:]


def keepalive(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items) if kind(i) == "keepalive"]


def null_usage(items: Sequence[JSON]) -> list[int]:
    return [n for n, body in _responses(items) if "usage" in body and body["usage"] is None]


def _sparse_usage(usage: JSONObject) -> bool:
    details = usage.get("input_tokens_details")
    return any(key not in usage for key in ("input_tokens_details", "output_tokens_details")) or (
        isinstance(details, dict) and "cache_write_tokens" not in details
    )


def sparse_usage(items: Sequence[JSON]) -> list[int]:
    return [
        n
        for n, body in _responses(items)
        if isinstance(body.get("usage"), dict) and _sparse_usage(body["usage"])
    ]


def sparse_response(items: Sequence[JSON]) -> list[int]:
    wanted = RESPONSE_REQUIRED - {"output"}  # a terminal without output is RQ2's
    return [n for n, body in _responses(items) if not wanted <= set(body)]


def _text_events(item: JSONObject) -> bool:
    return kind(item) in ("response.output_text.delta", "response.output_text.done")


def _text_parts(value: JSON) -> Iterator[JSONObject]:
    """Every output_text part inside an event (its part, its item, its response)."""
    if isinstance(value, dict):
        if value.get("type") == "output_text":
            yield value
        for key in ("part", "item", "response", "output", "content"):
            yield from _text_parts(value.get(key))
    elif isinstance(value, list):
        for element in value:
            yield from _text_parts(element)


def no_logprobs(items: Sequence[JSON]) -> list[int]:
    return [
        n
        for n, i in _objects(items)
        if (_text_events(i) and "logprobs" not in i)
        or any("logprobs" not in part for part in _text_parts(i))
    ]


def no_annotations(items: Sequence[JSON]) -> list[int]:
    return [
        n for n, i in _objects(items) if any("annotations" not in part for part in _text_parts(i))
    ]


def args_done_without_name(items: Sequence[JSON]) -> list[int]:
    return [
        n
        for n, i in _objects(items)
        if kind(i) == "response.function_call_arguments.done" and "name" not in i
    ]


def _messages(value: JSON) -> Iterator[JSONObject]:
    if isinstance(value, dict):
        if value.get("type") == "message":
            yield value
        for key in ("item", "response", "output"):
            yield from _messages(value.get(key))
    elif isinstance(value, list):
        for element in value:
            yield from _messages(element)


def message_without_status(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items) if any("status" not in m for m in _messages(i))]


# synthetic


def unknown_event(items: Sequence[JSON]) -> list[int]:
    return [
        n
        for n, i in _objects(items)
        if isinstance(kind(i), str) and kind(i) not in DOCUMENTED_TYPES and kind(i) != "keepalive"
    ]


def _item_types(item: JSONObject) -> Iterator[object]:
    """The `type` of every output item an event carries (its item, its response's output)."""
    carried: list[JSON] = []
    if kind(item) in (_ADDED, _DONE):
        carried.append(item.get("item"))
    body = item.get("response")
    if isinstance(body, dict) and isinstance(body.get("output"), list):
        carried.extend(body["output"])
    for element in carried:
        if isinstance(element, dict):
            yield element.get("type")


def unknown_item(items: Sequence[JSON]) -> list[int]:
    return [
        n
        for n, i in _objects(items)
        if any(isinstance(t, str) and t not in DOCUMENTED_ITEM_TYPES for t in _item_types(i))
    ]


_INDEXES = ("output_index", "content_index", "summary_index", "annotation_index")
_TEXTS = ("delta", "text", "refusal", "arguments", "item_id")


def _wrong_type(item: JSONObject) -> bool:
    if not isinstance(item.get("type"), str):
        return True
    if any(key in item and not is_int(item[key]) for key in _INDEXES):
        return True
    if any(key in item and not isinstance(item[key], str) for key in _TEXTS):
        return True
    body = item.get("response")  # absent is no object either
    if kind(item) in (*LIFECYCLE, *TERMINALS) and (
        not isinstance(body, dict) or _wrong_response_type(body)
    ):
        return True
    return kind(item) == _DONE and not isinstance(item.get("item"), dict)


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _wrong_response_type(body: JSONObject) -> bool:
    """A response's `model` that is no string, `created_at` no number, `output` no array
    (a null one is RQ2's); absent keys are RS-DOC-SPARSE-RESPONSE's."""
    return (
        ("model" in body and not isinstance(body["model"], str))
        or ("created_at" in body and not _number(body["created_at"]))
        or (body.get("output") is not None and not isinstance(body["output"], list))
    )


def wrong_types(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items) if _wrong_type(i)]


def not_object(items: Sequence[JSON]) -> list[int]:
    return [n for n, item in enumerate(items) if not isinstance(item, dict)]


def no_item_id(items: Sequence[JSON]) -> list[int]:
    announced = _announced(items)
    return [
        n
        for n, event, index in _item_events(items)
        if "item_id" not in event and isinstance(announced.get(index, {}).get("id"), str)
    ]


def after_done(items: Sequence[JSON]) -> list[int]:
    """An item's events after its own `response.output_item.done` (a repeated done is
    RS-SYN-DONE-AGAIN's). An event's item is the one its `item_id` names, else the one
    last added at its `output_index`: another item routed or re-added there (RQ13) is not
    the done one."""
    current: dict[int, object] = {}
    known: set[str] = set()
    done: set[object] = set()
    found: list[int] = []
    for number, item in _objects(items):
        index = _index(item)
        if index is None:
            continue
        if kind(item) == _ADDED:
            added = item.get("item")
            own = added.get("id") if isinstance(added, dict) else None
            current[index] = own if isinstance(own, str) else ("added", number)
            if isinstance(own, str):
                known.add(own)
            continue
        named = item.get("item_id")
        if kind(item) == _DONE and isinstance(item.get("item"), dict):
            named = item["item"].get("id")
        owner = (
            named
            if isinstance(named, str) and named in known
            else current.get(index, ("index", index))
        )
        if kind(item) == _DONE:
            done.add(owner)
        elif owner in done:
            found.append(number)
    return found


def after_terminal(items: Sequence[JSON]) -> list[int]:
    end = _terminal_at(items)
    return (
        []
        if end is None
        else [n for n in range(end + 1, len(items)) if kind(items[n]) not in TERMINALS]
    )


def cut(items: Sequence[JSON]) -> list[int]:
    if not items or _terminal_at(items) is not None or kind(items[-1]) == "error":
        return []
    return [len(items) - 1]


_FITS = {
    "response.output_text.": "message",
    "response.refusal.": "message",
    "response.content_part.": "message",
    "response.function_call_arguments.": "function_call",
    "response.reasoning_": "reasoning",
}


def _fits(event_type: str, item_type: object, part: JSON) -> bool:
    if isinstance(part, dict) and part.get("type") == "reasoning_text":
        return item_type == "reasoning"
    for prefix, fits in _FITS.items():
        if event_type.startswith(prefix):
            return item_type == fits
    return (
        not event_type.startswith("response.")
        or event_type.split(".")[1] == item_type
        or str(item_type).startswith(event_type.split(".")[1].split("_call")[0])
    )


def kind_mismatch(items: Sequence[JSON]) -> list[int]:
    announced = _announced(items)
    return [
        n
        for n, event, index in _item_events(items)
        if index in announced
        and not _fits(str(kind(event)), announced[index].get("type"), event.get("part"))
    ]


def done_again(items: Sequence[JSON]) -> list[int]:
    seen: set[tuple[object, ...]] = set()
    found: list[int] = []
    for number, item in _objects(items):
        if not str(kind(item)).endswith(".done"):
            continue
        key = (kind(item), _index(item), item.get("content_index"), item.get("summary_index"))
        if key in seen:
            found.append(number)
        seen.add(key)
    return found


def bare_error(items: Sequence[JSON]) -> list[int]:
    return [
        n
        for n, i in _objects(items)
        if kind(i) == "error"
        and not isinstance(i.get("error"), dict)
        and not isinstance(i.get("message"), str)
    ]


def not_response(items: Sequence[JSON]) -> list[int]:
    return [n for n, body in _responses(items) if "object" in body and body["object"] != "response"]


def _scope(key: str, item: JSONObject) -> object:
    """Where an index counts from: the response's items, an item's parts, a part's
    annotations."""
    if key == "output_index":
        return key
    if key == "annotation_index":
        return (key, _index(item), item.get("content_index"))
    return (key, _index(item))


def out_of_order(items: Sequence[JSON]) -> list[int]:
    """Items, parts or annotations added at an index past the next one no event has named
    yet (one an orphan event or a done item named first is RQ5's)."""
    found: list[int] = []
    added: dict[object, set[int]] = {}
    for number, item in _objects(items):
        for key, opens in (
            ("output_index", _ADDED),
            ("content_index", "response.content_part.added"),
            ("summary_index", "response.reasoning_summary_part.added"),
            ("annotation_index", "response.output_text.annotation.added"),
        ):
            value = item.get(key)
            if not is_int(value):
                continue
            scope = _scope(key, item)
            seen = added.setdefault(scope, set())  # every index an event named so far
            at = int(value)  # type: ignore[arg-type]
            if kind(item) == opens and at != len(seen) and at not in seen:
                found.append(number)
            seen.add(at)
    return found


def late_lifecycle(items: Sequence[JSON]) -> list[int]:
    """A lifecycle event repeated, or after the first item event."""
    seen: set[object] = set()
    found: list[int] = []
    started = False
    for number, item in _objects(items):
        if kind(item) in LIFECYCLE:
            if kind(item) in seen or started:
                found.append(number)
            seen.add(kind(item))
        elif _index(item) is not None or kind(item) in TERMINALS:
            started = True
    return found


def lifecycle_output(items: Sequence[JSON]) -> list[int]:
    """A lifecycle response whose `output` holds items (OpenAI's is `[]`: nothing is
    streamed yet)."""
    return [
        n
        for n, body in _responses(items)
        if kind(items[n]) in LIFECYCLE and isinstance(body.get("output"), list) and body["output"]
    ]


def response_ids(items: Sequence[JSON]) -> list[int]:
    """A lifecycle or terminal response whose string `id` is not the first one's."""
    ids = [(n, body["id"]) for n, body in _responses(items) if isinstance(body.get("id"), str)]
    return [n for n, named in ids if named != ids[0][1]]


def headless(items: Sequence[JSON]) -> list[int]:
    return [0] if items and kind(items[0]) != "response.created" else []
