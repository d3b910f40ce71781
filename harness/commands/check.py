"""`refold check`: run the conformance suites against a target through pytest.

The table by feature and rule is printed by the plugin at the end of the run, after
pytest's progress line; this command only builds the pytest command line and, with
`--report-dir`, hands the results JSON to the renderers. Arguments after `--` go to
pytest as is.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from refold.dialects import DEFAULT_DIALECT, DIALECTS
from refold.errors import UsageError
from refold.run.preflight import check_fail_on, check_seconds, writable_file, writable_folder

from ._usage import dialect_option, usage_error

__all__ = [
    "PROFILES",
    "add_target_arguments",
    "announce_target",
    "preflight",
    "pytest_arguments",
    "register",
    "render_reports",
]

PROFILES = ("dev", "ci", "nightly", "mutation")
"""The profiles `refold.run.profiles` registers. Named here, not read from Hypothesis: the
command must not import Hypothesis before pytest starts (it could not be rewritten)."""


def register(subparsers: Any) -> None:
    """Add `refold check` to the parser."""
    parser = subparsers.add_parser("check", help="run the suites against a target")
    add_target_arguments(parser)
    parser.add_argument(
        "--baseline", metavar="FILE", help="TOML baseline of expected failures (the release gate)"
    )
    parser.add_argument(
        "--corpus",
        metavar="DIR",
        help="replay the recorded cases of DIR (refold capture) instead of the suites",
    )
    parser.add_argument("--report", metavar="FILE", help="write the results JSON to FILE")
    parser.add_argument(
        "--report-dir", metavar="DIR", help="write DIR/results.json and every rendered report"
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        default=None,
        help="pytest's full output: a traceback per failed test (by default, "
        "one block per failed rule, then the table)",
    )
    parser.add_argument("pytest_args", nargs="*", help="further pytest arguments (after --)")
    parser.set_defaults(run=run)


def add_target_arguments(
    parser: argparse.ArgumentParser, *, target_default: str = "reference"
) -> None:
    """The options every command that runs the suites shares."""
    parser.add_argument(
        "--target", default=None, help=f"the implementation to check (default: {target_default})"
    )
    parser.add_argument(
        "--dialect",
        default=None,
        metavar="NAME",
        help="the stream dialect to check: "
        + ", ".join(DIALECTS)
        + " (default: the one the target or baseline declares, else "
        + DEFAULT_DIALECT
        + ")",
    )
    parser.add_argument("--features", help="comma-separated features the target claims")
    parser.add_argument(
        "--rules", metavar="ID,ID", help="run only the tests that check at least one of these rules"
    )
    parser.add_argument(
        "--target-timeout",
        type=float,
        help="deadline of every call into the target, in seconds (default 5)",
    )
    parser.add_argument(
        "--target-max-reply",
        type=int,
        metavar="BYTES",
        help="largest reply accepted from the target (default 64 MiB)",
    )
    parser.add_argument(
        "--in-process",
        action="store_true",
        default=None,
        help="debugging: run a Python target in the harness's process (no "
        "deadline; a crash, exit or patch by the target takes the run "
        "with it)",
    )
    parser.add_argument(
        "--profile",
        default=None,
        help="Hypothesis profile: dev, ci, nightly or mutation (with a "
        "baseline: the one it records, else ci)",
    )
    parser.add_argument(
        "--draws",
        choices=("fixed", "profile"),
        default=None,
        help="fixed: the same examples every run (the default with a "
        "baseline); profile: as the profile says",
    )
    parser.add_argument(
        "--replay-dir",
        metavar="DIR",
        help="where failures write replay files (default ./refold-replays)",
    )
    parser.add_argument(
        "--shrink-seconds",
        type=float,
        metavar="SECONDS",
        help="stop shrinking each failing example after SECONDS",
    )
    parser.add_argument(
        "--fail-on",
        metavar="SHAPE",
        help="documented, observed or synthetic: which failures fail the run, "
        "by their rule's found_on (default: the baseline's, else "
        "synthetic: every failure)",
    )
    _add_confinement_arguments(parser)


def _add_confinement_arguments(parser: argparse.ArgumentParser) -> None:
    """What the target may reach (docs/protocol.md, "Confinement") and claim."""
    parser.add_argument(
        "--pass-env",
        action="append",
        metavar="NAME",
        help="pass the environment variable NAME to the target besides the allowlist (repeatable)",
    )
    parser.add_argument(
        "--target-memory",
        metavar="SIZE",
        help="address-space limit of every target process, e.g. 512M or 4G "
        "(default 2G; `none`: no limit)",
    )
    parser.add_argument(
        "--accept-projection",
        action="store_true",
        default=None,
        help="accept a target's stated projection that leaves rules of its "
        "claimed features not judged",
    )


def pytest_arguments(args: argparse.Namespace) -> list[str]:
    """The pytest command line `refold check` runs.

    `-c` names no configuration file (pytest's documented `--config-file=/dev/null`), so
    the `pyproject.toml`, `pytest.ini`, `tox.ini` or `setup.cfg` of the current directory
    cannot change the run: the installed suites run the same from a project's root (whose
    `filterwarnings = ["error"]` or `addopts` were meant for its own tests) as from
    anywhere else. A `-c FILE` after `--` comes later and wins, to opt back in.
    `--noconftest`: no `conftest.py` is loaded either, wherever it lies (the installed
    suites have none), so a file planted where the command runs cannot change a verdict.
    """
    profile = getattr(args, "profile", None)
    if profile is not None and profile not in PROFILES:
        raise UsageError(
            f"unknown Hypothesis profile {profile!r} (--profile); expected one "
            f"of {', '.join(PROFILES)} (a profile of your own goes to pytest: "
            f"`-- --hypothesis-profile NAME`)"
        )
    argv = [
        "-c",
        os.devnull,
        "--noconftest",
        "-p",
        "no:cacheprovider",
        "--no-header",
        *_verbosity(args),
    ]
    options = {
        "--target": args.target,
        "--dialect": getattr(args, "dialect", None),
        "--features": args.features,
        "--rules": getattr(args, "rules", None),
        "--target-timeout": args.target_timeout,
        "--hypothesis-profile": args.profile,
        "--replay-dir": args.replay_dir,
        "--draws": getattr(args, "draws", None),
        "--shrink-seconds": getattr(args, "shrink_seconds", None),
        "--baseline": getattr(args, "baseline", None),
        "--fail-on": getattr(args, "fail_on", None),
        "--corpus": getattr(args, "corpus", None),
    }
    # One token per option (`--target=VALUE`): pytest reads a separate value that looks
    # like a path (`--target examples/t.py`) as a test path when it picks its root
    # folder, and then names the installed suites' tests after the target's folder.
    for option, value in options.items():
        if value is not None:
            argv.append(f"{option}={value}")
    if getattr(args, "target_max_reply", None) is not None:
        argv.append(f"--target-max-reply={args.target_max_reply}")
    if getattr(args, "in_process", None):
        argv.append("--in-process")
    argv += _confinement_arguments(args)
    if getattr(args, "target", None) is None and getattr(args, "baseline", None) is None:
        argv.append("--target=reference")
    report = _report_path(args)
    if report is not None:
        argv.append(f"--refold-report={report}")
    return argv + list(getattr(args, "pytest_args", []))


def _verbosity(args: argparse.Namespace) -> list[str]:
    """`-q` (one dot a test), unless the user asks for pytest's detail: `-v`, given to
    refold or after `--`, gives pytest's verbose run, whose console is not compact."""
    if getattr(args, "verbose", None):
        return ["-v"]
    given = getattr(args, "pytest_args", [])
    return [] if any(a == "--verbose" or re.fullmatch(r"-v+", a) for a in given) else ["-q"]


def _confinement_arguments(args: argparse.Namespace) -> list[str]:
    argv = [f"--pass-env={name}" for name in getattr(args, "pass_env", None) or []]
    if getattr(args, "target_memory", None) is not None:
        argv.append(f"--target-memory={args.target_memory}")
    if getattr(args, "accept_projection", None):
        argv.append("--accept-projection")
    return argv


def _without_working_directory() -> None:
    """Take the folder the command runs in off `sys.path` (`python -m refold.cli` puts it
    first), so that no plugin, entry point or module planted there is loaded by pytest."""
    if sys.path and sys.path[0] in ("", os.getcwd()):
        del sys.path[0]


def _report_path(args: argparse.Namespace) -> Path | None:
    if getattr(args, "report_dir", None):
        return Path(args.report_dir) / "results.json"
    report = getattr(args, "report", None)
    return Path(report) if report else None


def preflight(args: argparse.Namespace, command: str) -> int | None:
    """Refuse options that would fail only after the run (print why); USAGE_ERROR or None."""
    try:
        dialect_option(getattr(args, "dialect", None))
        if getattr(args, "corpus", None):
            from refold.capture.corpus import load_corpus

            load_corpus(args.corpus)  # a missing folder or damaged case: refused before pytest
        check_seconds("--target-timeout", args.target_timeout)
        check_seconds("--shrink-seconds", getattr(args, "shrink_seconds", None))
        check_fail_on(getattr(args, "fail_on", None))
        if getattr(args, "report_dir", None):
            writable_folder("--report-dir", args.report_dir, "the reports")
        elif getattr(args, "report", None):
            writable_file("--report", args.report, "the results JSON")
        if getattr(args, "write", None):
            writable_file("--write", args.write, "the baseline")
    except UsageError as exc:
        return usage_error(command, str(exc))
    return None


def run(args: argparse.Namespace) -> int:
    """Run pytest; its exit status is the command's."""
    refused = preflight(args, "check")
    if refused is not None:
        return refused
    dialects = _corpus_dialects(args)
    if len(dialects) > 1:
        return _run_each_dialect(args, dialects)
    _without_working_directory()
    status = int(pytest.main(pytest_arguments(args), plugins=[announce_target()]))
    if args.report_dir and (Path(args.report_dir) / "results.json").is_file():
        for path in render_reports(Path(args.report_dir)):
            print(f"refold: wrote {path}")
    return status


def _corpus_dialects(args: argparse.Namespace) -> list[str]:
    """The dialects of a corpus run that names none (no --dialect, target other than the
    reference, baseline or report): each is checked in a run of its own, since a run
    checks one and the reference serves every dialect. [] for any other run."""
    named = (args.dialect, args.baseline, args.report, args.report_dir)
    if not args.corpus or any(named) or args.target not in (None, "reference"):
        return []
    from refold.capture.corpus import load_corpus

    return sorted({case.dialect.name for case in load_corpus(args.corpus)})


_PASSED_ON = {
    "features": "--features",
    "target_timeout": "--target-timeout",
    "target_max_reply": "--target-max-reply",
    "profile": "--profile",
    "draws": "--draws",
    "replay_dir": "--replay-dir",
    "shrink_seconds": "--shrink-seconds",
    "fail_on": "--fail-on",
}


def _run_each_dialect(args: argparse.Namespace, dialects: list[str]) -> int:
    """`refold check --corpus DIR --dialect NAME` for each dialect, each in a fresh process
    (pytest runs once a process); the worst exit status."""
    import subprocess

    status = 0
    for name in dialects:
        command = [
            sys.executable,
            "-m",
            "refold.cli",
            "check",
            "--corpus",
            args.corpus,
            "--dialect",
            name,
        ]
        command += [
            f"{option}={getattr(args, key)}"
            for key, option in _PASSED_ON.items()
            if getattr(args, key, None) is not None
        ]
        command += ["--in-process"] if args.in_process else []
        command += ["-v"] if getattr(args, "verbose", None) else []
        command += _confinement_arguments(args)
        command += ["--", *args.pytest_args] if args.pytest_args else []
        print(f"refold check: the corpus's {name} cases", flush=True)
        status = max(status, subprocess.run(command, check=False).returncode)
    return status


def render_reports(directory: Path) -> list[Path]:
    """Render DIR/results.json with `refold.reports.write_all`, when the renderers exist."""
    results = directory / "results.json"
    try:
        reports = importlib.import_module("refold.reports")
    except ImportError:
        return [results]
    write_all = getattr(reports, "write_all", None)
    if write_all is None:
        return [results]
    from refold.records.redaction import redact

    document = redact(json.loads(results.read_text(encoding="utf-8")))
    written: list[Path] = write_all(document, directory)
    return list(dict.fromkeys([results, *written]))


class _TargetAnnouncement:
    """Prints the refold plugin's header lines (the resolved target and its features) at
    the start of a run, which `-q --no-header` would otherwise leave out."""

    @pytest.hookimpl(trylast=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        config = session.config
        plugin = config.pluginmanager.get_plugin("refold")
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        if hasattr(config, "workerinput") or plugin is None or reporter is None:
            return
        for line in plugin.pytest_report_header(config) or []:
            reporter.write_line(line)


def announce_target() -> object:
    """A pytest plugin object for `pytest.main(plugins=...)`: names the target first."""
    return _TargetAnnouncement()
