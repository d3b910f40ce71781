"""Read-only views of the documents the reports render: results, mutation, coverage."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from refold.reference import FEATURES, SSE_RULES_NOTE

__all__ = ["STATUS_ORDER", "WIRE_NOTE", "by_feature", "failure_text", "first_line", "sections",
           "survivors_by_function"]

STATUS_ORDER = ("failed", "xfailed", "blocked", "passed", "skipped", "not run")
"""Worst first, as the harness orders them (`refold.results.STATUSES`)."""
_UNDETECTED = ("survived", "no tests", "suspicious")

WIRE_NOTE = SSE_RULES_NOTE
"""How the reports label the group of wire rules (`"registry": "wire"`)."""

Group = list[tuple[str, dict[str, Any]]]


def _registry(rule: dict[str, Any]) -> str:
    # Results written before the wire registry existed carry no "registry": all spec rules.
    return "wire" if rule.get("registry") == "wire" else "spec"


def by_feature(results: dict[str, Any], *, registry: str | None = None) -> dict[str, Group]:
    """The rules grouped by feature, the features in the spec's order (as the terminal
    table lists them; unknown ones after, as found) and the rules of each in the order the
    results list them; only the rules of `registry` ("spec" or "wire") when given."""
    groups: dict[str, Group] = {}
    for rule_id, rule in results.get("rules", {}).items():
        if registry is None or _registry(rule) == registry:
            groups.setdefault(str(rule.get("feature", "")), []).append((str(rule_id), rule))
    found = list(groups)
    ordered = sorted(found, key=lambda f: (FEATURES.index(f) if f in FEATURES
                                           else len(FEATURES) + found.index(f)))
    return {feature: groups[feature] for feature in ordered}


def sections(results: dict[str, Any]) -> list[tuple[str, str, Group]]:
    """(heading, feature, rules) per group: the spec's features, then the wire rules' under
    a heading that says they are not part of the spec."""
    found = [(feature, feature, rules)
             for feature, rules in by_feature(results, registry="spec").items()]
    found += [(f"{feature} ({WIRE_NOTE})", feature, rules)
              for feature, rules in by_feature(results, registry="wire").items()]
    return found


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
