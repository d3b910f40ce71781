"""Captures become corpus cases: `refold capture FILE --corpus DIR`.

A capture (a HAR file, JSON lines, raw SSE: `refold.capture.input`, `refold.capture.har`)
is read, each stream in it decoded by its dialect's own SSE layer, scrubbed on the way in
by the one scrubber (`refold.reference.scrub`, `scrub_text`: credentials in headers and in
any field, provider frames), and written as one case file (`refold.capture.corpus`) whose
expectation is the reference fold. Provenance is recorded: the source file's name, the
capture date, a sha256 of the original bytes, how the pieces came about, and for a HAR the
scrubbed exchange (method, URL, headers, status).

Scrubbing can change the stream's text; the case then holds the scrubbed text cut at the
same offsets where it still can (and says so: `provenance.scrubbed`), so the pieces served
and the items folded stay one stream.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from refold.reference import JSON, JSONObject, escape_controls, scrub, scrub_text

from ..dialects import Dialect
from .corpus import CASE_FORMAT, Case, frames, reference_outcome
from .har import har_streams
from .input import (
    CaptureError,
    Stream,
    detect_format,
    jsonl_stream,
    read_capture,
    split_http_head,
    sse_stream,
)

__all__ = ["Captured", "capture", "case_name", "question_of", "write_case"]


@dataclass
class Captured:
    """What one capture became: the cases written, and the questions a stated
    expectation raised (one per disagreeing case)."""

    cases: list[Case] = field(default_factory=list)
    questions: list[Case] = field(default_factory=list)


def _streams(data: bytes, source: Path, dialect: Dialect | None, form: str | None) -> list[Stream]:
    kind = form or detect_format(data)
    if kind == "har-array":
        raise CaptureError(
            f'{source}: a JSON array, expected a HAR object ({{"log": ...}}), '
            f"JSON lines (one object a line) or server-sent events"
        )
    if kind == "har":
        return har_streams(data, str(source), dialect)
    if kind == "jsonl":
        stream = jsonl_stream(data, str(source), dialect)
        stream.where = "the whole file"  # not the path given: it may name the user's folders
        return [stream]
    head, body = split_http_head(data)  # `curl -i`: the response's head, then its body
    stream = sse_stream(body, str(source), dialect)
    stream.where = "the whole file" if head is None else "the body after the response's head"
    stream.exchange = head
    return [stream]


def _recut(text: str, lengths: Sequence[int]) -> list[str]:
    """`text` cut at the cumulative `lengths` (the last piece takes what remains)."""
    pieces, at = [], 0
    for length in lengths[:-1]:
        pieces.append(text[at : at + length])
        at += length
    pieces.append(text[at:])
    return pieces


def _scrubbed(stream: Stream, dialect: Dialect) -> tuple[list[JSON], list[str] | None, bool]:
    """Items and pieces with every credential gone, and whether anything was."""
    if stream.parts is None:
        items = scrub(stream.items, text=scrub_text)
        return items, None, items != stream.items
    joined = "".join(stream.parts)
    cleaned = scrub_text(joined)
    parts = stream.parts if cleaned == joined else _recut(cleaned, [len(p) for p in stream.parts])
    try:
        items = dialect.decode_sse([p.encode("utf-8") for p in parts])
    except (ValueError, RecursionError):  # scrubbing broke a frame: keep the items, re-framed
        items = stream.items
    safe = scrub(items, text=scrub_text)
    if safe != items:  # a credential only a member's name shows: re-frame the items
        return safe, frames(dialect, safe), True
    return items, parts, cleaned != joined


def capture(
    source: Path,
    corpus: Path,
    *,
    dialect: Dialect | None = None,
    form: str | None = None,
    expect: JSONObject | None = None,
    name: str | None = None,
    extra: dict[str, Any] | None = None,
    force: bool = False,
) -> Captured:
    """Read `source`, write one case per stream into `corpus`; return what was written.

    `expect` is a stated expected result (one stream only); `extra` is merged into every
    case's provenance (the starter corpus records the documentation page there). Case
    names are made safe file names inside `corpus` (`case_name`); an existing case is
    replaced only with `force`, and nothing is written when one would be refused.

    Raises:
        CaptureError: the capture cannot be read (the message says where), or `expect`
            was given for a capture holding several streams.
    """
    data = read_capture(source)
    streams = _streams(data, source, dialect, form)
    if expect is not None and len(streams) != 1:
        raise CaptureError(
            f"--expect: {source} holds {len(streams)} streams; a stated "
            f"expectation is for a capture of one stream"
        )
    digest = hashlib.sha256(data).hexdigest()
    captured = Captured()
    stem = case_name(name or source.stem)
    for number, stream in enumerate(streams):
        named = stem if len(streams) == 1 else f"{stem}-{number}"
        captured.cases.append(_case(stream, named, source, digest, expect, extra or {}))
    if not force:
        for case in captured.cases:
            _refuse_existing(corpus / f"{case.name}.json")
    for case in captured.cases:
        write_case(corpus, case, force=force)
    captured.questions = [case for case in captured.cases if case.question is not None]
    return captured


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_MAX_NAME = 100


def case_name(raw: str) -> str:
    """`raw` as a case's file name inside the corpus: letters, digits, `.`, `_` and `-`
    only (every other run of characters, a path separator among them, becomes `-`), no
    leading dot or dash, at most 100 characters; "case" when nothing is left."""
    return _UNSAFE.sub("-", raw).strip(".-")[:_MAX_NAME].rstrip(".-") or "case"


def _refuse_existing(path: Path) -> None:
    if path.exists() or path.is_symlink():
        raise CaptureError(
            f"refold capture: {path} exists; a case is never overwritten "
            f"without a word: give --force to replace it, or --name for "
            f"another name"
        )


def _case(
    stream: Stream,
    name: str,
    source: Path,
    digest: str,
    expect: JSONObject | None,
    extra: dict[str, Any],
) -> Case:
    chosen = stream.dialect
    assert chosen is not None, "internal error: a stream without a dialect"
    items, parts, changed = _scrubbed(stream, chosen)
    outcome, expected, refusal = reference_outcome(chosen, items)
    provenance: dict[str, Any] = {
        "source": source.name,
        "captured": datetime.now(UTC).isoformat(timespec="seconds"),
        "sha256": digest,
        "where": stream.where,
        "pieces": _pieces(stream, parts, changed=changed),
        "scrubbed": changed,
    }
    if stream.exchange is not None:
        provenance["exchange"] = scrub(stream.exchange, text=scrub_text)
    provenance.update(scrub(extra, text=scrub_text))
    question = None
    if expect is not None:
        stated = scrub(expect, text=scrub_text)
        question = question_of(chosen, stated, outcome, expected, refusal)
        if question is None:
            expected = stated
    return Case(
        name=name,
        dialect=chosen,
        items=items,
        parts=parts,
        outcome=outcome,
        expected=expected,
        refusal=refusal,
        provenance=provenance,
        question=question,
    )


def _pieces(stream: Stream, parts: list[str] | None, *, changed: bool) -> str:
    """How the case's pieces came about: as the source holds them, or made anew because
    scrubbing changed the text (cut at the same offsets) or a member (one frame an item)."""
    if not changed or parts is None:
        return stream.pieces
    if stream.parts is not None and len(parts) == len(stream.parts):
        return "re-cut after scrubbing"
    return "re-framed after scrubbing"


def question_of(
    dialect: Dialect, stated: JSON, outcome: str, expected: JSONObject | None, refusal: str | None
) -> dict[str, Any] | None:
    """None when the reference agrees with the stated result; else the question to put to
    the contract: each difference's pointer, both values and the rules deciding there."""
    if outcome == "raises":
        return {
            "stated": stated,
            "reference": {"raises": refusal},
            "differences": [
                {
                    "pointer": "",
                    "rules": [],
                    "reference": f"the reference refuses the stream: {refusal}",
                    "stated": "a result",
                }
            ],
        }
    found = dialect.differences(stated, expected)
    if not found:
        return None
    return {
        "stated": stated,
        "differences": [
            {
                "pointer": d.pointer,
                "rules": sorted(dialect.rules_at(d.pointer)),
                "stated": _shown(d.expected),
                "reference": _shown(d.received),
            }
            for d in found
        ],
    }


def _shown(value: Any) -> JSON:
    from refold.reference import ABSENT

    return "(absent)" if value is ABSENT else value


def write_case(corpus: Path, case: Case, *, force: bool = False) -> Path:
    """Write `case` as `corpus/<name>.json` (scrubbed once more on the way out).

    The file is created, never opened through a link: a symbolic link planted in the
    corpus is replaced (with `force`) or refused, and its target is never written.

    Raises:
        CaptureError: the case exists and `force` is not given.
    """
    corpus.mkdir(parents=True, exist_ok=True)
    path = corpus / f"{case_name(case.name)}.json"
    content = scrub(case.document(), text=scrub_text)
    assert content["format"] == CASE_FORMAT
    # JSON escapes C0; DEL and C1 (a terminal obeys U+009B) as JSON escapes too.
    text = (
        escape_controls(json.dumps(content, indent=1, ensure_ascii=False, allow_nan=False)) + "\n"
    )
    if force and (path.is_symlink() or path.is_file()):
        path.unlink()
    _refuse_existing(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags, 0o644)
    except FileExistsError:
        _refuse_existing(path)
        raise
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path
