"""Single Responses events, for driving an incremental fold one `add()` at a time.

A state machine over add / read draws each event on its own, so the events do not come
from a split of a known response: they are drawn from small alphabets over two output
indexes, in which every value exercises a rule and shrinking lands on it (a delta before
its item, a `.done` that replaces, a terminal with or without output, an `error`
anywhere, a second terminal). Which values are in the alphabets follows the target's
claim (`allows`): a target that does not claim `robustness` is never sent a `keepalive`,
an unknown event or a wrongly typed field; one that does not claim `tool_calls` never
sees a function call.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from functools import cache

from hypothesis import strategies as st

from refold.reference import JSONObject

from ._claims import FEATURES, allows, check_features

__all__ = ["lifecycle_events"]

_INDEXES = (0, 1)
_ENVELOPE: JSONObject = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1_750_000_000,
    "model": "gpt-5",
    "output": [],
    "usage": None,
    "error": None,
    "incomplete_details": None,
}
_MESSAGE: JSONObject = {
    "type": "message",
    "id": "msg_1",
    "status": "in_progress",
    "role": "assistant",
    "content": [],
}
_CALL: JSONObject = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_1",
    "name": "get_weather",
    "arguments": "",
    "status": "in_progress",
}
_REASONING: JSONObject = {"type": "reasoning", "id": "rs_1", "summary": []}
_HOSTED: JSONObject = {"type": "web_search_call", "id": "ws_1", "status": "in_progress"}
_ERRORS: tuple[JSONObject, ...] = (
    {"type": "error", "code": "server_error", "message": "The server had an error"},
    {"type": "error", "error": {"type": "server_error", "message": "nested"}},
)
_WRONG_TYPES: tuple[JSONObject, ...] = (
    {"type": "response.created", "response": None},
    {"type": "response.completed", "response": []},
    {"type": "response.output_item.added", "output_index": 0, "item": None},
    {"type": "response.output_item.added", "output_index": "1", "item": _MESSAGE},
    {"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": None},
    {"type": "response.output_text.delta", "output_index": -1, "content_index": 0, "delta": "x"},
    {"type": 7},
)
_UNKNOWN: tuple[JSONObject, ...] = (
    {"type": "keepalive"},
    {"type": "response.x_future_event", "response": {"id": "resp_other"}},
)


def lifecycle_events(
    *, features: Collection[str] = frozenset(FEATURES)
) -> st.SearchStrategy[JSONObject]:
    """One event of any type the fold reads, for output indexes 0 and 1, using only
    shapes a target claiming `features` is judged on: lifecycle events, items added and
    done, parts, text deltas and `.done`, annotations, refusals, arguments, reasoning
    text, hosted-tool status events, the three terminal events (with an output or
    without), `error`; under `robustness` also keepalives, unknown events and wrongly
    typed fields."""
    check_features(features)
    return _events(frozenset(features))


@cache
def _events(features: frozenset[str]) -> st.SearchStrategy[JSONObject]:
    indexed = st.sampled_from(_item_events(features))
    kinds: list[st.SearchStrategy[JSONObject]] = [
        st.sampled_from(_lifecycles()),
        st.builds(lambda e, i: {**e, "output_index": i}, indexed, st.sampled_from(_INDEXES)),
        st.sampled_from(_terminals(features)),
        st.sampled_from(_ERRORS),
    ]
    if allows("wrong types", features):
        kinds.append(st.sampled_from(_WRONG_TYPES))
    if allows("unknown events", features):
        kinds.append(st.sampled_from(_UNKNOWN))
    # a fresh copy per draw: the events are shared alphabet values otherwise
    return st.one_of(kinds).map(copy.deepcopy)


def _lifecycles() -> list[JSONObject]:
    return [
        {"type": kind, "response": {**_ENVELOPE, "status": status}}
        for kind, status in (
            ("response.created", "in_progress"),
            ("response.in_progress", "in_progress"),
            ("response.queued", "queued"),
        )
    ]


def _item_events(features: frozenset[str]) -> list[JSONObject]:
    """Item events without their `output_index` (drawn separately)."""
    text: JSONObject = {"type": "output_text", "text": "", "annotations": []}
    at = {"item_id": "msg_1", "content_index": 0}
    events: list[JSONObject] = [
        {"type": "response.output_item.added", "item": _MESSAGE},
        {
            "type": "response.output_item.done",
            "item": {**_MESSAGE, "status": "completed", "content": [{**text, "text": "done"}]},
        },
        {"type": "response.content_part.added", **at, "part": text},
        {"type": "response.output_text.delta", **at, "delta": "a"},
        {"type": "response.output_text.delta", **at, "delta": ""},
        {"type": "response.output_text.done", **at, "text": "final"},
        {"type": "response.content_part.done", **at, "part": {**text, "text": "part"}},
        {"type": "response.output_item.added", "item": _HOSTED},
        {"type": "response.web_search_call.searching", "item_id": "ws_1"},
    ]
    if allows("annotations", features):
        note = {
            "type": "url_citation",
            "start_index": 0,
            "end_index": 1,
            "url": "https://e.com/",
            "title": "e",
        }
        events.append(
            {
                "type": "response.output_text.annotation.added",
                **at,
                "annotation_index": 0,
                "annotation": note,
            }
        )
    if allows("refusal parts", features):
        events += [
            {"type": "response.refusal.delta", **at, "delta": "no"},
            {"type": "response.refusal.done", **at, "refusal": "no."},
        ]
    if allows("function_call items", features):
        events += [
            {"type": "response.output_item.added", "item": _CALL},
            {
                "type": "response.function_call_arguments.delta",
                "item_id": "fc_1",
                "delta": '{"city":',
            },
            {
                "type": "response.function_call_arguments.done",
                "item_id": "fc_1",
                "arguments": '{"city":"Paris"}',
            },
        ]
    if allows("reasoning items", features):
        events += [
            {"type": "response.output_item.added", "item": _REASONING},
            {
                "type": "response.reasoning_summary_text.delta",
                "item_id": "rs_1",
                "summary_index": 0,
                "delta": "think",
            },
            {
                "type": "response.reasoning_text.delta",
                "item_id": "rs_1",
                "content_index": 0,
                "delta": "hm",
            },
        ]
    return events


def _terminals(features: frozenset[str]) -> list[JSONObject]:
    usage = (
        {"usage": {"input_tokens": 3, "output_tokens": 2, "total_tokens": 5}}
        if allows("usage", features)
        else {}
    )
    done = {
        "type": "message",
        "id": "msg_1",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "whole", "annotations": []}],
    }
    return [
        {
            "type": "response.completed",
            "response": {**_ENVELOPE, **usage, "status": "completed", "output": [done]},
        },
        {
            "type": "response.completed",
            "response": {**_ENVELOPE, "status": "completed", "output": []},
        },
        {
            "type": "response.incomplete",
            "response": {
                **_ENVELOPE,
                **usage,
                "status": "incomplete",
                "incomplete_details": {"reason": "max_output_tokens"},
                "output": None,
            },
        },
        {
            "type": "response.failed",
            "response": {
                **_ENVELOPE,
                "status": "failed",
                "output": [],
                "error": {"code": "server_error", "message": "failed"},
            },
        },
    ]
