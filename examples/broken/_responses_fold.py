"""A correct OpenAI Responses fold, the base every broken `responses_*.py` subclasses.

It folds Responses API events into a Response as /work/shared/spec/responses-fold.md says,
identical to `refold.reference.responses` on every stream (standard library only, plain
JSON in and out). Each step is a short method named after what it does, so that a broken
example is this fold with one method overridden: the method its defect lives in. An output
item is an `Item` and a content part a `Part`, named on the accumulator
(`Accumulator.Item`, `Accumulator.Part`), so a defect in one is an override of it.

Checked like any target: `refold check --target examples/broken/_responses_fold.py`.
"""

from __future__ import annotations

import copy

FEATURES = [
    "text",
    "tool_calls",
    "refusal",
    "reasoning",
    "annotations",
    "usage",
    "robustness",
    "lifecycle",
]
WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
LIFECYCLE = ("response.created", "response.queued", "response.in_progress")
TERMINALS = {
    "response.completed": "completed",
    "response.incomplete": "incomplete",
    "response.failed": "failed",
}
RECOVERED = {"completed": "completed", "incomplete": "incomplete", "failed": "incomplete"}
TEXT_KEYS = {
    "output_text": "text",
    "refusal": "refusal",
    "reasoning_text": "text",
    "summary_text": "text",
}
PLACEHOLDER_PARTS = {
    "output_text": {"type": "output_text", "text": "", "annotations": []},
    "refusal": {"type": "refusal", "refusal": ""},
    "reasoning_text": {"type": "reasoning_text", "text": ""},
    "summary_text": {"type": "summary_text", "text": ""},
}
PLACEHOLDER_ITEMS = {
    "message": {"role": "assistant", "content": []},
    "function_call": {"arguments": ""},
    "reasoning": {"summary": []},
}
HOSTED = {
    "web_search_call": ("in_progress", "searching", "completed"),
    "file_search_call": ("in_progress", "searching", "completed"),
    "code_interpreter_call": ("in_progress", "interpreting", "completed"),
    "code_interpreter_call_code": ("delta", "done"),
    "image_generation_call": ("in_progress", "generating", "partial_image", "completed"),
    "mcp_call": ("in_progress", "completed", "failed"),
    "mcp_call_arguments": ("delta", "done"),
    "mcp_list_tools": ("in_progress", "completed", "failed"),
    "custom_tool_call_input": ("delta", "done"),
}
HOSTED_ITEM = {
    "code_interpreter_call_code": "code_interpreter_call",
    "mcp_call_arguments": "mcp_call",
    "custom_tool_call_input": "custom_tool_call",
}
# event type -> (item types it fits, implied item type, list, index key, what it does, value key)
EVENTS = {
    "response.content_part.added": (
        ("message", "reasoning"),
        None,
        "content",
        "content_index",
        "open",
        "part",
    ),
    "response.content_part.done": (
        ("message", "reasoning"),
        None,
        "content",
        "content_index",
        "replace",
        "part",
    ),
    "response.output_text.delta": (
        ("message",),
        "message",
        "content",
        "content_index",
        "join:output_text",
        "delta",
    ),
    "response.output_text.done": (
        ("message",),
        "message",
        "content",
        "content_index",
        "set:output_text",
        "text",
    ),
    "response.output_text.annotation.added": (
        ("message",),
        "message",
        "content",
        "content_index",
        "annotate",
        "annotation",
    ),
    "response.refusal.delta": (
        ("message",),
        "message",
        "content",
        "content_index",
        "join:refusal",
        "delta",
    ),
    "response.refusal.done": (
        ("message",),
        "message",
        "content",
        "content_index",
        "set:refusal",
        "refusal",
    ),
    "response.reasoning_text.delta": (
        ("reasoning",),
        "reasoning",
        "content",
        "content_index",
        "join:reasoning_text",
        "delta",
    ),
    "response.reasoning_text.done": (
        ("reasoning",),
        "reasoning",
        "content",
        "content_index",
        "set:reasoning_text",
        "text",
    ),
    "response.reasoning_summary_part.added": (
        ("reasoning",),
        "reasoning",
        "summary",
        "summary_index",
        "open",
        "part",
    ),
    "response.reasoning_summary_part.done": (
        ("reasoning",),
        "reasoning",
        "summary",
        "summary_index",
        "replace",
        "part",
    ),
    "response.reasoning_summary_text.delta": (
        ("reasoning",),
        "reasoning",
        "summary",
        "summary_index",
        "join:summary_text",
        "delta",
    ),
    "response.reasoning_summary_text.done": (
        ("reasoning",),
        "reasoning",
        "summary",
        "summary_index",
        "set:summary_text",
        "text",
    ),
    "response.function_call_arguments.delta": (
        ("function_call",),
        "function_call",
        None,
        None,
        "args",
        "delta",
    ),
    "response.function_call_arguments.done": (
        ("function_call",),
        "function_call",
        None,
        None,
        "args_done",
        "arguments",
    ),
    **{
        f"response.{family}.{step}": ((), HOSTED_ITEM.get(family, family), None, None, "none", None)
        for family, steps in HOSTED.items()
        for step in steps
    },
}


def nonblank(value):
    """A string with a non-whitespace character, or None."""
    return value if isinstance(value, str) and value.strip(WHITESPACE) else None


def json_index(value):
    """A non-negative JSON integer (1.0 counts, true does not), or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if value >= 0 else None


def json_object(value):
    return value if isinstance(value, dict) else None


class Part:
    """One content or summary part: its fields as sent, its joined text, its annotations."""

    def __init__(self, fields):
        self.fields = fields
        key = TEXT_KEYS.get(nonblank(fields.get("type")) or "")
        self.text = None if key is None else self.first_text(fields.get(key))
        annotations = fields.get("annotations")
        self.annotations = list(annotations) if isinstance(annotations, list) else None
        self.text_closed = self.closed = False

    @staticmethod
    def first_text(value):
        return [value] if isinstance(value, str) else []

    @property
    def type(self):
        return nonblank(self.fields.get("type"))

    def reopen(self, fields):
        """A second part.added: its fields take over, what was streamed for a part of its
        type is kept; text streamed as another type never crosses (RS-REFUSAL)."""
        same = self.type == nonblank(fields.get("type"))
        self.fields = fields
        key = TEXT_KEYS.get(self.type or "")
        if not same or self.text is None or (not any(self.text) and key is not None):
            self.text = None if key is None else self.first_text(fields.get(key))
        annotations = fields.get("annotations")
        if not same:
            self.annotations = list(annotations) if isinstance(annotations, list) else None
        elif not self.annotations and isinstance(annotations, list):
            self.annotations = list(annotations)

    def join(self, fragment):
        """RS-TEXT-JOIN: a delta joins verbatim, until a .done set the text."""
        if self.text is not None and not self.text_closed and isinstance(fragment, str):
            self.text.append(fragment)

    def set_text(self, value):
        """RS-DONE-REPLACES: the .done value is the text."""
        if isinstance(value, str):
            self.text, self.text_closed = [value], True

    def annotate(self, position, annotation):
        """RS-ANNOTATIONS: at annotation_index, appended past the end."""
        found = json_object(annotation)
        if found is None or self.closed:
            return
        if self.annotations is None:
            self.annotations = []
        index = json_index(position)
        if index is not None and index < len(self.annotations):
            self.annotations[index] = found
        else:
            self.annotations.append(found)

    def replace(self, fields):
        """RS-DONE-REPLACES: content_part.done replaces the part."""
        self.fields, self.text, self.annotations = fields, None, None
        self.text_closed = self.closed = True

    def output(self):
        part = copy.deepcopy(self.fields)
        if self.text is not None:
            part[TEXT_KEYS.get(self.type or "", "text")] = "".join(self.text)
        if self.annotations is not None:
            part["annotations"] = copy.deepcopy(self.annotations)
        return part


class Item:
    """One output item: the announced (or placeholder) item, what was streamed, the done item."""

    Part = Part

    def __init__(self, base):
        self.base = base
        self.lists = {"content": {}, "summary": {}}
        self.arguments = self.first_text(base.get("arguments"))
        self.arguments_closed = False
        self.done_item = None
        self.seed(base)

    first_text = staticmethod(Part.first_text)

    @property
    def type(self):
        return nonblank(self.base.get("type"))

    def seed(self, base):
        for key, parts in self.lists.items():
            given = base.get(key)
            for index, fields in enumerate(given if isinstance(given, list) else []):
                if isinstance(fields, dict) and index not in parts:
                    parts[index] = self.Part(fields)

    def readd(self, base):
        """RS-READD: a later announcement takes over the identity, the stream is kept."""
        self.base = base
        self.seed(base)
        if not any(self.arguments) and not self.arguments_closed:
            self.arguments = self.first_text(base.get("arguments"))

    def part(self, lists, position, part_type):
        """The part an event of `part_type` applies to, opened when there is none."""
        index = json_index(position)
        if index is None:
            return None
        parts = self.lists[lists]
        if index not in parts:
            parts[index] = self.Part(copy.deepcopy(PLACEHOLDER_PARTS[part_type]))
        return parts[index] if parts[index].type == part_type else None

    def open_part(self, lists, position, fields):
        index, found = json_index(position), json_object(fields)
        if index is None or found is None:
            return
        parts = self.lists[lists]
        if index in parts:
            parts[index].reopen(found)
        else:
            parts[index] = self.Part(found)

    def replace_part(self, lists, position, fields):
        index, found = json_index(position), json_object(fields)
        if index is None or found is None:
            return
        self.lists[lists].setdefault(index, self.Part(found)).replace(found)

    def join_arguments(self, fragment):
        """RS-ARGS-JOIN: onto the announced arguments, verbatim."""
        if not self.arguments_closed and isinstance(fragment, str):
            self.arguments.append(fragment)

    def set_arguments(self, value):
        """RS-DONE-REPLACES: function_call_arguments.done sets them (RS-ARGS-RAW: raw)."""
        if isinstance(value, str):
            self.arguments, self.arguments_closed = [value], True

    def finish(self, item):
        """RS-ITEM-DONE-REPLACES."""
        self.done_item = item

    def streamed(self):
        """RS-RECOVER-FROM-DELTAS: the fields the events built, by the item's kind."""
        kind, fields = self.type, {}
        if kind == "function_call":
            fields["arguments"] = "".join(self.arguments)
        elif kind in ("message", "reasoning"):
            keys = ("content",) if kind == "message" else ("summary", "content")
            for key in keys:
                parts = self.lists[key]
                if parts or isinstance(self.base.get(key), list):
                    fields[key] = [parts[i].output() for i in sorted(parts)]
        return fields

    def output(self, status):
        if self.done_item is not None:
            return copy.deepcopy(self.done_item)
        streamed = self.streamed()
        item = {
            key: streamed.pop(key) if key in streamed else copy.deepcopy(value)
            for key, value in self.base.items()
        }
        item.update(streamed)
        current = item.get("status")
        if status is not None and (nonblank(current) is None or current == "in_progress"):
            item["status"] = status  # RS-RECOVER-STATUS
        return item


class Accumulator:
    """Folds the events of one streamed Response, in arrival order."""

    Item = Item

    def __init__(self):
        self.folded = 0
        self.latest = None
        self.fill = {}
        self.terminal = None
        self.terminal_status = ""
        self.terminal_fill = {}
        self.items = {}
        self.announced = {}

    def add(self, event):
        if not isinstance(event, dict):
            raise TypeError(f"an event must be a JSON object, got {type(event).__name__}")
        self.folded += 1
        kind = event.get("type")
        if not isinstance(kind, str):
            return
        if kind in LIFECYCLE:
            self.on_lifecycle(event.get("response"))
        elif kind in TERMINALS:
            self.on_terminal(kind, event.get("response"))
        elif kind == "response.output_item.added":
            self.on_added(event)
        elif kind == "response.output_item.done":
            self.on_done(event)
        elif kind in EVENTS:
            self.on_item_event(event, EVENTS[kind])

    @property
    def finished(self):
        return self.terminal is not None

    def on_lifecycle(self, response):
        if isinstance(response, dict):
            self.latest = response
            self.fill.update({k: v for k, v in response.items() if v is not None})

    def on_terminal(self, kind, response):
        """RS-TERMINAL-REPEAT: a later terminal replaces the earlier one whole."""
        if isinstance(response, dict):
            self.terminal, self.terminal_status = response, TERMINALS[kind]
            self.terminal_fill = dict(self.fill)

    def on_added(self, event):
        index, item = json_index(event.get("output_index")), json_object(event.get("item"))
        if index is None or item is None:
            return  # RS-NULL-ITEM
        if index in self.items:
            self.items[index].readd(item)
        else:
            self.items[index] = self.Item(item)
        item_id = nonblank(item.get("id"))
        if item_id is not None:
            self.announced[item_id] = index

    def on_done(self, event):
        item = json_object(event.get("item"))
        if item is not None:
            held = self.held(event, item.get("id"), nonblank(item.get("type")))
            if held is not None:
                held.finish(item)

    def held(self, event, item_id, implied):
        """RS-ROUTE: an announced id wins, else the output_index; RS-ORPHAN opens one."""
        known = nonblank(item_id)
        index = self.announced.get(known) if known is not None else None
        if index is None:
            index = json_index(event.get("output_index"))
        if index is None:
            return None
        if index not in self.items:
            self.items[index] = self.Item(self.placeholder(implied, item_id))
        return self.items[index]

    @staticmethod
    def placeholder(item_type, item_id):
        item = {} if item_type is None else {"type": item_type}
        if nonblank(item_id) is not None:
            item["id"] = item_id
        item["status"] = "in_progress"
        item.update(copy.deepcopy(PLACEHOLDER_ITEMS.get(item_type or "", {})))
        return item

    def on_item_event(self, event, spec):
        kinds, implied, lists, index_key, action, value_key = spec
        if implied is None:
            part = json_object(event.get("part"))
            implied = (
                "reasoning"
                if part is not None and part.get("type") == "reasoning_text"
                else "message"
            )
        held = self.held(event, event.get("item_id"), implied)
        if held is not None and held.type in kinds:
            self.apply(held, event, lists, index_key, action, value_key)

    def apply(self, item, event, lists, index_key, action, value_key):
        value = event.get(value_key) if value_key else None
        verb, _, part_type = action.partition(":")
        if verb == "open":
            item.open_part(lists, event.get(index_key), value)
        elif verb == "replace":
            item.replace_part(lists, event.get(index_key), value)
        elif verb == "args":
            item.join_arguments(value)
        elif verb == "args_done":
            item.set_arguments(value)
        elif verb in ("join", "set", "annotate"):
            part_type = part_type or "output_text"
            part = item.part(lists, event.get(index_key), part_type)
            if part is None:
                return
            if verb == "join":
                part.join(value)
            elif verb == "set":
                part.set_text(value)
            else:
                part.annotate(event.get("annotation_index"), value)

    def streamed_output(self, status):
        """RS-OUTPUT-ORDER: by ascending output_index."""
        return [self.items[i].output(status) for i in sorted(self.items)]

    def response(self):
        if not self.folded:
            raise ValueError("LIFE-RS-EMPTY: no event has been folded yet")
        if self.terminal is None:
            return self.snapshot()
        response = {k: copy.deepcopy(v) for k, v in self.terminal.items() if k != "output"}
        if nonblank(response.get("status")) is None:
            response["status"] = self.terminal_status
        for key, value in self.terminal_fill.items():
            if key != "output" and response.get(key) is None:
                response[key] = copy.deepcopy(value)  # RS-ENV-FILL
        response["object"] = "response"
        response["output"] = self.output()
        return response

    def output(self):
        """RS-OUTPUT-TERMINAL, else RS-OUTPUT-RECOVER."""
        output = self.terminal.get("output")
        if isinstance(output, list) and output:
            return copy.deepcopy(output)
        return self.streamed_output(RECOVERED[self.terminal_status])

    def snapshot(self):
        """LIFE-RS-SNAPSHOT."""
        latest = self.latest
        response = (
            {"object": "response", "status": "in_progress"}
            if latest is None
            else {k: copy.deepcopy(v) for k, v in latest.items() if k != "output"}
        )
        response["object"] = "response"
        response["output"] = self.streamed_output(None)
        return response


refold_target = {
    "dialect": "openai-responses",
    "name": "responses_fold",
    "factory": Accumulator,
    "features": FEATURES,
}
