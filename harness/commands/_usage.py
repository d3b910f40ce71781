"""How a subcommand reports a usage error: one paragraph on stderr, exit status 4.

4 is pytest's `ExitCode.USAGE_ERROR`, which `refold check` already exits with for a bad
`--target` or baseline, so every mistake on the command line gets the same status.
"""

from __future__ import annotations

import sys

from refold.preflight import USAGE_ERROR

__all__ = ["USAGE_ERROR", "usage_error"]


def usage_error(command: str, message: str) -> int:
    """Print `refold COMMAND: message` to stderr; return the usage-error status."""
    print(f"refold {command}: {message}", file=sys.stderr)
    return USAGE_ERROR
