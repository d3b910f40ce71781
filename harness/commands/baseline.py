"""`refold baseline --target X --write FILE`: record the target's current failures.

Runs the suites through pytest (as `refold check` does) with fixed draws (the same
examples every run; `--draws profile` opts out), reads the results JSON, and writes a
baseline: the dialect the run checked, the claimed features, the settings that decided
the examples drawn, the `--fail-on` it was written with, every failing rule as an
expected failure (the first line of its failure as the reason), its `found_on`, `impact`
and departures, its minimal failing stream (`refold.gate.recorded_streams`) and how it failed
in each of its own tests (fingerprints).

It then checks the target against the file, as `refold check --baseline FILE` will. That
run can differ from the first: known failures are masked in other rules' tests
(`refold.run.checks`), so Hypothesis searches on past them and may find failures the first
run's shrinking hid. What the check finds is added to the file (never taken out: an
entry is dropped only when its recorded streams all pass when replayed, which an
unchanged target never does) and checked again, up to three times; the command fails if
the file still does not pass, since a baseline that does not reproduce cannot gate a
release. Since each check only adds, two writes of an unchanged target give the same
file.
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

from refold.gate.baseline import SETTINGS_KEYS, Baseline, dump_baseline
from refold.gate.fail_on import DEFAULT_FAIL_ON
from refold.gate.recorded_streams import EntryVerdict, RecordedStream, streams_of, verdict_of
from refold.records.redaction import current, local_text, persisted_text
from refold.reference import SHAPES, cut_text, dialect_record
from refold.verdicts.fingerprints import Fingerprint

from .check import add_target_arguments, preflight, pytest_arguments

__all__ = ["baseline_from_results", "register", "revise_baseline"]

_REASON_LIMIT = 160
_CHECKS = 3


def register(subparsers: Any) -> None:
    """Add `refold baseline` to the parser."""
    parser = subparsers.add_parser("baseline", help="record a target's current failures")
    add_target_arguments(parser)
    parser.add_argument(
        "--write", required=True, metavar="FILE", help="the baseline file to write (TOML)"
    )
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
        baseline = baseline_from_results(
            results, target=args.target or "reference", fail_on=args.fail_on or DEFAULT_FAIL_ON
        )
        for _ in range(_CHECKS):
            _write(args.write, baseline, results)
            gated, checked = _gate(args, report)
            if gated == pytest.ExitCode.OK:
                print(f"refold: {args.write} gates {baseline.target}: the check against it passes")
                return 0
            if gated != pytest.ExitCode.TESTS_FAILED or checked is None:
                break
            revised = revise_baseline(baseline, checked)
            if revised == baseline:
                break
            baseline = revised
    print(
        f"refold baseline: a gate run against {args.write} on the same target ended with "
        f"exit status {gated} (its verdicts are above): the failures do not reproduce with "
        f"these settings, so the file cannot gate a release; try --profile ci, or edit the "
        f"entries the verdicts name"
    )
    return int(gated) or 1


def _write(path: str, baseline: Baseline, results: dict[str, Any]) -> None:
    # A TOML comment is one line of printable text; the description is the target's own.
    description = "".join(
        c if c.isprintable() else " "
        for c in cut_text(
            persisted_text(" ".join(str(results["target"]["description"]).split())), _REASON_LIMIT
        )
    )
    comment = (
        f"refold baseline for {description}\n"
        f"written by `refold baseline --write`; {len(baseline.expected_failures)} "
        f"expected failures"
    )
    # This machine's canaries and local paths, wherever a reason or fingerprint holds them;
    # the target keeps its path (a gate run without --target runs it), not its canaries.
    lines = dump_baseline(baseline, comment=comment).splitlines(keepends=True)
    Path(path).write_text(
        "".join(
            current().hidden(line) if line.startswith("target = ") else local_text(line)
            for line in lines
        ),
        encoding="utf-8",
    )
    print(
        f"refold: wrote {path} ({len(baseline.expected_failures)} expected failures); "
        f"checking the target against it",
        flush=True,
    )


def _gate(args: argparse.Namespace, report: Path) -> tuple[int, dict[str, Any] | None]:
    """Check the target against the written file; its exit status and results."""
    report.unlink(missing_ok=True)
    args.baseline = args.write
    # A second pytest.main in this process would find the suites already imported (and
    # not assertion-rewritten); a fresh interpreter runs them as `refold check` would.
    argv = [sys.executable, "-m", "pytest", *pytest_arguments(args), f"--refold-report={report}"]
    status = subprocess.run(argv, check=False).returncode
    checked = json.loads(report.read_text(encoding="utf-8")) if report.is_file() else None
    return status, checked


def baseline_from_results(
    results: dict[str, Any], *, target: str, fail_on: str = DEFAULT_FAIL_ON
) -> Baseline:
    """The baseline that makes the run behind `results` pass: its failures expected, each
    with its verdict and minimal failing stream.

    A blocked rule is not listed: no test judged it (another rule's crash stopped its
    tests), and the gated run reads a crash charged to a listed rule as xfailed."""
    failing = {
        rule_id: entry for rule_id, entry in results["rules"].items() if entry["status"] == "failed"
    }
    recorded = results.get("settings") or {}
    return Baseline(
        path="(written)",
        dialect=dialect_record(results)["name"],
        target=target,
        features=frozenset(results["target"]["features"]),
        projection=results["target"].get("projection"),
        expected_failures={r: _reason(entry) for r, entry in failing.items()},
        fingerprints=_fingerprints(failing),
        settings={k: v for k, v in recorded.items() if k in SETTINGS_KEYS},
        fail_on=fail_on if fail_on in SHAPES else DEFAULT_FAIL_ON,
        verdicts={
            r: v for r, entry in failing.items() if (v := verdict_of(entry)) != EntryVerdict()
        },
        streams={
            r: found
            for r, entry in failing.items()
            if (found := streams_of([entry.get("failure")]))
        },
    )


def revise_baseline(baseline: Baseline, checked: dict[str, Any]) -> Baseline:
    """`baseline` with what the check against it found added.

    Every entry is kept unless the check judged it stale (its recorded streams all pass
    when replayed; for an entry without streams, its tests all passed); a rule that
    failed in the check is added with its verdict and stream. Fingerprints and streams
    are the union of both runs', so a check that met a failure another way adds to the
    entry instead of replacing it: the file only grows toward a fixed point.
    """
    stale = {r for r, entry in checked["rules"].items() if entry.get("verdict") == "stale"}
    kept = {r: reason for r, reason in baseline.expected_failures.items() if r not in stale}
    found = {
        r: entry
        for r, entry in checked["rules"].items()
        if r not in stale and (entry["status"] == "failed" or entry.get("fingerprints"))
    }
    for rule_id, entry in sorted(found.items()):
        kept.setdefault(rule_id, _reason(entry))
    fingerprints = _fingerprints(found)
    return Baseline(
        path=baseline.path,
        dialect=baseline.dialect,
        target=baseline.target,
        features=baseline.features,
        projection=baseline.projection,
        expected_failures=kept,
        fingerprints={
            r: baseline.fingerprints.get(r, frozenset()) | fingerprints.get(r, frozenset())
            for r in kept
            if r in baseline.fingerprints or r in fingerprints
        },
        skips=baseline.skips,
        unsupported_features=baseline.unsupported_features,
        settings=baseline.settings,
        fail_on=baseline.fail_on,
        verdicts={
            r: v
            for r in kept
            if (v := _least_departing(baseline.verdicts.get(r), found.get(r))) != EntryVerdict()
        },
        streams={r: s for r in kept if (s := _streams(baseline.streams.get(r, ()), found.get(r)))},
    )


def _least_departing(recorded: EntryVerdict | None, entry: dict[str, Any] | None) -> EntryVerdict:
    """The verdict of the two that was found on the less departing shape."""
    now = verdict_of(entry) if entry is not None and entry["status"] == "failed" else None
    if recorded is None or recorded.found_on is None:
        return now or recorded or EntryVerdict()
    if now is None or now.found_on is None:
        return recorded
    return now if SHAPES.index(now.found_on) < SHAPES.index(recorded.found_on) else recorded


def _streams(
    recorded: tuple[RecordedStream, ...], entry: dict[str, Any] | None
) -> tuple[RecordedStream, ...]:
    failure = entry.get("failure") if entry is not None and entry["status"] == "failed" else None
    return streams_of([*(_as_record(s) for s in recorded), failure])


def _as_record(stream: RecordedStream) -> dict[str, Any]:
    return {
        "chunks": json.loads(stream.chunks),
        "expected": json.loads(stream.expected),
        "shape": stream.shape,
        "departures": list(stream.departures),
    }


def _fingerprints(entries: dict[str, Any]) -> dict[str, frozenset[Fingerprint]]:
    return {
        rule_id: frozenset(Fingerprint.from_json(f) for f in entry["fingerprints"])
        for rule_id, entry in entries.items()
        if entry.get("fingerprints")
    }


def _reason(entry: dict[str, Any]) -> str:
    # Scrubbed again: the results file may come from an older refold (or a hand edit).
    reason = persisted_text(entry.get("reason") or "fails").strip().splitlines()[0]
    return reason if len(reason) <= _REASON_LIMIT else reason[: _REASON_LIMIT - 3] + "..."
