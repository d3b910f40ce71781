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

from functools import partial

import pytest
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.run.marks import rule
from refold.strategies.responses import (
    event_streams,
    families_for,
    lifecycle_events,
    round_trips,
    sse_bytes,
)

from .._kits import all_families, one_feature
from .._lifecycle import FinishedMachine, ReferenceMachine, SnapshotMachine
from .._sse_items import with_inserted
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


def _family(families: frozenset[int], claimed: frozenset[str]) -> Cases:
    return round_trips(features=frozenset({"text"}), families=families)


_mixed = all_families(round_trips, families_for, drawn_without=_NOT_FOLD)
_feature = partial(one_feature, round_trips, families_for)


ROUND_TRIP = {
    "family": [
        pytest.param(
            partial(_family, frozenset({1})),
            marks=rule(
                "RS-TERMINAL-BASE",
                "RS-ENV-TERMINAL",
                "RS-OBJECT",
                "RS-OUTPUT-TERMINAL",
                "RS-HOSTED-ITEMS",
                "RS-TERMINAL-EVENTS",
                "RS-INCOMPLETE",
                "RS-FAILED",
            ),
            id="family-1-openai-shape",
        ),
        pytest.param(
            partial(_family, frozenset({1, 2})),
            marks=rule(*_STREAMED, "RS-DONE-REPLACES", "RS-HOSTED-ITEMS"),
            id="family-2-terminal-output-omitted",
        ),
        pytest.param(
            partial(_family, frozenset({2, 3})),
            marks=rule(*_STREAMED, "RS-DONE-REPLACES"),
            id="family-3-done-only",
        ),
        pytest.param(
            partial(_family, frozenset({4})),
            marks=rule(
                *_STREAMED,
                "RS-RECOVER-FROM-DELTAS",
                "RS-RECOVER-STATUS",
                "RS-TEXT-JOIN",
                "RS-CONTENT-INDEX",
            ),
            id="family-4-deltas-only",
        ),
        pytest.param(
            partial(_family, frozenset({2, 5})),
            marks=rule(*_STREAMED, "RS-ROUTE"),
            id="family-5-rotating-or-missing-ids",
        ),
        pytest.param(
            partial(_family, frozenset({2, 6})),
            marks=rule(*_STREAMED, "RS-ORPHAN", "RS-READD"),
            id="family-6-orphans",
        ),
        pytest.param(
            partial(_family, frozenset({2, 7})),
            marks=rule("RS-SEQ-ARRIVAL", "RS-TERMINAL-REPEAT", "RS-ENV-TERMINAL", *_STREAMED),
            id="family-7-noise",
        ),
    ],
    "mixed": [
        pytest.param(
            _mixed,
            marks=rule(
                "RS-TERMINAL-BASE",
                "RS-OUTPUT-TERMINAL",
                "RS-OUTPUT-RECOVER",
                "RS-OUTPUT-ORDER",
                "RS-TEXT-JOIN",
            ),
            id="all",
        )
    ],
    "feature": [
        pytest.param(_feature(feature), marks=rule("RS-TEXT-JOIN", *rules), id=feature)
        for feature, rules in (
            ("text", ("RS-TERMINAL-BASE", *_STREAMED)),
            ("tool_calls", ("RS-CALL-IDS", "RS-ARGS-JOIN", "RS-ARGS-RAW")),
            ("refusal", ("RS-REFUSAL",)),
            ("reasoning", ("RS-REASONING-SUMMARY", "RS-REASONING-TEXT")),
            ("annotations", ("RS-ANNOTATIONS",)),
            ("usage", ("RS-USAGE-TERMINAL",)),
        )
    ],
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
    "damaged": [
        pytest.param(
            _damaged,
            marks=rule(
                "RS-OUTPUT-TERMINAL",
                "RS-DONE-REPLACES",
                "RS-ITEM-DONE-REPLACES",
                "RS-ROUTE",
                "RS-ORPHAN",
                "RS-KIND-MATCH",
                "RS-ERROR-EVENT",
                "RS-READD",
            ),
            id="damaged",
        )
    ],
    "malformed": [
        pytest.param(
            _malformed,
            marks=rule("RS-WRONG-TYPE", "RS-NULL-ITEM", "RS-KEEPALIVE", "RS-UNKNOWN-KEYS"),
            id="malformed",
        )
    ],
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


def _framed(event_lines: bool | None, claimed: frozenset[str], data: st.DataObject) -> list[bytes]:
    events = _sse_events(claimed, data)
    parts: list[bytes] = data.draw(sse_bytes(events, event_lines=event_lines), label="parts")
    return parts


def _passed_through(claimed: frozenset[str], data: st.DataObject) -> list[bytes]:
    events = with_inserted(data, _sse_events(claimed, data), _PASSED_THROUGH)
    parts: list[bytes] = data.draw(sse_bytes(events, event_lines=None), label="parts")
    return parts


SSE = {
    "framed": [
        pytest.param(partial(_framed, lines), marks=rule("RS-SEQ-ARRIVAL"), id=name)
        for lines, name in ((True, "named"), (False, "unnamed"), (None, "mixed"))
    ],
    "passed_through": [
        pytest.param(
            _passed_through,
            marks=rule("RS-KEEPALIVE", "RS-ERROR-EVENT"),
            id="keepalive-unknown-and-error",
        )
    ],
}
"""The item-layer SSE properties: frames named by their `type` (as OpenAI sends them),
unnamed (as gateways send them) or mixed, with comment keep-alives; keepalive, unknown
and error frames passed to the fold. responses-fold.md names no wire rule: these are
charged to RS-SEQ-ARRIVAL (every event, in arrival order), RS-KEEPALIVE and
RS-ERROR-EVENT."""


ROBUSTNESS = {
    "wrong_typed": [
        pytest.param(_robustness.wrong_typed, marks=rule("RS-WRONG-TYPE"), id="fields")
    ],
    "junk": [pytest.param(_robustness.junk, marks=rule("RS-WRONG-TYPE"), id="any-object")],
    "noise": [
        pytest.param(_robustness.keepalives, marks=rule("RS-KEEPALIVE"), id="keepalives"),
        pytest.param(_robustness.unknown_events, marks=rule("RS-KEEPALIVE"), id="unknown-events"),
        pytest.param(_robustness.unknown_keys, marks=rule("RS-UNKNOWN-KEYS"), id="unknown-keys"),
        pytest.param(_robustness.blank_items, marks=rule("RS-NULL-ITEM"), id="blank-items"),
    ],
    "refused": [
        pytest.param(_robustness.refused_within, marks=rule("RS-NOT-OBJECT"), id="not-an-object")
    ],
}
"""The robustness properties (`refold.suites._robustness`): lossless streams against the
same streams with wrongly typed fields, keepalives, unknown or blank event types, unknown
keys or output items that are blank; any JSON objects folded; values that are not objects
refused."""


LIFECYCLE = {
    "concern": [
        pytest.param(SnapshotMachine, marks=rule("LIFE-RS-SNAPSHOT"), id="snapshot"),
        pytest.param(FinishedMachine, marks=rule("LIFE-RS-FINISHED"), id="finished"),
        pytest.param(ErrorMachine, marks=rule("RS-ERROR-EVENT", "LIFE-RS-FINISHED"), id="error"),
        pytest.param(AfterMachine, marks=rule("LIFE-RS-AFTER"), id="after-the-terminal"),
        pytest.param(
            ReferenceMachine, marks=rule("LIFE-RS-SNAPSHOT", "LIFE-RS-AFTER"), id="reference"
        ),
    ],
    "empty": [pytest.param(reading_before_any_event, marks=rule("LIFE-RS-EMPTY"), id="no-event")],
    "cut": [
        pytest.param(
            cut_streams,
            marks=rule("LIFE-RS-SNAPSHOT", "LIFE-RS-AFTER", "LIFE-RS-FINISHED"),
            id="cut-and-after-the-terminal",
        )
    ],
}
"""The lifecycle concerns (`refold.suites._lifecycle`, the Responses machine's parts in
`LIFECYCLE_MACHINE`): snapshots, `finished` exactly once a terminal arrived, an error event
changing nothing, only terminals and recovered items changing the Response after the
terminal, every read equal to the reference's; reading before any event; streams cut
anywhere or going on after the terminal folded like the reference."""
