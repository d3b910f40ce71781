"""Read-only views of the documents the reports render: results, mutation, coverage."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

__all__ = ["STATUS_ORDER", "by_feature", "failure_text", "first_line", "survivors_by_function"]

STATUS_ORDER = ("failed", "xfailed", "passed", "skipped", "not run")
_UNDETECTED = ("survived", "no tests", "suspicious")


def by_feature(results: dict[str, Any]) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """The rules grouped by feature, both in the order the results list them."""
    groups: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for rule_id, rule in results.get("rules", {}).items():
        groups.setdefault(str(rule.get("feature", "")), []).append((str(rule_id), rule))
    return groups


def first_line(text: Any, limit: int = 160) -> str:
    """The first non-empty line of a message, shortened."""
    lines = [line.strip() for line in str(text or "").splitlines() if line.strip()]
    line = lines[0] if lines else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def failure_text(failure: dict[str, Any] | None) -> str:
    """A failure as plain text: message, pointer, the chunks as JSON lines, both values."""
    if not failure:
        return ""
    parts = [str(failure.get("message") or "")]
    if failure.get("pointer") is not None:
        parts.append(f"at {failure['pointer']}")
    if failure.get("chunks"):
        parts.append("chunks:\n" + "\n".join(_json(c) for c in failure["chunks"]))
    for key in ("expected", "received"):
        if key in failure and failure[key] is not None:
            parts.append(f"{key}: {_json(failure[key])}")
    return "\n".join(p for p in parts if p)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def survivors_by_function(mutation: dict[str, Any]) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Undetected mutants (survived, no tests, suspicious) grouped by their function."""
    groups: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for name, mutant in mutation.get("mutants", {}).items():
        if mutant.get("status") in _UNDETECTED:
            groups[str(mutant.get("function", name))].append((str(name), mutant))
    return dict(sorted(groups.items()))
