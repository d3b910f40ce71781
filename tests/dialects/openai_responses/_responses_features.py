"""What a Responses event stream or response uses, read independently of the strategies'
own table: the features its content belongs to, and the documented shape of a response."""

from __future__ import annotations

from typing import Any

_ITEM_FEATURES = {"function_call": "tool_calls", "reasoning": "reasoning"}
_TERMINALS = {"response.completed", "response.incomplete", "response.failed"}
_LIFECYCLES = {"response.created", "response.queued", "response.in_progress"}
_EVENT_FEATURES = (
    ("response.refusal.", "refusal"),
    ("response.function_call_arguments.", "tool_calls"),
    ("response.reasoning_", "reasoning"),
    ("response.output_text.annotation.", "annotations"),
)
_KNOWN_PREFIXES = (
    "response.output_item.",
    "response.content_part.",
    "response.output_text.",
    "response.refusal.",
    "response.function_call_arguments.",
    "response.reasoning_",
    "response.web_search_call.",
    "response.file_search_call.",
    "response.code_interpreter_call.",
    "response.image_generation_call.",
    "response.mcp_call.",
)
_ENVELOPE_KEYS = {
    "type",
    "sequence_number",
    "output_index",
    "item_id",
    "content_index",
    "summary_index",
    "annotation_index",
    "delta",
    "text",
    "refusal",
    "arguments",
    "part",
    "item",
    "annotation",
    "response",
    "code",
    "message",
    "param",
    "error",
}


_DOCUMENTED_KEYS = {
    "response.output_text.delta": {"logprobs"},
    "response.output_text.done": {"logprobs"},
    "response.function_call_arguments.done": {"name"},
}
"""Keys OpenAI's schema requires on one event type (not an unknown key there)."""


def item_features(item: Any) -> set[str]:
    """The features one output item belongs to."""
    if not isinstance(item, dict):
        return {"robustness"}
    used = {"text", _ITEM_FEATURES.get(str(item.get("type")), "text")}
    for part in item.get("content") or []:
        if isinstance(part, dict) and part.get("type") == "refusal":
            used.add("refusal")
        if isinstance(part, dict) and part.get("annotations"):
            used.add("annotations")
    return used


def response_features(response: dict[str, Any]) -> set[str]:
    """The features a Response's content belongs to."""
    used = {"text"}
    for item in response.get("output") or []:
        used |= item_features(item)
    if response.get("usage") is not None:
        used.add("usage")
    return used


def _event_features(item: dict[str, Any]) -> set[str]:
    kind = item.get("type")
    used = {"text"}
    if not isinstance(kind, str) or not (
        kind in _TERMINALS | _LIFECYCLES | {"error"} or kind.startswith(_KNOWN_PREFIXES)
    ):
        return used | {"robustness"}  # keepalive, unknown and blank types
    if set(item) - _ENVELOPE_KEYS - _DOCUMENTED_KEYS.get(kind, set()):
        used.add("robustness")  # obfuscation, vendor keys
    for prefix, feature in _EVENT_FEATURES:
        if kind.startswith(prefix):
            used.add(feature)
    index = item.get("output_index", 0)
    if type(index) is not int or index < 0:
        used.add("robustness")
    if "delta" in item and not isinstance(item["delta"], str):
        used.add("robustness")
    if kind in _TERMINALS | _LIFECYCLES:
        if not isinstance(item.get("response"), dict):
            return used | {"robustness"}
        used |= response_features(item["response"])
    if kind.startswith("response.output_item."):
        used |= item_features(item.get("item"))
    if kind.startswith("response.content_part.") and isinstance(item.get("part"), dict):
        used |= item_features({"content": [item["part"]]})
    return used


def stream_features(events: list[Any]) -> set[str]:
    """The features a stream's events need: what each event carries, `lifecycle` for a
    stream without a terminal event or with other events after it. A terminal event whose
    `response` is not an object finishes nothing (RS-WRONG-TYPE), so it is no terminal."""
    used = {"text"}
    terminal: Any = None
    for item in events:
        used |= _event_features(item)
        if terminal is not None and item.get("type") not in _TERMINALS:
            used.add("lifecycle")  # LIFE-RS-AFTER (a repeat is RS-TERMINAL-REPEAT's)
        finishes = item.get("type") in _TERMINALS and isinstance(item.get("response"), dict)
        if finishes and terminal is None:
            terminal = item
    if terminal is None:
        used.add("lifecycle")
    return used


def shape_errors(response: Any) -> list[str]:
    """Where `response` departs from the documented non-streamed Response shape."""
    if not isinstance(response, dict):
        return ["not an object"]
    errors = [
        f"/{key} is not a {kind.__name__}"
        for key, kind in (
            ("id", str),
            ("model", str),
            ("output", list),
            ("status", str),
            ("created_at", int),
        )
        if not isinstance(response.get(key), kind)
    ]
    if response.get("object") != "response":
        errors.append("/object is not response")
    status = response.get("status")
    if (status == "incomplete") != isinstance(response.get("incomplete_details"), dict):
        errors.append("/incomplete_details is set exactly when status is incomplete")
    if (status == "failed") != isinstance(response.get("error"), dict):
        errors.append("/error is set exactly when status is failed")
    ids = [item.get("id") for item in response.get("output") or [] if "id" in item]
    if len(ids) != len(set(ids)):
        errors.append("/output item ids are not unique")
    for number, item in enumerate(response.get("output") or []):
        errors += [f"/output/{number}{e}" for e in _item_errors(item)]
    return errors


_ITEM_FIELDS: dict[str, dict[str, type]] = {
    "message": {"id": str, "role": str, "content": list, "status": str},
    "function_call": {"call_id": str, "name": str, "arguments": str, "status": str},
    "reasoning": {"id": str, "summary": list},
    # openai-python's McpCall has an optional status (a call that errored may send none)
    "mcp_call": {"id": str, "server_label": str, "name": str, "arguments": str},
}


def _item_errors(item: Any) -> list[str]:
    if not isinstance(item, dict) or not isinstance(item.get("type"), str):
        return [" is not a typed object"]
    fields = _ITEM_FIELDS.get(item["type"], {"id": str, "status": str})
    errors = [
        f"/{key} is not a {kind.__name__}"
        for key, kind in fields.items()
        if not isinstance(item.get(key), kind)
    ]
    if item.get("status") not in (None, "completed", "incomplete"):
        errors.append(f"/status {item.get('status')!r} is not a finished status")
    for part in item.get("content") or []:
        field = "refusal" if part.get("type") == "refusal" else "text"
        if not isinstance(part.get(field), str):
            errors.append(f"/content part has no string {field}")
    return errors
