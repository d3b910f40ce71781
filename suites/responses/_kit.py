"""The Responses dialect's parts of the generic suites (`refold.suites._kits`): what its
round trips, differential checks and SSE decoder checks draw, and the rules each case
checks.

A stream's items show only when the terminal leaves its output out (families 2 and 4:
RS-OUTPUT-RECOVER); families 3, 5 and 6 are therefore drawn together with family 2, so
that their shapes are the ones the fold has to build the output from. A family's
responses are drawn with text only: the family's shapes are about items, whichever kinds
the target claims. Family 7's `robustness` noise (keepalives, unknown events and keys) is
left to the robustness suite: the round trips draw without it, so they fail only on
`text` rules; each feature's responses have message items too, so RS-TEXT-JOIN is every
feature's rule.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.strategies.responses import (
    event_streams,
    families_for,
    lifecycle_events,
    round_trips,
    sse_bytes,
)

from .._kits import all_families, by_event_lines, cases, framed, per_feature
from .._lifecycle import FinishedMachine, ReferenceMachine, SnapshotMachine
from . import _robustness
from ._draws import small_streams
from ._lifecycle import LIFECYCLE_MACHINE as LIFECYCLE_MACHINE
from ._lifecycle import AfterMachine, ErrorMachine, cut_streams, reading_before_any_event

_NOT_FOLD = frozenset({"robustness", "lifecycle", "sse", "events"})
"""The claimed features a fold's stream is not drawn with: robustness noise is the
robustness suite's, the others need another interface."""
_STREAMED = ("RS-OUTPUT-RECOVER", "RS-OUTPUT-ORDER", "RS-KEY-OUTPUT-INDEX", "RS-ITEM-DONE-REPLACES")
"""What decides the output whenever the terminal leaves it out."""

Cases = st.SearchStrategy[tuple[JSONObject, list[JSONObject]]]


def _family(*families: int) -> Callable[[frozenset[str]], Cases]:
    def drawn(claimed: frozenset[str]) -> Cases:
        return round_trips(features=frozenset({"text"}), families=frozenset(families))

    return drawn


ROUND_TRIP = {
    "family": cases(
        {
            "family-1-openai-shape": (
                _family(1),
                (
                    "RS-TERMINAL-BASE",
                    "RS-ENV-TERMINAL",
                    "RS-OBJECT",
                    "RS-OUTPUT-TERMINAL",
                    "RS-HOSTED-ITEMS",
                    "RS-TERMINAL-EVENTS",
                    "RS-INCOMPLETE",
                    "RS-FAILED",
                ),
            ),
            "family-2-terminal-output-omitted": (
                _family(1, 2),
                (*_STREAMED, "RS-DONE-REPLACES", "RS-HOSTED-ITEMS"),
            ),
            "family-3-done-only": (_family(2, 3), (*_STREAMED, "RS-DONE-REPLACES")),
            "family-4-deltas-only": (
                _family(4),
                (
                    *_STREAMED,
                    "RS-RECOVER-FROM-DELTAS",
                    "RS-RECOVER-STATUS",
                    "RS-TEXT-JOIN",
                    "RS-CONTENT-INDEX",
                ),
            ),
            "family-5-rotating-or-missing-ids": (_family(2, 5), (*_STREAMED, "RS-ROUTE")),
            "family-6-orphans": (_family(2, 6), (*_STREAMED, "RS-ORPHAN", "RS-READD")),
            "family-7-noise": (
                _family(2, 7),
                ("RS-SEQ-ARRIVAL", "RS-TERMINAL-REPEAT", "RS-ENV-TERMINAL", *_STREAMED),
            ),
        }
    ),
    "mixed": cases(
        {
            "all": (
                all_families(round_trips, families_for, drawn_without=_NOT_FOLD),
                (
                    "RS-TERMINAL-BASE",
                    "RS-OUTPUT-TERMINAL",
                    "RS-OUTPUT-RECOVER",
                    "RS-OUTPUT-ORDER",
                    "RS-TEXT-JOIN",
                ),
            )
        }
    ),
    "feature": per_feature(
        round_trips,
        families_for,
        {
            "text": ("RS-TERMINAL-BASE", *_STREAMED),
            "tool_calls": ("RS-CALL-IDS", "RS-ARGS-JOIN", "RS-ARGS-RAW"),
            "refusal": ("RS-REFUSAL",),
            "reasoning": ("RS-REASONING-SUMMARY", "RS-REASONING-TEXT"),
            "annotations": ("RS-ANNOTATIONS",),
            "usage": ("RS-USAGE-TERMINAL",),
        },
        every=("RS-TEXT-JOIN",),
    ),
}
"""The round trips: per split family, all claimed families mixed, per feature."""


def _damaged(claimed: frozenset[str]) -> st.SearchStrategy[list[JSONObject]]:
    # the spec's "not lossless" shapes and text's own damage: no wrong types, no cut
    # streams (robustness's and lifecycle's, below and in the lifecycle suite)
    return event_streams(features=claimed - _NOT_FOLD)


def _malformed(claimed: frozenset[str]) -> st.SearchStrategy[list[JSONObject]]:
    # the claimed features' damage with robustness's: wrong types, null items, noise
    return event_streams(features=claimed - (_NOT_FOLD - {"robustness"}))


DIFFERENTIAL = {
    "damaged": cases(
        {
            "damaged": (
                _damaged,
                (
                    "RS-OUTPUT-TERMINAL",
                    "RS-DONE-REPLACES",
                    "RS-ITEM-DONE-REPLACES",
                    "RS-ROUTE",
                    "RS-ORPHAN",
                    "RS-KIND-MATCH",
                    "RS-ERROR-EVENT",
                    "RS-READD",
                ),
            )
        }
    ),
    "malformed": cases(
        {
            "malformed": (
                _malformed,
                ("RS-WRONG-TYPE", "RS-NULL-ITEM", "RS-KEEPALIVE", "RS-UNKNOWN-KEYS"),
            )
        }
    ),
}
"""Any stream, lossless or not (a partial non-empty terminal output, `.done` values that
contradict earlier ones, reused output indexes, orphan indexes, content events for an
item of another type, an `error` event, null items, wrongly typed fields), holding only
damage whose rules the target claims (`refold.strategies.responses.allows`)."""


_SSE_FOLD = frozenset({"text", "tool_calls", "refusal", "reasoning", "annotations", "usage"})
_PASSED_THROUGH: tuple[JSONObject, ...] = (
    {"type": "keepalive"},
    {"type": "response.x_future_event", "response": {"id": "resp_other"}},
    {"output_index": 0, "delta": "typeless"},
    {
        "type": "error",
        "code": "server_error",
        "message": "The server had an error",
        "param": None,
        "sequence_number": 1,
    },
    {"type": "error", "error": {"type": "server_error", "message": "nested"}},
)
"""Frames a decoder may be tempted to filter or raise on; the fold's rules decide them."""


def _sse_events(claimed: frozenset[str], data: st.DataObject) -> list[JSON]:
    """A short run of single events of every type, or a lossless stream (whose text needs
    every UTF-8 length)."""
    features = frozenset(claimed & _SSE_FOLD) | {"text"}
    streams = st.one_of(
        st.lists(lifecycle_events(features=features), min_size=1, max_size=6),
        small_streams(features),
    )
    events: list[JSON] = list(data.draw(streams, label="events"))
    return events


SSE = {
    "framed": by_event_lines(_sse_events, sse_bytes, ("RS-SEQ-ARRIVAL",)),
    "passed_through": cases(
        {
            "keepalive-unknown-and-error": (
                framed(
                    _sse_events,
                    partial(sse_bytes, event_lines=None),
                    inserted=_PASSED_THROUGH,
                ),
                ("RS-KEEPALIVE", "RS-ERROR-EVENT"),
            )
        }
    ),
}
"""The item-layer SSE properties: frames named by their `type` (as OpenAI sends them),
unnamed (as gateways send them) or mixed, with comment keep-alives; keepalive, unknown
and error frames passed to the fold. responses-fold.md names no wire rule: these are
charged to RS-SEQ-ARRIVAL (every event, in arrival order), RS-KEEPALIVE and
RS-ERROR-EVENT."""


ROBUSTNESS = {
    "wrong_typed": cases({"fields": (_robustness.wrong_typed, ("RS-WRONG-TYPE",))}),
    "junk": cases({"any-object": (_robustness.junk, ("RS-WRONG-TYPE",))}),
    "noise": cases(
        {
            "keepalives": (_robustness.keepalives, ("RS-KEEPALIVE",)),
            "unknown-events": (_robustness.unknown_events, ("RS-KEEPALIVE",)),
            "unknown-keys": (_robustness.unknown_keys, ("RS-UNKNOWN-KEYS",)),
            "blank-items": (_robustness.blank_items, ("RS-NULL-ITEM",)),
        }
    ),
    "refused": cases({"not-an-object": (_robustness.refused_within, ("RS-NOT-OBJECT",))}),
}
"""The robustness properties (`refold.suites._robustness`): lossless streams against the
same streams with wrongly typed fields, keepalives, unknown or blank event types, unknown
keys or output items that are blank; any JSON objects folded; values that are not objects
refused."""


LIFECYCLE = {
    "concern": cases(
        {
            "snapshot": (SnapshotMachine, ("LIFE-RS-SNAPSHOT",)),
            "finished": (FinishedMachine, ("LIFE-RS-FINISHED",)),
            "error": (ErrorMachine, ("RS-ERROR-EVENT", "LIFE-RS-FINISHED")),
            "after-the-terminal": (AfterMachine, ("LIFE-RS-AFTER",)),
            "reference": (ReferenceMachine, ("LIFE-RS-SNAPSHOT", "LIFE-RS-AFTER")),
        }
    ),
    "empty": cases({"no-event": (reading_before_any_event, ("LIFE-RS-EMPTY",))}),
    "cut": cases(
        {
            "cut-and-after-the-terminal": (
                cut_streams,
                ("LIFE-RS-SNAPSHOT", "LIFE-RS-AFTER", "LIFE-RS-FINISHED"),
            )
        }
    ),
}
"""The lifecycle concerns (`refold.suites._lifecycle`, the Responses machine's parts in
`LIFECYCLE_MACHINE`): snapshots, `finished` exactly once a terminal arrived, an error event
changing nothing, only terminals and recovered items changing the Response after the
terminal, every read equal to the reference's; reading before any event; streams cut
anywhere or going on after the terminal folded like the reference."""
