"""The Anthropic dialect's parts of the generic suites (`refold.suites._kits`): what its
round trips, differential checks, SSE decoder checks and robustness properties draw, and
the rules each case checks.

Messages are drawn only with the features the target claims, so a target is never sent a
block or field it does not claim to fold. A family's messages are drawn with the blocks
and fields its shapes concern (when claimed), so the examples go there; a per-feature
round trip draws only the families whose rules are `text`'s or the feature's (no noise,
which is robustness'), so it fails only on its feature's rules; each feature's messages
have text blocks, split as family 2 splits them (a prefix on content_block_start
included): AM-TEXT-JOIN is every feature's rule.
"""

from __future__ import annotations

from functools import partial

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.strategies.anthropic import (
    event_name,
    event_streams,
    families_for,
    lifecycle_events,
    round_trips,
    sse_bytes,
)

from .._kits import all_families, by_event_lines, cases, framed, per_feature, split_family
from .._lifecycle import FinishedMachine, ReferenceMachine, SnapshotMachine
from . import _robustness
from ._lifecycle import LIFECYCLE_MACHINE as LIFECYCLE_MACHINE
from ._lifecycle import AfterStopMachine, ErrorMachine, reading_before_a_message_start

_TOOL_FEATURES = frozenset({"text", "tool_use", "server_tools"})
_THINKING_FEATURES = frozenset({"text", "thinking"})
_CITATION_FEATURES = frozenset({"text", "citations"})
_WHOLE_BLOCK_FEATURES = frozenset({"text", "server_tools", "thinking", "robustness"})
_USAGE_FEATURES = frozenset({"text", "usage"})
_TEXT_FEATURES = frozenset({"text"})

_family = partial(split_family, round_trips)

_SHAPE = ("AM-START-BASE", "AM-BLOCK-OPEN", "AM-BLOCK-ORDER", "AM-BLOCK-STOP", "AM-TEXT-JOIN")
"""The rules of Anthropic's own shape (family 1), less those of its stop."""
_STOP = ("AM-STOP-REASON", "AM-STOP-SEQUENCE")
_TOOL = ("AM-TOOL-JOIN", "AM-TOOL-NO-DELTA", "AM-TOOL-IDENTITY")
_THINKING = ("AM-THINK-JOIN", "AM-THINK-SIGNATURE")
_USAGE = ("AM-USAGE-BASE", "AM-USAGE-REPLACE", "AM-USAGE-NEVER-SUM")

ROUND_TRIP = {
    "family": cases(
        {
            "family-1-anthropic-shape": (_family(1, None), (*_SHAPE, *_STOP)),
            "family-2-text-splits": (_family(2, _TEXT_FEATURES), ("AM-TEXT-JOIN",)),
            "family-3-tool-input-texts": (_family(3, _TOOL_FEATURES), _TOOL),
            "family-4-thinking-splits": (_family(4, _THINKING_FEATURES), _THINKING),
            "family-5-citations-among-text": (
                _family(5, _CITATION_FEATURES),
                ("AM-CITATIONS-APPEND",),
            ),
            "family-6-blocks-without-deltas": (
                _family(6, _WHOLE_BLOCK_FEATURES),
                ["AM-BLOCK-OPEN", "AM-RESULT-AS-SENT"],
            ),
            "family-7-usage-re-reported": (_family(7, _USAGE_FEATURES), _USAGE),
            "family-8-noise": (
                _family(8, None),
                ["AM-PING", "AM-UNKNOWN-EVENT", "AM-UNKNOWN-KEYS", "AM-BEFORE-START"],
            ),
            "family-9-finished-in-message-start": (
                _family(9, None),
                ["AM-START-CONTENT", "AM-START-BASE"],
            ),
        }
    ),
    "mixed": cases(
        {
            "all": (
                all_families(round_trips, families_for, drawn_without=frozenset()),
                ["AM-START-BASE", "AM-BLOCK-ORDER", "AM-TEXT-JOIN", "AM-STOP-REASON"],
            )
        }
    ),
    "feature": per_feature(
        round_trips,
        families_for,
        {
            "text": ("AM-BLOCK-OPEN", "AM-BLOCK-ORDER", "AM-START-BASE", *_STOP),
            "tool_use": _TOOL,
            "server_tools": ("AM-SERVER-TOOL", "AM-RESULT-AS-SENT"),
            "thinking": (*_THINKING, "AM-REDACTED"),
            "citations": ("AM-CITATIONS-APPEND",),
            "stop_details": ("AM-STOP-DETAILS", "AM-CONTAINER"),
            "usage": (*_USAGE, "AM-USAGE-ABSENT"),
        },
        every=("AM-TEXT-JOIN",),
    ),
}
"""The round trips: per split family, all claimed families mixed, per feature."""


def _damaged(claimed: frozenset[str]) -> st.SearchStrategy[list[JSONObject]]:
    # damage on Anthropic's own shape (family 1): the damages are the departures, and
    # the test's marks are their rules; other lossless shapes (start text, ...) are
    # the round trips' and would be charged here to rules they are not about
    return event_streams(features=claimed - {"robustness"}, families=frozenset({1}))


def _malformed(claimed: frozenset[str]) -> st.SearchStrategy[list[JSONObject]]:
    return event_streams(features=claimed)


DIFFERENTIAL = {
    "damaged": cases(
        {
            "damaged": (
                _damaged,
                [
                    "AM-DELTA-ROUTE",
                    "AM-DELTA-MATCH",
                    "AM-BLOCK-ORDER",
                    "AM-BLOCK-REOPEN",
                    "AM-START-ONCE",
                    *_STOP,
                ],
            )
        }
    ),
    "malformed": cases(
        {
            "malformed": (
                _malformed,
                [
                    "AM-ROB-WRONG-TYPE",
                    "AM-UNKNOWN-DELTA",
                    "AM-UNKNOWN-EVENT",
                    "AM-PING",
                    "AM-BEFORE-START",
                ],
            )
        }
    ),
}
"""Any stream, lossless or not (cut off, an error mid-stream, interleaved blocks, index
gaps, repeated starts, deltas for the wrong block, invalid tool input), holding only
damage whose rules the target claims (`refold.strategies.anthropic.allows`): without
`robustness`'s (wrongly typed fields, unknown deltas, misplaced events), and with it."""


def sse_events(claimed: frozenset[str], data: st.DataObject) -> list[JSON]:
    """A short run of single events of every type, a lossless stream (whose text needs
    every UTF-8 length) or a damaged one."""
    streams = st.one_of(
        st.lists(lifecycle_events(features=claimed), min_size=1, max_size=6),
        round_trips(features=claimed).map(lambda case: case[1]),
        event_streams(features=claimed),
    )
    events: list[JSON] = list(data.draw(streams, label="events"))
    return events


def named(events: list[JSON]) -> list[JSON]:
    """The events a frame can be named after (a `type` that is a non-blank string): the
    AM-SSE-EMPTY properties send Anthropic's own named frames, since a frame without an
    `event:` line is AM-SSE-TYPE's departure, not theirs."""
    return [event for event in events if event_name(event) is not None]


_PASSED_THROUGH: tuple[JSONObject, ...] = (
    {"type": "ping"},
    {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
    {"type": "error", "error": {"type": "api_error", "message": "x"}, "request_id": "req_1"},
    {"type": "error"},
)
"""Frames a decoder may be tempted to filter or raise on; AM-SSE-EMPTY hands them on."""


def _named_frames(events: list[JSON]) -> st.SearchStrategy[list[bytes]]:
    return sse_bytes(named(events), event_lines=True)


SSE = {
    "framed": by_event_lines(sse_events, partial(sse_bytes, empty_frames=False), ("AM-SSE-TYPE",)),
    "passed_through": cases(
        {
            "ping-and-error": (
                framed(sse_events, _named_frames, inserted=_PASSED_THROUGH),
                ("AM-SSE-EMPTY",),
            )
        }
    ),
}
"""The item-layer SSE properties: frames named by their `type` (as Anthropic sends them),
unnamed (as Anthropic-compatible proxies send them) or mixed; ping and error frames
passed to the fold."""


ROBUSTNESS = {
    "wrong_typed": cases({"fields": (_robustness.wrong_typed, ("AM-ROB-WRONG-TYPE",))}),
    "junk": cases({"any-object": (_robustness.junk, ("AM-ROB-WRONG-TYPE",))}),
    "noise": cases(
        {
            "pings": (_robustness.pings, ("AM-PING",)),
            "unknown-events": (_robustness.unknown_events, ("AM-UNKNOWN-EVENT",)),
            "unknown-deltas": (_robustness.unknown_deltas, ("AM-UNKNOWN-DELTA",)),
            "unknown-envelope-keys": (_robustness.unknown_keys, ("AM-UNKNOWN-KEYS",)),
        }
    ),
    "kept": cases({"blocks": (_robustness.unknown_block, ("AM-UNKNOWN-BLOCK",))}),
    "refused": cases({"not-an-object": (_robustness.refused_within, ("AM-ROB-NOT-OBJECT",))}),
}
"""The robustness properties (`refold.suites._robustness`): lossless streams against the
same streams with wrongly typed fields, pings, unknown or blank event types, unknown delta
types or unknown envelope keys; any JSON objects folded; a block of an unknown type kept
as sent at its index; values that are not objects refused."""


LIFECYCLE = {
    "concern": cases(
        {
            "snapshot": (SnapshotMachine, ("AM-LIFE-SNAPSHOT",)),
            "finished": (FinishedMachine, ("AM-LIFE-FINISHED", "AM-LIFE-TRUNCATED")),
            "error": (ErrorMachine, ("AM-LIFE-ERROR",)),
            "after-stop": (AfterStopMachine, ("AM-LIFE-AFTER-STOP",)),
            "reference": (
                ReferenceMachine,
                ("AM-LIFE-TRUNCATED", "AM-LIFE-ERROR", "AM-LIFE-AFTER-STOP"),
            ),
        }
    ),
    "empty": cases({"no-message-start": (reading_before_a_message_start, ("AM-LIFE-EMPTY",))}),
}
"""The lifecycle concerns (`refold.suites._lifecycle`, the Anthropic machine's parts in
`LIFECYCLE_MACHINE`): snapshots, `finished` exactly once message_stop follows
message_start without error, an error recorded and ending the fold, events after
message_stop changing nothing, every read equal to the reference's; reading before a
message_start."""
