"""The Responses dialect's robustness cases (`refold.suites._robustness`, its kit's
`ROBUSTNESS`): lossless streams with keepalives, unknown events, blank items or unknown
keys added, or with fields of the wrong JSON type (`_wrong_types`).

The streams are of every family the claimed features are judged on, so terminals without
output (whose items the stream decides) are among them; the added events go before the
first terminal event (after it is LIFE-RS-AFTER's business).
"""

from __future__ import annotations

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

from .. import _robustness as shared
from .._json_values import json_values
from .._robustness import Refusal
from ._draws import small_streams
from ._wrong_types import FIELDS, wrong_typed_streams

__all__ = [
    "blank_items",
    "junk",
    "keepalives",
    "refused_within",
    "unknown_events",
    "unknown_keys",
    "wrong_typed",
]

_FOLD = frozenset({"text", "tool_calls", "refusal", "reasoning", "annotations", "usage"})
_TERMINALS = frozenset({"response.completed", "response.incomplete", "response.failed"})
_KNOWN_EVENTS = sorted(
    {
        "response.created",
        "response.queued",
        "response.in_progress",
        *_TERMINALS,
        "response.output_item.added",
        "response.output_item.done",
        "response.content_part.added",
        "response.content_part.done",
        "response.output_text.delta",
        "response.output_text.done",
        "response.output_text.annotation.added",
        "response.refusal.delta",
        "response.refusal.done",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.reasoning_summary_text.delta",
        "response.reasoning_text.delta",
    }
)
_NAMES = st.text("abcdefghijklmnopqrstuvwxyz_.", min_size=1, max_size=16)
_UNKNOWN_TYPES: st.SearchStrategy[JSON] = (
    _NAMES.map(lambda name: f"response.x_{name}")
    | _NAMES.map(lambda name: f"x.{name}")
    | st.sampled_from(
        [
            "",
            "   ",
            None,
            7,
            True,
            ["keepalive"],
            {"type": "response.completed"},
            "response.output_text.delta.v2",
            "response.output_item.replaced",
            "response.cancelled",
            "response.done",
            "done",
        ]
    )
)
_LOOKALIKES: st.SearchStrategy[JSON] = st.sampled_from(
    [
        0,
        1,
        "x",
        "msg_1",
        "fc_1",
        {"type": "message", "id": "msg_x", "role": "assistant", "content": []},
        {"type": "output_text", "text": "x", "annotations": []},
        {"id": "resp_x", "status": "failed", "output": [], "usage": {"total_tokens": 9}},
        {"input_tokens": 99, "output_tokens": 99, "total_tokens": 198},
    ]
)
"""Values that mean something where the fold reads them: an index, a delta, an id, an
item, a part, a response, usage."""
_PAYLOADS = st.dictionaries(
    st.sampled_from(sorted(FIELDS)) | _NAMES, _LOOKALIKES | json_values(max_leaves=4), max_size=4
)
_UNKNOWN_KEYS = st.dictionaries(
    st.sampled_from(
        [
            "obfuscation",
            "logprobs",
            "x_vendor",
            "usage",
            "status",
            "error",
            "id",
            "model",
            "output",
            "name",
            "call_id",
        ]
    )
    | _NAMES,
    _LOOKALIKES | json_values(max_leaves=3),
    min_size=1,
    max_size=3,
)
"""Keys the fold reads on no event (`FIELDS` are the ones it reads), some named like
fields of a response or an item."""


def _stream(claimed: frozenset[str], data: st.DataObject) -> list[JSONObject]:
    """A lossless stream of the claimed fold features, of every family they are judged on
    (family 7 without robustness noise: the properties add theirs)."""
    events: list[JSONObject] = data.draw(
        small_streams(frozenset(claimed & _FOLD) | {"text"}), label="stream"
    )
    return events


def _terminal_position(events: list[JSONObject]) -> int:
    # noise goes before the terminal; a drawn unknown `type` may be any JSON value, a
    # list included
    return next(
        (
            i
            for i, item in enumerate(events)
            if isinstance(item.get("type"), str) and item["type"] in _TERMINALS
        ),
        len(events),
    )


wrong_typed = shared.paired(
    lambda claimed: wrong_typed_streams(features=claimed), "their wrong-typed fields"
)

junk = shared.objects_after_the_first(_stream, _KNOWN_EVENTS)
"""Any JSON objects after the first event, some typed like the events the fold reads,
before a lossless stream."""

keepalives = shared.with_noise(
    _stream, shared.typed_as("keepalive", _PAYLOADS), _terminal_position, "keepalives"
)
unknown_events = shared.with_noise(
    _stream,
    shared.typed_or_untyped(_PAYLOADS, _UNKNOWN_TYPES),
    _terminal_position,
    "the unknown ones",
)

# RQ15: `obfuscation` on every delta; vendor keys; `logprobs` on deltas
unknown_keys = shared.with_unknown_keys(_stream, _UNKNOWN_KEYS, lambda _: FIELDS, "unknown keys")

_BLANK_ITEMS: st.SearchStrategy[JSON] = st.sampled_from([None, "", " ", [], 0, False, 1.5])
# RQ6: `item: null` (openai-python #3125); the index stays free for the real item
_BLANK_ADDED = st.builds(
    lambda index, item: {"type": "response.output_item.added", "output_index": index, "item": item},
    st.integers(0, 4),
    _BLANK_ITEMS,
)
blank_items = shared.with_noise(
    _stream,
    _BLANK_ADDED | _BLANK_ADDED.map(lambda event: {k: v for k, v in event.items() if k != "item"}),
    _terminal_position,
    "the blank items",
)


refused_within = Refusal(_stream, None)
"""Non-objects are refused anywhere after a lossless stream's first event."""
