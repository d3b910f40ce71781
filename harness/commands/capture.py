"""`refold capture FILE... --corpus DIR`: captured streams become regression cases.

Reads HAR files (every streamed response in them), JSON lines of chunks or events and raw
server-sent events (`curl -N` output), tells the dialect from the content (or takes
`--dialect`), scrubs credentials on the way in and writes one case file per stream
(`refold.capture.corpus`, `refold.capture.captures`). `--expect FILE` states the expected result of
a
one-stream capture; when the reference folds the stream otherwise, the case is written
with the reference's expectation and the disagreement is printed as a question about the
contract (exit 1). A capture refold cannot read is refused in one paragraph (exit 4).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from refold.reference import cut_text

from ..capture.captures import Captured, capture
from ..capture.corpus import CORPUS_DIALECTS, Case
from ..errors import UsageError
from ._usage import dialect_option

__all__ = ["register"]

DISAGREED = 1
"""The exit status when a stated expectation disagrees with the reference."""


def register(subparsers: Any) -> None:
    """Add `refold capture` to the parser."""
    parser = subparsers.add_parser(
        "capture", help="turn captured streams (HAR, JSON lines, SSE) into corpus cases"
    )
    parser.add_argument(
        "sources",
        nargs="+",
        metavar="FILE",
        help="a HAR file, JSON lines of chunks or events, or raw SSE bytes",
    )
    parser.add_argument(
        "--corpus", required=True, metavar="DIR", help="the folder the case files are written into"
    )
    parser.add_argument(
        "--dialect",
        default=None,
        metavar="NAME",
        help=f"the stream dialect: {', '.join(CORPUS_DIALECTS)} (default: told from the content)",
    )
    parser.add_argument(
        "--format",
        dest="form",
        choices=("har", "jsonl", "sse"),
        default=None,
        help="the input format (default: told from the content)",
    )
    parser.add_argument(
        "--expect",
        metavar="FILE",
        default=None,
        help="a JSON file with the result the stream should fold to; checked against the reference",
    )
    parser.add_argument(
        "--name", default=None, help="the case's name (default: the source file's name)"
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace a case file of the same name (never replaced otherwise)",
    )
    parser.add_argument(
        "--url",
        default=None,
        help="where the capture comes from (a documentation page, a ticket); "
        "recorded in the case's provenance",
    )
    parser.add_argument(
        "--note",
        default=None,
        help="a sentence recorded in the provenance (how the source was edited)",
    )
    parser.set_defaults(run=run)


def _expectation(path: str | None) -> Any:
    if path is None:
        return None
    try:
        stated = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"--expect {path}: cannot read it: {exc.strerror or exc}") from exc
    except (ValueError, RecursionError) as exc:
        raise UsageError(
            f"--expect {path} is not UTF-8 JSON ({cut_text(str(exc), 200)}); "
            f"expected the folded result as one JSON object"
        ) from exc
    if not isinstance(stated, dict):
        raise UsageError(
            f"--expect {path} holds a {type(stated).__name__}; expected the "
            f"folded result as one JSON object"
        )
    return stated


def _extra(args: argparse.Namespace) -> dict[str, Any]:
    return {key: value for key, value in (("url", args.url), ("note", args.note)) if value}


def run(args: argparse.Namespace) -> int:
    """Capture every source; 0, or 1 when a stated expectation raised a question."""
    chosen = dialect_option(args.dialect)
    if chosen is not None and chosen.name not in CORPUS_DIALECTS:
        raise UsageError(
            f"--dialect {chosen.name}: a capture is a provider's stream, one of "
            f"{', '.join(CORPUS_DIALECTS)}"
        )
    stated = _expectation(args.expect)
    if stated is not None and len(args.sources) != 1:
        raise UsageError("--expect states the result of one capture; give one FILE")
    total = Captured()
    for source in args.sources:
        found = capture(
            Path(source),
            Path(args.corpus),
            dialect=chosen,
            form=args.form,
            expect=stated,
            name=args.name if len(args.sources) == 1 else None,
            extra=_extra(args),
            force=args.force,
        )
        total.cases += found.cases
        total.questions += found.questions
        for case in found.cases:
            print(_line(case, Path(args.corpus)))
    for case in total.questions:
        print(_question(case, args.expect))
    return DISAGREED if total.questions else 0


def _line(case: Case, corpus: Path) -> str:
    where = case.provenance.get("where", "")
    count = f"{len(case.items)} {case.dialect.items}"
    result = (
        "folds"
        if case.outcome == "folds"
        else f"the reference refuses it ({cut_text(case.refusal or '', 80)})"
    )
    scrubbed = ", credentials scrubbed" if case.provenance.get("scrubbed") else ""
    return (
        f"refold capture: {corpus / (case.name + '.json')}: {case.dialect.name}, {count} "
        f"({where}, pieces {case.provenance.get('pieces')}{scrubbed}); {result}"
    )


def _json(value: Any) -> str:
    return cut_text(json.dumps(value, ensure_ascii=False), 120)


def _question(case: Case, stated: str) -> str:
    question = case.question or {}
    lines = [
        f"refold capture: question about the {case.dialect.spec} contract: {stated} "
        f"states a result the reference does not fold {case.name} to; the case keeps "
        f"the reference's and records the question:"
    ]
    for difference in question.get("differences", []):
        rules = ", ".join(difference.get("rules") or []) or "no rule owns this place"
        lines.append(
            f"  at {difference['pointer'] or '(the whole result)'} ({rules}): stated "
            f"{_json(difference['stated'])}, reference {_json(difference['reference'])}"
        )
    return "\n".join(lines)
