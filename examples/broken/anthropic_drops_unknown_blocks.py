"""Broken on purpose: a block whose type it does not know is dropped, so the blocks after
it move up one place.

Modelled on: AQ21 (case 22): litellm 1.110.2 drops the unknown block (its
chunk parser has no field for it); @ai-sdk/anthropic 3.0.140 fails validation instead.
Known here: the block union of anthropic-python 2.14.0 `types/content_block.py`, plus
`mcp_tool_use`.
Evidence: /work/shared/research/anthropic-fold.md (AQn, §n; cases and
experiments are its §4 probe).
Breaks: AM-UNKNOWN-BLOCK, AM-RESULT-AS-SENT.
"""

from __future__ import annotations

import copy
import json

FEATURES = [
    "text", "tool_use", "server_tools", "thinking", "citations", "stop_details", "usage",
    "robustness", "lifecycle",
]
TOOL_TYPES = ("tool_use", "server_tool_use", "mcp_tool_use")
WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
JSON_WHITESPACE = " \t\n\r"
_UNSET = object()
KNOWN_BLOCKS = (
    "text", "thinking", "redacted_thinking", *TOOL_TYPES, "web_search_tool_result",
    "web_fetch_tool_result", "code_execution_tool_result",
    "bash_code_execution_tool_result", "text_editor_code_execution_tool_result",
    "tool_search_tool_result", "container_upload",
)
DELTAS = {
    ("text", "text_delta"): ("text", str),
    ("text", "citations_delta"): ("citation", dict),
    ("thinking", "thinking_delta"): ("thinking", str),
    ("thinking", "signature_delta"): ("signature", str),
    **{(kind, "input_json_delta"): ("partial_json", str) for kind in TOOL_TYPES},
}
"""The delta types each block type is defined for, and the field each one carries."""


def _string(value):
    """A non-blank string, or None: blank types, ids and stop reasons count as absent."""
    return value if isinstance(value, str) and value.strip(WHITESPACE) else None


def _index(value):
    """A non-negative JSON integer (1.0 counts, true does not), or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if value >= 0 else None


def _object(value):
    return value if isinstance(value, dict) else None


def _complete(text):
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


def _usable(key, value):
    """Whether a usage value replaces the folded one (a blank value does not)."""
    if key in ("input_tokens", "output_tokens", "cache_creation_input_tokens",
               "cache_read_input_tokens"):
        return isinstance(value, int | float) and not isinstance(value, bool)
    if key in ("server_tool_use", "cache_creation"):
        return isinstance(value, dict)
    if key == "service_tier":
        return _string(value) is not None
    return value is not None


class _Block:
    """One content block: its start value and what its deltas added."""

    def __init__(self, start):
        self.start = start
        self.kind = _string(start.get("type"))
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
            self.signature = value
        elif delta_type == "citations_delta":
            self.citations.append(value)
        elif delta_type == "input_json_delta":
            self.input.append(value)
        else:
            self.text.append(value)

    def output(self):
        block = copy.deepcopy(self.start)
        if self.kind in ("text", "thinking"):
            block[self.kind] = "".join(self.text)
        if self.citations:
            earlier = block.get("citations")
            block["citations"] = [*(earlier if isinstance(earlier, list) else []),
                                  *copy.deepcopy(self.citations)]
        if self.signature is not None:
            block["signature"] = self.signature
        joined = "".join(self.input)
        if joined.strip(JSON_WHITESPACE):
            parsed = _complete(joined)
            block["input"] = joined if parsed is None else parsed
        return block


class Accumulator:
    """Folds Anthropic Messages events into a Message, one event at a time."""

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
        kind = _string(event.get("type"))
        if kind == "error":
            self.failure = _object(event.get("error")) or {}
        elif self.message is None:
            if kind == "message_start":
                self._start(event)
        elif kind == "content_block_start":
            index = _index(event.get("index"))
            if index is not None:
                self._open(index, event.get("content_block"))
        elif kind == "content_block_delta":
            self._delta(event)
        elif kind == "message_delta":
            self._message_delta(event)
        elif kind == "message_stop":
            self.stopped = True

    def _start(self, event):
        message = _object(event.get("message"))
        if message is None:
            return
        self.message = message
        content = message.get("content")
        for index, block in enumerate(content if isinstance(content, list) else []):
            self._open(index, block)
        self.stop_reason = _string(message.get("stop_reason"))
        if isinstance(message.get("usage"), dict):
            self.usage = dict(message["usage"])

    def _open(self, index, content_block):
        if isinstance(content_block, dict) and content_block.get("type") not in KNOWN_BLOCKS:
            return  # the bug: an unknown block is dropped instead of kept
        if isinstance(content_block, dict) and index not in self.blocks:
            self.blocks[index] = _Block(content_block)

    def _delta(self, event):
        index = _index(event.get("index"))
        block = None if index is None else self.blocks.get(index)
        delta = _object(event.get("delta"))
        delta_type = None if delta is None else _string(delta.get("type"))
        if block is not None and delta_type is not None:
            block.apply(delta_type, delta)

    def _message_delta(self, event):
        delta = _object(event.get("delta"))
        if delta is not None:
            reason = _string(delta.get("stop_reason"))
            if reason is not None:
                sequence = delta.get("stop_sequence")
                self.stop_reason = reason
                self.stop_sequence = sequence if isinstance(sequence, str) else None
            for key in ("stop_details", "container"):
                if isinstance(delta.get(key), dict):
                    setattr(self, key, delta[key])
        usage = _object(event.get("usage"))
        for key, value in (usage or {}).items():
            if _usable(key, value):
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
        message = copy.deepcopy(self.message)
        message["content"] = [self.blocks[i].output() for i in sorted(self.blocks)]
        for key, default in (("type", "message"), ("role", "assistant")):
            if _string(message.get(key)) is None:
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


refold_target = {
    "dialect": "anthropic-messages",
    "name": "anthropic_drops_unknown_blocks",
    "factory": Accumulator,
    "features": FEATURES,
}
