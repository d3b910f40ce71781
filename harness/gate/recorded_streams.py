"""A baseline entry's verdict and minimal failing streams, and what replaying them says.

A baseline entry (`refold.gate.baseline`) records where its rule failed and what it cost
(`EntryVerdict`: the rule's `found_on`, `impact` and the departures of its minimal stream,
read from the results JSON under exactly those keys, `refold.reference.RuleRecord`) and
the minimal failing streams themselves (`RecordedStream`). Those streams are what makes
an entry stale or not: an entry is stale when every one of them passes when replayed
against the target (`replay_stream`, through the same `Check.folds_to` a replay file's
fold case runs, `refold.records.replaying`), never because a run's search met another failure
first or did not reach the rule.

What is kept is scrubbed and bounded: every stream goes through the one scrubber
(`refold.reference.persistable`); an entry keeps at most `STREAMS_PER_ENTRY` streams, each
at most `STREAM_BYTES` bytes of compact JSON (its items and the expected result). A
longer stream is not kept (the entry is then judged as one without streams).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from refold.reference import IMPACTS, SHAPES, Impact, Shape, persistable

from ..run.checks import Check, ConformanceFailure

__all__ = [
    "STREAMS_PER_ENTRY",
    "STREAM_BYTES",
    "EntryVerdict",
    "RecordedStream",
    "Replayed",
    "replay_stream",
    "streams_of",
    "verdict_of",
]

STREAMS_PER_ENTRY = 3
"""The most minimal failing streams a baseline entry keeps."""

STREAM_BYTES = 32 * 1024
"""The largest stream an entry keeps: bytes of compact JSON, items and expected result."""

Replayed = Literal["fails", "passes", "unknown"]
"""What replaying a recorded stream says: it still fails, it passes, or it cannot tell
(a stream recorded without an expected result that the target now folds without failing:
there is nothing to compare the fold with)."""


@dataclass(frozen=True, order=True)
class RecordedStream:
    """One minimal failing stream of a rule: its items, the result expected of them, as
    compact JSON text (what the TOML file holds), its shape and departures."""

    chunks: str
    expected: str = "null"
    shape: Shape | None = None
    departures: tuple[str, ...] = ()

    def as_toml_fields(self) -> dict[str, Any]:
        """The stream as the plain values of its inline table."""
        fields: dict[str, Any] = {"chunks": self.chunks, "expected": self.expected}
        if self.shape is not None:
            fields["shape"] = self.shape
        fields["departures"] = list(self.departures)
        return fields


@dataclass(frozen=True)
class EntryVerdict:
    """Where a rule failed and what it cost, as the entry records it (None: not recorded,
    a file written before verdicts, or a rule the run recorded none for)."""

    found_on: Shape | None = None
    impact: Impact | None = None
    departures: tuple[str, ...] = ()


def verdict_of(entry: Mapping[str, Any]) -> EntryVerdict:
    """A failed rule's verdict in the results JSON: its `found_on`, `impact` and
    `departures` (`RuleRecord`), else those of its failure record (`FailureRecord`'s
    `shape`, `impact`, `departures`); values outside the vocabularies are not kept."""
    raw = entry.get("failure")
    failure: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    found_on = entry.get("found_on") or failure.get("shape")
    impact = entry.get("impact") or failure.get("impact")
    departures = entry.get("departures")
    departures = failure.get("departures") if departures is None else departures
    return EntryVerdict(
        found_on=found_on if found_on in SHAPES else None,
        impact=impact if impact in IMPACTS else None,
        departures=_ids(departures),
    )


def streams_of(records: Iterable[Mapping[str, Any] | None]) -> tuple[RecordedStream, ...]:
    """The recordable streams of failure records: scrubbed, within `STREAM_BYTES`, each
    once, sorted (so two writes of the same failures give the same file), at most
    `STREAMS_PER_ENTRY`, the least departing first."""
    found: set[RecordedStream] = set()
    for record in records:
        stream = _stream(record) if isinstance(record, Mapping) else None
        if stream is not None:
            found.add(stream)
    ordered = sorted(found, key=lambda s: (_rank(s.shape), len(s.chunks), s))
    return tuple(ordered[:STREAMS_PER_ENTRY])


def _stream(record: Mapping[str, Any]) -> RecordedStream | None:
    chunks = record.get("chunks")
    if not isinstance(chunks, list) or not chunks:
        return None
    expected = record.get("expected")
    items = _compact(persistable(chunks))
    result = _compact(persistable(expected if isinstance(expected, dict) else None))
    if len(items.encode()) + len(result.encode()) > STREAM_BYTES:
        return None
    shape = record.get("shape")
    return RecordedStream(
        items, result, shape if shape in SHAPES else None, _ids(record.get("departures"))
    )


def _rank(shape: Shape | None) -> int:
    return SHAPES.index(shape) if shape is not None else len(SHAPES)


def _compact(value: Any) -> str:
    return json.dumps(
        value, ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":")
    )


def _ids(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        return ()
    return tuple(sorted({str(v) for v in value}))


def replay_stream(
    check: Check, stream: RecordedStream, rule_id: str, known: frozenset[str]
) -> Replayed:
    """Replay `stream` against `check`'s target as a test of `rule_id` whose other known
    failures (`known`) are masked, as a gate run masks them.

    With an expected result it is `Check.folds_to`, as a replay file's fold case; without
    one (a recorded crash), a fold that fails still fails, and one that does not cannot
    be judged."""
    chunks = json.loads(stream.chunks)
    expected = json.loads(stream.expected)
    check.rules, check.masked = (rule_id,), known - {rule_id}
    try:
        if isinstance(expected, dict):
            check.folds_to(chunks, expected)
            return "passes"
        check.fold(chunks)
        return "unknown"
    except ConformanceFailure:
        return "fails"
    except Exception:  # the harness could not replay it: no evidence either way
        return "unknown"
    finally:
        check.rules, check.masked = (), frozenset()
