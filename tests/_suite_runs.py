"""One `pytest --target=...` run of a dialect's installed suites, as a user runs it.

In a fresh process, from an empty directory, so the installed suites and plugin are what
runs; each rule's status is read from the results file (`--refold-report`). The examples
run in process: they are this repository's own code, so the worker process that guards a
run against a hostile target protects nothing here and costs a quarter of the run
(tests/harness/targets/test_target_isolation.py checks the isolated path).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

PROFILE = "ci"
"""Derandomized, so the rule sets are the same on every run."""


@dataclass(frozen=True)
class SuiteRun:
    """One run of a dialect's suites against one target: each rule's status."""

    target: str
    exit_code: int
    statuses: dict[str, str]
    output: str

    def rules_with(self, status: str) -> set[str]:
        """The rules whose status is `status`."""
        return {rule for rule, found in self.statuses.items() if found == status}

    def tail(self, lines: int = 40) -> str:
        """The end of the run's output, for assertion messages."""
        return "\n".join(self.output.splitlines()[-lines:])


def run_suites(
    target: str,
    dialect: str,
    workdir: Path,
    *,
    rules: frozenset[str] | None = None,
    extra: Sequence[str] = (),
    environment: Mapping[str, str] | None = None,
) -> SuiteRun:
    """Run the installed suites of `dialect` against `target`; read the rules' statuses.
    `rules`: only the tests of these rules (`--rules`); `extra`: more pytest arguments (a
    plugin that selects tests); `environment`: more environment variables (where that
    plugin is)."""
    workdir.mkdir(parents=True)
    report = workdir / "results.json"
    variables = {**os.environ, **(environment or {})}
    variables.pop("CI", None)  # the profile is chosen explicitly below
    command = [
        sys.executable,
        "-m",
        "pytest",
        f"--target={target}",
        f"--dialect={dialect}",
        "-p",
        "no:cacheprovider",
        "-q",
        "--in-process",
        f"--hypothesis-profile={PROFILE}",
        f"--refold-report={report}",
        *extra,
    ]
    if rules is not None:
        command.append("--rules=" + ",".join(sorted(rules)))
    completed = subprocess.run(
        command,
        cwd=workdir,
        env=variables,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    statuses: dict[str, str] = {}
    if report.exists():
        statuses = {
            rule: str(entry["status"])
            for rule, entry in json.loads(report.read_text())["rules"].items()
        }
    return SuiteRun(target, completed.returncode, statuses, completed.stdout + completed.stderr)


@contextmanager
def started_runs(
    dialect: str,
    root: Path,
    runs: Mapping[str, tuple[str, frozenset[str] | None]],
) -> Iterator[dict[str, Future[SuiteRun]]]:
    """Each named run (its target, and the rules whose tests it runs, None for the whole
    suite) started at once, two at a time (the CI machine has two cores), in `root`/name."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        yield {
            name: pool.submit(run_suites, target, dialect, root / name, rules=rules)
            for name, (target, rules) in runs.items()
        }
