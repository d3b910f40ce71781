"""Mutation results: mutmut's verdicts read from the work dir, scored, merged across shards.

The score is `detected / scored`:

* detected: killed, timeout (a mutant that makes the fold loop is caught by any
  caller's time limit), segfault, caught by type check;
* scored: every mutant except skipped ones, documented equivalent ones (reported
  separately) and, in a shard, the ones left to other shards ("not checked");
* so survived, "no tests" (code no test reaches) and suspicious count against it.

mutmut's own `mutmut run` exits 0 whatever survives: gate on `score` instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "DETECTED",
    "FORMAT",
    "STATUS_BY_EXIT_CODE",
    "counts",
    "function_of",
    "merge",
    "read_verdicts",
    "score",
    "status_of",
]

FORMAT = "refold-mutation/1"

# mutmut 3.8.1, mutmut/stats.py: exit code of the per-mutant pytest run -> status.
STATUS_BY_EXIT_CODE: dict[int | None, str] = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    34: "skipped",
    35: "suspicious",
    36: "timeout",
    37: "caught by type check",
    -24: "timeout",
    24: "timeout",
    152: "timeout",
    255: "timeout",
    -11: "segfault",
    -9: "segfault",
    2: "interrupted",
    None: "not checked",
}
DETECTED = frozenset({"killed", "timeout", "segfault", "caught by type check"})
_UNSCORED = frozenset({"skipped", "not checked", "equivalent"})
_MUTANT_SUFFIX = re.compile(r"__mutmut_\d+$")


def status_of(exit_code: int | None) -> str:
    """mutmut's status for an exit code (unknown codes are "suspicious", as in mutmut)."""
    return STATUS_BY_EXIT_CODE.get(exit_code, "suspicious")


def function_of(mutant: str) -> str:
    """The mangled function a mutant belongs to, as keyed in `mutmut-stats.json`."""
    return _MUTANT_SUFFIX.sub("", mutant)


def read_verdicts(mutants_dir: Path) -> dict[str, tuple[str, Path]]:
    """Each mutant's status and mutated file, from the `.py.meta` files of `mutants/`."""
    verdicts: dict[str, tuple[str, Path]] = {}
    for meta in sorted(mutants_dir.rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        module_file = meta.with_suffix("")
        for name, exit_code in data.get("exit_code_by_key", {}).items():
            verdicts[name] = (status_of(exit_code), module_file)
    return verdicts


def counts(mutants: Mapping[str, Mapping[str, Any]]) -> dict[str, int]:
    """How many mutants have each status."""
    tally: dict[str, int] = {}
    for mutant in mutants.values():
        tally[mutant["status"]] = tally.get(mutant["status"], 0) + 1
    return dict(sorted(tally.items()))


def score(mutants: Mapping[str, Mapping[str, Any]]) -> float | None:
    """Detected / scored mutants as a percentage (None when nothing was scored)."""
    scored = [m for m in mutants.values() if m["status"] not in _UNSCORED]
    if not scored:
        return None
    detected = sum(1 for m in scored if m["status"] in DETECTED)
    return round(100.0 * detected / len(scored), 2)


def merge(runs: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """One result from shard results of the same target: a mutant checked in any shard
    takes that verdict; counts and score are recomputed.

    Raises:
        ValueError: the shards are not mutation results of one target.
    """
    runs = list(runs)
    if not runs:
        raise ValueError("merge needs at least one mutation result")
    for run in runs:
        if run.get("format") != FORMAT:
            raise ValueError(
                f"not a refold mutation result (format {run.get('format')!r}, expected {FORMAT!r})"
            )
    targets = {run["target"] for run in runs}
    if len(targets) != 1:
        raise ValueError(f"shards of different targets cannot be merged: {sorted(targets)}")
    merged: dict[str, Any] = {**runs[0], "mutants": {}, "shards": len(runs)}
    for run in runs:
        for name, mutant in run["mutants"].items():
            known = merged["mutants"].get(name)
            if known is None or known["status"] == "not checked":
                merged["mutants"][name] = mutant
    merged["filter"] = sorted({f for run in runs for f in run.get("filter", [])})
    merged["duration_seconds"] = round(sum(run["duration_seconds"] for run in runs), 1)
    merged["counts"] = counts(merged["mutants"])
    merged["score"] = score(merged["mutants"])
    return merged
