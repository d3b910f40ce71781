"""The committed mutation records (`reports/mutation/*.json`): each is a whole run of one
dialect's reference, named after it, with counts and score that follow from its mutants
and a reason on every equivalent one."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from refold.dialects import DEFAULT_DIALECT, DIALECTS
from refold.mutation import FORMAT, counts, score

RECORDS = Path(__file__).resolve().parents[3] / "reports" / "mutation"
_NAMED = re.compile(r"(?P<prefix>(?:[a-z]+-)?)reference-\d{4}-\d{2}-\d{2}\.json")
_DIALECT_OF_PREFIX = {
    ("" if name == DEFAULT_DIALECT else f"{d.reference_package.rpartition('.')[2]}-"): name
    for name, d in DIALECTS.items()
}
"""A record's name says whose reference it measured: `reference-DATE.json` (the chat one,
recorded before dialects existed) or `<dialect's short name>-reference-DATE.json`."""


def _records() -> list[Path]:
    return sorted(RECORDS.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return record


def test_every_dialect_has_a_committed_record() -> None:
    named = {_NAMED.fullmatch(p.name) for p in _records()}
    assert None not in named, [p.name for p in _records()]
    prefixes = {m["prefix"] for m in named if m is not None}
    assert {_DIALECT_OF_PREFIX[p] for p in prefixes} == set(DIALECTS)


@pytest.mark.parametrize("path", _records(), ids=lambda p: p.name)
def test_a_record_is_a_whole_run_of_the_reference_of_the_dialect_it_is_named_after(
    path: Path,
) -> None:
    record = _load(path)
    match = _NAMED.fullmatch(path.name)
    assert match is not None
    dialect = DIALECTS[_DIALECT_OF_PREFIX[match["prefix"]]]
    assert record["format"] == FORMAT and record["target"] == "reference"
    # null (or absent, before dialects): the default dialect's reference
    assert (record.get("dialect") or DEFAULT_DIALECT) == dialect.name
    mutated = dialect.reference_package.rpartition(".")[0] if dialect.mutates_kernel else None
    assert record["module"] == (mutated or dialect.reference_package)
    assert record["filter"] == [] and "not checked" not in record["counts"]
    # the whole suites with --dialect; a record written before the generic suites named
    # the dialect's own folder (the chat one's was then the top-level modules, "suites")
    suites = ("suites", f"suites/{dialect.suites}")
    assert record["tests"]["paths"][0] in suites and record["tests"]["excluded_failing"] == []
    assert record["stale_equivalents"] == []


@pytest.mark.parametrize("path", _records(), ids=lambda p: p.name)
def test_a_records_counts_and_score_follow_from_its_mutants(path: Path) -> None:
    record = _load(path)
    mutants = record["mutants"]
    assert record["counts"] == counts(mutants)
    assert record["score"] == score(mutants)
    for name, mutant in mutants.items():
        assert name.startswith(f"{record['module']}."), name
        if mutant["status"] == "equivalent":
            assert len(mutant.get("reason", "")) > 20 and mutant.get("diff"), name
