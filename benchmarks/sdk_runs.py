"""Benchmark: a full `refold check` of a named target, its wall time, CPU time and peak memory.

Run: `python benchmarks/sdk_runs.py openai` (or `litellm`, `langchain`, any `--target`);
`--profile NAME` picks a Hypothesis profile (default: none, Hypothesis's defaults), and
arguments after `--` go to `refold check` (e.g. `-- --shrink-seconds 20 -- -n 2`).

The check runs in a fresh scratch directory (no example database from an earlier run, and
its replay files are thrown away). Peak memory is the largest resident set of the check or
of any process it started (`getrusage(RUSAGE_CHILDREN).ru_maxrss`, which covers the xdist
workers of a `-n 2` run one by one, not their sum). The load average is printed before and
after, because on a shared machine the wall time depends on it; the CPU time does less.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", help="the --target of refold check (e.g. openai)")
    parser.add_argument("--profile", default=None, help="Hypothesis profile (default: none)")
    parser.add_argument("--log", metavar="FILE", help="keep the check's output in FILE")
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    args.check_args = argv[cut + 1 :]  # verbatim: they may hold a `--` for pytest
    return args


def _command(args: argparse.Namespace) -> list[str]:
    refold = Path(sys.executable).with_name("refold")
    command = [str(refold), "check", "--target", args.target]
    if args.profile:
        command += ["--profile", args.profile]
    return command + list(args.check_args)


def main(argv: list[str] | None = None) -> int:
    """Run the check once and print what it cost."""
    args = _parse(sys.argv[1:] if argv is None else argv)
    command = _command(args)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="refold-sdk-run-") as scratch:
        started = time.monotonic()
        done = subprocess.run(command, cwd=scratch, capture_output=True, text=True, check=False)
        wall = time.monotonic() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if args.log:
        Path(args.log).write_text(done.stdout + done.stderr, encoding="utf-8")
    summary = [line for line in done.stdout.splitlines() if line.startswith(("rules:", "wire"))]
    last = done.stdout.strip().splitlines()[-1:] or [""]
    print(f"command: {' '.join(command)}")
    print(f"exit status: {done.returncode}; {last[0]}")
    print("\n".join(summary))
    print(f"wall: {wall:.0f} s ({wall / 60:.1f} min); CPU: {usage.ru_utime + usage.ru_stime:.0f} s")
    print(f"peak RSS: {usage.ru_maxrss / 1024:.0f} MB")
    print(
        f"load average before: {load_before[0]:.2f}, after: {os.getloadavg()[0]:.2f} "
        f"({os.cpu_count()} cores)"
    )
    return 0 if "INTERNALERROR" not in done.stdout + done.stderr else 1


if __name__ == "__main__":
    raise SystemExit(main())
