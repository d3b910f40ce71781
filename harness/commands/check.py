"""`refold check`: run the conformance suites against a target through pytest.

The table by feature and rule is printed by the plugin at the end of the run; this
command only builds the pytest command line. Arguments after `--` go to pytest as is.
"""

from __future__ import annotations

import argparse
from typing import Any

import pytest

__all__ = ["pytest_arguments", "register"]


def register(subparsers: Any) -> None:
    """Add `refold check` to the parser."""
    parser = subparsers.add_parser("check", help="run the suites against a target")
    parser.add_argument("--target", default="reference",
                        help="the implementation to check (default: reference)")
    parser.add_argument("--features", help="comma-separated features the target claims")
    parser.add_argument("--target-timeout", type=float, help="per-call timeout in seconds")
    parser.add_argument("--profile", default=None,
                        help="Hypothesis profile: dev, ci, nightly or mutation")
    parser.add_argument("pytest_args", nargs="*", help="further pytest arguments (after --)")
    parser.set_defaults(run=run)


def pytest_arguments(args: argparse.Namespace) -> list[str]:
    """The pytest command line `refold check` runs."""
    argv = ["--target", args.target, "-p", "no:cacheprovider", "-q", "--no-header"]
    if args.features:
        argv += ["--features", args.features]
    if args.target_timeout is not None:
        argv += ["--target-timeout", str(args.target_timeout)]
    if args.profile:
        argv += ["--hypothesis-profile", args.profile]
    return argv + list(args.pytest_args)


def run(args: argparse.Namespace) -> int:
    """Run pytest; its exit status is the command's."""
    return int(pytest.main(pytest_arguments(args)))
