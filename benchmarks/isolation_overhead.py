"""Benchmark: what running the target out of the harness's process, confined, costs.

Run: `python benchmarks/isolation_overhead.py` (add `--profile dev` for a quicker run).

Times the installed suites against the reference twice, the same way but for one
option: isolated and confined (the default: the reference is served by a
`refold.targets.worker` process started through the confinement launcher,
`refold.targets.confine_exec`: private directory, allowlisted environment, RLIMIT_AS,
Landlock) and `--in-process`. Each run is

    pytest <suites> --target reference --hypothesis-profile PROFILE -p no:randomly

in a scratch directory, timed from start to exit with `time.perf_counter` (wall time)
and by the CPU time of pytest and everything it waited for, the worker included
(`resource.getrusage(RUSAGE_CHILDREN)`). It prints both measures for both runs and
their ratios; the goal is a ratio of at most 2. On a shared machine the wall time
depends on the load, the CPU time much less: compare the CPU ratio first.

It also times what the launcher adds to each start of a target process: the best of 20
starts of `true` through `python -I -S confine_exec.py POLICY -- true` against `true`
alone (a worker starts once a run, and again only after a failure).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time

from refold.run.locations import suites_dir

GOAL = 2.0


def timed_run(profile: str, *extra: str) -> tuple[float, float, int]:
    """Wall and CPU seconds the suites take against the reference, and pytest's exit
    status."""
    command = [
        sys.executable,
        "-m",
        "pytest",
        str(suites_dir()),
        "--target",
        "reference",
        f"--hypothesis-profile={profile}",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        "-q",
        "--no-header",
        "--replay-dir=",
        *extra,
    ]
    with tempfile.TemporaryDirectory(prefix="refold-isolation-") as scratch:
        before, start = _children_cpu(), time.perf_counter()
        done = subprocess.run(command, cwd=scratch, capture_output=True, text=True, check=False)
        return time.perf_counter() - start, _children_cpu() - before, done.returncode


def launcher_cost(starts: int = 20) -> tuple[float, float]:
    """The best wall seconds of starting `true` directly and through the launcher."""
    from pathlib import Path

    from refold.targets.confinement import current

    with tempfile.TemporaryDirectory(prefix="refold-launch-") as scratch:
        confined = current().command(["true"], Path(scratch))
        return _best(starts, ["true"]), _best(starts, confined)


def _best(starts: int, command: list[str]) -> float:
    best = float("inf")
    for _ in range(starts):
        start = time.perf_counter()
        subprocess.run(command, check=True)
        best = min(best, time.perf_counter() - start)
    return best


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="ci", help="Hypothesis profile (default ci)")
    args = parser.parse_args()
    wall_in, cpu_in, status_in = timed_run(args.profile, "--in-process")
    wall_iso, cpu_iso, status_iso = timed_run(args.profile)
    print(f"profile {args.profile}, suites against the reference:")
    print(f"  in-process  wall {wall_in:7.1f} s  cpu {cpu_in:7.1f} s  (exit {status_in})")
    print(f"  confined    wall {wall_iso:7.1f} s  cpu {cpu_iso:7.1f} s  (exit {status_iso})")
    for measure, ratio in (("cpu", cpu_iso / cpu_in), ("wall", wall_iso / wall_in)):
        verdict = "met" if ratio <= GOAL else "NOT met"
        print(f"  confined / in-process ({measure}) = {ratio:.2f}  (goal <= {GOAL:g}: {verdict})")
    direct, launched = launcher_cost()
    print(
        f"  a process start: {direct * 1000:.1f} ms direct, {launched * 1000:.1f} ms through "
        f"the confinement launcher (+{(launched - direct) * 1000:.1f} ms)"
    )
    return 0 if status_in == status_iso == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
