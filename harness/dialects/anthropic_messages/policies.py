"""The fold policies of the `anthropic-messages` dialect: each the reference fold
(`refold.reference.anthropic`) with one change a real library makes.

Most rewrite the events the reference folds (`_rewriting`): an event the policy reads
differently is replaced by the event the reference would fold into the same state. Only
the events the fold reads are rewritten or raise: before message_start, message_start and
`error`; after it, until message_stop or an `error` (`_read`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator

from refold.reference import JSON, JSONObject
from refold.reference.anthropic import Accumulator, fold

from ...policies import Policy, PolicyRaised
from .._reading import index_of

__all__ = ["ANTHROPIC_POLICIES"]

_TOKEN_COUNTS = (
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
)
_KNOWN_BLOCKS = frozenset(
    {
        "text",
        "thinking",
        "redacted_thinking",
        "tool_use",
        "server_tool_use",
        "mcp_tool_use",
        "web_search_tool_result",
        "web_fetch_tool_result",
        "code_execution_tool_result",
        "bash_code_execution_tool_result",
        "text_editor_code_execution_tool_result",
        "tool_search_tool_result",
        "container_upload",
    }
)
"""The block types of anthropic-python's content union (as litellm 1.110.2 knows them)."""

Rewrite = Callable[[JSONObject, "_State"], JSON]


class _State:
    """What the fold has read so far: whether message_start came, and the blocks opened."""

    def __init__(self) -> None:
        self.message: JSONObject | None = None
        self.opened: list[int] = []
        self.signatures: dict[int, str] = {}


def _kind(event: JSONObject) -> str | None:
    kind = event.get("type")
    return kind if isinstance(kind, str) and kind.strip() else None


def _read(events: list[JSON]) -> Iterator[tuple[int, JSON, _State]]:
    """(1-based number, event, state before it) of each event the fold reads."""
    state, over = _State(), False
    for number, event in enumerate(events, 1):
        if over or not isinstance(event, dict):
            yield number, event, state
            continue
        yield number, event, state
        kind = _kind(event)
        if kind == "error" or (kind == "message_stop" and state.message is not None):
            over = True
        elif kind == "message_start" and state.message is None:
            if isinstance(event.get("message"), dict):
                state.message = event["message"]
                content = state.message.get("content")
                state.opened = [
                    i
                    for i, block in enumerate(content if isinstance(content, list) else [])
                    if isinstance(block, dict)
                ]
        elif kind == "content_block_start" and state.message is not None:
            index = index_of(event.get("index"))
            if index is not None and isinstance(event.get("content_block"), dict):
                state.opened.append(index)


def _rewriting(rewrite: Rewrite) -> Callable[[list[JSON]], JSONObject]:
    """The reference fold of the events as `rewrite` reads each one after message_start."""

    def policy_fold(events: list[JSON]) -> JSONObject:
        rewritten = [
            rewrite(event, state)
            if isinstance(event, dict) and state.message is not None
            else event
            for _, event, state in _read(events)
        ]
        return fold(rewritten)

    return policy_fold


def _delta(event: JSONObject, kind: str) -> JSONObject | None:
    delta = event.get("delta")
    if (
        _kind(event) == "content_block_delta"
        and isinstance(delta, dict)
        and delta.get("type") == kind
    ):
        return delta
    return None


def _drop_start_text(event: JSONObject, state: _State) -> JSON:
    block = event.get("content_block")
    if (
        _kind(event) == "content_block_start"
        and isinstance(block, dict)
        and block.get("type") == "text"
    ):
        return {**event, "content_block": {**block, "text": ""}}
    return event


def _stop_sequence_as_end_turn(event: JSONObject, state: _State) -> JSON:
    delta = event.get("delta")
    if (
        _kind(event) == "message_delta"
        and isinstance(delta, dict)
        and isinstance(delta.get("stop_reason"), str)
        and delta["stop_reason"].strip() == "stop_sequence"
    ):
        return {**event, "delta": {**delta, "stop_reason": "end_turn", "stop_sequence": None}}
    return event


def _drop_unknown_blocks(event: JSONObject, state: _State) -> JSON:
    block = event.get("content_block")
    if (
        _kind(event) == "content_block_start"
        and isinstance(block, dict)
        and block.get("type") not in _KNOWN_BLOCKS
    ):
        return {"type": "content_block_start"}  # read, and opens nothing
    return event


def _route_by_position(event: JSONObject, state: _State) -> JSON:
    if _kind(event) == "content_block_start" and index_of(event.get("index")) is not None:
        return {**event, "index": len(state.opened)}  # appended, its index unused
    return event


def _concatenate_signatures(event: JSONObject, state: _State) -> JSON:
    delta, index = _delta(event, "signature_delta"), index_of(event.get("index"))
    block = event.get("content_block")
    if (
        _kind(event) == "content_block_start"
        and index is not None
        and isinstance(block, dict)
        and isinstance(block.get("signature"), str)
    ):
        state.signatures.setdefault(index, block["signature"])
    if delta is None or index is None or not isinstance(delta.get("signature"), str):
        return event
    state.signatures[index] = state.signatures.get(index, "") + delta["signature"]
    return {**event, "delta": {**delta, "signature": state.signatures[index]}}


def _parse_each_fragment(events: list[JSON]) -> JSONObject:
    """Each partial_json parsed alone: the last whole object is the input, the rest are
    dropped (none whole: the start's input stays)."""
    last: dict[int, int] = {}
    fragments: set[int] = set()
    for number, event, state in _read(events):
        delta = _delta(event, "input_json_delta") if isinstance(event, dict) else None
        index = index_of(event.get("index")) if isinstance(event, dict) else None
        if delta is None or state.message is None or index is None:
            continue
        fragments.add(number)
        if _whole(delta.get("partial_json")):
            last[index] = number
    return fold(
        [
            event
            for number, event in enumerate(events, 1)
            if number not in fragments or number in last.values()
        ]
    )


def _whole(text: JSON) -> bool:
    import json

    if not isinstance(text, str) or not text.strip().startswith("{"):
        return False
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def _sums_message_delta_usage(events: list[JSON]) -> JSONObject:
    accumulator = Accumulator()
    for _, event, state in _read(events):
        usage = event.get("usage") if isinstance(event, dict) else None
        if (
            state.message is not None
            and _kind(event) == "message_delta"
            and isinstance(usage, dict)
        ):
            folded = accumulator.response().get("usage") or {}
            event = {
                **event,
                "usage": {
                    key: folded[key] + value
                    if key in _TOKEN_COUNTS and _number(value) and _number(folded.get(key))
                    else value
                    for key, value in usage.items()
                },
            }
        accumulator.add(event)
    return accumulator.response()


def _number(value: JSON) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _null_stop_reason_erases(events: list[JSON]) -> JSONObject:
    folded = fold(events)
    for _, event, state in _read(events):
        delta = event.get("delta") if isinstance(event, dict) else None
        if (
            state.message is not None
            and _kind(event) == "message_delta"
            and isinstance(delta, dict)
        ):
            for key in ("stop_reason", "stop_sequence"):
                folded[key] = delta.get(key) if isinstance(delta.get(key), str) else None
    return folded


def _merge_text_blocks(events: list[JSON]) -> JSONObject:
    folded = copy.deepcopy(fold(events))
    content, first = [], None
    for block in folded.get("content", []):
        if block.get("type") != "text":
            content.append(block)
        elif first is None:
            first = block
            content.append(block)
        else:
            first["text"] += block.get("text", "")
            if block.get("citations"):
                first["citations"] = [*first.get("citations", []), *block["citations"]]
    folded["content"] = content
    return folded


_GENERATED_ID = "chatcmpl-(generated)"
_UUID_ID = re.compile(r"chatcmpl-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _replace_message_id(events: list[JSON]) -> JSONObject:
    return {**fold(events), "id": _GENERATED_ID}


def _reads_generated_id(message: JSON) -> JSON:
    if (
        isinstance(message, dict)
        and isinstance(message.get("id"), str)
        and _UUID_ID.fullmatch(message["id"])
    ):
        return {**message, "id": _GENERATED_ID}
    return message


def _crash_without_usage(events: list[JSON]) -> JSONObject:
    for number, event, state in _read(events):
        if (
            state.message is not None
            and _kind(event) == "message_delta"
            and (state.message.get("usage") is None or event.get("usage") is None)
        ):
            raise PolicyRaised(f"event {number}: message_delta read usage that is absent")
    return fold(events)


def _raise_before_start(events: list[JSON]) -> JSONObject:
    for number, event, state in _read(events):
        if (
            state.message is None
            and isinstance(event, dict)
            and _kind(event) not in ("message_start", "error")
        ):
            raise PolicyRaised(f"event {number}: {_kind(event)} before message_start")
    return fold(events)


_AQ = "anthropic 2.14.0"
ANTHROPIC_POLICIES: tuple[Policy, ...] = (
    Policy(
        "a null stop reason erases the folded one",
        ("AM-STOP-REASON", "AM-STOP-SEQUENCE"),
        (_AQ, "@anthropic-ai/sdk 1.14.0", "@ai-sdk/anthropic 3.0.140"),
        _null_stop_reason_erases,
        "anthropic_null_stop_reason_erases",
    ),
    Policy(
        "sums message_delta usage",
        ("AM-USAGE-NEVER-SUM", "AM-USAGE-REPLACE"),
        ("langchain-anthropic 1.7.10", "langchain-core 1.8.3"),
        _sums_message_delta_usage,
        "anthropic_sums_message_delta_usage",
    ),
    Policy(
        "drops text sent on content_block_start",
        ("AM-TEXT-JOIN",),
        ("@ai-sdk/anthropic 3.0.140",),
        _rewriting(_drop_start_text),
        "anthropic_drops_start_text",
    ),
    Policy(
        "generates its own message id",
        ("AM-START-BASE",),
        ("litellm 1.110.2",),
        _replace_message_id,
        "anthropic_replaces_message_id",
        _reads_generated_id,
    ),
    Policy(
        "merges every text block into the first",
        ("AM-BLOCK-OPEN", "AM-TEXT-JOIN", "AM-CITATIONS-APPEND"),
        ("litellm 1.110.2",),
        _merge_text_blocks,
        "anthropic_merges_text_blocks",
    ),
    Policy(
        "reads stop_sequence as end_turn",
        ("AM-STOP-REASON", "AM-STOP-SEQUENCE"),
        ("litellm 1.110.2",),
        _rewriting(_stop_sequence_as_end_turn),
        "anthropic_stop_sequence_as_end_turn",
    ),
    Policy(
        "raises on a message_delta without usage",
        ("AM-USAGE-ABSENT",),
        (_AQ, "@anthropic-ai/sdk 1.14.0"),
        _crash_without_usage,
        "anthropic_crash_without_usage",
    ),
    Policy(
        "parses each input fragment alone",
        ("AM-TOOL-JOIN", "AM-TOOL-INVALID", "AM-SERVER-TOOL", "AM-TOOL-NO-DELTA"),
        ("bojieli/ai-agent-book", "cubeplexai/cubeloop"),
        _parse_each_fragment,
        "anthropic_parses_each_fragment",
    ),
    Policy(
        "drops blocks of unknown types",
        ("AM-UNKNOWN-BLOCK", "AM-RESULT-AS-SENT"),
        ("litellm 1.110.2",),
        _rewriting(_drop_unknown_blocks),
        "anthropic_drops_unknown_blocks",
    ),
    Policy(
        "concatenates signatures",
        ("AM-THINK-SIGNATURE",),
        ("langchain-anthropic 1.7.10", "langchain-core 1.8.3"),
        _rewriting(_concatenate_signatures),
        "anthropic_concatenates_signatures",
    ),
    Policy(
        "raises on any event before message_start",
        ("AM-BEFORE-START", "AM-PING", "AM-UNKNOWN-EVENT"),
        (_AQ,),
        _raise_before_start,
        "anthropic_ping_before_start_raises",
    ),
    Policy(
        "routes blocks by their position",
        ("AM-BLOCK-ORDER", "AM-BLOCK-REOPEN", "AM-DELTA-ROUTE"),
        ("@anthropic-ai/sdk 1.14.0", _AQ),
        _rewriting(_route_by_position),
        "anthropic_routes_by_position",
    ),
)
"""The Anthropic policies, one per broken Anthropic accumulator whose defect shows in its
fold (`anthropic_drops_frames_without_event`'s is in its SSE decoder)."""
