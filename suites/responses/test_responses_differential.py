"""Differential: on any stream, lossless or not, the target folds as the reference does.

Streams outside the lossless families (a partial non-empty terminal output, `.done` values
that contradict earlier ones, reused output indexes, orphan indexes, content events for an
item of another type, an `error` event, cut-off streams, events after the terminal, null
items, wrongly typed fields) have no known Response; the reference's fold of the same
events is the oracle. A stream only holds damage whose rules the target claims
(`refold.strategies.responses.allows`): wrongly typed fields and null items only with
`robustness`, a truncation or events after the terminal only with `lifecycle`.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from refold.checks import Check
from refold.marks import rule
from refold.reference.responses import fold
from refold.strategies.responses import event_streams

_NOT_FOLD = frozenset({"robustness", "lifecycle", "sse", "events"})


@rule(
    "RS-OUTPUT-TERMINAL",
    "RS-DONE-REPLACES",
    "RS-ITEM-DONE-REPLACES",
    "RS-ROUTE",
    "RS-ORPHAN",
    "RS-KIND-MATCH",
    "RS-ERROR-EVENT",
    "RS-READD",
)
@given(data=st.data())
def test_damaged_streams_fold_like_the_reference(check: Check, data: st.DataObject) -> None:
    # the spec's "not lossless" shapes and text's own damage: no wrong types, no cut
    # streams (robustness's and lifecycle's, below and in the lifecycle suite)
    features = check.target.features - _NOT_FOLD
    events = data.draw(event_streams(features=features), label="events")
    check.folds_to(
        list(events), fold(events), what="the reference's fold", ablate=True, found_by="fold"
    )


@rule("RS-WRONG-TYPE", "RS-NULL-ITEM", "RS-KEEPALIVE", "RS-UNKNOWN-KEYS")
@given(data=st.data())
def test_malformed_streams_fold_like_the_reference(check: Check, data: st.DataObject) -> None:
    # the claimed features' damage with robustness's: wrong types, null items, noise
    features = check.target.features - (_NOT_FOLD - {"robustness"})
    events = data.draw(event_streams(features=features), label="events")
    check.folds_to(
        list(events), fold(events), what="the reference's fold", ablate=True, found_by="fold"
    )
