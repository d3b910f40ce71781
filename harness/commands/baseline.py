"""`refold baseline --target X --write FILE`: record the target's current failures.

Runs the suites through pytest (as `refold check` does) with fixed draws (the same
examples every run; `--draws profile` opts out), reads the results JSON, and writes a
baseline: the claimed features, the settings that decided the examples drawn, every
failing rule as an expected failure (the first line of its failure as the reason) and
how it failed in each of its tests (fingerprints). It then checks the target against the
file it wrote, as `refold check --baseline FILE` will: the command fails if that gate run
does not pass, since a baseline that does not reproduce cannot gate a release.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from refold.baseline import SETTINGS_KEYS, Baseline, dump_baseline
from refold.fingerprints import Fingerprint

from .check import add_target_arguments, pytest_arguments

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
    """Run the suites, write the baseline, then gate the target on it."""
    args.draws = args.draws or "fixed"
    args.baseline = None
    with tempfile.TemporaryDirectory(prefix="refold-baseline-") as scratch:
        report = Path(scratch) / "results.json"
        status = pytest.main([*pytest_arguments(args), "--refold-report", str(report)])
        if status not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            print(f"refold baseline: the run ended with {status!r}; no baseline written")
            return int(status) or 1
        results = json.loads(report.read_text(encoding="utf-8"))
    baseline = baseline_from_results(results, target=args.target or "reference")
    comment = (f"refold baseline for {results['target']['description']}\n"
               f"written by `refold baseline --write`; {len(baseline.expected_failures)} "
               f"expected failures")
    Path(args.write).write_text(dump_baseline(baseline, comment=comment), encoding="utf-8")
    print(f"refold: wrote {args.write} ({len(baseline.expected_failures)} expected failures); "
          f"checking the target against it")
    args.baseline = args.write
    gated = pytest.main(pytest_arguments(args))
    if gated != pytest.ExitCode.OK:
        print(f"refold baseline: a gate run against {args.write} on the same target ended with "
              f"{gated!r} (its verdicts are above): the failures do not reproduce with these "
              f"settings, so the file cannot gate a release; try --profile ci, or edit the "
              f"entries the verdicts name")
        return int(gated) or 1
    print(f"refold: {args.write} gates {baseline.target}: the check against it passes")
    return 0


def baseline_from_results(results: dict[str, Any], *, target: str) -> Baseline:
    """The baseline that makes the run behind `results` pass: its failures expected."""
    failing = {rule_id: entry for rule_id, entry in results["rules"].items()
               if entry["status"] == "failed"}
    fingerprints = {rule_id: frozenset(Fingerprint.from_json(f) for f in entry["fingerprints"])
                    for rule_id, entry in failing.items() if entry.get("fingerprints")}
    recorded = results.get("settings") or {}
    return Baseline(path="(written)", target=target,
                    features=frozenset(results["target"]["features"]),
                    expected_failures={r: _reason(entry) for r, entry in failing.items()},
                    fingerprints=fingerprints,
                    settings={k: v for k, v in recorded.items() if k in SETTINGS_KEYS})


def _reason(entry: dict[str, Any]) -> str:
    reason = (entry.get("reason") or "fails").strip().splitlines()[0]
    return reason if len(reason) <= _REASON_LIMIT else reason[: _REASON_LIMIT - 3] + "..."
