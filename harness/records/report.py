"""The results JSON of a run (`--refold-report FILE`), the input of every renderer.

    {"refold_version", "target": {"name", "description", "features", "projection"?, "fed"?,
                                  "reproducer"?},
     "versions": {"python", "pytest", "hypothesis", "refold", "platform"},
     "started", "duration_seconds", "hypothesis_profile", "settings",
     "dialect": {"name", "title", "spec", "item", "features", "extra_rules_note", "docs"?},
     "rules": {RULE-ID: {"feature", "registry", "statement", "status", "tests", "reason",
                         "failure", "blocked_by", "fingerprints", "verdict",
                         "found_on"?, "impact"?, "departures"?}},
     "totals": {status: count},
     "departures"?: {DEPARTURE-ID: {"shape", "summary", "provenance"}}}

`target.projection` (a target that states one, `refold.run.projection`) is `{"pointers",
"builds"}`: the places of its fold that were compared, and what the library builds; the
rules it leaves unjudged have the status "not judged". `target.fed` (events adapters
only) names the source dialects whose streams the adapter was fed (the ones it accepts;
the suites skip the others). `target.reproducer` (built-in SDK targets) is the SDK's
program that folds a stream without refold, `{stream}` where the stream goes
(`refold.targets.sdk.reproducers`). `dialect` names the dialect
the run checked and carries what the reports show of it (`refold.reference.DialectRecord`:
they cannot import the registry); a results file without it was written before dialects,
for `refold.reference.UNNAMED_DIALECT`. Every rule of the dialect is
listed (`refold.reference.RuleRecord`), "not run" when no collected test checks it, in
its report order: the spec's rules first (`"registry": "spec"`), then any registry of
its own (`"registry": "wire"`: the chat dialect's wire rules of the `sse` suite, from
WHATWG server-sent events, not part of chat-fold.md, labelled `extra_rules_note`). The
totals count every listed rule. A "blocked" rule's tests crashed on another rule's defect
(`refold.verdicts.crashes`): "blocked_by" names those rules (empty for every other status), and
"failure" is the failed rule's, not repeated. `settings` is what decided the examples
drawn, for a gate run (`refold.run.profiles.load_gate_profile`, else null); `fingerprints` lists
how the rule failed in each test (`refold.verdicts.fingerprints`), what `refold baseline` records;
`verdict` is a baseline's verdict on the rule (`"new"` failure, `"stale"` entry, else null).
A failed rule (and only a failed one) also has `found_on`, the least departing stream shape
it failed on (`"documented"`, `"observed"`, `"synthetic"`; verdicts.md §2), `impact`, the
worst impact among its failures on that shape (`"crash"`, `"loss"`, `"corruption"`,
`"representation"`; §3; absent when none states one), and `departures`, the departure ids
of the stream its verdict rests on, which is the one `failure` shows and its replay file
replays (`refold.verdicts.found_on.rule_verdict`; each failure record has its own `shape`,
`departures` and `impact`). A file written before shapes has none of these keys, and reads
as it did.
The top-level `departures` notes what each departure id a failed rule's record names is
(`departure_notes`: its class, its summary and, for an observed one, who sends it), so the
reports can name it without the dialect's registry; absent when none is named. Strings from
the stream were scrubbed and bounded when the failure was recorded
(`refold.records.replay`); `write_report` passes the whole document, the target's name and
description too, through `refold.reference.json_text` (scrubbed, bounded, no bare NaN).
"""

from __future__ import annotations

import json
import platform
from collections.abc import Mapping
from datetime import datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, TypedDict

from refold import __version__
from refold.reference import STATUSES, DialectRecord, RuleRecord, Status, json_text

from ..dialects import Dialect
from ..targets import Target
from ..targets.sdk.reproducers import reproducer_of
from .redaction import redact
from .results import RuleOutcome, RuleResults

__all__ = ["DepartureNote", "build_report", "departure_notes", "dialect_record_of", "write_report"]


def build_report(
    results: RuleResults,
    *,
    target: Target | None,
    started: datetime,
    duration_seconds: float,
    hypothesis_profile: str,
    dialect: Dialect,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The results of a run of `dialect` as the documented JSON object."""
    rules: dict[str, RuleRecord] = {}
    totals: dict[Status, int] = dict.fromkeys(STATUSES, 0)
    for rule in dialect.rules.values():
        outcome = results.by_rule.get(rule.id)
        status = outcome.status if outcome else "not run"
        totals[status] += 1
        rules[rule.id] = {
            "feature": rule.feature,
            "registry": "spec" if rule.id in dialect.spec_rules else "wire",
            "statement": rule.statement,
            "status": status,
            "tests": outcome.tests if outcome else 0,
            "reason": outcome.reason if outcome else None,
            "failure": outcome.failure if outcome and status == "failed" else None,
            "blocked_by": list(outcome.blocked_by) if outcome and status == "blocked" else [],
            "fingerprints": _unique(outcome.fingerprints) if outcome else [],
            "verdict": outcome.verdict if outcome else None,
        }
        if outcome is not None and status == "failed":
            rules[rule.id].update(_found_on(outcome))
    report: dict[str, Any] = {
        "refold_version": __version__,
        "target": _target(target, dialect),
        "versions": _versions(),
        "started": started.isoformat(timespec="seconds"),
        "duration_seconds": round(duration_seconds, 3),
        "hypothesis_profile": hypothesis_profile,
        "settings": settings,
        "dialect": dialect_record_of(dialect),
        "rules": rules,
        "totals": totals,
    }
    notes = departure_notes(dialect, rules)
    if notes:
        report["departures"] = notes
    return report


class DepartureNote(TypedDict):
    """What the reports show of a registered departure (they cannot import the registry)."""

    shape: str
    summary: str
    provenance: list[str]


def departure_notes(dialect: Dialect, rules: Mapping[str, RuleRecord]) -> dict[str, DepartureNote]:
    """The dialect's notes on every departure a failed rule's record names (the rule's
    `departures` and its failure's), in registry order: the reports name them by id and
    summary, and show who sends an observed one. {} when the dialect registers none."""
    registry = dialect.shapes.departures if dialect.shapes is not None else {}
    named: set[str] = set()
    for rule in rules.values():
        failure: Mapping[str, Any] = rule.get("failure") or {}
        named.update(rule.get("departures") or [], failure.get("departures") or [])
    return {
        key: {"shape": found.shape, "summary": found.summary, "provenance": list(found.provenance)}
        for key, found in registry.items()
        if key in named
    }


def _found_on(outcome: RuleOutcome) -> RuleRecord:
    """A failed rule's `found_on`, `impact` (left out when no failure of it states one:
    an event rule's violations) and the departures of the stream its verdict rests on."""
    verdict = outcome.rule_verdict
    found: dict[str, Any] = {"found_on": verdict.found_on, "departures": verdict.departures}
    if verdict.impact is not None:
        found["impact"] = verdict.impact
    return found  # type: ignore[return-value]


def _unique(fingerprints: list[dict[str, Any]]) -> list[dict[str, Any]]:
    keyed = {json.dumps(f, sort_keys=True): f for f in fingerprints}
    return [keyed[key] for key in sorted(keyed)]


def dialect_record_of(dialect: Dialect) -> DialectRecord:
    """What a record says of `dialect`: its name, and what a reader needs to show it."""
    return {
        "name": dialect.name,
        "title": dialect.title,
        "spec": dialect.spec,
        "item": dialect.item,
        "features": list(dialect.features),
        "extra_rules_note": dialect.extra_rules_note,
        "docs": dialect.docs,
    }


def _target(target: Target | None, dialect: Dialect) -> dict[str, Any]:
    if target is None:
        return {"name": "(not loaded)", "description": "", "features": []}
    record: dict[str, Any] = {
        "name": target.name,
        "description": target.description,
        "features": [f for f in dialect.features if f in target.features],
    }
    if target.projection is not None:  # the places of its fold that are compared
        record["projection"] = target.projection.record()
    accepts = getattr(target, "accepts", None)
    if accepts is not None:  # an events adapter: the source dialects it was fed
        record["fed"] = sorted(accepts)
    reproducer = reproducer_of(target.name)
    if reproducer is not None:  # a built-in SDK's program that folds a stream without refold
        record["reproducer"] = reproducer
    return record


def _versions() -> dict[str, str]:
    found = {
        "python": platform.python_version(),
        "refold": __version__,
        "platform": platform.platform(terse=True),
    }
    for distribution in ("pytest", "hypothesis"):
        try:
            found[distribution] = version(distribution)
        except PackageNotFoundError:
            found[distribution] = "unknown"
    return found


def write_report(report: dict[str, Any], path: Path) -> Path:
    """Write the report as scrubbed UTF-8 JSON (creating the folder); return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json_text(redact(report)), encoding="utf-8")
    return path
