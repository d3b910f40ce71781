"""Single Anthropic events, for driving an incremental fold one `add()` at a time.

A state machine over add / read draws each event on its own, so the events do not come
from a split of a known message: they are drawn from small alphabets over two block
indexes, in which every value exercises a rule and shrinking lands on it (a delta for a
block of another type, a second start for an index, a blank stop reason, a
`message_stop` before `message_start`, an `error` anywhere). Which values are in the
alphabets follows the target's claim (`allows`): a target that does not claim
`robustness` is never sent a `ping`, an unknown event or delta, or a wrongly typed field;
one that does not claim `thinking` never sees a thinking block or delta.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from functools import cache

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

from ._blocks import delta_event, start_event, stop_event
from ._claims import FEATURES, allows, check_features

__all__ = ["lifecycle_events"]

_INDEXES = st.sampled_from([0, 1])
_ERRORS: tuple[JSONObject, ...] = (
    {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
    {"type": "error", "error": {"type": "api_error", "message": "Internal server error"}},
    {"type": "error"},  # AM-LIFE-ERROR: recorded as {}
)
_WRONG_TYPES: tuple[JSONObject, ...] = (
    {"type": "message_start", "message": None},
    {"type": "content_block_start", "index": "0", "content_block": {"type": "text", "text": "s"}},
    {"type": "content_block_start", "index": 1, "content_block": None},
    {"type": "content_block_delta", "index": 0, "delta": None},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": None}},
    {"type": "message_delta", "delta": None},
    {"type": "message_delta", "delta": {"stop_reason": 3}},
    {"type": "error", "error": "Overloaded"},  # not an object: recorded as {}
    {"type": 7},
)
_UNKNOWN_EVENTS: tuple[JSONObject, ...] = (
    {"type": "vertex_event", "usage": {"input_tokens": 99, "output_tokens": 99}},
    {"type": "", "message": {"id": "msg_other"}},
)
_UNKNOWN_DELTA: JSONObject = {"type": "compaction_delta", "content": "summary"}
_UNKNOWN_BLOCK: JSONObject = {"type": "x_block", "payload": {"k": [1]}}


def lifecycle_events(
    *, features: Collection[str] = frozenset(FEATURES)
) -> st.SearchStrategy[JSONObject]:
    """One event of any type the fold reads, for block indexes 0 and 1, using only shapes
    a target claiming `features` is judged on: `message_start` (empty, or with a finished
    block and stop reason inside), block starts, deltas and stops, `message_delta`,
    `message_stop`, `error`; under `robustness` also pings, unknown events, deltas and
    blocks, and wrongly typed fields."""
    check_features(features)
    return _events(frozenset(features))


@cache
def _events(features: frozenset[str]) -> st.SearchStrategy[JSONObject]:
    kinds: list[st.SearchStrategy[JSONObject]] = [
        _message_starts(features),
        st.builds(start_event, _INDEXES, st.sampled_from(_blocks(features))),
        st.builds(delta_event, _INDEXES, st.sampled_from(_deltas(features))),
        _INDEXES.map(stop_event),
        _message_deltas(features),
        st.just({"type": "message_stop"}),
    ]
    if allows("error event", features):
        kinds.append(st.sampled_from(_ERRORS))
    if allows("wrong types", features):
        wrong = [e for e in _WRONG_TYPES if e["type"] != "error" or allows("error event", features)]
        kinds.append(st.sampled_from(wrong))
    if allows("pings", features):
        kinds.append(st.just({"type": "ping"}))
    if allows("unknown events", features):
        kinds.append(st.sampled_from(_UNKNOWN_EVENTS))
    # a fresh copy per draw: the events are shared alphabet values otherwise
    return st.one_of(kinds).map(_copied)


def _copied(value: JSONObject) -> JSONObject:
    return copy.deepcopy(value)


def _message_starts(features: frozenset[str]) -> st.SearchStrategy[JSONObject]:
    envelope: JSONObject = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
    }
    if allows("usage", features):
        envelope["usage"] = {"input_tokens": 3, "output_tokens": 1}
    finished = {
        **envelope,
        "content": [{"type": "text", "text": "done"}],
        "stop_reason": "end_turn",
    }  # AM-START-CONTENT
    blank = {"id": "msg_2", "model": "claude-opus-4-1", "content": []}  # AM-TYPE-ROLE
    return st.sampled_from([envelope, finished, blank]).map(
        lambda message: {"type": "message_start", "message": message}
    )


def _blocks(features: frozenset[str]) -> list[JSONObject]:
    blocks: list[JSONObject] = [{"type": "text", "text": ""}, {"type": "text", "text": "pre "}]
    if allows("tool_use blocks", features):
        blocks.append({"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}})
    if allows("server_tool_use blocks", features):
        blocks.append(
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
        )
    if allows("server tool results", features):
        blocks.append(
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}
        )
    if allows("thinking blocks", features):
        blocks.append({"type": "thinking", "thinking": ""})
    if allows("redacted_thinking blocks", features):
        blocks.append({"type": "redacted_thinking", "data": "enc_1"})
    if allows("unknown blocks", features):
        blocks.append(_UNKNOWN_BLOCK)
    return blocks


def _deltas(features: frozenset[str]) -> list[JSONObject]:
    deltas: list[JSONObject] = [{"type": "text_delta", "text": t} for t in ("a", "b c", "")]
    if allows("citations", features):
        deltas.append(
            {"type": "citations_delta", "citation": {"type": "char_location", "cited_text": "c"}}
        )
    if allows("tool_use blocks", features) or allows("server_tool_use blocks", features):
        deltas += [
            {"type": "input_json_delta", "partial_json": p}
            for p in ("", '{"city": ', '"Paris"}', "{}")
        ]
    if allows("thinking blocks", features):
        deltas += [
            {"type": "thinking_delta", "thinking": "hm"},
            {"type": "signature_delta", "signature": "sig_1"},
            {"type": "signature_delta", "signature": "sig_2"},
        ]
    if allows("unknown deltas", features):
        deltas.append(_UNKNOWN_DELTA)
    return deltas


def _message_deltas(features: frozenset[str]) -> st.SearchStrategy[JSONObject]:
    reasons: list[JSON] = ["end_turn", "tool_use", "max_tokens", None]
    optional: dict[str, st.SearchStrategy[JSON]] = {}
    if allows("usage", features):
        optional["usage"] = st.sampled_from(
            [{"output_tokens": 5}, {"output_tokens": 9, "input_tokens": 4}]
        )
    delta_optional: dict[str, st.SearchStrategy[JSON]] = {}
    if allows("stop_details", features):
        delta_optional["stop_details"] = st.just({"type": "refusal", "category": "cyber"})
        delta_optional["container"] = st.just(
            {"id": "container_1", "expires_at": "2026-12-01T12:00:00Z"}
        )
    delta = st.fixed_dictionaries(
        {"stop_reason": st.sampled_from(reasons), "stop_sequence": st.none()},
        optional=delta_optional,
    )
    return st.fixed_dictionaries(
        {"type": st.just("message_delta"), "delta": delta}, optional=optional
    )
