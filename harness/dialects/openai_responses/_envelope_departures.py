"""The envelope departures of an OpenAI Responses event stream from OpenAI's own shape:
how the lifecycle and terminal responses depart, each named after its rule, and how to
undo them (`refold.dialects.openai_responses.ablation` holds the registry).

In OpenAI's own shape a stream opens with `response.created`; every lifecycle and terminal
event carries a response object, all of one `id`; a lifecycle response's `output` is `[]`
(nothing is streamed yet); every delta is a string. A stream that does otherwise departs
in the way one rule decides, and each undo here gives back that shape where the reference
folds the result identically (the terminal response is the base, RS-TERMINAL-BASE; a
lifecycle response only fills what it lacks, RS-ENV-FILL). Plain JSON in, plain JSON
out; the input is never mutated.
"""

from __future__ import annotations

import copy

from refold.reference import JSON, JSONObject
from refold.reference.responses._envelope import LIFECYCLE_EVENTS, TERMINAL_EVENTS

from ._item_departures import DELTA_EVENTS, walk
from ._stream_departures import is_terminal

__all__ = [
    "env_filled",
    "is_lifecycle",
    "lifecycle_ids",
    "opened",
    "wrong_types",
]

_CREATED = "response.created"
_ENVELOPE = frozenset({*LIFECYCLE_EVENTS, *TERMINAL_EVENTS})


def _type(event: JSON) -> object:
    return event.get("type") if isinstance(event, dict) else None


def is_lifecycle(event: JSON) -> bool:
    """A lifecycle event whose response is an object (RS-WRONG-TYPE: else it changes nothing)."""
    return (
        isinstance(event, dict)
        and _type(event) in LIFECYCLE_EVENTS
        and isinstance(event.get("response"), dict)
    )


def _last_terminal(stream: list[JSON]) -> JSONObject | None:
    last = next((event for event in reversed(stream) if is_terminal(event)), None)
    return last["response"] if isinstance(last, dict) else None


def _mistyped(event: JSON) -> bool:
    """A lifecycle or terminal event whose response is not an object, or a delta event
    whose delta is not a string: the spec reads each as changing nothing."""
    if not isinstance(event, dict):
        return False
    kind = _type(event)
    if kind in _ENVELOPE:
        return not isinstance(event.get("response"), dict)
    return kind in DELTA_EVENTS and not isinstance(event.get("delta"), str)


def wrong_types(stream: list[JSON]) -> list[JSON]:
    """RS-WRONG-TYPE: drop the events a field of the wrong type leaves changing nothing (a
    lifecycle or terminal event without a response object, a delta that is not a string,
    an item event whose `output_index` is no index and that names no announced item), and
    leave out a response's `output` that is neither a list nor null (read as absent: what
    the terminal then lacks is RS-OUTPUT-RECOVER's)."""
    unrouted = {position for position, _, index, _, _ in walk(stream) if index is None}
    return [
        _without_mistyped_output(event)
        for position, event in enumerate(stream)
        if position not in unrouted and not _mistyped(event)
    ]


def _without_mistyped_output(event: JSON) -> JSON:
    changed = copy.deepcopy(event)
    response = changed.get("response") if isinstance(changed, dict) else None
    output = response.get("output") if isinstance(response, dict) else None
    if isinstance(response, dict) and not isinstance(output, list | None):
        del response["output"]
    return changed


def opened(stream: list[JSON]) -> list[JSON]:
    """RS-TERMINAL-BASE: a stream that reaches a terminal event and sends no
    `response.created` (RS-RESUMED) opens with one: the last terminal's identity fields,
    `in_progress`, no output yet. The terminal is the base and the created response holds
    no key it lacks, so the fold is unchanged; a stream without a terminal is left as it
    is (its snapshot is the latest lifecycle response's, LIFE-RS-SNAPSHOT)."""
    base = _last_terminal(stream)
    if base is None or any(_type(event) == _CREATED for event in stream):
        return copy.deepcopy(stream)  # one sent later is not missing: what came first is
    response = {
        key: copy.deepcopy(value)
        for key, value in base.items()
        if key in ("id", "object", "created_at", "model")
    }
    created: JSONObject = {
        "type": _CREATED,
        "response": {**response, "status": "in_progress", "output": []},
    }
    return [created, *copy.deepcopy(stream)]


def _with_response(event: JSONObject, **changes: JSON) -> JSONObject:
    changed = copy.deepcopy(event)
    changed["response"] = {**changed["response"], **copy.deepcopy(changes)}
    return changed


def _filled(event: JSONObject, latest: JSONObject) -> JSONObject:
    """A terminal event whose response sends every key it lacks or sends as null that an
    earlier lifecycle response had (`latest`), output aside."""
    response = event["response"]
    missing = {k: v for k, v in latest.items() if k != "output" and response.get(k) is None}
    return _with_response(event, **missing) if missing else copy.deepcopy(event)


def env_filled(stream: list[JSON]) -> list[JSON]:
    """RS-ENV-FILL: every terminal response sends the keys it left out (or sent as null)
    with the values the fold fills them with, the latest earlier lifecycle response's
    non-null ones (a sparse terminal, RS-DOC-SPARSE-RESPONSE); and every lifecycle
    response's `output` is `[]`, as OpenAI sends it (items a lifecycle response holds are
    no streamed items: `output` is the one key a lifecycle response never fills)."""
    latest: JSONObject = {}
    result: list[JSON] = []
    for event in stream:
        if is_lifecycle(event) and isinstance(event, dict):
            sent = event["response"]
            latest.update({k: v for k, v in sent.items() if v is not None})
            result.append(_with_response(event, output=[]) if sent.get("output") else event)
        elif is_terminal(event) and isinstance(event, dict):
            result.append(_filled(event, latest))
        else:
            result.append(event)
    return [copy.deepcopy(event) for event in result]


def lifecycle_ids(stream: list[JSON]) -> list[JSON]:
    """RS-ENV-TERMINAL: every lifecycle response carries the `id` of the last terminal
    response, so the responses of one stream are of one id (top-level fields are the
    terminal's, so the fold is unchanged; a terminal without a string id is left as is,
    since a lifecycle id would fill it)."""
    base = _last_terminal(stream)
    identity = base.get("id") if base is not None else None
    if not isinstance(identity, str):
        return copy.deepcopy(stream)
    return [
        _with_response(event, id=identity)
        if (is_lifecycle(event) or is_terminal(event))
        and isinstance(event, dict)
        and event["response"].get("id") != identity
        else copy.deepcopy(event)
        for event in stream
    ]
