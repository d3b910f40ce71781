"""A correct Anthropic Messages fold, the base every broken `anthropic_*.py` subclasses.

It folds Messages stream events into a Message as /work/shared/spec/anthropic-fold.md
says, identical to `refold.reference.anthropic` on every stream (standard library only,
plain JSON in and out), and decodes SSE bytes into events (`Decoder`). Each step is a
short method named after what it does, so that a broken example is this fold with one
method overridden: the method its defect lives in. A content block is a `Block`, named
on the accumulator (`Accumulator.Block`), so a defect in a block is an override of it.

Checked like any target: `refold check --target examples/broken/_anthropic_fold.py`.
"""

from __future__ import annotations

import codecs
import copy
import json

FEATURES = [
    "text",
    "tool_use",
    "server_tools",
    "thinking",
    "citations",
    "stop_details",
    "usage",
    "robustness",
    "lifecycle",
]
TOOL_TYPES = ("tool_use", "server_tool_use", "mcp_tool_use")
TOKEN_COUNTS = (
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
)
WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
JSON_WHITESPACE = " \t\n\r"
_UNSET = object()
DELTAS = {
    ("text", "text_delta"): ("text", str),
    ("text", "citations_delta"): ("citation", dict),
    ("thinking", "thinking_delta"): ("thinking", str),
    ("thinking", "signature_delta"): ("signature", str),
    **{(kind, "input_json_delta"): ("partial_json", str) for kind in TOOL_TYPES},
}
"""The delta types each block type is defined for, and the field each one carries."""


def nonblank(value):
    """A non-blank string, or None: blank types, ids and stop reasons count as absent."""
    return value if isinstance(value, str) and value.strip(WHITESPACE) else None


def json_index(value):
    """A non-negative JSON integer (1.0 counts, true does not), or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if value >= 0 else None


def json_object(value):
    """`value` when it is a JSON object, else None."""
    return value if isinstance(value, dict) else None


def whole_object(text):
    """The object `text` holds when it is one whole JSON object, else None."""
    text = text.strip(JSON_WHITESPACE)
    if not (text.startswith("{") and text.endswith("}")):
        return None
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _no_constant(name):
    raise ValueError(name)


def usable(key, value):
    """Whether a usage value replaces the folded one (a blank value does not)."""
    if key in TOKEN_COUNTS:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if key in ("server_tool_use", "cache_creation"):
        return isinstance(value, dict)
    if key == "service_tier":
        return nonblank(value) is not None
    return value is not None


class Block:
    """One content block: its start value and what its deltas added."""

    def __init__(self, start):
        self.start = start
        self.kind = nonblank(start.get("type"))
        first = start.get(self.kind) if self.kind in ("text", "thinking") else None
        self.text = [first] if isinstance(first, str) else []
        self.citations = []
        self.signature = None
        self.input = []

    def apply(self, delta_type, delta):
        """Apply one delta, when it is defined for this block's type and well typed."""
        field, of_type = DELTAS.get((self.kind, delta_type), (None, None))
        if field is None or not isinstance(delta.get(field), of_type):
            return
        value = delta[field]
        if delta_type == "signature_delta":
            self.add_signature(value)
        elif delta_type == "citations_delta":
            self.citations.append(value)
        elif delta_type == "input_json_delta":
            self.add_input(value)
        else:
            self.text.append(value)

    def add_signature(self, signature):
        """A signature replaces the earlier one."""
        self.signature = signature

    def add_input(self, partial_json):
        """Input fragments join; the whole is parsed once, on output."""
        self.input.append(partial_json)

    def output(self):
        block = copy.deepcopy(self.start)
        if self.kind in ("text", "thinking"):
            block[self.kind] = "".join(self.text)
        if self.citations:
            earlier = block.get("citations")
            block["citations"] = [
                *(earlier if isinstance(earlier, list) else []),
                *copy.deepcopy(self.citations),
            ]
        if self.signature is not None:
            block["signature"] = self.signature
        joined = "".join(self.input)
        if joined.strip(JSON_WHITESPACE):
            parsed = whole_object(joined)
            block["input"] = joined if parsed is None else parsed
        return block


class Accumulator:
    """Folds Anthropic Messages events into a Message, one event at a time."""

    Block = Block

    def __init__(self):
        self.message = None
        self.blocks = {}
        self.stop_reason = None
        self.stop_sequence = _UNSET
        self.stop_details = self.container = None
        self.usage = None
        self.stopped = False
        self.failure = None

    def add(self, event):
        if not isinstance(event, dict):
            raise TypeError(f"an event must be a JSON object, got {type(event).__name__}")
        if self.failure is not None or self.stopped:
            return
        kind = nonblank(event.get("type"))
        if kind == "error":
            self.failure = json_object(event.get("error")) or {}
        elif self.message is None:
            self.before_start(kind, event)
        elif kind == "content_block_start":
            self.block_start(event)
        elif kind == "content_block_delta":
            self.block_delta(event)
        elif kind == "message_delta":
            self.message_delta(event)
        elif kind == "message_stop":
            self.stopped = True

    def before_start(self, kind, event):
        """Before message_start only message_start counts; anything else is ignored."""
        if kind == "message_start":
            self.start(event)

    def start(self, event):
        message = json_object(event.get("message"))
        if message is None:
            return
        self.message = message
        content = message.get("content")
        for index, block in enumerate(content if isinstance(content, list) else []):
            self.open(index, block)
        self.stop_reason = nonblank(message.get("stop_reason"))
        if isinstance(message.get("usage"), dict):
            self.usage = dict(message["usage"])

    def block_start(self, event):
        """A content_block_start opens the block of its `index`."""
        index = json_index(event.get("index"))
        if index is not None:
            self.open(index, event.get("content_block"))

    def open(self, index, content_block):
        """A block opens once; a second start of its index changes nothing."""
        if isinstance(content_block, dict) and index not in self.blocks:
            self.blocks[index] = self.Block(content_block)

    def block_delta(self, event):
        """A delta goes to the open block of its `index`."""
        index = json_index(event.get("index"))
        block = None if index is None else self.blocks.get(index)
        delta = json_object(event.get("delta"))
        delta_type = None if delta is None else nonblank(delta.get("type"))
        if block is not None and delta_type is not None:
            block.apply(delta_type, delta)

    def message_delta(self, event):
        delta = json_object(event.get("delta"))
        if delta is not None:
            self.stop(delta)
            for key in ("stop_details", "container"):
                if isinstance(delta.get(key), dict):
                    setattr(self, key, delta[key])
        usage = json_object(event.get("usage"))
        for key, value in (usage or {}).items():
            if usable(key, value):
                self.replace_usage(key, value)

    def stop(self, delta):
        """A non-blank stop reason replaces the folded one, with its stop sequence."""
        reason = nonblank(delta.get("stop_reason"))
        if reason is not None:
            sequence = delta.get("stop_sequence")
            self.stop_reason = reason
            self.stop_sequence = sequence if isinstance(sequence, str) else None

    def replace_usage(self, key, value):
        """message_delta's usage values are cumulative: each replaces the folded one."""
        self.usage = {} if self.usage is None else self.usage
        self.usage[key] = value

    @property
    def finished(self):
        return self.stopped

    @property
    def error(self):
        return copy.deepcopy(self.failure)

    def response(self):
        if self.message is None:
            raise LookupError("no message_start has been folded yet")
        message = self.start_message()
        message["content"] = self.content()
        for key, default in (("type", "message"), ("role", "assistant")):
            if nonblank(message.get(key)) is None:
                message[key] = default
        message["stop_reason"] = self.stop_reason
        if self.stop_sequence is not _UNSET:
            message["stop_sequence"] = self.stop_sequence
        for key in ("stop_details", "container"):
            if getattr(self, key) is not None:
                message[key] = copy.deepcopy(getattr(self, key))
        message.pop("usage", None)
        if self.usage is not None:
            message["usage"] = copy.deepcopy(self.usage)
        return message

    def start_message(self):
        """A copy of message_start's message, what the fold builds on."""
        return copy.deepcopy(self.message)

    def content(self):
        """The blocks, in the order of their indexes."""
        return [self.blocks[i].output() for i in sorted(self.blocks)]


class Decoder:
    """SSE bytes in (pieces of any size), the events' JSON objects out (WHATWG framing)."""

    def decode(self, parts):
        text = codecs.getincrementaldecoder("utf-8")(errors="replace")
        whole = "".join(text.decode(part) for part in parts) + text.decode(b"", final=True)
        lines = whole.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
        events, data, name = [], [], None
        for line in lines.split("\n")[:-1]:  # an unterminated last line is discarded
            if line == "":
                if self.dispatches(data, name):
                    events.append(json.loads("\n".join(data)))
                data, name = [], None
            elif not line.startswith(":"):
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "data":
                    data.append(value)
                elif field == "event":
                    name = value
        return events

    def dispatches(self, data, name):
        """A frame is an event when its data is not blank, whatever its `event:` name."""
        return bool(data) and bool("\n".join(data).strip(JSON_WHITESPACE))


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_fold",
    "factory": Accumulator,
    "features": [*FEATURES, "sse"],
    "sse": Decoder().decode,
}
