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

import pytest
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.run.marks import rule
from refold.strategies.anthropic import (
    event_name,
    event_streams,
    families_for,
    lifecycle_events,
    round_trips,
    sse_bytes,
)

from .._kits import all_families, one_feature, split_family
from .._lifecycle import FinishedMachine, ReferenceMachine, SnapshotMachine
from .._sse_items import with_inserted
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
_mixed = all_families(round_trips, families_for, drawn_without=frozenset())
_feature = partial(one_feature, round_trips, families_for)


ROUND_TRIP = {
    "family": [
        pytest.param(
            _family(1, None),
            marks=rule(
                "AM-START-BASE",
                "AM-BLOCK-OPEN",
                "AM-BLOCK-ORDER",
                "AM-BLOCK-STOP",
                "AM-TEXT-JOIN",
                "AM-STOP-REASON",
                "AM-STOP-SEQUENCE",
            ),
            id="family-1-anthropic-shape",
        ),
        pytest.param(
            _family(2, _TEXT_FEATURES),
            marks=rule("AM-TEXT-JOIN"),
            id="family-2-text-splits",
        ),
        pytest.param(
            _family(3, _TOOL_FEATURES),
            marks=rule("AM-TOOL-JOIN", "AM-TOOL-NO-DELTA", "AM-TOOL-IDENTITY"),
            id="family-3-tool-input-texts",
        ),
        pytest.param(
            _family(4, _THINKING_FEATURES),
            marks=rule("AM-THINK-JOIN", "AM-THINK-SIGNATURE"),
            id="family-4-thinking-splits",
        ),
        pytest.param(
            _family(5, _CITATION_FEATURES),
            marks=rule("AM-CITATIONS-APPEND"),
            id="family-5-citations-among-text",
        ),
        pytest.param(
            _family(6, _WHOLE_BLOCK_FEATURES),
            marks=rule("AM-BLOCK-OPEN", "AM-RESULT-AS-SENT"),
            id="family-6-blocks-without-deltas",
        ),
        pytest.param(
            _family(7, _USAGE_FEATURES),
            marks=rule("AM-USAGE-BASE", "AM-USAGE-REPLACE", "AM-USAGE-NEVER-SUM"),
            id="family-7-usage-re-reported",
        ),
        pytest.param(
            _family(8, None),
            marks=rule("AM-PING", "AM-UNKNOWN-EVENT", "AM-UNKNOWN-KEYS", "AM-BEFORE-START"),
            id="family-8-noise",
        ),
        pytest.param(
            _family(9, None),
            marks=rule("AM-START-CONTENT", "AM-START-BASE"),
            id="family-9-finished-in-message-start",
        ),
    ],
    "mixed": [
        pytest.param(
            _mixed,
            marks=rule("AM-START-BASE", "AM-BLOCK-ORDER", "AM-TEXT-JOIN", "AM-STOP-REASON"),
            id="all",
        )
    ],
    "feature": [
        pytest.param(_feature(feature), marks=rule("AM-TEXT-JOIN", *rules), id=feature)
        for feature, rules in (
            (
                "text",
                (
                    "AM-BLOCK-OPEN",
                    "AM-BLOCK-ORDER",
                    "AM-START-BASE",
                    "AM-STOP-REASON",
                    "AM-STOP-SEQUENCE",
                ),
            ),
            ("tool_use", ("AM-TOOL-JOIN", "AM-TOOL-NO-DELTA", "AM-TOOL-IDENTITY")),
            ("server_tools", ("AM-SERVER-TOOL", "AM-RESULT-AS-SENT")),
            ("thinking", ("AM-THINK-JOIN", "AM-THINK-SIGNATURE", "AM-REDACTED")),
            ("citations", ("AM-CITATIONS-APPEND",)),
            ("stop_details", ("AM-STOP-DETAILS", "AM-CONTAINER")),
            (
                "usage",
                ("AM-USAGE-BASE", "AM-USAGE-REPLACE", "AM-USAGE-NEVER-SUM", "AM-USAGE-ABSENT"),
            ),
        )
    ],
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
    "damaged": [
        pytest.param(
            _damaged,
            marks=rule(
                "AM-DELTA-ROUTE",
                "AM-DELTA-MATCH",
                "AM-BLOCK-ORDER",
                "AM-BLOCK-REOPEN",
                "AM-START-ONCE",
                "AM-STOP-REASON",
                "AM-STOP-SEQUENCE",
            ),
            id="damaged",
        )
    ],
    "malformed": [
        pytest.param(
            _malformed,
            marks=rule(
                "AM-ROB-WRONG-TYPE",
                "AM-UNKNOWN-DELTA",
                "AM-UNKNOWN-EVENT",
                "AM-PING",
                "AM-BEFORE-START",
            ),
            id="malformed",
        )
    ],
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


def _framed(event_lines: bool | None, claimed: frozenset[str], data: st.DataObject) -> list[bytes]:
    events = sse_events(claimed, data)
    parts: list[bytes] = data.draw(
        sse_bytes(events, event_lines=event_lines, empty_frames=False), label="parts"
    )
    return parts


def _passed_through(claimed: frozenset[str], data: st.DataObject) -> list[bytes]:
    events = named(with_inserted(data, sse_events(claimed, data), _PASSED_THROUGH))
    parts: list[bytes] = data.draw(sse_bytes(events, event_lines=True), label="parts")
    return parts


SSE = {
    "framed": [
        pytest.param(partial(_framed, lines), marks=rule("AM-SSE-TYPE"), id=name)
        for lines, name in ((True, "named"), (False, "unnamed"), (None, "mixed"))
    ],
    "passed_through": [
        pytest.param(_passed_through, marks=rule("AM-SSE-EMPTY"), id="ping-and-error")
    ],
}
"""The item-layer SSE properties: frames named by their `type` (as Anthropic sends them),
unnamed (as Anthropic-compatible proxies send them) or mixed; ping and error frames
passed to the fold."""


ROBUSTNESS = {
    "wrong_typed": [
        pytest.param(_robustness.wrong_typed, marks=rule("AM-ROB-WRONG-TYPE"), id="fields")
    ],
    "junk": [pytest.param(_robustness.junk, marks=rule("AM-ROB-WRONG-TYPE"), id="any-object")],
    "noise": [
        pytest.param(_robustness.pings, marks=rule("AM-PING"), id="pings"),
        pytest.param(
            _robustness.unknown_events, marks=rule("AM-UNKNOWN-EVENT"), id="unknown-events"
        ),
        pytest.param(
            _robustness.unknown_deltas, marks=rule("AM-UNKNOWN-DELTA"), id="unknown-deltas"
        ),
        pytest.param(
            _robustness.unknown_keys, marks=rule("AM-UNKNOWN-KEYS"), id="unknown-envelope-keys"
        ),
    ],
    "kept": [pytest.param(_robustness.unknown_block, marks=rule("AM-UNKNOWN-BLOCK"), id="blocks")],
    "refused": [
        pytest.param(
            _robustness.refused_within, marks=rule("AM-ROB-NOT-OBJECT"), id="not-an-object"
        )
    ],
}
"""The robustness properties (`refold.suites._robustness`): lossless streams against the
same streams with wrongly typed fields, pings, unknown or blank event types, unknown delta
types or unknown envelope keys; any JSON objects folded; a block of an unknown type kept
as sent at its index; values that are not objects refused."""


LIFECYCLE = {
    "concern": [
        pytest.param(SnapshotMachine, marks=rule("AM-LIFE-SNAPSHOT"), id="snapshot"),
        pytest.param(
            FinishedMachine, marks=rule("AM-LIFE-FINISHED", "AM-LIFE-TRUNCATED"), id="finished"
        ),
        pytest.param(ErrorMachine, marks=rule("AM-LIFE-ERROR"), id="error"),
        pytest.param(AfterStopMachine, marks=rule("AM-LIFE-AFTER-STOP"), id="after-stop"),
        pytest.param(
            ReferenceMachine,
            marks=rule("AM-LIFE-TRUNCATED", "AM-LIFE-ERROR", "AM-LIFE-AFTER-STOP"),
            id="reference",
        ),
    ],
    "empty": [
        pytest.param(
            reading_before_a_message_start, marks=rule("AM-LIFE-EMPTY"), id="no-message-start"
        )
    ],
}
"""The lifecycle concerns (`refold.suites._lifecycle`, the Anthropic machine's parts in
`LIFECYCLE_MACHINE`): snapshots, `finished` exactly once message_stop follows
message_start without error, an error recorded and ending the fold, events after
message_stop changing nothing, every read equal to the reference's; reading before a
message_start."""
