"""The nightly workflow's structure: it cannot run here, so its shape is checked.

It parses (PyYAML comes with the dev extra through mutmut → libcst), runs on a schedule,
once per registered dialect, runs the nightly profile, coverage, the mutation run and the
reports in that order, each on the dialect of its matrix entry,
gates on the score against the stored history, uploads the reports whatever happened,
and every `refold` command line in it parses with refold's own argument parser. A second
job runs the tests marked `nightly` (the whole-suite strength runs the commit-time tests
leave out).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from refold.cli import build_parser
from refold.dialects import DIALECTS

WORKFLOW = Path(__file__).resolve().parents[2] / ".github" / "workflows" / "nightly.yml"


@pytest.fixture(scope="module")
def workflow() -> dict[Any, Any]:
    document = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


@pytest.fixture(scope="module")
def steps(workflow: dict[Any, Any]) -> list[dict[str, Any]]:
    jobs = workflow["jobs"]
    assert list(jobs) == ["dialects", "nightly", "strength"]
    return list(jobs["nightly"]["steps"])


def refold_commands(
    steps: list[dict[str, Any]], dialect: str = "openai-chat"
) -> list[tuple[int, list[str]]]:
    """The `refold` command lines of the steps, as the matrix entry `dialect` runs them."""
    found = []
    for number, step in enumerate(steps):
        script = str(step.get("run", "")).replace("\\\n", " ").replace("$DIALECT", dialect)
        for line in script.splitlines():
            command = line.split("||")[0].strip()
            if command.startswith("refold "):
                found.append((number, shlex.split(command)[1:]))
    return found


def test_it_runs_every_night_and_on_demand(workflow: dict[Any, Any]) -> None:
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads `on` as true
    assert set(triggers) == {"schedule", "workflow_dispatch"}
    assert triggers["schedule"][0]["cron"].count(" ") == 4
    assert workflow["permissions"] == {"contents": "read"}


def test_it_runs_once_per_dialect_on_that_dialect(
    workflow: dict[Any, Any], steps: list[dict[str, Any]]
) -> None:
    job = workflow["jobs"]["nightly"]
    # the matrix is the registry, read by the first job: no dialect is listed by hand
    assert job["needs"] == "dialects"
    assert job["strategy"]["matrix"]["dialect"] == "${{ fromJSON(needs.dialects.outputs.names) }}"
    registry = workflow["jobs"]["dialects"]
    assert registry["outputs"]["names"] == "${{ steps.registry.outputs.names }}"
    [read] = [step for step in registry["steps"] if step.get("id") == "registry"]
    script = read["run"].strip()
    assert script.endswith('>> "$GITHUB_OUTPUT"')
    program = shlex.split(script.removesuffix('>> "$GITHUB_OUTPUT"'))
    assert program[:2] == ["python", "-c"]
    printed = subprocess.run(
        [sys.executable, "-c", program[2]], capture_output=True, text=True, check=True
    ).stdout
    assert printed == "names=" + json.dumps(list(DIALECTS)) + "\n"
    assert job["strategy"]["fail-fast"] is False
    assert job["env"]["DIALECT"] == "${{ matrix.dialect }}"
    parser = build_parser()
    for name in DIALECTS:
        commands = [argv for _, argv in refold_commands(steps, name) if argv[0] != "report"]
        assert [parser.parse_args(argv).dialect for argv in commands] == [name] * 3


def test_every_refold_command_line_parses(steps: list[dict[str, Any]]) -> None:
    parser = build_parser()
    commands = refold_commands(steps)
    assert [argv[0] for _, argv in commands] == ["check", "coverage", "mutate", "report"]
    for _, argv in commands:
        parser.parse_args(argv)


def test_the_suites_run_with_the_nightly_profile_and_the_mutation_run_on_two_cores(
    steps: list[dict[str, Any]],
) -> None:
    parser = build_parser()
    by_name = {argv[0]: parser.parse_args(argv) for _, argv in refold_commands(steps)}
    assert by_name["check"].profile == "nightly"
    assert by_name["mutate"].target == "reference" and by_name["mutate"].max_children == 2
    report = by_name["report"]
    assert report.fail_on_score_drop and report.record and report.history == Path("history")
    assert report.mutation == Path(by_name["mutate"].output.name)


def test_the_history_is_restored_before_the_gate_and_saved_only_on_success(
    steps: list[dict[str, Any]],
) -> None:
    uses = [str(step.get("uses", "")) for step in steps]
    restore = uses.index("actions/cache/restore@v4")
    save = uses.index("actions/cache/save@v4")
    report = next(n for n, argv in refold_commands(steps) if argv[0] == "report")
    assert restore < report < save
    assert steps[save]["if"] == "success()"
    assert steps[restore]["with"]["path"] == steps[save]["with"]["path"] == "history"
    # one history per dialect: a score is gated against its own dialect's last run
    key = "refold-history-${{ matrix.dialect }}-"
    assert steps[restore]["with"]["restore-keys"] == key
    assert steps[restore]["with"]["key"] == steps[save]["with"]["key"]
    assert steps[save]["with"]["key"].startswith(key)


def test_the_reports_are_uploaded_and_summarised_even_when_a_step_failed(
    steps: list[dict[str, Any]],
) -> None:
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("actions/upload-artifact"))
    assert upload["if"] == "always()"
    assert {"reports/", "mutation.json", "coverage.json"} <= set(upload["with"]["path"].split())
    summary = next(s for s in steps if "GITHUB_STEP_SUMMARY" in str(s.get("run", "")))
    assert summary["if"] == "always()" and "reports/summary.md" in summary["run"]


def test_a_failing_check_still_fails_the_job_after_the_reports(steps: list[dict[str, Any]]) -> None:
    check = next(n for n, argv in refold_commands(steps) if argv[0] == "check")
    assert "REFOLD_CHECK_FAILED=1" in steps[check]["run"]
    gate = next(n for n, s in enumerate(steps) if "REFOLD_CHECK_FAILED" in str(s.get("if", "")))
    assert gate > check and "exit 1" in steps[gate]["run"]


def test_every_action_is_pinned_to_a_major_version(steps: list[dict[str, Any]]) -> None:
    for step in steps:
        if "uses" in step:
            name, _, version = step["uses"].partition("@")
            assert name.startswith("actions/") and version.startswith("v"), step["uses"]


def test_a_second_job_runs_the_tests_left_to_the_nightly_run(workflow: dict[Any, Any]) -> None:
    steps = workflow["jobs"]["strength"]["steps"]
    commands = [shlex.split(str(step["run"])) for step in steps if "run" in step]
    assert ["python", "-m", "pytest", "-n", "auto", "-m", "nightly"] in commands
    assert any("pip" in argv and "-e" in argv for argv in commands)
