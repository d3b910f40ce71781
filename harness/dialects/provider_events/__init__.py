"""The `provider-events` dialect: adapters from provider streams to neutral events.

Its contract is events.md (`refold.reference.events`, rules `EV-*` and `PERSIST-*`); its
suites are `refold.suites.events`. What a target of it is given is not one kind of item
but the frames of a stream of another dialect (the source), so a stream of this dialect
is written as the protocol sends it (events.md §5): a `{"begin": SOURCE}` item naming the
source, then the frames, `"[DONE]"` where a Chat sentinel arrived. Everything a failure
records (replay files, reports) is then one self-contained list, and the reference
`fold` of such a list is the reference adapter's `normalize` of its frames.

What a target's `fold` returns, and what the canonical comparison compares
(`differences`), is the adapter's output: `{"events", "outcome", "persisted", ...}`, of
which the comparison reads the stripped events and the outcome's kind. Differential
tests hold an adapter to the reference adapter on exactly that (events.md §5.6).

A stream's shape (verdicts.md §1) is its source dialect's shape of its frames
(`SourceShapes`), so the departures it may carry are the source dialects'.
"""

from __future__ import annotations

from collections.abc import Iterable

from refold.reference import JSON, Difference, JSONObject
from refold.reference import events as reference_events
from refold.reference.events import differences

from ...errors import TargetError
from .._dialect import Dialect
from ._shapes import SourceShapes
from .adapters import ADAPTERS
from .targets import NODE_TARGETS, SDK_TARGETS

__all__ = ["BEGIN", "PROVIDER_EVENTS", "SOURCES", "begin", "comparable", "frames_of", "source_of"]

BEGIN = "begin"
"""The key of a stream's first item, naming its source dialect."""

SOURCES: tuple[str, ...] = reference_events.DIALECTS
"""The source dialects the reference adapter normalises."""


def begin(source: str, frames: Iterable[JSON]) -> list[JSON]:
    """The stream of this dialect that feeds `frames` of `source` to an adapter."""
    return [{BEGIN: source}, *frames]


def source_of(stream: list[JSON]) -> str:
    """The source dialect a stream of this dialect names.

    Raises:
        ValueError: the stream does not start with a `{"begin": SOURCE}` item.
    """
    head = stream[0] if stream else None
    if isinstance(head, dict) and set(head) == {BEGIN} and isinstance(head[BEGIN], str):
        return str(head[BEGIN])
    raise ValueError(
        f'a provider-events stream starts with {{"begin": SOURCE}}, one of '
        f"{', '.join(SOURCES)}; received {str(head)[:120]}"
    )


def frames_of(stream: list[JSON]) -> list[JSON]:
    """The frames of a stream of this dialect (everything after its `begin` item)."""
    source_of(stream)
    return stream[1:]


def _reference_fold(stream: list[JSON]) -> JSONObject:
    return reference_events.normalize(source_of(stream), frames_of(stream))


def comparable(output: JSON) -> JSON:
    """What differential tests compare of an adapter's output: its events as they would
    be persisted (strip(E), events.md §5.6) and its outcome's kind."""
    if not isinstance(output, dict):
        return output
    outcome = output.get("outcome")
    kind = (
        outcome.get("error", {}).get("kind")
        if isinstance(outcome, dict) and isinstance(outcome.get("error"), dict)
        else None
    )
    return {
        "events": _without_provider(reference_events.strip(output.get("events"))),
        "outcome": outcome.get("outcome") if isinstance(outcome, dict) else outcome,
        "error_kind": kind,
    }


def _without_provider(events: JSON) -> JSON:
    """The events with the turn's `provider` left out: it is the adapter's declared
    identifier (EV-TURN-FIELDS, checked against its declaration), not something the
    frames decide, so it is not the reference's to compare."""
    if not isinstance(events, list):
        return events
    return [
        {**event, "turn": {k: v for k, v in event["turn"].items() if k != "provider"}}
        if isinstance(event, dict) and isinstance(event.get("turn"), dict)
        else event
        for event in events
    ]


def _differences(expected: JSON, received: JSON) -> list[Difference]:
    return differences(comparable(expected), comparable(received))


_PERSIST_RULES = frozenset(r for r in reference_events.RULES if r.startswith("PERSIST-"))

POINTERLESS = _PERSIST_RULES
"""What is persisted is not compared (it is the runtime's own shape): the PERSIST rules
are judged by the checker, never by a pointer."""

_OUTCOME_RULES = frozenset(
    {
        "EV-TRUNCATED",
        "EV-ERROR-FRAME",
        "EV-ARGS-INVALID",
        "EV-CHOICE0",
        "EV-NO-COMPLETED-ON-ERROR",
        "EV-COMPLETED-LAST",
    }
)

_TABLE: tuple[tuple[str, frozenset[str]], ...] = (
    ("/outcome", _OUTCOME_RULES),
    ("/error_kind", _OUTCOME_RULES),
    (
        "/events",
        frozenset(reference_events.RULES) - _PERSIST_RULES - {"EV-TRUNCATED", "EV-CHOICE0"},
    ),
)
"""Pointer prefix of the compared output → the rules deciding the value there: the
outcome's rules decide the outcome, every other event rule the events."""

OUTSIDE_THE_SHAPE: frozenset[str] = frozenset()
"""No rule is about a key the compared output does not have."""


def _rules_at(pointer: str) -> frozenset[str]:
    """The rules deciding the value at a pointer of the compared output."""
    return next((rules for prefix, rules in _TABLE if pointer.startswith(prefix)), frozenset())


def _no_accumulator() -> None:
    raise TargetError(
        "a provider-events target is an adapter (begin, frame, end, persisted), not an accumulator",
        kind="unsupported",
    )


def _no_sse(parts: Iterable[bytes]) -> list[JSON]:
    raise TargetError(
        "provider-events has no wire layer of its own: the SSE rules are its source dialects'",
        kind="unsupported",
    )


PROVIDER_EVENTS = Dialect(
    name="provider-events",
    title="Provider-neutral events",
    spec="events.md",
    result="normalized stream",
    item="frame",
    rules=reference_events.RULES,
    spec_rules=frozenset(reference_events.RULES),
    features=reference_events.FEATURES,
    fold=_reference_fold,
    accumulator=_no_accumulator,
    differences=_differences,
    rules_at=_rules_at,
    pointerless=POINTERLESS,
    places=(),
    lifecycle_reads=(),
    lifecycle_calls=(),
    decode_sse=_no_sse,
    snapshot_rule="EV-OPAQUE-FRAME",
    sse_layer="items",
    suites="events",
    adapter_kind=ADAPTERS,
    reference_target="refold.dialects.provider_events.reference_target:DECLARATION",
    sdk_targets=SDK_TARGETS,
    node_targets=NODE_TARGETS,
    kit=None,
    reference_package="refold.reference.events",
    # the adapters: the neutral event model and each source dialect's mapping, in its own
    # package (not the checker's reading of the frames, `_neutral/source.py`, `ends.py`)
    reference_parts=(
        "_neutral/events.py",
        "_neutral/mapping.py",
        "_neutral/turn.py",
        "_neutral/calls.py",
        "*/neutral/_mapping.py",
    ),
    reference_tests="dialects/provider_events/test_reference_events_*.py",
    reference_equivalents="equivalent-mutants-events.toml",
    not_fold_features=frozenset(),
    shapes=SourceShapes(SOURCES),
)
"""Adapters from OpenAI Chat and Anthropic Messages streams to ProviderStreamEvents."""
