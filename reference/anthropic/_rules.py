"""The AM rules registry: every rule id of the anthropic-fold spec, its feature, its statement.

Same form as the chat registry (`refold.reference.chat.RULES`): ids are the stable keys that
suites, reports and baselines use. The ids are `AM-` prefixed so that they never collide
with chat rule ids in a report covering both dialects.
"""

from __future__ import annotations

from .._rules import Rule

__all__ = ["FEATURES", "RULES"]

FEATURES: tuple[str, ...] = (
    "text",
    "tool_use",
    "server_tools",
    "thinking",
    "citations",
    "stop_details",
    "usage",
    "robustness",
    "lifecycle",
    "sse",
)
"""The spec's closed feature vocabulary, in the spec's order. `text` is required of every target."""

_TABLE: tuple[tuple[str, str, str], ...] = (
    # Envelope
    (
        "AM-START-BASE",
        "text",
        "The Message starts as a copy of the first message_start's `message`, every key kept; "
        "`content` becomes the folded blocks.",
    ),
    (
        "AM-START-CONTENT",
        "text",
        "Blocks in message_start.message.content are the first blocks, at indexes 0..n-1, and "
        "its stop_reason stands unless a message_delta replaces it.",
    ),
    ("AM-START-ONCE", "text", "Only the first message_start counts; a later one is ignored."),
    (
        "AM-TYPE-ROLE",
        "text",
        '`type` is "message" and `role` is "assistant" when message_start left them blank.',
    ),
    (
        "AM-BEFORE-START",
        "text",
        "Events before the first message_start change nothing and never raise, except error; "
        "a message_start whose message is not an object starts nothing.",
    ),
    # Content blocks
    (
        "AM-BLOCK-OPEN",
        "text",
        "content_block_start with a non-negative integer index opens that block as a copy of "
        "`content_block`, every key kept.",
    ),
    (
        "AM-BLOCK-ORDER",
        "text",
        "Output content lists the blocks by ascending index; a gap in the indexes is closed up.",
    ),
    (
        "AM-BLOCK-REOPEN",
        "text",
        "A content_block_start for an index that already holds a block is ignored (first wins).",
    ),
    (
        "AM-DELTA-ROUTE",
        "text",
        "A content_block_delta applies to the block at its `index`; a delta for an index "
        "holding no block is ignored.",
    ),
    (
        "AM-DELTA-MATCH",
        "text",
        "A delta applies only to the block types it is defined for; any other pairing is ignored.",
    ),
    (
        "AM-BLOCK-STOP",
        "text",
        "content_block_stop carries no data; an unstopped block is still part of the Message, "
        "and a delta after its block's stop still applies.",
    ),
    # Text and citations
    (
        "AM-TEXT-JOIN",
        "text",
        'A text block\'s text is its start text ("" when blank) followed by every '
        "text_delta.text, verbatim.",
    ),
    (
        "AM-CITATIONS-APPEND",
        "citations",
        "Each citations_delta.citation is appended to the block's citations, in arrival order, "
        "after the start event's.",
    ),
    # Tool use
    (
        "AM-TOOL-JOIN",
        "tool_use",
        "partial_json strings are joined verbatim; a non-empty joined input is parsed once, "
        "as a whole, into `input`.",
    ),
    (
        "AM-TOOL-NO-DELTA",
        "tool_use",
        "When the joined input is empty, `input` is the start's; otherwise the start's input "
        "is replaced, never merged.",
    ),
    (
        "AM-TOOL-INVALID",
        "tool_use",
        "A non-empty joined input that is not complete input is kept as `input`, raw and "
        "untrimmed, as a string.",
    ),
    (
        "AM-TOOL-IDENTITY",
        "tool_use",
        "`id`, `name` and every other key of the start event are kept as sent; deltas never "
        "change them.",
    ),
    (
        "AM-SERVER-TOOL",
        "server_tools",
        "server_tool_use blocks follow AM-TOOL-JOIN, -NO-DELTA and -INVALID like tool_use.",
    ),
    (
        "AM-RESULT-AS-SENT",
        "server_tools",
        "A block that receives no deltas (server results, redacted_thinking, unknown types) is "
        "output exactly as its content_block_start sent it.",
    ),
    # Thinking
    (
        "AM-THINK-JOIN",
        "thinking",
        'A thinking block\'s thinking is its start value ("" when blank) followed by every '
        "thinking_delta.thinking, verbatim.",
    ),
    (
        "AM-THINK-SIGNATURE",
        "thinking",
        "`signature` is the last signature_delta's; without one the start's signature stands, "
        "or the key is absent.",
    ),
    ("AM-REDACTED", "thinking", "redacted_thinking blocks are kept verbatim in place."),
    # Stop
    (
        "AM-STOP-REASON",
        "text",
        "stop_reason starts as message_start's; each non-blank message_delta stop_reason "
        "replaces it, verbatim; a blank one changes nothing.",
    ),
    (
        "AM-STOP-SEQUENCE",
        "text",
        "stop_sequence is the delta.stop_sequence of the message_delta that last set "
        "stop_reason (a string, or null).",
    ),
    (
        "AM-STOP-DETAILS",
        "stop_details",
        "A delta.stop_details object replaces the Message's stop_details; a blank one changes "
        "nothing.",
    ),
    (
        "AM-CONTAINER",
        "stop_details",
        "A delta.container object replaces the Message's container; a blank one changes nothing.",
    ),
    # Usage
    ("AM-USAGE-BASE", "usage", "usage starts as a copy of message_start.message.usage."),
    (
        "AM-USAGE-REPLACE",
        "usage",
        "Each non-blank key of message_delta.usage replaces that key's value, whole; absent, "
        "null or wrong-typed keys keep the earlier value.",
    ),
    ("AM-USAGE-NEVER-SUM", "usage", "No count is ever added across events."),
    (
        "AM-USAGE-ABSENT",
        "usage",
        "Without a start usage, usage is built from message_delta's non-blank keys; with no "
        "usage reported at all, the Message has no usage key.",
    ),
    # Lifecycle
    (
        "AM-LIFE-EMPTY",
        "lifecycle",
        "Reading the Message before a message_start was folded raises a documented error.",
    ),
    (
        "AM-LIFE-SNAPSHOT",
        "lifecycle",
        "Every read builds a new Message; later events never change one handed out, and "
        "events are never mutated.",
    ),
    (
        "AM-LIFE-FINISHED",
        "lifecycle",
        "Finished once message_stop arrives after a message_start and no error event came "
        "before it.",
    ),
    (
        "AM-LIFE-ERROR",
        "lifecycle",
        "An error event is recorded (its `error`, {} when none), not copied into the Message; "
        "the fold is not finished, the Message is the partial one, and later events change "
        "nothing.",
    ),
    (
        "AM-LIFE-TRUNCATED",
        "lifecycle",
        "A stream without message_stop is not finished; the Message read is the partial one.",
    ),
    ("AM-LIFE-AFTER-STOP", "lifecycle", "Events after message_stop change nothing."),
    # Robustness
    ("AM-PING", "robustness", "ping events, anywhere, change nothing."),
    (
        "AM-UNKNOWN-EVENT",
        "robustness",
        "An event whose type is unknown or blank changes nothing and never raises.",
    ),
    (
        "AM-UNKNOWN-DELTA",
        "robustness",
        "A delta whose type is unknown changes nothing; the block keeps folding.",
    ),
    (
        "AM-UNKNOWN-BLOCK",
        "robustness",
        "A block whose type is unknown is kept, as sent, at its index.",
    ),
    (
        "AM-UNKNOWN-KEYS",
        "robustness",
        "Unknown keys on event envelopes never change the Message; unknown keys inside the "
        "message, a content_block or a citation are kept.",
    ),
    (
        "AM-ROB-WRONG-TYPE",
        "robustness",
        "A field of the wrong JSON type is treated as absent; the fold never raises on a JSON "
        "object.",
    ),
    (
        "AM-ROB-NOT-OBJECT",
        "robustness",
        "An event that is not a JSON object is refused with an error naming what was received, "
        "leaving the fold unchanged.",
    ),
    # Wire decoding
    (
        "AM-SSE-TYPE",
        "sse",
        "An SSE event's fold type is its data's `type`; frames without an event: line are "
        "decoded like any other, and `type` wins over the name.",
    ),
    (
        "AM-SSE-EMPTY",
        "sse",
        "A frame whose data is empty is skipped; ping and error frames are passed to the fold.",
    ),
)

RULES: dict[str, Rule] = {row[0]: Rule(*row) for row in _TABLE}
"""Every AM rule of the spec by id, in the spec's order."""
