"""The `refold` command: a thin wrapper over pytest and the reports.

No test logic lives here: `refold check` runs the installed suites through
`pytest.main`, and every other subcommand calls a function of the harness. Each
subcommand is a module of `refold.commands` with `register(subparsers)`.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from . import __version__, commands

__all__ = ["command_names", "main"]


def command_names() -> list[str]:
    """The subcommand modules of `refold.commands`, alphabetically."""
    return sorted(m.name for m in pkgutil.iter_modules(commands.__path__)
                  if not m.name.startswith("_"))


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
    parser = build_parser()
    args = parser.parse_args(argv)
    status: int = args.run(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
