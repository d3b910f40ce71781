"""Failure records: a conformance failure as every record carries it.

Scrubbed and bounded (`kept`: one scrubber for every persisted document, then the size
caps; the message is rendered from that copy), plain JSON (`failure_record`), with the
shape and departures of its stream and its impact; and as it crosses from an xdist worker
to the controller in a test report, as JSON text (`encode_failure`, `encode_failures`,
and their decoders). `refold.records.replay` re-exports them, where they were first defined.
"""

from __future__ import annotations

import json
from typing import Any

from refold.reference import (
    ABSENT,
    IMPACTS,
    JSON,
    SHAPES,
    Difference,
    FailureRecord,
    bound,
    diagnosis_of_record,
    persistable,
    scrub_at,
)
from refold.reference import failure_record as _record

from ..run.checks import ConformanceFailure
from .redaction import persisted_text, redact

__all__ = [
    "decode_failure",
    "decode_failures",
    "encode_failure",
    "encode_failures",
    "failure_record",
    "kept",
]


def kept(failure: ConformanceFailure) -> ConformanceFailure:
    """The failure as it may be persisted: every value scrubbed (this machine's canaries
    and local paths too, `refold.records.redaction`) and bounded, so that the message rendered from
    it is too."""
    return ConformanceFailure(
        failure.rules,
        persisted_text(failure.summary),
        chunks=persistable(redact(failure.chunks)),
        differences=[
            Difference(
                persisted_text(d.pointer),
                _kept_at(d.pointer, d.expected),
                _kept_at(d.pointer, d.received),
            )
            for d in failure.differences
        ],
        expected=persistable(redact(failure.expected)),
        received=persistable(redact(failure.received)),
        target_error=persistable(redact(failure.target_error)),
        # Rule ids, chunk numbers and an exception signature: the located crash, kept so
        # the persisted message says where it raised and what it was charged to.
        crash=failure.crash,
        compared_fold=failure.compared_fold,
        claimed=failure.claimed,
        ablation=failure.ablation,  # rule ids by pointer: what the differences were charged
        violations=tuple((rule_id, persisted_text(text)) for rule_id, text in failure.violations),
        shown=tuple(persisted_text(text) for text in failure.shown),
        # Names from the policy catalogue, not from the stream or the target.
        diagnosis=failure.diagnosis,
    )


def _kept_at(pointer: str, value: JSON) -> JSON:
    return value if value is ABSENT else bound(scrub_at(pointer, redact(value)))


def failure_record(failure: ConformanceFailure) -> FailureRecord:
    """The failure as the results report carries it (scrubbed, bounded, plain JSON), with
    the shape and departures of its stream (told before scrubbing: a redacted value is
    not the provider's) and its impact."""
    safe = kept(failure)
    record: FailureRecord = persistable(
        _record(
            str(safe),
            chunks=safe.chunks,
            expected=safe.expected,
            received=safe.received,
            pointer=safe.differences[0].pointer if safe.differences else None,
        )
    )
    if safe.diagnosis is not None:
        record["diagnosis"] = persistable(safe.diagnosis)
    shape = failure.stream_shape
    record["shape"], record["departures"] = shape.shape, list(shape.departures)
    if (impact := failure.impact) is not None:
        record["impact"] = impact
    if own := {r: i for r, i in failure.impacts.items() if i != impact}:
        # the rules whose own differences cost less (or otherwise) than the failure's
        record["impacts"] = own
    return record


def encode_failure(failure: ConformanceFailure, *, replay_file: str | None = None) -> str:
    """The failure record as a test report carries it: one bounded, plain JSON string.

    Under pytest-xdist the report crosses from a worker through execnet, which cannot
    serialise every value a record may hold (an integer below -2**31 ended the run in an
    INTERNALERROR); `failure_record` is already scrubbed and bounded.
    """
    record = failure_record(failure)
    if replay_file is not None:
        record["replay_file"] = replay_file
    return json.dumps(record, ensure_ascii=False, allow_nan=False)


def encode_failures(failures: list[tuple[ConformanceFailure, dict[str, Any] | None]]) -> str:
    """Every failure a test reports, with the rules it is evidence against and its
    replay file's content (None: none is written), as one plain JSON string
    (`decode_failures`; see `encode_failure`)."""
    return json.dumps(
        [
            {
                "record": failure_record(failure),
                "implicated": list(failure.implicated),
                "replay": replay,
            }
            for failure, replay in failures
        ],
        ensure_ascii=False,
        allow_nan=False,
    )


def decode_failures(
    value: object,
) -> list[tuple[FailureRecord, tuple[str, ...], dict[str, Any] | None]]:
    """The (record, implicated rules, replay content) entries `encode_failures` wrote;
    [] when `value` is not such a text, and malformed entries left out."""
    try:
        entries = json.loads(value) if isinstance(value, str) else None
    except ValueError:
        return []
    found: list[tuple[FailureRecord, tuple[str, ...], dict[str, Any] | None]] = []
    for entry in entries if isinstance(entries, list) else []:
        record = _decoded(entry.get("record")) if isinstance(entry, dict) else None
        if record is None:
            continue
        implicated = entry.get("implicated")
        replay = entry.get("replay")
        found.append(
            (
                record,
                tuple(str(r) for r in implicated) if isinstance(implicated, list) else (),
                replay if isinstance(replay, dict) else None,
            )
        )
    return found


def decode_failure(value: object) -> FailureRecord | None:
    """The record `encode_failure` wrote, or None when `value` is not one."""
    if not isinstance(value, str):
        return None
    try:
        record = json.loads(value)
    except ValueError:
        return None
    return _decoded(record)


def _decoded(record: object) -> FailureRecord | None:
    """A failure record read back from plain JSON (None: it is not one)."""
    if not (isinstance(record, dict) and isinstance(record.get("message"), str)):
        return None
    found = _record(
        record["message"],
        chunks=record.get("chunks"),
        expected=record.get("expected"),
        received=record.get("received"),
        pointer=record.get("pointer"),
    )
    if isinstance(record.get("replay_file"), str):
        found["replay_file"] = record["replay_file"]
    diagnosis = diagnosis_of_record(record)
    if diagnosis is not None:
        found["diagnosis"] = diagnosis
    if record.get("shape") in SHAPES:
        found["shape"] = record["shape"]
        departures = record.get("departures")
        found["departures"] = [str(d) for d in departures] if isinstance(departures, list) else []
    if record.get("impact") in IMPACTS:
        found["impact"] = record["impact"]
    impacts = record.get("impacts")
    if isinstance(impacts, dict) and (
        own := {str(r): i for r, i in impacts.items() if i in IMPACTS}
    ):
        found["impacts"] = own
    return found
