"""The Anthropic dialect's robustness cases (`refold.suites._robustness`, its kit's
`ROBUSTNESS`): lossless streams with pings, unknown events, deltas or envelope keys added,
or with fields of the wrong JSON type (`_wrong_types`); a block of an unknown type.
"""

from __future__ import annotations

import copy

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.strategies.anthropic import families_for, round_trips

from .. import _robustness as shared
from .._json_values import json_values
from .._robustness import Refusal, Variant
from ._wrong_types import wrong_typed_streams

__all__ = [
    "junk",
    "pings",
    "refused_within",
    "unknown_block",
    "unknown_deltas",
    "unknown_events",
    "unknown_keys",
    "wrong_typed",
]

_KNOWN_EVENTS = frozenset(
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
_KNOWN_DELTAS = frozenset(
    {"text_delta", "citations_delta", "input_json_delta", "thinking_delta", "signature_delta"}
)
_READ_FIELDS: dict[str, frozenset[str]] = {
    "message_start": frozenset({"message"}),
    "content_block_start": frozenset({"index", "content_block"}),
    "content_block_delta": frozenset({"index", "delta"}),
    "content_block_stop": frozenset({"index"}),
    "message_delta": frozenset({"delta", "usage"}),
    "error": frozenset({"error"}),
}
"""The envelope keys the fold reads, by event type; every other key is unknown there."""
_ENVELOPE_KEYS = st.sampled_from(
    [
        "request_id",
        "amazon-bedrock-invocationMetrics",
        "x_trace",
        "usage",
        "message",
        "delta",
        "index",
        "content_block",
        "stop_reason",
        "text",
        "content",
    ]
)
"""Unknown envelope keys, several named like fields the fold reads on other events."""
_NAMES = st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12)
_UNKNOWN_TYPES: st.SearchStrategy[JSON] = _NAMES.filter(
    lambda name: name not in _KNOWN_EVENTS
) | st.sampled_from(["", "   ", None, 7, True, ["ping"], {"type": "message_stop"}])
_UNKNOWN_DELTA_TYPES: st.SearchStrategy[JSON] = _NAMES.filter(
    lambda name: name not in _KNOWN_DELTAS
) | st.sampled_from(["compaction_delta", "", " ", None, 3])
_LOOKALIKES: st.SearchStrategy[JSON] = st.sampled_from(
    [
        {"input_tokens": 99, "output_tokens": 99},
        {"type": "text_delta", "text": "x"},
        {"id": "msg_other", "content": [{"type": "text", "text": "x"}], "stop_reason": "refusal"},
        {"type": "text", "text": "x"},
        {"stop_reason": "max_tokens"},
        "x",
        0,
        1,
        [],
    ]
)
"""Values that mean something where the fold reads them: usage, a delta, a message, a
block, a stop reason."""
_PAYLOADS = st.dictionaries(
    _ENVELOPE_KEYS | _NAMES, _LOOKALIKES | json_values(max_leaves=4), max_size=3
)
_KNOWN_DELTA_FIELDS: list[JSONObject] = [
    {"text": "x"},
    {"partial_json": '{"a": 1}'},
    {"thinking": "t"},
    {"signature": "sig"},
    {"citation": {"type": "char_location", "cited_text": "c"}},
    {"content": "summary"},
]
_DELTA_PAYLOADS: st.SearchStrategy[JSONObject] = st.one_of(
    st.sampled_from(_KNOWN_DELTA_FIELDS),
    st.dictionaries(_NAMES, json_values(max_leaves=3), max_size=2),
)
"""What an unknown delta carries: often the field of a known delta type."""


def _stream(claimed: frozenset[str], data: st.DataObject) -> list[JSONObject]:
    """A lossless stream of the claimed features, without family 8's own noise (the
    properties add theirs)."""
    families = families_for(claimed) - {8}
    _, events = data.draw(round_trips(features=claimed, families=families), label="stream")
    return events


def _stop_position(events: list[JSONObject]) -> int:
    # noise goes anywhere up to message_stop (before message_start included; after it
    # is AM-LIFE-AFTER-STOP's business)
    return next(
        (i for i, item in enumerate(events) if item.get("type") == "message_stop"), len(events)
    )


wrong_typed = shared.paired(
    lambda claimed: wrong_typed_streams(features=claimed), "their wrong-typed fields"
)


junk = shared.objects_after_the_first(_stream, sorted(_KNOWN_EVENTS - {"error"}))
"""Any JSON objects after the first event, some typed like the events the fold reads,
before a lossless stream."""


pings = shared.with_noise(_stream, shared.typed_as("ping", _PAYLOADS), _stop_position, "pings")
unknown_events = shared.with_noise(
    _stream, shared.typed_or_untyped(_PAYLOADS, _UNKNOWN_TYPES), _stop_position, "the unknown ones"
)


def _indexes(events: list[JSONObject]) -> list[int]:
    return sorted(
        {
            item["index"]
            for item in events
            if item.get("type") == "content_block_start" and isinstance(item.get("index"), int)
        }
    )


def unknown_deltas(claimed: frozenset[str], data: st.DataObject) -> Variant:
    events = _stream(claimed, data)
    index = st.sampled_from(_indexes(events) or [0])
    delta = st.builds(
        lambda extra, kind: {**extra, "type": kind}, _DELTA_PAYLOADS, _UNKNOWN_DELTA_TYPES
    )
    unknown = st.builds(
        lambda i, d: {"type": "content_block_delta", "index": i, "delta": d}, index, delta
    )
    # after message_start: a delta before it is AM-BEFORE-START's business
    start = next(i for i, item in enumerate(events) if item.get("type") == "message_start")
    changed = events[: start + 1] + shared.inserted_before(
        data, events[start + 1 :], unknown, _stop_position
    )
    return Variant(changed, events, "the unknown deltas")


unknown_keys = shared.with_unknown_keys(
    _stream,
    _PAYLOADS,
    lambda event: _READ_FIELDS.get(str(event.get("type")), frozenset()),
    "unknown envelope keys",
)


def unknown_block(claimed: frozenset[str], data: st.DataObject) -> tuple[list[JSON], JSONObject]:
    """A lossless stream with a block of an unknown type started (and maybe stopped) at
    the next index, and the Message with that block kept as sent."""
    message, events = data.draw(
        round_trips(features=claimed, families=families_for(claimed)), label="case"
    )
    kind = "x_" + data.draw(_NAMES, label="type")  # never a type the fold knows
    block = {**data.draw(_PAYLOADS, label="block"), "type": kind}
    index = len(message["content"])
    start = next(i for i, item in enumerate(events) if item.get("type") == "message_start")
    position = data.draw(st.integers(start + 1, _stop_position(events)), label="at")
    new = [{"type": "content_block_start", "index": index, "content_block": block}]
    if data.draw(st.booleans()):
        new.append({"type": "content_block_stop", "index": index})
    changed = [*events[:position], *copy.deepcopy(new), *events[position:]]
    return changed, {**message, "content": [*message["content"], block]}


refused_within = Refusal(_stream, "AM-LIFE-EMPTY")
"""Non-objects are refused anywhere in a lossless stream, first included."""
