"""`refold replay FILE [--target X]`: re-run the failure recorded in a replay file.

The same as `pytest --replay FILE --target X`: the recorded test is selected and its
recorded case re-run (see `refold.replay`). The target defaults to the one recorded.
"""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from .check import add_target_arguments, announce_target, pytest_arguments

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
    argv = pytest_arguments(args)
    if args.target is None:
        at = argv.index("--target")
        del argv[at:at + 2]  # the replay file names its target
    return int(pytest.main([*argv, "--replay", args.file], plugins=[announce_target()]))
