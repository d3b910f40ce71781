"""A small independent fold of responses-fold.md, for the strategy tests only: the rules
the lossless families exercise (RS-TERMINAL-BASE, RS-OUTPUT-*, RS-ROUTE, RS-*-DONE*,
RS-RECOVER-*, RS-ORPHAN, RS-READD, RS-*-JOIN, RS-ANNOTATIONS, RS-ENV-FILL), written from
the spec without looking at the reference, so that a round trip agreeing with both is
evidence about the strategies and not one implementation's reading."""

from __future__ import annotations

import copy
from typing import Any

_LIFECYCLE = ("response.created", "response.queued", "response.in_progress")
_TERMINAL = ("response.completed", "response.incomplete", "response.failed")
_PLACEHOLDERS: dict[str, dict[str, Any]] = {
    "message": {"role": "assistant", "content": []},
    "function_call": {"arguments": ""},
    "reasoning": {"summary": []},
}


def _implied_type(kind: str, event: dict[str, Any]) -> str:
    if kind.startswith(("response.reasoning", )):
        return "reasoning"
    if kind.startswith("response.function_call_arguments"):
        return "function_call"
    part = event.get("part")
    if isinstance(part, dict) and part.get("type") == "reasoning_text":
        return "reasoning"
    if kind.startswith(("response.output_text", "response.refusal", "response.content_part",
                        "response.output_item")):
        item = event.get("item")
        return str(item["type"]) if isinstance(item, dict) else "message"
    return kind.split(".")[1]


def _index(value: Any) -> int | None:
    return value if type(value) is int and value >= 0 else None


class Oracle:
    def __init__(self) -> None:
        self.lifecycles: list[dict[str, Any]] = []
        self.terminal: dict[str, Any] | None = None
        self.items: dict[int, dict[str, Any]] = {}
        self.done: dict[int, dict[str, Any]] = {}

    def add(self, event: dict[str, Any]) -> None:
        kind = str(event.get("type"))
        if kind in _LIFECYCLE and isinstance(event.get("response"), dict):
            self.lifecycles.append(copy.deepcopy(event["response"]))
        elif kind in _TERMINAL and isinstance(event.get("response"), dict):
            self.terminal = copy.deepcopy(event["response"])
        elif _index(event.get("output_index")) is not None:
            self._item_event(kind, event)

    def _route(self, event: dict[str, Any]) -> int:
        named = event.get("item_id")
        if event.get("type") == "response.output_item.done" and isinstance(event.get("item"), dict):
            named = event["item"].get("id")
        for index, item in self.items.items():
            if named is not None and item.get("id") == named:
                return index
        index = _index(event["output_index"])
        assert index is not None
        return index

    def _item_event(self, kind: str, event: dict[str, Any]) -> None:
        index = self._route(event)
        if kind == "response.output_item.added":
            if not isinstance(event.get("item"), dict):
                return
            added = copy.deepcopy(event["item"])
            if index in self.items:
                old = self.items[index]
                for key in ("content", "summary", "arguments"):
                    if key in old:
                        added[key] = old[key]
            self.items[index] = added
            return
        if index not in self.items:
            placeholder = {"type": _implied_type(kind, event), "status": "in_progress",
                           **copy.deepcopy(_PLACEHOLDERS.get(_implied_type(kind, event), {}))}
            if isinstance(event.get("item_id"), str) and event["item_id"].strip():
                placeholder["id"] = event["item_id"]
            self.items[index] = placeholder
        item = self.items[index]
        if kind == "response.output_item.done" and isinstance(event.get("item"), dict):
            self.done[index] = copy.deepcopy(event["item"])
        elif kind == "response.function_call_arguments.delta":
            item["arguments"] = item.get("arguments", "") + event["delta"]
        elif kind == "response.function_call_arguments.done":
            item["arguments"] = event["arguments"]
        elif kind.startswith("response.reasoning_summary"):
            self._part_event(item.setdefault("summary", []), event["summary_index"], kind,
                             event, "summary_text")
        elif "content_index" in event:
            default = "reasoning_text" if item["type"] == "reasoning" else "output_text"
            self._part_event(item.setdefault("content", []), event["content_index"], kind,
                             event, default)

    @staticmethod
    def _part_event(parts: list[Any], number: int, kind: str, event: dict[str, Any],
                    default: str) -> None:
        while len(parts) <= number:
            parts.append(None)
        if kind.endswith("part.added") or kind.endswith("part.done"):
            parts[number] = copy.deepcopy(event["part"])
            return
        field = "refusal" if kind.startswith("response.refusal") else "text"
        if parts[number] is None:
            parts[number] = {"type": "refusal" if field == "refusal" else default, field: ""}
        part = parts[number]
        if kind.endswith(".delta"):
            part[field] = part.get(field, "") + event["delta"]
        elif kind.endswith("annotation.added"):
            notes = part.setdefault("annotations", [])
            notes.append(copy.deepcopy(event["annotation"]))
        elif kind.endswith(".done"):
            part[field] = event[field]

    def response(self) -> dict[str, Any]:
        assert self.terminal is not None
        result = copy.deepcopy(self.terminal)
        for key in {k for life in self.lifecycles for k in life} - {"output"}:
            if result.get(key) is None:
                values = [life[key] for life in self.lifecycles if life.get(key) is not None]
                if values:
                    result[key] = copy.deepcopy(values[-1])
        if not result.get("output"):
            result["output"] = [self._finished(index) for index in sorted(self.items)]
        return result

    def _finished(self, index: int) -> dict[str, Any]:
        if index in self.done:
            return copy.deepcopy(self.done[index])
        item = copy.deepcopy(self.items[index])
        assert self.terminal is not None
        if item.get("status") in (None, "", "in_progress"):
            completed = self.terminal.get("status") == "completed"
            item["status"] = "completed" if completed else "incomplete"
        return item


def fold(events: list[dict[str, Any]]) -> dict[str, Any]:
    oracle = Oracle()
    for event in events:
        oracle.add(event)
    return oracle.response()


def canonical(value: Any, *, top: bool = True) -> Any:
    if isinstance(value, dict):
        return {key: canonical(item, top=False) for key, item in value.items()
                if item is not None and not (key in ("annotations", "logprobs") and item == [])
                and not (top and key == "output_text")}
    if isinstance(value, list):
        return [canonical(item, top=False) for item in value]
    return value
