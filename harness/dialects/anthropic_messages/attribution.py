"""Which AM rules a difference is evidence against, from where it is in the Message.

The dialect's counterpart of the chat table (`refold.reference.chat._attribution`): each JSON
pointer of an Anthropic `Message` is mapped to the rules that decide the value there, so
a failure found by a test of several rules is charged to the ones its differences point
at. Rules about reading an event whatever its fields (`POINTERLESS`: which events count,
before message_start and after the first one, pings, unknown events and deltas, wrong
types, the lifecycle, the wire) own no pointer: a later message_start taken for the
first shows at AM-START-BASE's pointers (its Message is a copy of the *first*).

A place the table does not name is kept from an event's object or invented: the Message
keeps every key of `message_start.message` (AM-START-BASE), and unknown keys of event
envelopes must never reach it (AM-UNKNOWN-KEYS), so such a place is charged to both
(`OUTSIDE_THE_SHAPE`). Only the whole Message (pointer "") belongs to no rule.

The table is the harness's, not the fold's: only a failure is charged (`refold.run.checks`,
the ablations, the suites' own narrowing through `check.dialect.rules_at`), so it is not
in the reference package (`refold.reference.anthropic`: the fold, its comparison, its
registry and its wire layer, which a green run of the suites reaches whole).
"""

from __future__ import annotations

from refold.reference.anthropic import RULES
from refold.verdicts.pointer_table import PointerTable, compiled

__all__ = ["OUTSIDE_THE_SHAPE", "PLACES", "POINTERLESS", "TABLE", "rules_at"]

_BLOCK = r"/content/\d+"
_DELTAS = ("AM-DELTA-ROUTE", "AM-DELTA-MATCH", "AM-BLOCK-STOP")
_SLOTS = ("AM-BLOCK-ORDER", "AM-BLOCK-REOPEN", "AM-START-CONTENT")
"""Which block a slot of `content` holds: a block out of place differs in its fields."""
_ENVELOPE = ("AM-START-BASE",)
_INPUT = (
    "AM-TOOL-JOIN",
    "AM-TOOL-NO-DELTA",
    "AM-TOOL-INVALID",
    "AM-SERVER-TOOL",
    *_DELTAS,
    *_SLOTS,
)
_USAGE = ("AM-USAGE-BASE", "AM-USAGE-REPLACE", "AM-USAGE-NEVER-SUM", "AM-USAGE-ABSENT")

_TABLE: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"/(id|model)", _ENVELOPE),
    (r"/(type|role)", ("AM-TYPE-ROLE", *_ENVELOPE)),
    (r"/content", ("AM-BLOCK-OPEN", "AM-BLOCK-ORDER", "AM-BLOCK-REOPEN", "AM-START-CONTENT")),
    # which blocks there are; what a kept block holds is decided at its keys below
    (
        _BLOCK,
        (
            "AM-BLOCK-OPEN",
            "AM-BLOCK-ORDER",
            "AM-BLOCK-REOPEN",
            "AM-START-CONTENT",
            "AM-UNKNOWN-BLOCK",
        ),
    ),
    (rf"{_BLOCK}/type", ("AM-BLOCK-OPEN", "AM-BLOCK-ORDER", "AM-BLOCK-REOPEN", "AM-UNKNOWN-BLOCK")),
    (rf"{_BLOCK}/text", ("AM-TEXT-JOIN", *_DELTAS, *_SLOTS)),
    (rf"{_BLOCK}/citations(/.*)?", ("AM-CITATIONS-APPEND", *_DELTAS, *_SLOTS)),
    (rf"{_BLOCK}/input(/.*)?", _INPUT),
    (rf"{_BLOCK}/(id|name)", ("AM-TOOL-IDENTITY", "AM-SERVER-TOOL")),
    (rf"{_BLOCK}/thinking", ("AM-THINK-JOIN", *_DELTAS, *_SLOTS)),
    (rf"{_BLOCK}/signature", ("AM-THINK-SIGNATURE", *_DELTAS, *_SLOTS)),
    (rf"{_BLOCK}/data", ("AM-REDACTED",)),
    (
        rf"{_BLOCK}/[^/]+(/.*)?",
        ("AM-BLOCK-OPEN", "AM-UNKNOWN-KEYS", "AM-TOOL-IDENTITY", "AM-RESULT-AS-SENT"),
    ),
    # AM-START-CONTENT's "its stop_reason stands" is AM-STOP-REASON's "starts as
    # message_start's": one defect, one rule
    (r"/stop_reason", ("AM-STOP-REASON",)),
    (r"/stop_sequence", ("AM-STOP-SEQUENCE",)),
    (r"/stop_details(/.*)?", ("AM-STOP-DETAILS",)),
    (r"/container(/.*)?", ("AM-CONTAINER",)),
    (r"/usage", _USAGE),
    # a count's value: AM-USAGE-ABSENT decides only whether there is a usage at all
    (r"/usage/.*", tuple(r for r in _USAGE if r != "AM-USAGE-ABSENT")),
    (r"/error(/.*)?", ("AM-LIFE-ERROR", "AM-UNKNOWN-KEYS")),
)

POINTERLESS: frozenset[str] = frozenset(
    {
        "AM-BEFORE-START",
        "AM-START-ONCE",
        "AM-PING",
        "AM-UNKNOWN-EVENT",
        "AM-UNKNOWN-DELTA",
        "AM-ROB-WRONG-TYPE",
        "AM-ROB-NOT-OBJECT",
    }
    | {rule for rule in RULES if rule.startswith(("AM-LIFE-", "AM-SSE-"))} - {"AM-LIFE-ERROR"}
)
"""The rules no difference in a Message implicates by position."""

OUTSIDE_THE_SHAPE: frozenset[str] = frozenset({"AM-START-BASE", "AM-UNKNOWN-KEYS"})
"""The rules of a place the table does not name: a key kept from message_start, or one
an event's envelope must not have put there."""

TABLE = PointerTable(
    compiled(_TABLE),
    OUTSIDE_THE_SHAPE,
    places=(
        "/id",
        "/model",
        "/type",
        "/role",
        "/content",
        "/content/0",
        "/content/0/type",
        "/content/0/text",
        "/content/0/citations",
        "/content/0/citations/0",
        "/content/0/input",
        "/content/0/input/key",
        "/content/0/id",
        "/content/0/name",
        "/content/0/thinking",
        "/content/0/signature",
        "/content/0/data",
        "/content/0/key",
        "/content/0/key/0",
        "/stop_reason",
        "/stop_sequence",
        "/stop_details",
        "/stop_details/key",
        "/container",
        "/container/key",
        "/usage",
        "/usage/input_tokens",
        "/error",
        "/error/type",
        "/key",
    ),
)
"""Which rules decide the value at each place of a Message: `rules_at`."""
PLACES = TABLE.places
rules_at = TABLE.rules_at
