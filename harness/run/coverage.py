"""Line and branch coverage of a target under the suites, and which rules reach which lines.

`run_coverage` runs the suites under `coverage run` in a subprocess (so the target's
module-level lines are measured from the first import) with this module loaded as a
pytest plugin: it switches coverage's dynamic context before each test to
`"<rule ids>|<node id>"`. coverage's own `dynamic_context = test_function` cannot be
used: inside a Hypothesis test it charges every line to Hypothesis's runner.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

import pytest

from refold.dialects import Dialect
from refold.errors import UsageError
from refold.run.locations import suites_dir

__all__ = ["FORMAT", "context_name", "coverage_document", "run_coverage"]

FORMAT = "refold-coverage/1"


def context_name(rule_ids: Sequence[str], node_id: str) -> str:
    """The coverage context of one test: its rule ids, a bar, its node id."""
    return f"{','.join(rule_ids)}|{node_id}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, Any]:
    import coverage

    current = coverage.Coverage.current()
    if current is not None:
        rules = [str(r) for mark in item.iter_markers("rule") for r in mark.args]
        current.switch_context(context_name(list(dict.fromkeys(rules)), item.nodeid))
    try:
        return (yield)
    finally:
        if current is not None:
            current.switch_context("")


def run_coverage(
    target: str,
    *,
    profile: str = "ci",
    pytest_args: Sequence[str] = (),
    dialect: Dialect | None = None,
) -> dict[str, Any]:
    """Run the installed suites of `dialect` (None: the target's own) against `target`
    under coverage; return the `refold-coverage/1` document (failing tests do not stop
    the measurement; the pytest exit status is in it). `reference` is the dialect's
    reference package, without another dialect's reference inside it.

    Raises:
        UsageError: the target is not Python source running in this interpreter, or
            the suites could not run (a collection error).
    """
    from refold.mutation import locate_source

    source = locate_source(target, dialect)
    suites, chosen = suites_dir(), []
    if dialect is not None:
        chosen = [f"--dialect={dialect.name}"]  # its own suites and the generic ones
    with tempfile.TemporaryDirectory(prefix="refold-coverage-") as scratch:
        folder = Path(scratch)
        rcfile = folder / "coveragerc"
        omit = "".join(f"\n    {glob}" for glob in source.omitted())
        rcfile.write_text(
            f"[run]\nbranch = True\nsource_pkgs = {source.module}\n"
            f"data_file = {folder / '.coverage'}\nomit ={omit}\n",
            encoding="utf-8",
        )
        command = [
            sys.executable,
            "-m",
            "coverage",
            "run",
            f"--rcfile={rcfile}",
            "-m",
            "pytest",
            str(suites),
            f"--target={target}",
            *chosen,
            "--in-process",
            f"--hypothesis-profile={profile}",
            "-p",
            "refold.run.coverage",
            "-p",
            "no:cacheprovider",
            "-q",
            "--no-header",
            *pytest_args,
        ]
        tests = subprocess.run(command, cwd=folder, text=True, capture_output=True, check=False)
        if tests.returncode not in (0, 1):  # interrupted, usage or collection error
            tail = "\n".join((tests.stdout + tests.stderr).strip().splitlines()[-25:])
            raise UsageError(
                f"the suites did not run against {target} (pytest exit status "
                f"{tests.returncode}); coverage of an aborted run would "
                f"mislead:\n{tail}"
            )
        report = folder / "coverage.json"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "coverage",
                "json",
                f"--rcfile={rcfile}",
                "--show-contexts",
                "-q",
                "-o",
                str(report),
            ],
            cwd=folder,
            check=True,
            capture_output=True,
        )
        raw = json.loads(report.read_text(encoding="utf-8"))
    root = source.path.parent
    return coverage_document(
        raw,
        target=target,
        package=source.module,
        root=root,
        pytest_status=tests.returncode,
        profile=profile,
    )


def coverage_document(
    raw: dict[str, Any], *, target: str, package: str, root: Path, pytest_status: int, profile: str
) -> dict[str, Any]:
    """coverage.py's JSON report (format 3, with contexts) as a refold-coverage document."""
    files: dict[str, Any] = {}
    lines_by_rule: dict[str, dict[str, list[int]]] = {}
    for path, data in sorted(raw.get("files", {}).items()):
        name = _relative(Path(path), root)
        rules_by_line: dict[str, list[str]] = {}
        for line, contexts in data.get("contexts", {}).items():
            rules = sorted(
                {r for c in contexts if "|" in c for r in c.split("|")[0].split(",") if r}
            )
            if rules:
                rules_by_line[line] = rules
                for rule_id in rules:
                    lines_by_rule.setdefault(rule_id, {}).setdefault(name, []).append(int(line))
        summary = data.get("summary", {})
        files[name] = {
            "lines_percent": round(
                float(summary.get("percent_covered_lines", summary.get("percent_covered", 0.0))), 2
            ),
            "branches_percent": round(float(summary.get("percent_branches_covered", 100.0)), 2),
            "missing_lines": data.get("missing_lines", []),
            "missing_branches": data.get("missing_branches", []),
            "rules_by_line": rules_by_line,
        }
    totals = raw.get("totals", {})
    for per_file in lines_by_rule.values():
        for lines in per_file.values():
            lines.sort()
    return {
        "format": FORMAT,
        "target": target,
        "package": package,
        "hypothesis_profile": profile,
        "pytest_status": pytest_status,
        "totals": {
            "lines_percent": round(
                float(totals.get("percent_covered_lines", totals.get("percent_covered", 0.0))), 2
            ),
            "branches_percent": round(float(totals.get("percent_branches_covered", 100.0)), 2),
            "covered_lines": totals.get("covered_lines", 0),
            "num_statements": totals.get("num_statements", 0),
            "covered_branches": totals.get("covered_branches", 0),
            "num_branches": totals.get("num_branches", 0),
        },
        "files": files,
        "lines_by_rule": dict(sorted(lines_by_rule.items())),
    }


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()
