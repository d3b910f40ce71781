"""`refold baseline --target X --write FILE`: record the target's current failures.

Runs the suites through pytest (as `refold check` does), reads the results JSON, and
writes a baseline listing the claimed features and every failing rule as an expected
failure, with the first line of its failure as the reason. Checking the same target
with `--baseline FILE` is then green, and any change in its failures fails the run.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from refold.baseline import Baseline, dump_baseline
from refold.reference import cut_text, scrub_text

from .check import add_target_arguments, preflight, pytest_arguments

__all__ = ["baseline_from_results", "register"]

_REASON_LIMIT = 160


def register(subparsers: Any) -> None:
    """Add `refold baseline` to the parser."""
    parser = subparsers.add_parser("baseline", help="record a target's current failures")
    add_target_arguments(parser)
    parser.add_argument("--write", required=True, metavar="FILE",
                        help="the baseline file to write (TOML)")
    parser.add_argument("pytest_args", nargs="*", help="further pytest arguments (after --)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the suites, then write the baseline; fail if the run itself broke."""
    refused = preflight(args, "baseline")
    if refused is not None:
        return refused
    with tempfile.TemporaryDirectory(prefix="refold-baseline-") as scratch:
        report = Path(scratch) / "results.json"
        argv = [*pytest_arguments(args), "--refold-report", str(report)]
        status = pytest.main(argv)
        if status not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            print(f"refold baseline: the run ended with {status!r}; no baseline written")
            return int(status) or 1
        results = json.loads(report.read_text(encoding="utf-8"))
    baseline = baseline_from_results(results, target=args.target or "reference")
    # A TOML comment is one line of printable text; the description is the target's own.
    description = "".join(c if c.isprintable() else " " for c in cut_text(
        scrub_text(" ".join(str(results["target"]["description"]).split())), _REASON_LIMIT))
    comment = (f"refold baseline for {description}\n"
               f"written by `refold baseline --write`; {len(baseline.expected_failures)} "
               f"expected failures")
    Path(args.write).write_text(dump_baseline(baseline, comment=comment), encoding="utf-8")
    print(f"refold: wrote {args.write} ({len(baseline.expected_failures)} expected failures)")
    return 0


def baseline_from_results(results: dict[str, Any], *, target: str) -> Baseline:
    """The baseline that makes the run behind `results` pass: its failures expected.

    A blocked rule is not listed: no test judged it (another rule's crash stopped its
    tests), and the gated run reads a crash charged to a listed rule as xfailed."""
    failing = {rule_id: _reason(entry) for rule_id, entry in results["rules"].items()
               if entry["status"] == "failed"}
    return Baseline(path="(written)", target=target,
                    features=frozenset(results["target"]["features"]),
                    expected_failures=failing)


def _reason(entry: dict[str, Any]) -> str:
    # Scrubbed again: the results file may come from an older refold (or a hand edit).
    reason = scrub_text(entry.get("reason") or "fails").strip().splitlines()[0]
    return reason if len(reason) <= _REASON_LIMIT else reason[: _REASON_LIMIT - 3] + "..."
