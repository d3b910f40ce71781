"""`refold report`: render the reports of a run from its JSON documents.

    refold report results.json --mutation mutation.json --coverage coverage.json \\
        --history history/ --record --fail-on-score-drop --out reports/

With `--history`, the trend across earlier runs is drawn; `--record` adds this run
to the folder; `--fail-on-score-drop` exits 1 when the mutation score is lower than
the last recorded run's (the nightly job's gate).

    refold report --matrix reports/conformance/*/results.json --out reports/conformance

draws many runs side by side instead: `matrix.html` and `matrix.md`, rules as rows and
targets as columns, grouped by dialect and feature.

    refold report --upstream reports/results.json --out upstream/

writes one bug report (Markdown) per rule that fails on documented streams, ready to file
in the SDK's own tracker, and says how many failed rules were not filed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..records.redaction import redact

__all__ = ["register", "run", "score_drop"]


def register(subparsers: Any) -> None:
    """Add `refold report` to the parser."""
    parser = subparsers.add_parser("report", help="write HTML/JSON/JUnit/Markdown reports")
    parser.add_argument("results", type=Path, nargs="?", help="the results JSON of `refold check`")
    parser.add_argument(
        "--matrix",
        type=Path,
        nargs="+",
        metavar="RESULTS",
        help="results JSON of several runs: write the conformance matrix",
    )
    parser.add_argument(
        "--upstream",
        type=Path,
        metavar="RESULTS",
        help="results JSON of a run: write a bug report per rule failing on documented streams",
    )
    parser.add_argument("--mutation", type=Path, help="the result JSON of `refold mutate`")
    parser.add_argument("--coverage", type=Path, help="the JSON of `refold coverage`")
    parser.add_argument("--history", type=Path, help="folder of earlier runs: draw the trend")
    parser.add_argument("--record", action="store_true", help="add this run to --history")
    parser.add_argument(
        "--fail-on-score-drop",
        action="store_true",
        help="exit 1 if the score is below the last run's in --history",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("refold-report"),
        help="output folder (default refold-report)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the reports (or the matrix); apply the score gate."""
    from refold.reports import history_entry, load_history, record_history, write_all

    if args.upstream is not None:
        return _upstream(args)
    if args.matrix:
        return _matrix(args)
    if args.results is None:
        raise UsageError(
            "give the results JSON of a run (refold check "
            "--report-dir writes results.json), --matrix RESULTS... to draw "
            "several runs side by side, or --upstream RESULTS to write bug "
            "reports for the SDK's tracker."
        )

    results = _read(args.results)
    mutation = _read(args.mutation) if args.mutation else None
    coverage = _read(args.coverage) if args.coverage else None
    earlier = load_history(args.history) if args.history else []
    for path in write_all(
        results, args.out, mutation=mutation, coverage=coverage, history=args.history
    ):
        print(path)
    drop = score_drop(earlier, mutation)
    if args.fail_on_score_drop and drop:
        # Not recorded: the next run must still compare against the better score.
        print(f"refold report: {drop}", file=sys.stderr)
        return 1
    if args.record and args.history:
        print(record_history(history_entry(results, mutation), args.history))
    return 0


def _matrix(args: argparse.Namespace) -> int:
    from refold.reports import write_matrix

    if args.results is not None:
        raise UsageError(
            f"--matrix takes every results file itself; received "
            f"{args.results} before it as well. Put it after --matrix."
        )
    for path in write_matrix([_read(path) for path in args.matrix], args.out):
        print(path)
    return 0


def _upstream(args: argparse.Namespace) -> int:
    from refold.reports import write_upstream

    if args.matrix or args.results is not None:
        given = "--matrix" if args.matrix else str(args.results)
        raise UsageError(
            f"--upstream takes the results JSON of one run itself; received "
            f"{given} as well. Give either --upstream RESULTS (bug reports "
            "for the SDK's tracker) or --matrix RESULTS... (several runs side "
            "by side), not both."
        )
    written, summary = write_upstream(_read(args.upstream), args.out)
    for path in written:
        print(path)
    print(summary)
    return 0


def score_drop(earlier: list[dict[str, Any]], mutation: dict[str, Any] | None) -> str | None:
    """Why the score dropped below the last scored run's, or None if it did not."""
    scored = [e for e in earlier if e.get("score") is not None]
    if not scored or mutation is None:
        return None
    previous, current = float(scored[-1]["score"]), mutation.get("score")
    if current is None or float(current) < previous:
        return (
            f"mutation score dropped from {previous:.2f}% (run of {scored[-1]['started']}) "
            f"to {current if current is None else f'{float(current):.2f}%'}"
        )
    return None


def _read(path: Path) -> dict[str, Any]:
    """The JSON document at `path`, without this machine's canaries and with local paths
    relative to named roots (`refold.records.redaction`): a document re-rendered is rendered
    clean."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(
            f"cannot read {path}: {exc.strerror or exc}; expected the JSON "
            "document of a run (refold check --report-dir writes "
            "results.json)."
        ) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError(
            f"{path} is not a JSON document ({exc}); expected the results "
            "JSON of a run (refold check --report-dir writes results.json)."
        ) from None
    if not isinstance(document, dict):
        raise UsageError(
            f"{path} holds a JSON {type(document).__name__}; expected an "
            "object, the results JSON of a run."
        )
    redacted: dict[str, Any] = redact(document)
    return redacted
