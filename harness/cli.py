"""The `refold` command: a thin wrapper over pytest and the reports.

No test logic lives here: `refold check` runs the installed suites through
`pytest.main`, and every other subcommand calls a function of the harness. Each
subcommand is a module of `refold.commands` with `register(subparsers)`.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import shlex
import sys
from collections.abc import Sequence

from . import __version__, commands
from .errors import UsageError

__all__ = ["command_names", "main"]

_SIGPIPE_STATUS = 128 + 13
"""What a shell reports for a program ended by SIGPIPE (`refold rules | head`)."""
_USAGE_ERROR = 4
"""pytest's `ExitCode.USAGE_ERROR`, every refold command's status for a user's mistake
(`refold.commands._usage.USAGE_ERROR`, which imports the registry: the status must be
known before the registry is)."""


def command_names() -> list[str]:
    """The subcommand modules of `refold.commands`, alphabetically."""
    return sorted(
        m.name for m in pkgutil.iter_modules(commands.__path__) if not m.name.startswith("_")
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="refold",
        description="Conformance suite for streaming chat-completion folds.",
    )
    parser.add_argument("--version", action="version", version=f"refold {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in command_names():
        importlib.import_module(f"refold.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `refold` command; return its exit status."""
    given = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser()
    except UsageError as exc:  # an installed dialect or target that cannot be registered
        print(f"refold: {exc}", file=sys.stderr)
        return _USAGE_ERROR
    from .commands._usage import usage_error  # the registry is loaded by now

    args, unknown = parser.parse_known_args(given)
    if unknown:
        if "pytest_args" not in vars(args):
            parser.parse_args(given)  # argparse's own "unrecognized arguments", exit 2
        return _options_before_the_dash(args.command, given, unknown)
    try:
        status: int = args.run(args)
        sys.stdout.flush()
    except UsageError as exc:
        return usage_error(args.command, str(exc))
    except BrokenPipeError:
        # The reader went away; the rest of the output has nowhere to go. Point stdout
        # at devnull so the interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return _SIGPIPE_STATUS
    return status


def _options_before_the_dash(command: str, given: list[str], unknown: list[str]) -> int:
    """pytest options such as `-k` given among refold's own: show where they go."""
    from .commands._usage import usage_error

    at = given.index(unknown[0])
    suggested = shlex.join(["refold", *given[:at], "--", *given[at:]])
    return usage_error(
        command,
        f"unrecognized arguments {shlex.join(unknown)}; pytest options go after `--`: {suggested}",
    )


if __name__ == "__main__":
    sys.exit(main())
