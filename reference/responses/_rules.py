"""The RS rules registry: every rule id of the responses-fold spec, its feature, its statement.

Same form as the chat registry (`refold.reference.chat.RULES`): ids are the stable keys that
suites, reports and baselines use. The ids are `RS-` (lifecycle: `LIFE-RS-`) prefixed so
that they never collide with the chat or Anthropic ids in a report covering several
dialects. The statements are the spec's rows, shortened to one line each.
"""

from __future__ import annotations

from .._rules import Rule

__all__ = ["FEATURES", "RULES"]

FEATURES: tuple[str, ...] = (
    "text",
    "tool_calls",
    "refusal",
    "reasoning",
    "annotations",
    "usage",
    "robustness",
    "lifecycle",
    "sse",
    "events",
)
"""The spec's closed feature vocabulary, in the spec's order. `text` is required of every target."""

_TABLE: tuple[tuple[str, str, str], ...] = (
    # Envelope
    (
        "RS-TERMINAL-BASE",
        "text",
        "Once a terminal event has arrived, the result is its `response` object, every top-level "
        "key as sent, except where RS-ENV-FILL or RS-OUTPUT-RECOVER supply what it left out.",
    ),
    (
        "RS-ENV-TERMINAL",
        "text",
        "Top-level fields are taken from the terminal response, not from response.created "
        "(the served service_tier is only on the terminal).",
    ),
    (
        "RS-ENV-FILL",
        "text",
        "A top-level key other than `output` that the terminal lacks or sends as null takes the "
        "value of the latest earlier lifecycle response with a non-null value, key by key.",
    ),
    ("RS-OBJECT", "text", '`object` is "response".'),
    # Output items
    (
        "RS-OUTPUT-TERMINAL",
        "text",
        "A non-empty terminal `output` list is the output, whole; streamed items are not merged "
        "into it.",
    ),
    (
        "RS-OUTPUT-RECOVER",
        "text",
        "A terminal `output` that is absent, null or [] while items were streamed gives the "
        "streamed items as the output; with nothing streamed the output is [].",
    ),
    ("RS-OUTPUT-ORDER", "text", "Streamed items are ordered by their output_index."),
    (
        "RS-KEY-OUTPUT-INDEX",
        "text",
        "An item is keyed by its output_index, never by list position; item ids are not "
        "required and may rotate between events.",
    ),
    (
        "RS-ROUTE",
        "text",
        "An item event whose item_id (output_item.done: item.id) is the id of an announced "
        "item belongs to that item, whatever its output_index; otherwise output_index decides.",
    ),
    (
        "RS-ITEM-DONE-REPLACES",
        "text",
        "response.output_item.done replaces everything streamed for that item with its `item`.",
    ),
    (
        "RS-DONE-REPLACES",
        "text",
        "Each .done event (text, refusal, arguments, content part, reasoning text, summary "
        "part) replaces what its deltas built.",
    ),
    (
        "RS-RECOVER-FROM-DELTAS",
        "text",
        "A streamed item with no output_item.done is the output_item.added item with its parts "
        "built from content_part.added and the deltas.",
    ),
    (
        "RS-RECOVER-STATUS",
        "text",
        "With a terminal event, a streamed item without output_item.done whose status is blank "
        "or in_progress reads completed (response.completed) or incomplete (incomplete, failed).",
    ),
    (
        "RS-ORPHAN",
        "text",
        "An item event for an output_index with no announced item opens a placeholder item of "
        "the type the event implies there, status in_progress; nothing raises.",
    ),
    (
        "RS-READD",
        "text",
        "output_item.added at an index that holds an item takes over its identity fields and "
        "keeps the parts, summary, arguments and done item already streamed for it.",
    ),
    (
        "RS-KIND-MATCH",
        "text",
        "An item event routed to an item whose type it does not fit changes nothing.",
    ),
    (
        "RS-CONTENT-INDEX",
        "text",
        "Parts are keyed by content_index, summary parts by summary_index, annotations by "
        "annotation_index (appended when the index is past the end).",
    ),
    # Text, refusal, reasoning, annotations
    (
        "RS-TEXT-JOIN",
        "text",
        "An output_text part's text is its output_text.delta strings joined verbatim in arrival "
        "order, until a .done replaces it.",
    ),
    (
        "RS-REFUSAL",
        "refusal",
        "A refusal part joins response.refusal.delta the same way; refusal text never enters an "
        "output_text part.",
    ),
    (
        "RS-REASONING-SUMMARY",
        "reasoning",
        "A reasoning item's summary[summary_index].text joins "
        "response.reasoning_summary_text.delta.",
    ),
    (
        "RS-REASONING-TEXT",
        "reasoning",
        "A reasoning item's content[content_index].text joins response.reasoning_text.delta.",
    ),
    (
        "RS-ANNOTATIONS",
        "annotations",
        "response.output_text.annotation.added puts its annotation on the part at content_index, "
        "at annotation_index.",
    ),
    (
        "RS-HOSTED-ITEMS",
        "text",
        "Hosted-tool items and their status events are kept as sent; their output_item.done "
        "item is authoritative.",
    ),
    # Tool calls
    (
        "RS-CALL-IDS",
        "tool_calls",
        "A function_call keeps call_id and id as two fields, never one for the other; an item "
        "sent without id stays without one.",
    ),
    (
        "RS-ARGS-JOIN",
        "tool_calls",
        "arguments is the function_call_arguments.delta strings joined onto the arguments of "
        "output_item.added, until RS-DONE-REPLACES.",
    ),
    (
        "RS-ARGS-RAW",
        "tool_calls",
        "Arguments are never parsed, re-serialised, repaired or defaulted to {}: a cut-off call "
        'stays cut off; "" stays "".',
    ),
    # Usage
    (
        "RS-USAGE-TERMINAL",
        "usage",
        "usage is the terminal response's usage, whole, never summed; without one RS-ENV-FILL "
        "applies; absent otherwise; details kept as sent.",
    ),
    # Terminal outcomes
    (
        "RS-TERMINAL-EVENTS",
        "text",
        "response.completed, response.incomplete and response.failed are each a terminal "
        "result; none raises.",
    ),
    (
        "RS-INCOMPLETE",
        "text",
        "After response.incomplete the result has the terminal's status, incomplete_details "
        "and usage.",
    ),
    (
        "RS-FAILED",
        "text",
        "After response.failed the result has status failed and the response's error object.",
    ),
    (
        "RS-ERROR-EVENT",
        "text",
        "A top-level error event is not part of the Response and finishes nothing; its object "
        "is never copied into the result.",
    ),
    (
        "RS-TERMINAL-REPEAT",
        "text",
        "A second terminal event replaces the first; nothing is summed or concatenated.",
    ),
    (
        "RS-SEQ-ARRIVAL",
        "text",
        "Events are folded in arrival order; sequence_number never reorders, deduplicates or "
        "rejects events.",
    ),
    # Robustness
    (
        "RS-UNKNOWN-KEYS",
        "robustness",
        "Unknown keys (obfuscation, vendor keys, logprobs on deltas) never change the result.",
    ),
    ("RS-KEEPALIVE", "robustness", "keepalive events and unknown event types are ignored."),
    (
        "RS-WRONG-TYPE",
        "robustness",
        "A field of the wrong JSON type is treated as absent; a lifecycle or terminal response "
        "that is not an object changes nothing; a JSON object never makes the fold raise.",
    ),
    (
        "RS-NOT-OBJECT",
        "robustness",
        "An event that is not a JSON object is refused with a clear error and leaves the fold "
        "unchanged.",
    ),
    (
        "RS-NULL-ITEM",
        "robustness",
        "output_item.added with a blank item adds nothing and keeps the index free.",
    ),
    # Lifecycle
    (
        "LIFE-RS-EMPTY",
        "lifecycle",
        "Reading the result before any event raises a documented error.",
    ),
    (
        "LIFE-RS-SNAPSHOT",
        "lifecycle",
        "Before a terminal event the result is the latest lifecycle response (or a bare "
        "in_progress one) with the streamed items as output; every read is a new object.",
    ),
    (
        "LIFE-RS-FINISHED",
        "lifecycle",
        "Finished once a terminal event arrived, and only then: an error event, EOF or the last "
        "item's .done does not finish it.",
    ),
    (
        "LIFE-RS-AFTER",
        "lifecycle",
        "Events after the terminal event are still folded: a repeated terminal replaces, late "
        "item events change only the streamed items.",
    ),
)

RULES: dict[str, Rule] = {row[0]: Rule(*row) for row in _TABLE}
"""Every RS rule of the spec by id, in the spec's order."""
