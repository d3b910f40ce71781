"""Broken on purpose: every repeated string is concatenated, as openai-python's generic
`accumulate_delta` does (str + str -> concatenation, for `role`, tool `id` and
`function.name` as well as for text).

Source: /work/shared/research/fold-semantics.md §1.1 and Q6, Q8 (Ollama and Fireworks
repeat role/id/name on every fragment; openai-python folds `assistantassistant`,
`call_1call_1`, `searchsearch`).
Breaks: CHOICE-ROLE, TOOL-NAME, TOOL-5-APPEND (a repeated id no longer matches the
concatenated one, so the next fragment starts a new call instead of appending).
"""

from __future__ import annotations

import copy
import json

FEATURES = [
    "text", "choices", "tool_calls", "tool_call_repair", "empty_arguments", "refusal",
    "reasoning", "annotations", "logprobs", "usage", "provider_fields", "robustness",
    "lifecycle",
]
TEXT_FIELDS = ("content", "refusal", "reasoning", "reasoning_content")


def _string(value):
    """A non-blank string, or None: blank ids, names, roles and reasons count as absent."""
    return value if isinstance(value, str) and value.strip() else None


def _index(value):
    """A non-negative JSON integer (1.0 counts, true does not), or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if value >= 0 else None


def _complete(arguments):
    """The object `arguments` holds when they are one whole JSON object, else None."""
    text = arguments.strip(" \t\n\r")
    if not (text.startswith("{") and text.endswith("}")):
        return None
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _no_constant(name):
    raise ValueError(name)


class _Call:
    def __init__(self, fragment):
        self.id, self.type, self.name = fragment["id"], fragment["type"], fragment["name"]
        self.arguments = fragment["arguments"] or ""

    def append(self, fragment):
        self.id = (self.id or "") + (fragment["id"] or "") or None
        self.type = self.type or fragment["type"]
        self.name = (self.name or "") + (fragment["name"] or "") or None
        self.arguments += fragment["arguments"] or ""

    def output(self, finished):
        arguments = "{}" if finished and not self.arguments else self.arguments
        return {"id": self.id, "type": self.type or "function",
                "function": {"name": self.name, "arguments": arguments}}


def _fragment(entry):
    function = entry.get("function")
    function = function if isinstance(function, dict) else {}
    arguments = function.get("arguments")
    return {"id": _string(entry.get("id")), "type": _string(entry.get("type")),
            "name": _string(function.get("name")),
            "arguments": arguments if isinstance(arguments, str) else None}


class _Choice:
    def __init__(self, index):
        self.index = index
        self.role = self.finish_reason = self.native_finish_reason = None
        self.text = {}
        self.calls = {}  # tool index -> list of calls, the current one last
        self.last_tool_index = 0
        self.annotations = None
        self.logprobs = None

    @property
    def finished(self):
        return self.finish_reason not in (None, "error")

    def add(self, entry):
        self.finish_reason = _string(entry.get("finish_reason")) or self.finish_reason
        self.native_finish_reason = (_string(entry.get("native_finish_reason"))
                                     or self.native_finish_reason)
        self._add_logprobs(entry.get("logprobs"))
        delta = entry.get("delta")
        if not isinstance(delta, dict):
            return
        if isinstance(delta.get("role"), str):
            self.role = (self.role or "") + delta["role"]
        for key in TEXT_FIELDS:
            if isinstance(delta.get(key), str):
                self.text[key] = self.text.get(key, "") + delta[key]
        if isinstance(delta.get("annotations"), list):
            self.annotations = (self.annotations or []) + [
                a for a in delta["annotations"] if isinstance(a, dict)]
        if isinstance(delta.get("tool_calls"), list):
            for tool_entry in delta["tool_calls"]:
                if isinstance(tool_entry, dict):
                    self._add_tool_call(tool_entry)

    def _add_tool_call(self, entry):
        index = _index(entry.get("index"))
        index = self.last_tool_index if index is None else index
        self.last_tool_index = index
        fragment = _fragment(entry)
        calls = self.calls.setdefault(index, [])
        if not calls:
            calls.append(_Call(fragment))
            return
        current = calls[-1]
        if fragment["id"] and current.id and fragment["id"] != current.id:
            calls.append(_Call(fragment))  # several calls share one index
        elif _complete(fragment["arguments"] or "") is not None and _complete(
                current.arguments) is not None:
            if not _resent(fragment, current):
                calls.append(_Call(fragment))  # a second whole object: a new call
        else:
            current.append(fragment)

    def _add_logprobs(self, logprobs):
        if not isinstance(logprobs, dict):
            return
        self.logprobs = self.logprobs or {"content": [], "refusal": None}
        for key in ("content", "refusal"):
            if isinstance(logprobs.get(key), list):
                entries = [e for e in logprobs[key] if isinstance(e, dict)]
                if entries or key == "content":
                    self.logprobs[key] = (self.logprobs[key] or []) + entries

    def output(self, finished):
        message = {"role": self.role or "assistant", "content": None}
        message.update({key: text for key, text in self.text.items() if text})
        calls = [call.output(finished) for index in sorted(self.calls)
                 for call in self.calls[index]]
        if calls:
            message["tool_calls"] = calls
        if self.annotations is not None:
            message["annotations"] = self.annotations
        choice = {"index": self.index, "message": message,
                  "finish_reason": self.finish_reason, "logprobs": self.logprobs}
        if self.native_finish_reason:
            choice["native_finish_reason"] = self.native_finish_reason
        return copy.deepcopy(choice)


def _resent(fragment, current):
    """The whole arguments again, with the call's id (or with no id and no name)."""
    if fragment["id"]:
        return fragment["id"] == current.id
    return fragment["name"] is None and _complete(fragment["arguments"]) == _complete(
        current.arguments)


class Accumulator:
    """Folds chat.completion.chunk objects into a chat.completion, one chunk at a time."""

    def __init__(self):
        self.envelope = {}
        self.provider = {}
        self.choices = {}
        self.usage = None
        self.folded = 0
        self.done = False

    def add(self, chunk):
        if not isinstance(chunk, dict):
            raise TypeError(f"a chunk must be a JSON object, got {type(chunk).__name__}")
        self.folded += 1
        for key in ("id", "model"):
            self.envelope.setdefault(key, _string(chunk.get(key)))
            self.envelope[key] = self.envelope[key] or _string(chunk.get(key))
        created = chunk.get("created")
        if not self.envelope.get("created") and _index(created):
            self.envelope["created"] = _index(created)
        for key in ("provider", "system_fingerprint", "service_tier"):
            self.provider[key] = _string(chunk.get(key)) or self.provider.get(key)
        if isinstance(chunk.get("usage"), dict):
            self.usage = chunk["usage"]
        choices = chunk.get("choices")
        for entry in choices if isinstance(choices, list) else []:
            if isinstance(entry, dict):
                index = _index(entry.get("index")) or 0
                self.choices.setdefault(index, _Choice(index)).add(entry)

    @property
    def finished(self):
        return self.done or (bool(self.choices)
                             and all(c.finished for c in self.choices.values()))

    def mark_done(self):
        self.done = True

    def response(self):
        if not self.folded:
            raise LookupError("no chunk has been added yet")
        finished = self.finished
        response = {"id": self.envelope.get("id"), "object": "chat.completion",
                    "created": self.envelope.get("created"), "model": self.envelope.get("model"),
                    **{k: v for k, v in self.provider.items() if v},
                    "choices": [self.choices[i].output(finished) for i in sorted(self.choices)]}
        if self.usage is not None:
            response["usage"] = copy.deepcopy(self.usage)
        return response


refold_target = {
    "name": "concatenate_repeated_strings",
    "factory": Accumulator,
    "features": FEATURES,
}
