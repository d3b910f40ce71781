"""Events targets: adapters from provider streams to neutral events (events.md §5).

An events target is a `Target` of the `provider-events` dialect: its `fold` runs the
adapter over one stream of that dialect (a `{"begin": SOURCE}` item, then the frames) and
returns the adapter's output as one plain JSON value:

    {"events": [...],       every event, in the order emitted
     "emitted": [k, ...],   per event, the frame it was emitted for (len(frames): at end)
     "outcome": {...},      {"outcome": "completed"} or {"outcome": "error", "error": {...}}
     "persisted": ...}      what the adapter's runtime would persist for the turn

A Python adapter is declared as

    refold_target = {"dialect": PROVIDER_EVENTS_NAME, "adapter": Factory,
                     "accepts": [SOURCE_DIALECT_NAME, ...],
                     "provider": "my-runtime", "features": ["events"]}

(the names are those `refold rules` lists: the events dialect's, and each provider
dialect whose streams the adapter accepts)

where `Factory()` makes one adapter per stream with `begin(dialect)`, `frame(frame) ->
list[event]`, `end() -> outcome` (optionally carrying the final `events`),
`persisted()` and, optionally, `fold(events) -> turn`. Every call goes through
`refold.targets.python`'s guard, so an adapter that raises fails the rule under test.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from refold.dialects._dialect import Dialect
from refold.errors import TargetError, UsageError
from refold.reference import JSON, JSONObject
from refold.reference._json import copy_json
from refold.targets.remote import TargetAccumulator, check_features

from .. import PROVIDER_EVENTS, SOURCES, frames_of, source_of

if TYPE_CHECKING:
    from refold.run.projection import Projection
    from refold.targets.sdk.decoders import AnySSEDecode

__all__ = [
    "EventsTarget",
    "PythonEventsTarget",
    "accepted_sources",
    "adapter_target",
    "outcome_of",
    "unaccepted",
]


class EventsTarget:
    """What every events target has beyond `Target`: the sources it accepts, the
    provider it declares, and optionally its own fold of events into a turn."""

    name: str
    dialect: Dialect = PROVIDER_EVENTS
    features: frozenset[str]
    description: str
    accepts: frozenset[str]
    provider: str | None
    sse: AnySSEDecode | None = None
    """Adapters have no SSE decoder of their own: wire rules are the sources'."""
    projection: Projection | None = None
    """Adapters state no projection: their whole output is compared (the events
    dialect lists no places, `Dialect.places`)."""
    offers_fold: bool = False

    def fold(self, chunks: list[JSON]) -> JSONObject:
        """Run the adapter over one stream of this dialect; its whole output. A stream of
        a source it does not accept is refused (`unsupported`) before the adapter sees it."""
        refusal = unaccepted(self, chunks)
        if refusal is not None:
            raise TargetError(refusal, kind="unsupported")
        return self._run(chunks)

    def _run(self, chunks: list[JSON]) -> JSONObject:
        raise NotImplementedError

    def fold_events(self, events: list[JSON]) -> JSON:
        """The adapter's own fold of `events` into a turn (only when `offers_fold`)."""
        raise TargetError(f"{self.name} offers no fold of events", kind="unsupported")

    def accumulator(self) -> TargetAccumulator:
        """Adapters have no accumulator interface."""
        raise TargetError(
            f"{self.name} is an events adapter, not an accumulator", kind="unsupported"
        )

    def close(self) -> None:
        """Release what the target holds."""


def unaccepted(target: EventsTarget, stream: list[JSON]) -> str | None:
    """Why `target` is not fed `stream` (a source it does not accept), or None."""
    source = source_of(stream)
    if source in target.accepts:
        return None
    return (
        f"{target.name} accepts {', '.join(sorted(target.accepts)) or 'no source'} "
        f"streams, not {source}"
    )


def outcome_of(value: Any, what: str) -> JSONObject:
    """The outcome an adapter returned, checked for its shape; the events it carries
    (`events`) stay in it for the caller to take."""
    if isinstance(value, str) and value in ("completed", "error"):
        return {"outcome": value}
    if isinstance(value, dict) and value.get("outcome") in ("completed", "error"):
        checked: JSONObject = _plain(value, what)
        return checked
    raise TargetError(
        f'{what} returned {str(value)[:200]!r}, expected {{"outcome": '
        f'"completed"}} or {{"outcome": "error", "error": {{"kind", '
        f'"message"}}}}',
        kind="protocol",
    )


def _plain(value: Any, what: str) -> Any:
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise TargetError(
            f"{what} returned a value that is not plain JSON: {exc}", kind="not-json"
        ) from exc


def _events(value: Any, what: str) -> list[JSON]:
    if not isinstance(value, list):
        raise TargetError(
            f"{what} returned {type(value).__name__}, expected a list of events", kind="protocol"
        )
    plain: list[JSON] = _plain(value, what)
    return plain


@dataclass(eq=False)
class PythonEventsTarget(EventsTarget):
    """An adapter implemented in this Python process."""

    name: str
    features: frozenset[str]
    description: str
    accepts: frozenset[str]
    provider: str | None
    factory: Callable[[], Any]
    offers_fold: bool = False

    def _run(self, chunks: list[JSON]) -> JSONObject:
        """Run one fresh adapter over the stream, frame by frame."""
        from refold.targets.python import _call

        source, frames = source_of(chunks), frames_of(chunks)
        adapter = _call(f"{self.name}()", self.factory)
        _call(f"begin({source!r})", adapter.begin, source)
        events: list[JSON] = []
        emitted: list[int] = []
        for number, frame in enumerate(frames):
            produced = _events(
                _call(f"frame({number})", adapter.frame, copy_json(frame)), f"frame({number})"
            )
            events += produced
            emitted += [number] * len(produced)
        outcome = outcome_of(_call("end()", adapter.end), "end()")
        final = _events(outcome.pop("events", []), "end()")
        events += final
        emitted += [len(frames)] * len(final)
        persisted = _plain(_call("persisted()", adapter.persisted), "persisted()")
        return {"events": events, "emitted": emitted, "outcome": outcome, "persisted": persisted}

    def fold_events(self, events: list[JSON]) -> JSON:
        """The adapter's `fold(events)`, on a fresh adapter."""
        from refold.targets.python import _call

        if not self.offers_fold:
            return super().fold_events(events)
        adapter = _call(f"{self.name}()", self.factory)
        return _plain(_call("fold(events)", adapter.fold, copy_json(events)), "fold(events)")


def accepted_sources(value: Any, origin: str) -> frozenset[str]:
    """The source dialects an adapter declares it accepts (`accepts`).

    Raises:
        UsageError: `accepts` is missing, empty, or names a dialect no reference adapter
            normalises.
    """
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise UsageError(
            f"{origin}: `accepts` is {value!r}, expected a list of the source "
            f"dialects the adapter normalises: {', '.join(SOURCES)}"
        )
    accepts = frozenset(value)
    unknown = sorted(str(v) for v in accepts - set(SOURCES))
    if not accepts or unknown:
        raise UsageError(
            f"{origin}: `accepts` names {', '.join(unknown) or 'nothing'}; "
            f"expected some of {', '.join(SOURCES)}"
        )
    return accepts


def adapter_target(
    declaration: dict[str, Any], name: str, features: frozenset[str] | None
) -> PythonEventsTarget:
    """The events target a `refold_target` declaration with an `adapter` names."""
    origin = f"refold_target of {name}"
    factory = declaration["adapter"]
    if not callable(factory):
        raise UsageError(
            f"{origin}: `adapter` is a {type(factory).__name__}, expected a "
            f"class or factory making one adapter per stream"
        )
    claimed = (
        features if features is not None else frozenset(declaration.get("features") or ("events",))
    )
    checked = check_features(
        claimed,
        supported=frozenset(PROVIDER_EVENTS.features),
        origin=origin,
        dialect=PROVIDER_EVENTS,
    )
    provider = declaration.get("provider")
    described = declaration.get("description")
    return PythonEventsTarget(
        name=str(declaration.get("name") or name),
        features=checked,
        description=str(described) if described is not None else f"events adapter {name}",
        accepts=accepted_sources(declaration.get("accepts"), origin),
        provider=None if provider is None else str(provider),
        factory=factory,
        offers_fold=bool(declaration.get("fold_events", hasattr(factory, "fold"))),
    )


class RemoteEventsTarget(EventsTarget):
    """A Python adapter served by a worker process (`refold.targets.isolation`): the
    worker runs the whole stream through the in-process adapter, so where each event
    was emitted is recorded as in-process, and answers with the output."""

    def __init__(self, remote: Any) -> None:
        self._remote = remote
        hello = remote.hello
        self.name = remote.name
        self.features = remote.features
        self.description = remote.description
        self.accepts = accepted_sources(hello.get("accepts"), f"target {remote.name}")
        provider = hello.get("provider")
        self.provider = None if provider is None else str(provider)
        self.offers_fold = "fold_events" in remote.operations

    def _run(self, chunks: list[JSON]) -> JSONObject:
        """The worker's run of the adapter over the stream."""
        output: JSONObject = self._remote.fold(chunks)
        return output

    def fold_events(self, events: list[JSON]) -> JSON:
        """The worker's call of the adapter's `fold(events)`."""
        if not self.offers_fold:
            return super().fold_events(events)
        reply = self._remote._call({"op": "fold_events", "events": events}, "fold(events)")
        return reply.get("turn")

    def close(self) -> None:
        """End the worker."""
        self._remote.close()
