"""Checks made before a run starts, so a mistyped option costs seconds, not a whole run.

Every check raises `UsageError` with one paragraph: what was given, what was expected,
and which option; the plugin turns it into pytest's usage error (exit status 4) and the
`refold` commands print it and exit 4 before pytest starts.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from ..errors import UsageError

__all__ = [
    "USAGE_ERROR",
    "check_fail_on",
    "check_pytest_options",
    "check_seconds",
    "writable_file",
    "writable_folder",
]

USAGE_ERROR = 4
"""pytest's ExitCode.USAGE_ERROR, the exit status of every refused option."""


def check_pytest_options(option: Any, *, refold_run: bool) -> None:
    """The plugin's options (`option` is `config.getoption`); the replay folder only in a
    run that checks a target, or when it was given."""
    check_seconds("--target-timeout", option("target_timeout"))
    check_seconds("--shrink-seconds", option("shrink_seconds"))
    check_fail_on(option("fail_on"))
    if option("refold_report"):
        writable_file("--refold-report", option("refold_report"), "the results JSON")
    replay_dir = option("replay_dir")
    if replay_dir and (refold_run or replay_dir != "refold-replays"):
        writable_folder("--replay-dir", replay_dir, "replay files")


def check_seconds(option: str, value: float | None) -> None:
    """`value` (if given) is a finite number of seconds above zero."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise UsageError(
            f"{option} {value:g}: expected a number of seconds above zero "
            f"(a finite number, such as 5 or 0.5)"
        )


def check_fail_on(value: str | None) -> None:
    """`value` (if given) is a stream shape, `refold.reference.SHAPES`."""
    from refold.reference import SHAPES

    if value is not None and value not in SHAPES:
        raise UsageError(
            f"--fail-on {value!r}: expected one of {', '.join(SHAPES)} (the "
            f"stream shapes, least departing first: a failure fails the run "
            f"when its rule's found_on is at or below the value; synthetic, "
            f"the default, counts every failure)"
        )


def writable_file(option: str, path: str | Path, what: str) -> None:
    """`path` can be written as a file: not a folder, in a folder that exists or can be made."""
    path = Path(path)
    if path.is_dir():
        raise UsageError(
            f"{option} {path}: {path} is a folder; expected the path of a file to write {what} to"
        )
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(
            f"{option} {path}: the file exists and cannot be written; "
            f"expected a writable path for {what}"
        )
    _creatable(option, path, path.parent, what)


def writable_folder(option: str, path: str | Path, what: str) -> None:
    """`path` is a folder, or a folder that can be made; never an existing file."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise UsageError(
            f"{option} {path}: {path} is a file; expected a folder (existing or "
            f"to be made) to write {what} into"
        )
    _creatable(option, path, path, what)


def _creatable(option: str, path: Path, folder: Path, what: str) -> None:
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise UsageError(
            f"{option} {path}: {existing} is a file, so no folder can be made "
            f"there; expected a path inside a folder to write {what}"
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UsageError(
            f"{option} {path}: the folder {existing} is not writable; expected "
            f"a place where {what} can be written"
        )
