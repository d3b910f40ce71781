"""`refold baseline --target X --write FILE`: record the target's current failures.

Runs the suites through pytest (as `refold check` does) with fixed draws (the same
examples every run; `--draws profile` opts out), reads the results JSON, and writes a
baseline: the dialect the run checked, the claimed features, the settings that decided
the examples drawn, every failing rule as an expected failure (the first line of its
failure as the reason) and how it failed in each of its own tests (fingerprints).

It then checks the target against the file, as `refold check --baseline FILE` will. That
run can differ from the first: known failures are masked in other rules' tests
(`refold.checks`), so Hypothesis searches on past them and may find failures the first
run's shrinking hid. What the check finds is folded into the file and checked again, up
to three times; the command fails if the file still does not pass, since a baseline that
does not reproduce cannot gate a release.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from refold.baseline import SETTINGS_KEYS, Baseline, dump_baseline
from refold.fingerprints import Fingerprint
from refold.reference import cut_text, dialect_record, scrub_text

from .check import add_target_arguments, preflight, pytest_arguments

__all__ = ["baseline_from_results", "register", "revise_baseline"]

_REASON_LIMIT = 160
_CHECKS = 3


def register(subparsers: Any) -> None:
    """Add `refold baseline` to the parser."""
    parser = subparsers.add_parser("baseline", help="record a target's current failures")
    add_target_arguments(parser)
    parser.add_argument("--write", required=True, metavar="FILE",
                        help="the baseline file to write (TOML)")
    parser.add_argument("pytest_args", nargs="*", help="further pytest arguments (after --)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the suites, write the baseline, then gate the target on it until it passes."""
    refused = preflight(args, "baseline")
    if refused is not None:
        return refused
    args.draws, args.baseline = args.draws or "fixed", None
    with tempfile.TemporaryDirectory(prefix="refold-baseline-") as scratch:
        report = Path(scratch) / "results.json"
        status = pytest.main([*pytest_arguments(args), f"--refold-report={report}"])
        if status not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            print(f"refold baseline: the run ended with {status!r}; no baseline written")
            return int(status) or 1
        results = json.loads(report.read_text(encoding="utf-8"))
        baseline = baseline_from_results(results, target=args.target or "reference")
        for _ in range(_CHECKS):
            _write(args.write, baseline, results)
            gated, checked = _gate(args, report)
            if gated == pytest.ExitCode.OK:
                print(f"refold: {args.write} gates {baseline.target}: the check against it "
                      f"passes")
                return 0
            if gated != pytest.ExitCode.TESTS_FAILED or checked is None:
                break
            revised = revise_baseline(baseline, checked)
            if revised == baseline:
                break
            baseline = revised
    print(f"refold baseline: a gate run against {args.write} on the same target ended with "
          f"exit status {gated} (its verdicts are above): the failures do not reproduce with "
          f"these settings, so the file cannot gate a release; try --profile ci, or edit the "
          f"entries the verdicts name")
    return int(gated) or 1


def _write(path: str, baseline: Baseline, results: dict[str, Any]) -> None:
    # A TOML comment is one line of printable text; the description is the target's own.
    description = "".join(c if c.isprintable() else " " for c in cut_text(
        scrub_text(" ".join(str(results["target"]["description"]).split())), _REASON_LIMIT))
    comment = (f"refold baseline for {description}\n"
               f"written by `refold baseline --write`; {len(baseline.expected_failures)} "
               f"expected failures")
    Path(path).write_text(dump_baseline(baseline, comment=comment), encoding="utf-8")
    print(f"refold: wrote {path} ({len(baseline.expected_failures)} expected failures); "
          f"checking the target against it", flush=True)


def _gate(args: argparse.Namespace, report: Path) -> tuple[int, dict[str, Any] | None]:
    """Check the target against the written file; its exit status and results."""
    report.unlink(missing_ok=True)
    args.baseline = args.write
    # A second pytest.main in this process would find the suites already imported (and
    # not assertion-rewritten); a fresh interpreter runs them as `refold check` would.
    argv = [sys.executable, "-m", "pytest", *pytest_arguments(args),
            f"--refold-report={report}"]
    status = subprocess.run(argv, check=False).returncode
    checked = json.loads(report.read_text(encoding="utf-8")) if report.is_file() else None
    return status, checked


def baseline_from_results(results: dict[str, Any], *, target: str) -> Baseline:
    """The baseline that makes the run behind `results` pass: its failures expected.

    A blocked rule is not listed: no test judged it (another rule's crash stopped its
    tests), and the gated run reads a crash charged to a listed rule as xfailed."""
    failing = {rule_id: entry for rule_id, entry in results["rules"].items()
               if entry["status"] == "failed"}
    recorded = results.get("settings") or {}
    return Baseline(path="(written)", dialect=dialect_record(results)["name"], target=target,
                    features=frozenset(results["target"]["features"]),
                    projection=results["target"].get("projection"),
                    expected_failures={r: _reason(entry) for r, entry in failing.items()},
                    fingerprints=_fingerprints(failing),
                    settings={k: v for k, v in recorded.items() if k in SETTINGS_KEYS})


def revise_baseline(baseline: Baseline, checked: dict[str, Any]) -> Baseline:
    """`baseline` as the check against it saw the target: what failed then, how it failed.

    A rule is kept if it failed in the check (xfailed, a new failure, or failed with
    fingerprints still seen); a stale entry is dropped. Fingerprints are the check's.
    """
    kept = {rule_id: entry for rule_id, entry in checked["rules"].items()
            if entry.get("fingerprints") or (entry["status"] in ("failed", "xfailed")
                                             and entry.get("verdict") != "stale")}
    return Baseline(
        path=baseline.path, dialect=baseline.dialect, target=baseline.target,
        features=baseline.features, projection=baseline.projection,
        expected_failures={r: baseline.expected_failures.get(r) or _reason(entry)
                           for r, entry in kept.items()},
        fingerprints=_fingerprints(kept), skips=baseline.skips,
        unsupported_features=baseline.unsupported_features, settings=baseline.settings)


def _fingerprints(entries: dict[str, Any]) -> dict[str, frozenset[Fingerprint]]:
    return {rule_id: frozenset(Fingerprint.from_json(f) for f in entry["fingerprints"])
            for rule_id, entry in entries.items() if entry.get("fingerprints")}


def _reason(entry: dict[str, Any]) -> str:
    # Scrubbed again: the results file may come from an older refold (or a hand edit).
    reason = scrub_text(entry.get("reason") or "fails").strip().splitlines()[0]
    return reason if len(reason) <= _REASON_LIMIT else reason[: _REASON_LIMIT - 3] + "..."
