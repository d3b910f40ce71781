"""A correct chat fold, the base every broken chat accumulator of this folder subclasses.

It folds chat.completion.chunk objects into a chat.completion as
/work/shared/spec/chat-fold.md says (standard library only, plain JSON in and out). Each
step is a short method named after what it does, so that a broken example is this fold
with one method overridden: the method its bug lives in. The parts are class attributes
(`Accumulator.Choice`, `Accumulator.Call`), so a bug in a choice or a call is an
override of that part, named on the accumulator.

Checked like any target: `refold check --target examples/broken/_chat_fold.py`.
"""

from __future__ import annotations

import copy
import json

FEATURES = [
    "text",
    "choices",
    "tool_calls",
    "tool_call_repair",
    "empty_arguments",
    "refusal",
    "reasoning",
    "annotations",
    "logprobs",
    "usage",
    "provider_fields",
    "robustness",
    "lifecycle",
]
TEXT_FIELDS = ("content", "refusal", "reasoning", "reasoning_content")


def nonblank(value):
    """A non-blank string, or None: blank ids, names, roles and reasons count as absent."""
    return value if isinstance(value, str) and value.strip() else None


def json_index(value):
    """A non-negative JSON integer (1.0 counts, true does not), or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if value >= 0 else None


def whole_object(arguments):
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


def fragment_of(entry):
    """A tool-call entry's id, type, name and argument text (None where absent)."""
    function = entry.get("function")
    function = function if isinstance(function, dict) else {}
    arguments = function.get("arguments")
    return {
        "id": nonblank(entry.get("id")),
        "type": nonblank(entry.get("type")),
        "name": nonblank(function.get("name")),
        "arguments": arguments if isinstance(arguments, str) else None,
    }


def resent(fragment, current):
    """The whole arguments again, with the call's id (or with no id and no name)."""
    if fragment["id"]:
        return fragment["id"] == current.id
    return fragment["name"] is None and whole_object(fragment["arguments"]) == whole_object(
        current.arguments
    )


class Call:
    """One tool call: its first id, type and name, and its argument text joined."""

    def __init__(self, fragment):
        self.id, self.type, self.name = fragment["id"], fragment["type"], fragment["name"]
        self.arguments = fragment["arguments"] or ""

    def append(self, fragment):
        """More of this call: the first id, type and name stay, argument text joins."""
        self.id = self.id or fragment["id"]
        self.type = self.type or fragment["type"]
        self.name = self.name or fragment["name"]
        self.arguments += fragment["arguments"] or ""

    def arguments_out(self, finished):
        """The argument text; a call that got none reads `{}` once the stream finished."""
        return "{}" if finished and not self.arguments else self.arguments

    def output(self, finished):
        return {
            "id": self.id,
            "type": self.type or "function",
            "function": {"name": self.name, "arguments": self.arguments_out(finished)},
        }


class Choice:
    """One choice, keyed by its `index`: role, texts, tool calls, annotations, logprobs."""

    def __init__(self, index, new_call):
        self.index = index
        self.new_call = new_call
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
        self.add_finish_reason(entry)
        self.add_logprobs(entry.get("logprobs"))
        delta = entry.get("delta")
        if not isinstance(delta, dict):
            return
        self.add_role(delta)
        for key in TEXT_FIELDS:
            if isinstance(delta.get(key), str):
                self.text[key] = self.text.get(key, "") + delta[key]
        if isinstance(delta.get("annotations"), list):
            self.annotations = (self.annotations or []) + [
                a for a in delta["annotations"] if isinstance(a, dict)
            ]
        if isinstance(delta.get("tool_calls"), list):
            for tool_entry in delta["tool_calls"]:
                if isinstance(tool_entry, dict):
                    self.add_tool_call(tool_entry)

    def add_finish_reason(self, entry):
        """The last non-blank finish reason wins; a blank one changes nothing."""
        self.finish_reason = nonblank(entry.get("finish_reason")) or self.finish_reason
        self.native_finish_reason = (
            nonblank(entry.get("native_finish_reason")) or self.native_finish_reason
        )

    def add_role(self, delta):
        """The first non-blank role is the choice's."""
        self.role = self.role or nonblank(delta.get("role"))

    def add_tool_call(self, entry):
        index = json_index(entry.get("index"))
        index = self.last_tool_index if index is None else index
        self.last_tool_index = index
        fragment = fragment_of(entry)
        calls = self.calls.setdefault(index, [])
        if calls:
            self.continue_calls(calls, fragment)
        else:
            calls.append(self.new_call(fragment))

    def continue_calls(self, calls, fragment):
        """A fragment on an index that has calls: a new call, a re-send, or more text."""
        current = calls[-1]
        if fragment["id"] and current.id and fragment["id"] != current.id:
            calls.append(self.new_call(fragment))  # several calls share one index
        elif (
            whole_object(fragment["arguments"] or "") is not None
            and whole_object(current.arguments) is not None
        ):
            if not resent(fragment, current):
                calls.append(self.new_call(fragment))  # a second whole object: a new call
        else:
            current.append(fragment)

    def add_logprobs(self, logprobs):
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
        calls = [
            call.output(finished) for index in sorted(self.calls) for call in self.calls[index]
        ]
        if calls:
            message["tool_calls"] = calls
        if self.annotations is not None:
            message["annotations"] = self.annotations
        choice = {
            "index": self.index,
            "message": message,
            "finish_reason": self.finish_reason,
            "logprobs": self.logprobs,
        }
        if self.native_finish_reason:
            choice["native_finish_reason"] = self.native_finish_reason
        return copy.deepcopy(choice)


class Accumulator:
    """Folds chat.completion.chunk objects into a chat.completion, one chunk at a time."""

    Choice = Choice
    Call = Call

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
        self.add_envelope(chunk)
        self.add_usage(chunk)
        self.add_choices(chunk.get("choices"))

    def add_envelope(self, chunk):
        """The first non-blank id, model and created; the last provider fields."""
        for key in ("id", "model"):
            self.envelope.setdefault(key, nonblank(chunk.get(key)))
            self.envelope[key] = self.envelope[key] or nonblank(chunk.get(key))
        created = chunk.get("created")
        if not self.envelope.get("created") and json_index(created):
            self.envelope["created"] = json_index(created)
        for key in ("provider", "system_fingerprint", "service_tier"):
            self.provider[key] = nonblank(chunk.get(key)) or self.provider.get(key)

    def add_usage(self, chunk):
        """The last usage object wins; a chunk without one changes nothing."""
        if isinstance(chunk.get("usage"), dict):
            self.usage = chunk["usage"]

    def add_choices(self, choices):
        """Each entry goes to the choice of its `index`; entries that are not objects are
        skipped."""
        for entry in choices if isinstance(choices, list) else []:
            if isinstance(entry, dict):
                self.choice(json_index(entry.get("index")) or 0).add(entry)

    def choice(self, index):
        """The choice of `index`, opened on first sight."""
        if index not in self.choices:
            self.choices[index] = self.Choice(index, self.Call)
        return self.choices[index]

    @property
    def finished(self):
        return self.done or (bool(self.choices) and all(c.finished for c in self.choices.values()))

    def mark_done(self):
        self.done = True

    def response(self):
        if not self.folded:
            raise LookupError("no chunk has been added yet")
        finished = self.finished
        response = {
            "id": self.envelope.get("id"),
            "object": "chat.completion",
            "created": self.envelope.get("created"),
            "model": self.envelope.get("model"),
            **{k: v for k, v in self.provider.items() if v},
            "choices": [self.choices[i].output(finished) for i in sorted(self.choices)],
        }
        if self.usage is not None:
            response["usage"] = copy.deepcopy(self.usage)
        return response


refold_target = {
    "name": "chat_fold",
    "factory": Accumulator,
    "features": FEATURES,
}
