"""How a subcommand reports a usage error: one paragraph on stderr, exit status 4.

4 is pytest's `ExitCode.USAGE_ERROR`, which `refold check` already exits with for a bad
`--target` or baseline, so every mistake on the command line gets the same status.
"""

from __future__ import annotations

import argparse
import sys

from refold.dialects import DEFAULT_DIALECT, DIALECTS, Dialect, dialect
from refold.errors import UsageError
from refold.run.preflight import USAGE_ERROR

__all__ = ["USAGE_ERROR", "add_dialect_argument", "dialect_option", "usage_error"]


def usage_error(command: str, message: str) -> int:
    """Print `refold COMMAND: message` to stderr; return the usage-error status."""
    print(f"refold {command}: {message}", file=sys.stderr)
    return USAGE_ERROR


def add_dialect_argument(parser: argparse.ArgumentParser, *, what: str) -> None:
    """`--dialect NAME`: whose reference is `what` (for `--target reference`)."""
    parser.add_argument(
        "--dialect",
        default=None,
        metavar="NAME",
        help=f"the stream dialect: {', '.join(DIALECTS)}; with --target "
        f"reference, whose reference is {what} (default: the target's "
        f"declaration, else {DEFAULT_DIALECT})",
    )


def dialect_option(name: str | None) -> Dialect | None:
    """The dialect `--dialect` names (None when not given).

    Raises:
        UsageError: no dialect has that name; the message lists those that do.
    """
    if name is None:
        return None
    try:
        return dialect(name)
    except UsageError as exc:
        raise UsageError(f"--dialect {name}: {exc}") from None
