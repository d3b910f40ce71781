"""The Anthropic strategies draw documented streams first (verdicts.md §1, issue 24 point 2):
every stream of the plain family (split family 1 alone) validates against the vendored
schema of the SDK's event types in the streaming page's order, the simplest draw of every
family and of the damaged streams is such a stream (so a shrunk failure lands on one
whenever one shows it), and every other family's streams carry only the departures
registered for that family."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from refold.dialects.anthropic_messages import ANTHROPIC_MESSAGES
from refold.strategies.anthropic import FEATURES, event_streams, round_trips
from refold.verdicts.shapes import StreamShapes

_SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
_FIND = settings(
    max_examples=500,
    database=None,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
_ALL = frozenset(FEATURES)
_claims = st.sets(st.sampled_from(FEATURES)).map(lambda f: frozenset(f | {"text"}))

_MESSAGE_DEPARTURES = frozenset({"AQ4", "AMD-UNKNOWN-BLOCK"})
"""What the message of any family but the plain one may carry: no usage at all (the docs'
thinking stream, AQ4) and, under `robustness`, a block of a type the SDK does not name."""

FAMILY_DEPARTURES: dict[int, frozenset[str]] = {
    2: frozenset(),
    3: frozenset(),
    4: frozenset(),
    5: frozenset(),
    6: frozenset(),
    7: frozenset(),
    8: frozenset(
        {"AQ20", "AMD-UNKNOWN-EVENT", "AMD-PING-BEFORE-START", "AMD-AFTER-STOP", "AMD-SECOND-START"}
    ),
    9: frozenset({"AQ7"}),
}
"""The departures each split family makes (anthropic-fold.md, "Lossless split families"):
families 2-7 are documented shapes; 8 adds pings (before message_start too), unknown
events (Vertex's among them) and events after message_stop (a late message_start among
them); 9 finishes the message inside message_start (programmatic tool calling)."""


def _shapes() -> StreamShapes:
    shapes = ANTHROPIC_MESSAGES.shapes
    assert shapes is not None
    return shapes


def _explained(events: list[Any]) -> str:
    shape = _shapes().of(events)
    return f"{shape.describe()}: " + "; ".join(str(v) for v in _shapes().violations(events))


@given(case=round_trips(features=_ALL, families=frozenset({1})))
@_SLOW
def test_every_stream_the_plain_family_draws_is_documented(case: Any) -> None:
    _, events = case
    assert _shapes().of(events).shape == "documented", _explained(events)
    assert _shapes().violations(events) == []


@given(data=st.data(), claimed=_claims)
@_SLOW
def test_a_plain_stream_of_any_claims_departs_at_most_by_carrying_no_usage(
    data: st.DataObject,
    claimed: frozenset[str],
) -> None:
    # usage is a feature: a target that does not claim it is sent no usage, as the
    # docs' thinking stream sends none
    _, events = data.draw(round_trips(features=claimed, families=frozenset({1})))
    shape = _shapes().of(events)
    allowed = {"documented"} if "usage" in claimed else {"documented", "observed"}
    assert shape.shape in allowed, _explained(events)
    assert set(shape.departures) <= {"AQ4"}, _explained(events)


@pytest.mark.parametrize("family", sorted(FAMILY_DEPARTURES))
@given(data=st.data())
@_SLOW
def test_each_familys_streams_carry_only_the_departures_registered_for_it(
    family: int,
    data: st.DataObject,
) -> None:
    _, events = data.draw(round_trips(features=_ALL, families=frozenset({1, family})))
    shape = _shapes().of(events)
    assert shape.unregistered == (), _explained(events)
    assert set(shape.departures) <= FAMILY_DEPARTURES[family] | _MESSAGE_DEPARTURES, _explained(
        events
    )


@given(events=event_streams(features=_ALL))
@_SLOW
def test_every_departure_a_damaged_stream_makes_is_registered(events: list[Any]) -> None:
    assert _shapes().of(events).unregistered == (), _explained(events)


@pytest.mark.parametrize("family", sorted(FAMILY_DEPARTURES))
def test_the_simplest_draw_of_each_family_is_documented(family: int) -> None:
    _, events = find(
        round_trips(features=_ALL, families=frozenset({1, family})),
        lambda case: True,
        settings=_FIND,
    )
    assert _shapes().of(events).shape == "documented", _explained(events)


@pytest.mark.parametrize("kind", ["text", "tool_use", "thinking", "web_search_tool_result"])
def test_a_failure_needing_a_block_shrinks_to_a_documented_stream(kind: str) -> None:
    _, events = find(
        round_trips(features=_ALL),
        lambda case: any(b["type"] == kind for b in case[0]["content"]),
        settings=_FIND,
    )
    assert _shapes().of(events).shape == "documented", _explained(events)


def test_the_simplest_damaged_stream_is_documented() -> None:
    events = find(event_streams(features=_ALL), lambda events: True, settings=_FIND)
    assert _shapes().of(events).shape == "documented", _explained(events)
