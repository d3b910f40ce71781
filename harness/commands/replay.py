"""`refold replay FILE [--target X]`: re-run the failure recorded in a replay file.

The same as `pytest --replay FILE --target X`: the recorded test is selected and its
recorded case re-run (see `refold.records.replay`). Without `--target` the recorded target runs
only when it is a built-in name; any other is shown with the command that runs it, and
the command exits 4: a replay file alone never starts a process or imports a file.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import pytest

from refold.errors import UsageError
from refold.records.replay import read_replay, recorded_target

from .check import add_target_arguments, announce_target, preflight, pytest_arguments

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add `refold replay` to the parser."""
    parser = subparsers.add_parser("replay", help="re-run a failure from its replay file")
    parser.add_argument("file", help="a replay file written by a failing run")
    add_target_arguments(parser, target_default="the target recorded in the replay file")
    parser.add_argument("pytest_args", nargs="*", help="further pytest arguments (after --)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run pytest on the one recorded case; its exit status is the command's."""
    refused = preflight(args, "replay")
    if refused is not None:
        return refused
    if args.target is None:
        try:
            recorded_target(args.file, read_replay(args.file), command=f"refold replay {args.file}")
        except UsageError as exc:
            print(f"refold replay: {exc}", file=sys.stderr)
            return int(pytest.ExitCode.USAGE_ERROR)
    argv = pytest_arguments(args)
    if args.target is None:
        argv.remove("--target=reference")  # the replay file names its target
    return int(pytest.main([*argv, f"--replay={args.file}"], plugins=[announce_target()]))
