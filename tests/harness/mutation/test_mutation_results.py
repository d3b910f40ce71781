"""Mutation verdicts, the score and the merge of shards (refold.mutation._results)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from refold.mutation import FORMAT, merge, score
from refold.mutation._results import function_of, read_verdicts, status_of


def mutants(*statuses: str) -> dict[str, dict[str, Any]]:
    return {
        f"m.x_f__mutmut_{n}": {"status": s, "function": "m.x_f"}
        for n, s in enumerate(statuses, start=1)
    }


def shard(statuses: dict[str, str], *, target: str = "reference") -> dict[str, Any]:
    return {
        "format": FORMAT,
        "target": target,
        "duration_seconds": 10.0,
        "filter": ["m.*"],
        "mutants": {
            name: {"status": s, "function": function_of(name)} for name, s in statuses.items()
        },
    }


@pytest.mark.parametrize(
    ("exit_code", "status"),
    [
        (0, "survived"),
        (1, "killed"),
        (3, "killed"),
        (-24, "timeout"),
        (36, "timeout"),
        (5, "no tests"),
        (34, "skipped"),
        (None, "not checked"),
        (99, "suspicious"),
    ],
)
def test_exit_codes_map_to_mutmuts_statuses(exit_code: int | None, status: str) -> None:
    assert status_of(exit_code) == status


def test_a_mutant_belongs_to_its_mangled_function() -> None:
    assert (
        function_of("refold.reference.chat._tools.xǁ_Callǁadd__mutmut_12")
        == "refold.reference.chat._tools.xǁ_Callǁadd"
    )
    assert function_of("pkg.x_split__mutmut_3") == "pkg.x_split"


def test_timeouts_are_detected_and_unscored_statuses_leave_the_denominator() -> None:
    result = mutants(
        "killed", "timeout", "survived", "no tests", "skipped", "not checked", "equivalent"
    )
    assert score(result) == 50.0  # (killed + timeout) / (killed, timeout, survived, no tests)


def test_nothing_scored_has_no_score() -> None:
    assert score(mutants("skipped", "not checked")) is None


def test_shards_merge_into_the_verdicts_each_shard_checked() -> None:
    first = shard({"m.x_f__mutmut_1": "killed", "m.x_f__mutmut_2": "not checked"})
    second = shard({"m.x_f__mutmut_1": "not checked", "m.x_f__mutmut_2": "survived"})
    merged = merge([first, second])
    assert {n: m["status"] for n, m in merged["mutants"].items()} == {
        "m.x_f__mutmut_1": "killed",
        "m.x_f__mutmut_2": "survived",
    }
    assert merged["score"] == 50.0
    assert merged["counts"] == {"killed": 1, "survived": 1}
    assert merged["shards"] == 2 and merged["duration_seconds"] == 20.0


def test_shards_of_different_targets_or_formats_are_refused() -> None:
    with pytest.raises(ValueError, match="different targets"):
        merge([shard({}), shard({}, target="mypkg")])
    with pytest.raises(ValueError, match="not a refold mutation result"):
        merge([{"format": "other"}])


def test_verdicts_are_read_from_the_meta_files_of_the_mutants_folder(tmp_path: Path) -> None:
    folder = tmp_path / "mutants" / "pkg"
    folder.mkdir(parents=True)
    (folder / "mod.py.meta").write_text(
        json.dumps(
            {
                "exit_code_by_key": {
                    "pkg.mod.x_f__mutmut_1": 1,
                    "pkg.mod.x_f__mutmut_2": 0,
                    "pkg.mod.x_g__mutmut_1": None,
                }
            }
        )
    )
    verdicts = read_verdicts(tmp_path / "mutants")
    assert verdicts == {
        "pkg.mod.x_f__mutmut_1": ("killed", folder / "mod.py"),
        "pkg.mod.x_f__mutmut_2": ("survived", folder / "mod.py"),
        "pkg.mod.x_g__mutmut_1": ("not checked", folder / "mod.py"),
    }


def test_the_summary_names_the_rules_reaching_a_survivor_but_none_for_a_timeout() -> None:
    from refold.commands.mutate import render_summary

    diff = "--- a.py\n+++ a.py\n@@ -1 +1 @@\n-    x = 1\n+    x = 2\n"
    result = {
        "target": "reference",
        "score": 50.0,
        "duration_seconds": 1.0,
        "counts": {"survived": 1, "timeout": 1},
        "mutants": {
            "m.x_f__mutmut_1": {
                "status": "survived",
                "function": "m.x_f",
                "diff": diff,
                "tests": 2,
                "rules": ["USAGE-LAST"],
            },
            "m.x_g__mutmut_1": {"status": "timeout", "function": "m.x_g"},
        },
    }
    summary = render_summary(result)
    assert "m.x_f  (reached by rules: USAGE-LAST)" in summary
    assert "\nm.x_g\n  timeout: x_g__mutmut_1" in summary
