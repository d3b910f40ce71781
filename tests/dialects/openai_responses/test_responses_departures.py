"""Each registered departure of a Responses stream is found where a stream departs that
way, and accounts for every violation it causes (verdicts.md §1): OpenAI's own stream
departs in nothing; one change to it shows exactly the departure made."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refold.dialects.openai_responses import OPENAI_RESPONSES
from refold.dialects.openai_responses._departures import DEPARTURES, WIRE
from refold.dialects.openai_responses._detectors import changed_identities
from refold.strategies.responses import lifecycle_events
from refold.suites.responses._events import (
    args_delta,
    args_done,
    completed,
    created,
    error_event,
    function_call,
    in_progress,
    item_added,
    item_done,
    keepalive,
    message,
    text_delta,
    text_part,
    text_stream,
)

_Change = Callable[[list[Any]], list[Any]]


def _numbered(events: list[Any]) -> list[Any]:
    return [{**e, "sequence_number": n} if isinstance(e, dict) else e for n, e in enumerate(events)]


def _base() -> list[Any]:
    """OpenAI's own shape: created, in_progress, message 0 with one part, completed."""
    return copy.deepcopy(text_stream("Hi", " there"))


def _at(kind: str) -> Callable[[list[Any]], int]:
    return lambda events: next(n for n, e in enumerate(events) if e.get("type") == kind)


_DELTA = _at("response.output_text.delta")
_TERMINAL = _at("response.completed")


def _without(events: list[Any], *kinds: str) -> list[Any]:
    return [e for e in events if e.get("type") not in kinds]


def _set(finder: Callable[[list[Any]], int], path: tuple[str, ...], value: Any) -> _Change:
    def change(events: list[Any]) -> list[Any]:
        node = events[finder(events)]
        for step in path[:-1]:
            node = node[step]
        if value is _DROP:
            del node[path[-1]]
        else:
            node[path[-1]] = value
        return events

    return change


_DROP = object()


def _inserted(finder: Callable[[list[Any]], int], event: Any) -> _Change:
    return lambda events: [*events[: finder(events)], event, *events[finder(events) :]]


def _call_without_id(events: list[Any]) -> list[Any]:
    bare = function_call('{"a":1}', id=None)
    call = [
        item_added(1, {**function_call(id=None, status="in_progress")}),
        args_delta(1, '{"a":1}', item_id=None),
        args_done(1, '{"a":1}', item_id=None),
        item_done(1, bare),
    ]
    end = _TERMINAL(events)
    terminal = copy.deepcopy(events[end])
    terminal["response"]["output"].append(bare)
    return [*events[:end], *call, terminal]


def _with_calls(events: list[Any], *call_ids: str) -> list[Any]:
    """`events` with a function call per call id after the message, each with its own
    item id, in the terminal's output too."""
    end = _TERMINAL(events)
    terminal = copy.deepcopy(events[end])
    added: list[Any] = []
    for index, call_id in enumerate(call_ids, start=1):
        call = function_call("{}", id=f"fc_{index}", call_id=call_id)
        added += [item_added(index, {**call, "status": "in_progress"}), item_done(index, call)]
        terminal["response"]["output"].append(call)
    return [*events[:end], *added, terminal]


def test_calls_with_call_ids_of_their_own_depart_in_nothing() -> None:
    assert _shape(_numbered(_with_calls(_base(), "call_1", "call_2"))).shape == "documented"


def _rotated(events: list[Any]) -> list[Any]:
    events[_DELTA(events)]["item_id"] = "msg_rotated"
    return events


def _collision(events: list[Any]) -> list[Any]:
    other = message(text_part(""), id="msg_other")
    end = _TERMINAL(events)
    return [
        *events[:end],
        item_added(0, {**other, "status": "in_progress"}),
        item_done(0, other),
        *events[end:],
    ]


def _sequence_repeated(events: list[Any]) -> list[Any]:
    numbered = _numbered(events)
    numbered[3]["sequence_number"] = numbered[2]["sequence_number"]
    return numbered


_CHANGES: dict[str, _Change] = {
    "RQ1": _set(_TERMINAL, ("response", "output"), []),
    "RQ2": _set(_TERMINAL, ("response", "output"), _DROP),
    "RQ4": lambda e: _without(e, "response.output_item.done"),
    "RQ5": lambda e: [e[0], e[1], *e[3:5], e[2], *e[5:]],
    "RQ6": _inserted(_TERMINAL, item_added(1, None)),
    "RQ7": _rotated,
    "RQ9": lambda e: _renamed_in_terminal(e, id="msg_renamed"),
    "RQ10": _call_without_id,
    "RQ12": _sequence_repeated,
    "RQ13": _collision,
    "RQ18": _inserted(
        _TERMINAL,
        {
            "type": "error",
            "error": {
                "type": "server_error",
                "code": "server_error",
                "message": "m",
                "param": None,
            },
        },
    ),
    "RQ19": lambda e: [*e, copy.deepcopy(e[-1])],
    "RQ24": _inserted(_DELTA, keepalive()),
    "RS-DOC-NULL-USAGE": _set(_at("response.created"), ("response", "usage"), None),
    "RS-DOC-SPARSE-USAGE": _set(
        _TERMINAL, ("response", "usage"), {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}
    ),
    "RS-DOC-SPARSE-RESPONSE": _set(_at("response.created"), ("response", "tools"), _DROP),
    "RS-DOC-NO-LOGPROBS": _set(_DELTA, ("logprobs",), _DROP),
    "RS-DOC-MESSAGE-STATUS": _set(_at("response.output_item.done"), ("item", "status"), _DROP),
    "RS-DOC-ARGS-NAME": _set(_at("response.output_text.done"), ("type",), "x"),
    "RQ14": _set(_at("response.content_part.done"), ("part", "annotations"), _DROP),
    "RS-SYN-UNKNOWN-EVENT": _inserted(_DELTA, {"type": "response.x_future_event"}),
    "RS-SYN-WRONG-TYPE": _set(_DELTA, ("delta",), 7),
    "RS-SYN-NOT-OBJECT": _inserted(_DELTA, "not an object"),
    "RS-SYN-NO-ITEM-ID": _set(_DELTA, ("item_id",), _DROP),
    "RS-SYN-UNKNOWN-ITEM": _set(
        _at("response.output_item.done"), ("item", "type"), "x_vendor_call"
    ),
    "RS-SYN-AFTER-DONE": _inserted(_TERMINAL, text_delta(0, "late")),
    "RS-SYN-AFTER-TERMINAL": lambda e: [*e, text_delta(0, "late")],
    "RS-SYN-CUT": lambda e: e[:-1],
    "RS-RESUMED": lambda e: e[2:],
    "RS-SYN-KIND-MISMATCH": _inserted(_DELTA, args_delta(0, "{", item_id="msg_01")),
    "RS-SYN-DONE-AGAIN": lambda e: [*e[:-2], copy.deepcopy(e[-4]), *e[-2:]],
    "RS-SYN-BARE-ERROR": _inserted(_TERMINAL, {"type": "error"}),
    "RS-SYN-LATE-LIFECYCLE": _inserted(_DELTA, in_progress()),
    "RS-SYN-OBJECT": _set(_TERMINAL, ("response", "object"), "chat.completion"),
    "RS-SYN-ORDER": lambda e: [{**x, "output_index": 1} if "output_index" in x else x for x in e],
    "RS-SYN-SHARED-CALL-ID": lambda e: _with_calls(e, "call_1", "call_1"),
    "RS-SYN-RESPONSE-ID": _set(_TERMINAL, ("response", "id"), "resp_other"),
    "RS-SYN-LIFECYCLE-OUTPUT": _set(
        _at("response.in_progress"), ("response", "output"), [message(text_part("stale"))]
    ),
}
"""One change to OpenAI's own stream per departure (RS-DOC-ARGS-NAME's is written below:
it needs a function call)."""


def _args_name(events: list[Any]) -> list[Any]:
    call = function_call('{"a":1}')
    end = _TERMINAL(events)
    terminal = copy.deepcopy(events[end])
    terminal["response"]["output"].append(call)
    return [
        *events[:end],
        item_added(1, function_call(status="in_progress")),
        args_done(1, '{"a":1}', name=None),
        item_done(1, call),
        terminal,
    ]


_CHANGES["RS-DOC-ARGS-NAME"] = _args_name


def _shape(events: list[Any]) -> Any:
    shapes = OPENAI_RESPONSES.shapes
    assert shapes is not None
    return shapes.of(events)


def test_openais_own_stream_departs_in_nothing() -> None:
    shape = _shape(_numbered(_base()))
    assert shape.shape == "documented", shape.describe()
    assert _shape(_numbered([created(), in_progress(), error_event()])).shape == "documented"


def _renamed_in_terminal(events: list[Any], **names: str) -> list[Any]:
    end = _TERMINAL(events)
    terminal = copy.deepcopy(events[end])
    terminal["response"]["output"][0].update(names)
    return [*events[:end], terminal, *events[end + 1 :]]


def test_a_done_item_under_another_id_is_a_rotation_and_not_a_renaming() -> None:
    events = _numbered(_base())
    done = _at("response.output_item.done")(events)
    events[done] = {**events[done], "item": {**events[done]["item"], "id": "msg_renamed"}}
    assert _shape(events).departures == ("RQ7",)
    assert changed_identities(events) == []


def test_a_call_given_another_call_id_when_done_or_at_the_end_departs_as_rq9_there() -> None:
    call = function_call('{"a":1}', id="fc_1", call_id="call_1")
    events = _numbered(
        [
            created(),
            item_added(0, {**call, "status": "in_progress"}),
            item_done(0, {**call, "call_id": "call_2"}),
            completed({**call, "call_id": "call_3"}),
        ]
    )
    assert _shape(events).departures == ("RQ9",)
    assert changed_identities(events) == [2, 3]


def test_a_terminal_listing_fewer_items_than_were_streamed_is_not_read_as_renaming() -> None:
    events = _numbered(_base())
    end = _TERMINAL(events)
    other = message(text_part(""), id="msg_other")
    events[end:end] = [item_added(1, {**other, "status": "in_progress"}), item_done(1, other)]
    events[-1]["response"]["output"] = [{**other, "id": "msg_elsewhere"}]
    assert changed_identities(_numbered(events)) == []


def test_every_departure_has_a_stream_that_shows_it() -> None:
    # the wire's departures are shown on bytes (tests/harness/verdicts/test_wire_shapes.py)
    assert set(_CHANGES) == set(DEPARTURES) - set(WIRE.values())


@pytest.mark.parametrize("departure", sorted(set(DEPARTURES) - set(WIRE.values())))
def test_a_stream_changed_one_way_shows_that_departure_and_nothing_unregistered(
    departure: str,
) -> None:
    changed = _CHANGES[departure](_numbered(_base()))
    if departure != "RQ12":
        changed = _numbered(changed)
    shape = _shape(changed)
    assert departure in shape.departures, shape.describe()
    assert shape.unregistered == (), shape.describe()
    assert shape.shape == DEPARTURES[departure].shape or shape.shape == "synthetic"


_KEYS = st.sampled_from(
    [
        "type",
        "output_index",
        "item",
        "item_id",
        "response",
        "output",
        "part",
        "content_index",
        "sequence_number",
        "delta",
        "error",
        "id",
    ]
)
_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 3)
    | st.floats(allow_nan=False)
    | st.sampled_from(
        [
            "response.completed",
            "response.output_item.added",
            "error",
            "response.output_text.delta",
            "message",
            "x",
        ]
    ),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(lifecycle_events(), _VALUES), max_size=8))
def test_classifying_any_list_of_json_values_never_raises(items: list[Any]) -> None:
    shape = _shape(items)
    assert shape.shape in ("documented", "observed", "synthetic") and shape.describe()
