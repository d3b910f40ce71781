"""Differential: on any stream, lossless or not, the target folds as the reference does.

Streams outside the lossless families (cut off, an error mid-stream, interleaved blocks,
index gaps, repeated starts, deltas for the wrong block, invalid tool input, wrongly typed
fields) have no known Message; the reference's fold of the same events is the oracle. A
stream only holds damage whose rules the target claims (`refold.strategies.anthropic.allows`):
wrongly typed fields, unknown deltas and misplaced events only with `robustness`, an error
or a truncation only with `lifecycle`, and so on.
"""

from __future__ import annotations

from hypothesis import given, note
from hypothesis import strategies as st

from refold.run.checks import Check
from refold.run.marks import rule
from refold.strategies.anthropic import event_streams


@rule(
    "AM-DELTA-ROUTE",
    "AM-DELTA-MATCH",
    "AM-BLOCK-ORDER",
    "AM-BLOCK-REOPEN",
    "AM-START-ONCE",
    "AM-STOP-REASON",
    "AM-STOP-SEQUENCE",
)
@given(data=st.data())
def test_damaged_streams_fold_like_the_reference(check: Check, data: st.DataObject) -> None:
    features = check.target.features - {"robustness"}
    # damage on Anthropic's own shape (family 1): the damages are the departures, and
    # the test's marks are their rules; other lossless shapes (start text, ...) are
    # the round trips' and would be charged here to rules they are not about
    events = data.draw(event_streams(features=features, families=frozenset({1})), label="events")
    note(f"{len(events)} events, features {sorted(features)}")
    check.folds_like_reference(events)


@rule("AM-ROB-WRONG-TYPE", "AM-UNKNOWN-DELTA", "AM-UNKNOWN-EVENT", "AM-PING", "AM-BEFORE-START")
@given(data=st.data())
def test_malformed_streams_fold_like_the_reference(check: Check, data: st.DataObject) -> None:
    events = data.draw(event_streams(features=check.target.features), label="events")
    check.folds_like_reference(events)
