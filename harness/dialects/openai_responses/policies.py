"""The fold policies of the `openai-responses` dialect: each the reference fold
(`refold.reference.responses`) with one change a real library makes: events it reads
differently are rewritten (an event it routes to its item but then ignores keeps the
routing, which opens a placeholder item, and loses what it carries: `_emptied`), and where
it raises the policy raises at that event.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from refold.reference import JSON, JSONObject
from refold.reference.responses import fold
from refold.reference.responses._envelope import LIFECYCLE_EVENTS, TERMINAL_EVENTS
from refold.reference.responses._routing import ITEM_EVENTS

from ...policies import Policy, PolicyRaised
from .._reading import index_of

__all__ = ["RESPONSES_POLICIES"]

_KNOWN = frozenset(
    {
        *LIFECYCLE_EVENTS,
        *TERMINAL_EVENTS,
        *ITEM_EVENTS,
        "error",
        "keepalive",
        "response.output_item.added",
        "response.output_item.done",
    }
)
"""The event types the reference acts on: the fixed list of a library that raises on any
other (openai-node 7.5.0's `sanitizeResponseEvent`)."""


def _type(event: JSON) -> JSON:
    return event.get("type") if isinstance(event, dict) else None


def _emptied(
    picked: Callable[[JSONObject], bool], key: str, value: JSON = None
) -> Callable[[list[JSON]], JSONObject]:
    """The reference fold of the stream with `key` of the events `picked` set to `value`:
    an index no part has, an annotation that is no object."""

    def policy_fold(events: list[JSON]) -> JSONObject:
        return fold([{**e, key: value} if isinstance(e, dict) and picked(e) else e for e in events])

    return policy_fold


def _annotation(event: JSONObject) -> bool:
    return event.get("type") == "response.output_text.annotation.added"


def _refusal(event: JSONObject) -> bool:
    part = event.get("part")
    return event.get("type") in ("response.refusal.delta", "response.refusal.done") or (
        event.get("type") == "response.content_part.added"
        and isinstance(part, dict)
        and part.get("type") == "refusal"
    )


def _reasoning_text(event: JSONObject) -> bool:
    return event.get("type") in ("response.reasoning_text.delta", "response.reasoning_text.done")


def _ignores_arguments_done(events: list[JSON]) -> JSONObject:
    return fold(
        [
            {k: v for k, v in e.items() if k != "arguments"}
            if _type(e) == "response.function_call_arguments.done"
            else e
            for e in events
        ]
    )


def _terminals(events: list[JSON]) -> list[tuple[int, JSONObject]]:
    """(position, event) of each terminal event carrying a response object."""
    return [
        (n, e)
        for n, e in enumerate(events)
        if isinstance(e, dict)
        and e.get("type") in TERMINAL_EVENTS
        and isinstance(e.get("response"), dict)
    ]


def _keeps_empty_terminal_output(events: list[JSON]) -> JSONObject:
    folded = fold(events)
    found = _terminals(events)
    if found and isinstance(found[-1][1]["response"].get("output"), list):
        folded["output"] = copy.deepcopy(found[-1][1]["response"]["output"])
    return folded


def _merged(left: JSON, right: JSON) -> JSON:
    if isinstance(left, dict) and isinstance(right, dict):
        return {**left, **right, **{k: _merged(left[k], right[k]) for k in left if k in right}}
    if (isinstance(left, str) and isinstance(right, str)) or (
        type(left) in (int, float) and type(right) in (int, float)
    ):
        return left + right
    return right


def _merges_repeated_terminal(events: list[JSON]) -> JSONObject:
    rewritten = list(events)
    earlier: JSONObject | None = None
    for position, event in _terminals(events):
        response = event["response"]
        if earlier is not None:
            response = {
                k: _merged(earlier[k], v) if k in earlier and k != "output" else v
                for k, v in response.items()
            }
            rewritten[position] = {**event, "response": response}
        earlier = response
    return fold(rewritten)


def _failed_as_completed(events: list[JSON]) -> JSONObject:
    return fold(
        [
            {
                **e,
                "type": "response.completed",
                "response": {
                    **{k: v for k, v in e["response"].items() if k != "error"},
                    "status": "completed",
                },
            }
            if _type(e) == "response.failed" and isinstance(e.get("response"), dict)
            else e
            for e in events
        ]
    )


def _only_completed_is_final(events: list[JSON]) -> JSONObject:
    found = _terminals(events)
    if found and found[-1][1]["type"] != "response.completed":
        raise PolicyRaised(f"event {found[-1][0] + 1}: no response.completed event")
    return fold(events)


def _raises_on(picked: Callable[[JSON], bool]) -> Callable[[list[JSON]], JSONObject]:
    def policy_fold(events: list[JSON]) -> JSONObject:
        for number, event in enumerate(events, 1):
            if isinstance(event, dict) and picked(event):
                raise PolicyRaised(f"event {number}: {event.get('type')!r}")
        return fold(events)

    return policy_fold


def _orphan_content_raises(events: list[JSON]) -> JSONObject:
    announced: set[int] = set()
    for number, event in enumerate(events, 1):
        kind, index = (
            _type(event),
            index_of(event.get("output_index")) if isinstance(event, dict) else None,
        )
        if (
            kind in ("response.output_item.added", "response.output_item.done")
            and index is not None
            and isinstance(event.get("item"), dict)
        ):
            announced.add(index)
        elif kind in ITEM_EVENTS and index is not None and index not in announced:
            raise PolicyRaised(f"event {number}: content for output index {index} first")
    return fold(events)


def _identity(item: JSONObject) -> tuple[JSON, JSON]:
    key = "call_id" if item.get("type") == "function_call" else "id"
    return item.get("type"), item.get(key)


def _item_id_must_not_change(events: list[JSON]) -> JSONObject:
    added: dict[int, JSONObject] = {}
    for number, event in enumerate(events, 1):
        if not isinstance(event, dict) or not isinstance(event.get("item"), dict):
            continue
        index, item = index_of(event.get("output_index")), event["item"]
        if index is None:
            continue
        if event.get("type") == "response.output_item.added":
            added[index] = item
        elif (
            event.get("type") == "response.output_item.done"
            and index in added
            and _identity(added[index]) != _identity(item)
        ):
            raise PolicyRaised(f"event {number}: the done item's identity changed")
    return fold(events)


_PY, _NODE = "openai 3.57.0", "openai-node 7.5.0"
_LCO, _LITE = "langchain-openai 1.7.4", "litellm 1.110.2"
RESPONSES_POLICIES: tuple[Policy, ...] = (
    Policy(
        "terminal output wins even when empty",
        ("RS-OUTPUT-RECOVER",),
        (_PY, _NODE),
        _keeps_empty_terminal_output,
        "responses_keeps_empty_terminal_output",
    ),
    Policy(
        "raises on content before its item",
        ("RS-ORPHAN",),
        (_PY, _NODE),
        _orphan_content_raises,
        "responses_orphan_content_raises",
    ),
    Policy(
        "only response.completed is final",
        ("RS-TERMINAL-EVENTS", "RS-INCOMPLETE", "RS-FAILED"),
        (_PY,),
        _only_completed_is_final,
        "responses_only_completed_is_final",
    ),
    Policy(
        "raises when a done item's id changes",
        ("RS-KEY-OUTPUT-INDEX",),
        (_PY,),
        _item_id_must_not_change,
        "responses_item_id_must_not_change",
    ),
    Policy(
        "ignores function_call_arguments.done",
        ("RS-DONE-REPLACES",),
        (_LCO, _LITE),
        _ignores_arguments_done,
        "responses_ignores_arguments_done",
    ),
    Policy(
        "merges a repeated terminal",
        ("RS-TERMINAL-REPEAT",),
        (_LCO, "langchain-core 1.8.3"),
        _merges_repeated_terminal,
        "responses_merges_repeated_terminal",
    ),
    Policy(
        "drops refusals",
        ("RS-REFUSAL",),
        (_LITE, "Vercel AI"),
        _emptied(_refusal, "content_index"),
        "responses_drops_refusals",
    ),
    Policy(
        "drops annotations",
        ("RS-ANNOTATIONS",),
        (_LITE, _PY),
        _emptied(_annotation, "annotation"),
        "responses_drops_annotations",
    ),
    Policy(
        "ignores reasoning text",
        ("RS-REASONING-TEXT",),
        (_PY, _LCO),
        _emptied(_reasoning_text, "content_index"),
        "responses_ignores_reasoning_text",
    ),
    Policy(
        "reads response.failed as completed",
        ("RS-FAILED",),
        (_LITE,),
        _failed_as_completed,
        "responses_failed_as_completed",
    ),
    Policy(
        "raises on an error event",
        ("RS-ERROR-EVENT",),
        (_LCO, _NODE),
        _raises_on(lambda e: e.get("type") == "error"),
        "responses_error_event_raises",
    ),
    Policy(
        "raises on an unknown event type",
        ("RS-KEEPALIVE",),
        (_NODE,),
        _raises_on(lambda e: e.get("type") not in _KNOWN),
        "responses_unknown_event_raises",
    ),
)
"""The Responses policies, one per broken Responses accumulator."""
