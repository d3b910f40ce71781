"""Read-only views of the documents the reports render: results, mutation, coverage.

The statuses, their order and the record shapes are `refold.reference`'s (`STATUSES`,
`FailureRecord`, `RuleRecord`, `DialectRecord`), the ones the harness writes. A results
file names its dialect (`dialect_record`: `UNNAMED_DIALECT` when written before dialects),
and the reports group its rules by that dialect, then by the dialect's features.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from refold.reference import (
    STATUSES,
    DialectRecord,
    diagnosis_of_record,
    diagnosis_text,
    dialect_record,
)

__all__ = [
    "STATUSES",
    "by_feature",
    "diagnosis_line",
    "dialect_line",
    "distinct_failures",
    "failure_text",
    "first_line",
    "items_of",
    "projection_line",
    "sections",
    "survivors_by_function",
    "wire_note",
]

_UNDETECTED = ("survived", "no tests", "suspicious")

Group = list[tuple[str, dict[str, Any]]]


def dialect_line(results: Mapping[str, Any]) -> str:
    """The dialect as the reports name it: `<title> (<name>, <spec>)`; for an events
    adapter, with the source dialects it was fed."""
    found = dialect_record(results)
    spec = f", {found['spec']}" if found["spec"] else ""
    fed = results.get("target", {}).get("fed")
    sources = f", fed {', '.join(map(str, fed))} streams" if isinstance(fed, list) else ""
    return f"{found['title']} ({found['name']}{spec}){sources}"


def projection_line(results: Mapping[str, Any]) -> str:
    """The target's stated projection, as the reports show it ("" when it states none):
    what the library builds, and the places of its fold that are compared."""
    projection = results.get("target", {}).get("projection")
    if not isinstance(projection, Mapping):
        return ""
    pointers = projection.get("pointers")
    compared = ", ".join(map(str, pointers)) if isinstance(pointers, list) else ""
    return f"{str(projection.get('builds') or '').rstrip('.')}; compared: {compared}"


def items_of(results: Mapping[str, Any]) -> str:
    """What the failing streams' items are called, plural (`chunks`, `events`)."""
    return f"{dialect_record(results)['item']}s"


def wire_note(results: Mapping[str, Any]) -> str:
    """How the reports label the group of wire rules (`"registry": "wire"`)."""
    record = dialect_record(results)
    return record["extra_rules_note"] or f"not part of {record['spec'] or 'the spec'}"


def _registry(rule: dict[str, Any]) -> str:
    # Results written before the wire registry existed carry no "registry": all spec rules.
    return "wire" if rule.get("registry") == "wire" else "spec"


def by_feature(results: dict[str, Any], *, registry: str | None = None) -> dict[str, Group]:
    """The rules grouped by feature, the features in the order of the results' dialect (as
    the terminal table lists them; unknown ones after, as found) and the rules of each in
    the order the results list them; only the rules of `registry` ("spec" or "wire") when
    given."""
    groups: dict[str, Group] = {}
    for rule_id, rule in results.get("rules", {}).items():
        if registry is None or _registry(rule) == registry:
            groups.setdefault(str(rule.get("feature", "")), []).append((str(rule_id), rule))
    found = list(groups)
    features = _features(dialect_record(results))
    ordered = sorted(
        found, key=lambda f: features.index(f) if f in features else len(features) + found.index(f)
    )
    return {feature: groups[feature] for feature in ordered}


def _features(found: DialectRecord) -> list[str]:
    return list(found["features"])


def sections(results: dict[str, Any]) -> list[tuple[str, str, Group]]:
    """(heading, feature, rules) per group of the results' dialect: its spec's features,
    then the wire rules' under a heading that says they are not part of the spec."""
    found = [
        (feature, feature, rules) for feature, rules in by_feature(results, registry="spec").items()
    ]
    found += [
        (f"{feature} ({wire_note(results)})", feature, rules)
        for feature, rules in by_feature(results, registry="wire").items()
    ]
    return found


def distinct_failures(results: dict[str, Any]) -> list[list[tuple[str, dict[str, Any]]]]:
    """The failed rules of a run grouped by failure, in table order: one failing example
    often breaks several rules, and each group is shown once."""
    groups: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for rules in by_feature(results).values():
        for rule_id, rule in rules:
            if rule.get("status") == "failed":
                failure = rule.get("failure") or {"message": rule.get("reason")}
                key = json.dumps(failure, sort_keys=True, default=str)
                groups.setdefault(key, []).append((rule_id, rule))
    return list(groups.values())


def first_line(text: Any, limit: int = 160) -> str:
    """The first non-empty line of a message, shortened."""
    lines = [line.strip() for line in str(text or "").splitlines() if line.strip()]
    line = lines[0] if lines else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def failure_text(failure: Mapping[str, Any] | None, items: str = "chunks") -> str:
    """A failure (a `FailureRecord`) as plain text: message, pointer, the stream's `items`
    as JSON lines, both values."""
    if not failure:
        return ""
    parts = [str(failure.get("message") or "")]
    diagnosis = diagnosis_line(failure)
    if diagnosis and diagnosis.removeprefix("diagnosis: ") not in parts[0]:
        parts.append(diagnosis)  # a message replaced by a baseline's verdict lost it
    if failure.get("pointer") is not None:
        parts.append(f"at {failure['pointer']}")
    if failure.get("chunks"):
        parts.append(f"{items}:\n" + "\n".join(_json(c) for c in failure["chunks"]))
    for key in ("expected", "received"):
        if key in failure and failure[key] is not None:
            parts.append(f"{key}: {_json(failure[key])}")
    return "\n".join(p for p in parts if p)


def diagnosis_line(failure: Mapping[str, Any] | None) -> str:
    """A failure's diagnosis as one line ("diagnosis: matches policy *P*, as LIB does",
    "diagnosis: no known policy"); "" when it was not diagnosed, as every record written
    before diagnoses."""
    found = diagnosis_of_record(failure)
    return "" if found is None else f"diagnosis: {diagnosis_text(found)}"


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def survivors_by_function(mutation: dict[str, Any]) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Undetected mutants (survived, no tests, suspicious) grouped by their function."""
    groups: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for name, mutant in mutation.get("mutants", {}).items():
        if mutant.get("status") in _UNDETECTED:
            groups[str(mutant.get("function", name))].append((str(name), mutant))
    return dict(sorted(groups.items()))
