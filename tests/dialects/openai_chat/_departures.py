"""What a chunk stream departs from OpenAI's own shape (split family 1) in, and which rules
govern each departure; and which features the stream uses.

A rule example must exercise its rule on the plain shape: every departure in its streams
must be governed by a rule it is marked with, and every feature its streams use must be a
feature of one of its rules (so a target that does not claim the feature is never sent it).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

_CHUNK_KEYS = {
    "id",
    "object",
    "created",
    "model",
    "choices",
    "usage",
    "error",
    "provider",
    "system_fingerprint",
    "service_tier",
}
_ENTRY_KEYS = {"index", "delta", "finish_reason", "native_finish_reason", "logprobs"}
_DELTA_KEYS = {
    "role",
    "content",
    "refusal",
    "reasoning",
    "reasoning_content",
    "tool_calls",
    "annotations",
    "reasoning_details",
}
_FRAGMENT_KEYS = {"index", "id", "type", "function"}
_FUNCTION_KEYS = {"name", "arguments"}
_TEXTS = {
    "content": "text",
    "refusal": "refusal",
    "reasoning": "reasoning",
    "reasoning_content": "reasoning",
}
_PROVIDER_KEYS = ("provider", "system_fingerprint", "service_tier")

GOVERNING: dict[str, frozenset[str]] = {
    "chunk not an object": frozenset({"ROB-NOT-OBJECT"}),
    "null list entry": frozenset({"ROB-NULL-ENTRIES"}),
    "wrong type": frozenset({"ROB-WRONG-TYPE"}),
    "wrong-typed logprobs": frozenset({"LP-SKIP", "ROB-WRONG-TYPE"}),
    "unknown key": frozenset({"ROB-UNKNOWN-KEYS"}),
    "null or missing delta": frozenset({"CHOICE-DELTA-NULL"}),
    "blank envelope field": frozenset({"ENV-ID", "ENV-MODEL", "ENV-CREATED", "ROB-BLANK"}),
    "wrong-typed envelope field": frozenset(
        {"ENV-ID", "ENV-MODEL", "ENV-CREATED", "ROB-WRONG-TYPE"}
    ),
    "later envelope value": frozenset({"ENV-ID", "ENV-MODEL", "ENV-CREATED"}),
    "object not chat.completion.chunk": frozenset({"ENV-OBJECT"}),
    "error object": frozenset({"ENV-NO-ERROR", "LIFE-ERROR"}),
    "finish reason after error": frozenset(
        {"CHOICE-FINISH", "LIFE-ERROR", "LIFE-AFTER", "LIFE-FINISHED"}
    ),
    "blank finish reason": frozenset({"CHOICE-FINISH", "ROB-BLANK"}),
    "finish reason changed": frozenset({"CHOICE-FINISH"}),
    "blank role": frozenset({"CHOICE-ROLE", "ROB-BLANK"}),
    "role repeated": frozenset({"CHOICE-ROLE"}),
    "sparse choice index": frozenset({"CHOICE-KEY", "CHOICE-ORDER"}),
    "sparse tool index": frozenset({"TOOL-INDEX"}),
    "tool index opened out of order": frozenset({"TOOL-INDEX"}),
    "index-less tool fragment": frozenset({"TOOL-NO-INDEX"}),
    "new id on an index-less fragment": frozenset({"TOOL-NO-INDEX", "TOOL-2-NEW-ID"}),
    "integral float index": frozenset({"CHOICE-KEY", "ROB-WRONG-TYPE"}),
    "null identity on a continuation": frozenset(
        {"ROB-BLANK", "TOOL-3-RESEND", "TOOL-ADOPT-ID", "TOOL-NAME", "TOOL-TYPE"}
    ),
    "call without id": frozenset({"TOOL-ADOPT-ID"}),
    "blank tool id": frozenset({"TOOL-ADOPT-ID", "ROB-BLANK"}),
    "call without name": frozenset({"TOOL-NAME"}),
    "blank tool name": frozenset({"TOOL-NAME", "ROB-BLANK"}),
    "blank tool type": frozenset({"TOOL-TYPE", "ROB-BLANK"}),
    "identity repeated": frozenset({"TOOL-NAME", "TOOL-TYPE", "TOOL-ADOPT-ID", "TOOL-3-RESEND"}),
    "new id on an index": frozenset({"TOOL-2-NEW-ID", "TOOL-3-RESEND", "TOOL-4-SPLIT"}),
    "arguments after complete arguments": frozenset({"TOOL-3-RESEND", "TOOL-4-SPLIT"}),
    "one index twice in a chunk": frozenset({"TOOL-5-APPEND"}),
    "call without arguments": frozenset({"TOOL-EMPTY-ARGS"}),
    "usage more than once": frozenset({"USAGE-LAST"}),
    "provider field changed": frozenset({"PROV-LAST"}),
    "blank provider field": frozenset({"PROV-LAST", "ROB-BLANK"}),
    "index-less reasoning segment": frozenset({"RD-INDEXLESS"}),
}
"""Each kind of departure and the rules that decide its fold."""

_ROBUSTNESS = (
    "null list entry",
    "wrong type",
    "wrong-typed logprobs",
    "unknown key",
    "blank envelope field",
    "wrong-typed envelope field",
    "blank finish reason",
    "blank role",
    "blank tool id",
    "blank tool name",
    "blank tool type",
    "blank provider field",
    "null identity on a continuation",
    "chunk not an object",
    "integral float index",
    "object not chat.completion.chunk",
)
NEEDS: dict[str, str] = {
    **dict.fromkeys(_ROBUSTNESS, "robustness"),
    "index-less tool fragment": "tool_call_repair",
    "new id on an index": "tool_call_repair",
    "new id on an index-less fragment": "tool_call_repair",
    "arguments after complete arguments": "tool_call_repair",
    "call without arguments": "empty_arguments",
}
"""The feature a target must claim to be sent each kind of departure (the others are
governed by rules of the features that send them: a later finish reason, a repeated role,
a sparse tool index)."""


def departures(chunks: list[Any]) -> set[str]:
    """The kinds of departure from family 1 in one stream (keys of GOVERNING)."""
    found: set[str] = set()
    _Stream(found).read(chunks)
    return found


def features_used(chunks: list[Any]) -> set[str]:
    """The spec features a stream's values need (always "text")."""
    used = {"text"}
    indexes: set[int] = set()
    for chunk in (c for c in chunks if isinstance(c, dict)):
        if isinstance(chunk.get("usage"), dict):
            used.add("usage")
        if any(isinstance(chunk.get(key), str) for key in _PROVIDER_KEYS):
            used.add("provider_fields")
        for entry in _dicts(chunk.get("choices")):
            indexes.add(_choice_key(entry.get("index")))
            used |= _entry_features(entry)
    if len(indexes) > 1:
        used.add("choices")
    return used


def _entry_features(entry: dict[str, Any]) -> set[str]:
    used: set[str] = set()
    if isinstance(entry.get("logprobs"), dict):
        used.add("logprobs")
    if isinstance(entry.get("native_finish_reason"), str):
        used.add("provider_fields")
    delta = entry.get("delta")
    if not isinstance(delta, dict):
        return used
    used |= {feature for key, feature in _TEXTS.items() if isinstance(delta.get(key), str)}
    for key in ("tool_calls", "annotations", "reasoning_details"):
        if isinstance(delta.get(key), list):
            used.add(key)
    return used


def _choice_key(index: Any) -> int:
    """CHOICE-KEY: the choice an entry belongs to."""
    if isinstance(index, float) and index.is_integer():
        index = int(index)
    return index if isinstance(index, int) and not isinstance(index, bool) and index >= 0 else 0


def _dicts(value: Any) -> Iterator[dict[str, Any]]:
    return (
        (item for item in value if isinstance(item, dict)) if isinstance(value, list) else iter(())
    )


def _wrong_envelope_type(key: str, value: Any) -> bool:
    if key == "created":
        return isinstance(value, str | list | dict | bool)
    return value is not None and not isinstance(value, str)


def _blank(value: Any) -> bool:
    return not isinstance(value, str) or not value.strip()


class _Call:
    def __init__(self, fragment: dict[str, Any]) -> None:
        fragment_id = fragment.get("id")
        self.id = None if _blank(fragment_id) else fragment_id
        self.arguments = ""


class _Stream:
    """Reads a stream once, recording what departs from family 1."""

    def __init__(self, found: set[str]) -> None:
        self.found = found
        self.envelope: dict[str, Any] = {}
        self.finish: dict[Any, str] = {}
        self.roles: set[Any] = set()
        self.calls: dict[tuple[str, int], _Call] = {}
        self.usage_seen = False
        self.provider: dict[str, Any] = {}
        self.choices: set[int] = set()
        self.touched: dict[str, int] = {}

    def read(self, chunks: list[Any]) -> None:
        for chunk in chunks:
            if not isinstance(chunk, dict):
                self.found.add("chunk not an object")
                continue
            self._chunk(chunk)
        self._ends()

    def _chunk(self, chunk: dict[str, Any]) -> None:
        if set(chunk) - _CHUNK_KEYS:
            self.found.add("unknown key")
        self._envelope(chunk)
        if "error" in chunk:
            self.found.add("error object")
        if chunk.get("usage") is not None:
            if not isinstance(chunk["usage"], dict):
                self.found.add("wrong type")
            elif self.usage_seen:
                self.found.add("usage more than once")
            self.usage_seen = True
        for key in _PROVIDER_KEYS:
            self._provider(key, chunk.get(key))
        choices = chunk.get("choices")
        if not isinstance(choices, list):
            self.found.add("wrong type")
            return
        if any(not isinstance(entry, dict) for entry in choices):
            self.found.add("null list entry")
        for entry in _dicts(choices):
            self._entry(entry)

    def _envelope(self, chunk: dict[str, Any]) -> None:
        if chunk.get("object") != "chat.completion.chunk":
            self.found.add("object not chat.completion.chunk")
        for key in ("id", "model", "created"):
            value = chunk.get(key)
            if _wrong_envelope_type(key, value):
                self.found.add("wrong-typed envelope field")
            elif _blank(value) if key != "created" else not isinstance(value, int) or value <= 0:
                self.found.add("blank envelope field")
            elif self.envelope.setdefault(key, value) != value:
                self.found.add("later envelope value")

    def _provider(self, key: str, value: Any) -> None:
        if value is None:
            return
        if not isinstance(value, str):
            self.found.add("wrong type")
        elif _blank(value):
            self.found.add("blank provider field")
        elif self.provider.setdefault(key, value) != value:
            self.found.add("provider field changed")

    def _entry(self, entry: dict[str, Any]) -> None:
        if set(entry) - _ENTRY_KEYS:
            self.found.add("unknown key")
        index = entry.get("index")
        if isinstance(index, float) and index.is_integer():
            self.found.add("integral float index")
            index = int(index)
        if not isinstance(index, int) or isinstance(index, bool):
            self.found.add("wrong type")
        else:
            self.choices.add(index)
        self._finish(index, entry)
        logprobs = entry.get("logprobs")
        if logprobs is not None:
            self._logprobs(logprobs)
        delta = entry.get("delta")
        if not isinstance(delta, dict):
            self.found.add("null or missing delta" if delta is None else "wrong type")
            return
        self._delta(index, delta)

    def _finish(self, index: Any, entry: dict[str, Any]) -> None:
        if "finish_reason" not in entry or entry["finish_reason"] is None:
            return
        reason = entry["finish_reason"]
        if not isinstance(reason, str):
            self.found.add("wrong type")
            return
        if _blank(reason):
            self.found.add("blank finish reason")
            return
        previous = self.finish.setdefault(json.dumps(index), reason)
        if previous != reason:
            self.found.add(
                "finish reason after error" if previous == "error" else "finish reason changed"
            )
            self.finish[json.dumps(index)] = reason

    def _logprobs(self, logprobs: Any) -> None:
        if not isinstance(logprobs, dict):
            self.found.add("wrong-typed logprobs")
            return
        for key in ("content", "refusal"):
            value = logprobs.get(key)
            if value is not None and not isinstance(value, list):
                self.found.add("wrong-typed logprobs")
            elif isinstance(value, list) and any(not isinstance(e, dict) for e in value):
                self.found.add("null list entry")

    def _delta(self, index: Any, delta: dict[str, Any]) -> None:
        if set(delta) - _DELTA_KEYS:
            self.found.add("unknown key")
        if "role" in delta and delta["role"] is not None:
            if not isinstance(delta["role"], str):
                self.found.add("wrong type")
            elif _blank(delta["role"]):
                self.found.add("blank role")
            elif json.dumps(index) in self.roles:
                self.found.add("role repeated")
            self.roles.add(json.dumps(index))
        for key in _TEXTS:
            if delta.get(key) is not None and not isinstance(delta[key], str):
                self.found.add("wrong type")
        for key in ("annotations", "reasoning_details", "tool_calls"):
            value = delta.get(key)
            if value is not None and not isinstance(value, list):
                self.found.add("wrong type")
            elif isinstance(value, list) and any(not isinstance(e, dict) for e in value):
                self.found.add("null list entry")
        for segment in _dicts(delta.get("reasoning_details")):
            if (
                segment.get("type") in ("reasoning.text", "reasoning.summary")
                and "index" not in segment
            ):
                self.found.add("index-less reasoning segment")
        in_chunk: set[Any] = set()
        for fragment in _dicts(delta.get("tool_calls")):
            self._fragment(index, fragment, in_chunk)

    def _fragment(self, choice: Any, fragment: dict[str, Any], in_chunk: set[Any]) -> None:
        if set(fragment) - _FRAGMENT_KEYS:
            self.found.add("unknown key")
        index = self._tool_index(choice, fragment)
        if index in in_chunk and fragment.get("index") == index:
            self.found.add("one index twice in a chunk")
        in_chunk.add(index)
        function = fragment.get("function")
        if function is not None and not isinstance(function, dict):
            self.found.add("wrong type")
        function = function if isinstance(function, dict) else {}
        if set(function) - _FUNCTION_KEYS:
            self.found.add("unknown key")
        arguments = function.get("arguments")
        if arguments is not None and not isinstance(arguments, str):
            self.found.add("wrong type")
            arguments = None
        key = (json.dumps(choice), index)
        call = self.calls.get(key)
        if call is None:
            opened = [i for (c, i) in self.calls if c == key[0]]
            if opened and index < max(opened):
                self.found.add("tool index opened out of order")  # joined by value, not position
            self._opens(fragment, function)
            call = self.calls[key] = _Call(fragment)
        elif (
            arguments
            and _complete(call.arguments)
            and _complete(arguments)
            and not _new_id(call, fragment)
        ):
            self.found.add("arguments after complete arguments")  # a re-send or a split
            call.arguments = ""
        else:
            call = self._continues(call, key, fragment, function)
        call.arguments += arguments or ""

    def _tool_index(self, choice: Any, fragment: dict[str, Any]) -> int:
        """The fragment's index; TOOL-NO-INDEX's for one without a usable index."""
        index = fragment.get("index")
        if isinstance(index, int) and not isinstance(index, bool) and index >= 0:
            self.touched[json.dumps(choice)] = index
            return index
        self.found.add("index-less tool fragment")
        if "index" in fragment and index is not None:
            self.found.add("wrong type")
        return self.touched.get(json.dumps(choice), 0)

    def _opens(self, fragment: dict[str, Any], function: dict[str, Any]) -> None:
        for where, key, absent, blank in (
            (fragment, "id", "call without id", "blank tool id"),
            (function, "name", "call without name", "blank tool name"),
            (fragment, "type", None, "blank tool type"),
        ):
            if key not in where and absent:
                self.found.add(absent)
            elif key in where:
                self._identity(where[key], blank)

    def _identity(self, value: Any, blank: str) -> None:
        if value is not None and not isinstance(value, str):
            self.found.add("wrong type")
        elif _blank(value):
            self.found.add(blank)

    def _continues(
        self, call: _Call, key: tuple[str, int], fragment: dict[str, Any], function: dict[str, Any]
    ) -> _Call:
        if _new_id(call, fragment):
            indexless = not isinstance(fragment.get("index"), int)
            self.found.add(
                "new id on an index-less fragment" if indexless else "new id on an index"
            )
            self.calls[key] = _Call(fragment)
            return self.calls[key]
        for where, name, blank in (
            (fragment, "id", "blank tool id"),
            (function, "name", "blank tool name"),
            (fragment, "type", "blank tool type"),
        ):
            value = where.get(name)
            if name not in where:
                continue
            if value is None:
                self.found.add("null identity on a continuation")
            elif name == "id" and call.id is None:
                self._identity(value, blank)
                self.found.add("call without id")
                call.id = value if not _blank(value) else None
            else:
                self._identity(value, blank)
                if not _blank(value):
                    self.found.add("identity repeated")
        return call

    def _ends(self) -> None:
        if self.choices and self.choices != set(range(len(self.choices))):
            self.found.add("sparse choice index")
        for call in self.calls.values():
            if call.arguments == "":
                self.found.add("call without arguments")
        per_choice: dict[str, set[int]] = {}
        for choice, index in self.calls:
            per_choice.setdefault(choice, set()).add(index)
        for indexes in per_choice.values():
            if indexes != set(range(len(indexes))):
                self.found.add("sparse tool index")


def _new_id(call: _Call, fragment: dict[str, Any]) -> bool:
    """TOOL-2-NEW-ID: the fragment's non-blank id differs from the call's."""
    fragment_id = fragment.get("id")
    return (
        isinstance(fragment_id, str)
        and bool(fragment_id.strip())
        and call.id is not None
        and fragment_id != call.id
    )


def _complete(arguments: str) -> bool:
    try:
        return isinstance(json.loads(arguments), dict)
    except ValueError:
        return False
