"""What an Anthropic event stream or message uses, read independently of the strategies'
own table: the features its content belongs to, and the documented shape of a message."""

from __future__ import annotations

from typing import Any

_BLOCK_FEATURES = {
    "text": "text",
    "tool_use": "tool_use",
    "server_tool_use": "server_tools",
    "web_search_tool_result": "server_tools",
    "web_fetch_tool_result": "server_tools",
    "code_execution_tool_result": "server_tools",
    "container_upload": "server_tools",
    "thinking": "thinking",
    "redacted_thinking": "thinking",
}
_DELTA_FEATURES = {
    "text_delta": {"text"},
    "citations_delta": {"citations"},
    "input_json_delta": {"tool_use"},
    "thinking_delta": {"thinking"},
    "signature_delta": {"thinking"},
}
_KNOWN_EVENTS = {
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "error",
}


def message_features(message: dict[str, Any]) -> set[str]:
    """The features a Message's content belongs to."""
    used = {"text"}
    for block in message.get("content") or []:
        if isinstance(block, dict):
            used.add(_BLOCK_FEATURES.get(str(block.get("type")), "robustness"))
            if block.get("citations"):
                used.add("citations")
    if "usage" in message:
        used.add("usage")
    if "stop_details" in message or "container" in message:
        used.add("stop_details")
    return used


def stream_features(events: list[Any]) -> set[str]:
    """The features a stream's events need, counting only events the fold reads."""
    used = {"text"}
    stopped = False
    blocks: dict[Any, str] = {}  # index -> the feature of the block opened there
    for item in events:
        kind = item.get("type")
        if stopped:
            used |= {"robustness", "lifecycle"}
            break
        if kind not in _KNOWN_EVENTS:
            used.add("robustness")  # ping, unknown and blank types
            continue
        if item["type"] == "content_block_start" and isinstance(item.get("content_block"), dict):
            blocks.setdefault(
                item.get("index"),
                _BLOCK_FEATURES.get(str(item["content_block"].get("type")), "robustness"),
            )
        used |= _event_features(item, blocks)
        stopped = kind == "message_stop"
    if not stopped and not any(item.get("type") == "error" for item in events):
        used.add("lifecycle")  # truncated
    return used


def _event_features(item: dict[str, Any], blocks: dict[Any, str]) -> set[str]:
    kind = item["type"]
    used: set[str] = set()
    if kind == "error":
        return {"lifecycle"}
    index = item.get("index", 0)
    if kind.startswith("content_block_") and (type(index) is not int or index < 0):
        used.add("robustness")  # a wrong type: the event is ignored
    payload = {
        "message_start": "message",
        "content_block_start": "content_block",
        "content_block_delta": "delta",
        "message_delta": "delta",
    }.get(kind)
    if payload and not isinstance(item.get(payload), dict):
        used.add("robustness")
    if kind == "message_start" and isinstance(item.get("message"), dict):
        used |= message_features(item["message"])
    if kind == "content_block_start" and isinstance(item.get("content_block"), dict):
        used |= message_features({"content": [item["content_block"]]})
    if kind == "content_block_delta" and isinstance(item.get("delta"), dict):
        kind = item["delta"].get("type")
        if kind == "input_json_delta" and blocks.get(item.get("index")) == "server_tools":
            used.add("server_tools")  # AM-SERVER-TOOL: the same delta, the other feature
        else:
            used |= _DELTA_FEATURES.get(kind, {"robustness"})
    if kind == "message_delta":
        delta = item.get("delta")
        if "usage" in item:
            used.add("usage")
        if isinstance(delta, dict) and ({"stop_details", "container"} & set(delta)):
            used.add("stop_details")
    return used


def shape_errors(message: Any) -> list[str]:
    """Where `message` departs from the documented non-streaming Message shape."""
    errors: list[str] = []
    if not isinstance(message, dict):
        return ["not an object"]
    for key, kind in (("id", str), ("model", str), ("content", list), ("stop_reason", str)):
        if not isinstance(message.get(key), kind):
            errors.append(f"/{key} is not a {kind.__name__}")
    if message.get("type") != "message" or message.get("role") != "assistant":
        errors.append("/type or /role is not message/assistant")
    sequence = message.get("stop_sequence")
    if (message.get("stop_reason") == "stop_sequence") != isinstance(sequence, str):
        errors.append("/stop_sequence is set exactly when stop_reason is stop_sequence")
    for number, block in enumerate(message.get("content") or []):
        errors += [f"/content/{number}{e}" for e in _block_errors(block)]
    usage = message.get("usage", {})
    if not isinstance(usage, dict) or not all(
        isinstance(usage.get(k, 0), int) for k in ("input_tokens", "output_tokens")
    ):
        errors.append("/usage counts are not integers")
    return errors


_BLOCK_FIELDS: dict[str, dict[str, type]] = {
    "text": {"text": str},
    "tool_use": {"id": str, "name": str, "input": dict},
    "server_tool_use": {"id": str, "name": str, "input": dict},
    "thinking": {"thinking": str, "signature": str},
    "redacted_thinking": {"data": str},
}


def _block_errors(block: Any) -> list[str]:
    if not isinstance(block, dict) or not isinstance(block.get("type"), str):
        return [" is not a typed object"]
    fields = _BLOCK_FIELDS.get(block["type"], {})
    errors = [
        f"/{key} is not a {kind.__name__}"
        for key, kind in fields.items()
        if not isinstance(block.get(key), kind)
    ]
    citations = block.get("citations", [])
    if not isinstance(citations, list) or not all(isinstance(c, dict) for c in citations):
        errors.append("/citations is not a list of objects")
    return errors
