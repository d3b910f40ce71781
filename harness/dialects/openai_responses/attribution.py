"""Which RS rules a difference is evidence against, from where it is in the Response.

The dialect's counterpart of `refold.dialects.anthropic_messages.attribution`: each JSON pointer of
an
OpenAI `Response` is mapped to the rules that decide the value there, so a failure found
by a test of several rules is charged to the ones its differences point at. Rules about
reading an event whatever its fields (`POINTERLESS`: arrival order, keepalives and
unknown types, wrong types, refused values, the lifecycle reads) own no pointer.

A top-level place the table does not name is a key of the terminal response as sent
(RS-TERMINAL-BASE), one a lifecycle response supplied (RS-ENV-FILL), or one an event's
unknown key put there (RS-UNKNOWN-KEYS): such a place is charged to those
(`OUTSIDE_THE_SHAPE`). Only the whole Response (pointer "") belongs to no rule.
"""

from __future__ import annotations

from refold.reference.responses import RULES
from refold.verdicts.pointer_table import PointerTable, compiled

__all__ = ["OUTSIDE_THE_SHAPE", "PLACES", "POINTERLESS", "TABLE", "rules_at"]

_ITEM = r"/output/\d+"
_PART = rf"{_ITEM}/content/\d+"
_ENVELOPE = ("RS-TERMINAL-BASE", "RS-ENV-TERMINAL", "RS-ENV-FILL", "RS-TERMINAL-REPEAT")
_OUTCOME = ("RS-TERMINAL-EVENTS", "RS-INCOMPLETE", "RS-FAILED")
_WHOLE_OUTPUT = ("RS-OUTPUT-TERMINAL", "RS-OUTPUT-RECOVER", "RS-TERMINAL-REPEAT")
_SLOTS = (
    "RS-OUTPUT-ORDER",
    "RS-KEY-OUTPUT-INDEX",
    "RS-ROUTE",
    "RS-ORPHAN",
    "RS-READD",
    "RS-NULL-ITEM",
    *_WHOLE_OUTPUT,
)
"""Which item an `output` slot holds: an item out of place differs in its fields."""
_STREAMED = (
    "RS-ITEM-DONE-REPLACES",
    "RS-RECOVER-FROM-DELTAS",
    "RS-ROUTE",
    "RS-KEY-OUTPUT-INDEX",
    "RS-KIND-MATCH",
    *_WHOLE_OUTPUT,
)
"""What decides a field built from an item's events (or its done item)."""
_PARTS = ("RS-CONTENT-INDEX", "RS-DONE-REPLACES", *_STREAMED)
_IDENTITY = (
    "RS-READD",
    "RS-ORPHAN",
    "RS-ITEM-DONE-REPLACES",
    "RS-HOSTED-ITEMS",
    "RS-ROUTE",
    *_WHOLE_OUTPUT,
)
"""What decides an item's identity fields (its type, ids, name, status, unknown keys): a
re-added item taking them over, an orphan's placeholder, the done item replacing it, a
hosted item kept as sent, which item its events are routed to."""

_TABLE: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"/object", ("RS-OBJECT",)),
    (r"/status", (*_ENVELOPE, *_OUTCOME)),
    (r"/incomplete_details(/.*)?", (*_ENVELOPE, "RS-INCOMPLETE")),
    (r"/error(/.*)?", (*_ENVELOPE, "RS-FAILED", "RS-ERROR-EVENT")),
    (r"/usage(/.*)?", ("RS-USAGE-TERMINAL", *_ENVELOPE)),
    (r"/output", _SLOTS),
    (_ITEM, _SLOTS),
    (rf"{_ITEM}/(type|id)", ("RS-CALL-IDS", *_IDENTITY, *_SLOTS)),
    (rf"{_ITEM}/(call_id|name)", ("RS-CALL-IDS", *_IDENTITY)),
    (rf"{_ITEM}/status", ("RS-RECOVER-STATUS", *_IDENTITY)),
    (
        rf"{_ITEM}/arguments",
        ("RS-ARGS-JOIN", "RS-ARGS-RAW", "RS-DONE-REPLACES", "RS-READD", *_STREAMED),
    ),
    (rf"{_ITEM}/content", ("RS-CONTENT-INDEX", "RS-REFUSAL", "RS-REASONING-TEXT", *_STREAMED)),
    (_PART, ("RS-REFUSAL", "RS-REASONING-TEXT", *_PARTS)),
    (rf"{_PART}/type", ("RS-REFUSAL", "RS-REASONING-TEXT", *_PARTS)),  # what the part is
    (rf"{_PART}/text", ("RS-TEXT-JOIN", "RS-REASONING-TEXT", "RS-REFUSAL", *_PARTS)),
    (rf"{_PART}/refusal", ("RS-REFUSAL", *_PARTS)),
    (rf"{_PART}/annotations(/.*)?", ("RS-ANNOTATIONS", *_PARTS)),
    (rf"{_ITEM}/summary(/.*)?", ("RS-REASONING-SUMMARY", *_PARTS)),
    (rf"{_PART}/[^/]+(/.*)?", ("RS-UNKNOWN-KEYS", *_PARTS)),
    (rf"{_ITEM}/[^/]+(/.*)?", ("RS-UNKNOWN-KEYS", *_IDENTITY)),
)

POINTERLESS: frozenset[str] = frozenset(
    {"RS-SEQ-ARRIVAL", "RS-KEEPALIVE", "RS-WRONG-TYPE", "RS-NOT-OBJECT"}
    | {rule for rule in RULES if rule.startswith("LIFE-RS-")}
)
"""The rules no difference in a Response implicates by position."""

OUTSIDE_THE_SHAPE: frozenset[str] = frozenset(
    {"RS-TERMINAL-BASE", "RS-ENV-TERMINAL", "RS-ENV-FILL", "RS-TERMINAL-REPEAT", "RS-UNKNOWN-KEYS"}
)
"""The rules of a top-level place the table does not name: a key of the terminal (or a
lifecycle) response as sent (the last terminal's, RS-TERMINAL-REPEAT: a second one
replaces every key), or one an event's unknown key must not have put there."""

TABLE = PointerTable(
    compiled(_TABLE),
    OUTSIDE_THE_SHAPE,
    places=(
        "/object",
        "/status",
        "/incomplete_details",
        "/incomplete_details/reason",
        "/error",
        "/error/code",
        "/usage",
        "/usage/input_tokens",
        "/output",
        "/output/0",
        "/output/0/type",
        "/output/0/id",
        "/output/0/call_id",
        "/output/0/name",
        "/output/0/status",
        "/output/0/arguments",
        "/output/0/content",
        "/output/0/content/0",
        "/output/0/content/0/type",
        "/output/0/content/0/text",
        "/output/0/content/0/refusal",
        "/output/0/content/0/annotations",
        "/output/0/content/0/annotations/0",
        "/output/0/summary",
        "/output/0/summary/0",
        "/output/0/content/0/key",
        "/output/0/content/0/key/0",
        "/output/0/key",
        "/output/0/key/0",
        "/key",
    ),
)
"""Which rules decide the value at each place of a Response: `rules_at`."""
PLACES = TABLE.places
rules_at = TABLE.rules_at
