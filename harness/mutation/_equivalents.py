"""Equivalent mutants: survivors a reviewer showed no test can kill, with the reason.

They are listed in a reviewed TOML file (the reference's is docs/equivalent-mutants.toml)
and matched by function and by the changed lines, not by mutmut's mutant number, which
shifts whenever a function gains a mutation site. An entry that matches no survivor is
reported as stale, so the list cannot silently rot.

    [[mutant]]
    function = "refold.reference._json.x_positive_int"
    mutation = '''
    -    return number if number > 0 else None
    +    return number if number > 1 else None
    '''
    reason = "why no stream can tell the two apart"
"""

from __future__ import annotations

import tomllib
from collections.abc import MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from refold.errors import UsageError

__all__ = ["Equivalent", "apply_equivalents", "change_of", "load_equivalents"]


@dataclass(frozen=True)
class Equivalent:
    """One reviewed equivalent mutant."""

    function: str
    mutation: str
    reason: str


def change_of(diff: str) -> str:
    """The changed lines of a unified diff, each stripped, in order: what identifies a
    mutation independently of line numbers and indentation."""
    lines = diff.splitlines()
    changed = [line for line in lines if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    return "\n".join(f"{line[0]}{line[1:].strip()}" for line in changed)


def load_equivalents(path: Path) -> list[Equivalent]:
    """The entries of an equivalent-mutants file (none if it does not exist).

    Raises:
        UsageError: the file is not valid TOML or an entry lacks a field.
    """
    if not path.is_file():
        return []
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from exc
    entries = []
    for number, entry in enumerate(data.get("mutant", []), start=1):
        missing = [
            k for k in ("function", "mutation", "reason") if not str(entry.get(k, "")).strip()
        ]
        if missing:
            raise UsageError(
                f"{path}: [[mutant]] entry {number} lacks {', '.join(missing)}; "
                "each entry needs function, mutation and reason"
            )
        entries.append(
            Equivalent(entry["function"], change_of(entry["mutation"]), entry["reason"].strip())
        )
    return entries


def apply_equivalents(
    mutants: MutableMapping[str, dict[str, Any]], equivalents: list[Equivalent]
) -> list[Equivalent]:
    """Mark surviving mutants that match an entry as "equivalent" (with its reason);
    return the entries that matched no survivor (stale, or killed by now)."""
    by_key = {(e.function, e.mutation): e for e in equivalents}
    used: set[tuple[str, str]] = set()
    for mutant in mutants.values():
        if mutant["status"] != "survived" or not mutant.get("diff"):
            continue
        key = (mutant["function"], change_of(mutant["diff"]))
        entry = by_key.get(key)
        if entry is not None:
            mutant["status"] = "equivalent"
            mutant["reason"] = entry.reason
            used.add(key)
    return [e for key, e in by_key.items() if key not in used]
