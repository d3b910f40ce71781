"""The wire rules registry: what a `text/event-stream` decoder must do (feature `sse`).

The chat-fold spec names the feature `sse` ("the wire decoder") but states no rules for
it: how bytes become events is defined by the WHATWG HTML Living Standard, §9.2
server-sent events ("Parsing an event stream" and "Interpreting an event stream"). This
registry gives those rules stable ids, so the `sse` suite's checks are reported per rule
like the spec's. It is kept apart from `RULES`, which stays exactly the spec's table:
`ALL_RULES` and `lookup_any_rule` are for code that accepts either kind of id.
"""

from __future__ import annotations

from .._rules import Rule
from ._rules import RULES

__all__ = ["ALL_RULES", "SSE_RULES", "SSE_RULES_NOTE", "SSE_RULES_SOURCE", "lookup_any_rule"]

SSE_RULES_SOURCE = "WHATWG HTML Living Standard §9.2 server-sent events"
"""Where the wire rules come from (they are not part of chat-fold.md)."""

SSE_RULES_NOTE = f"wire rules from {SSE_RULES_SOURCE}; not part of chat-fold.md"
"""How tables and reports label the wire rules' group, so no reader takes them for spec rules."""

# In the order the standard's algorithm applies them: decoding, lines, fields, dispatch.
_TABLE: tuple[tuple[str, str], ...] = (
    (
        "SSE-BOM",
        "One U+FEFF BYTE ORDER MARK at the start of the stream is ignored; it never "
        "becomes part of the first field name.",
    ),
    (
        "SSE-INVALID-UTF8",
        "The stream is decoded as UTF-8 with each invalid byte sequence "
        "replaced by U+FFFD; a bad byte never ends the stream.",
    ),
    (
        "SSE-LINE-ENDS",
        "A line ends at a CRLF pair, a lone LF or a lone CR, however the bytes "
        "were cut on the way.",
    ),
    (
        "SSE-UNICODE-LINES",
        "Only CR and LF end a line: U+2028, U+0085 and form feed are "
        "ordinary characters of a value.",
    ),
    ("SSE-COMMENT", "A line that starts with a colon is a comment and is ignored."),
    (
        "SSE-SPACE",
        "A value starts after the first colon, less one leading space if there is "
        "one; further spaces are kept.",
    ),
    ("SSE-UNKNOWN-FIELD", "A field whose name is not `event`, `data`, `id` or `retry` is ignored."),
    (
        "SSE-EVENT-TYPE",
        "An `event` field names the type of the next dispatched event; without "
        "one the type is `message`, and it resets after every dispatch.",
    ),
    (
        "SSE-MULTILINE",
        "Each `data` field appends its value and a line feed to the data "
        "buffer, and dispatch drops the last line feed: data lines join with a line feed.",
    ),
    (
        "SSE-EMPTY-DATA",
        "A `data` field with an empty value (`data:` or a bare `data`) still "
        "counts: the event fires with empty data.",
    ),
    (
        "SSE-ID",
        "An `id` field sets the last event id, which every later event carries until "
        "another `id` changes it; an `id` whose value contains NUL is ignored.",
    ),
    (
        "SSE-RETRY-DIGITS",
        "A `retry` field sets the reconnection time only when its value is "
        "ASCII digits alone; any other value is ignored.",
    ),
    ("SSE-RETRY-ONLY", "A `retry` field alone sets the reconnection time and fires no event."),
    (
        "SSE-EVENT-NO-DATA",
        "A blank line fires an event only when the data buffer is not "
        "empty; otherwise nothing fires, even after an `event` field.",
    ),
    (
        "SSE-ID-BLANK-LINE",
        "A blank line with an empty data buffer fires nothing, even once a last event id is set.",
    ),
    (
        "SSE-UNTERMINATED",
        "At the end of the stream, an event no blank line dispatched is discarded.",
    ),
)

SSE_RULES: dict[str, Rule] = {rule_id: Rule(rule_id, "sse", text) for rule_id, text in _TABLE}
"""Every wire rule by id, all of feature `sse`; no id is also a spec rule id."""

ALL_RULES: dict[str, Rule] = {**RULES, **SSE_RULES}
"""The spec's rules, then the wire rules: every rule id a test may be marked with."""


def lookup_any_rule(rule_id: str) -> Rule:
    """Return the spec or wire rule with this id, or raise `KeyError` naming both counts."""
    try:
        return ALL_RULES[rule_id]
    except KeyError:
        raise KeyError(
            f"unknown rule id {rule_id!r}; the spec has {len(RULES)} rules and the "
            f"wire registry {len(SSE_RULES)} (see `refold rules`)"
        ) from None
