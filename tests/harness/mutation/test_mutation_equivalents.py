"""Equivalent mutants: matched by function and changed lines, each with a reason, and
every dialect's reviewed list of its reference is valid."""

from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import Any

import pytest

from refold.dialects import DIALECTS
from refold.errors import UsageError
from refold.mutation import Equivalent, apply_equivalents, change_of, load_equivalents

DIFF = """--- refold/reference/_json.py
+++ refold/reference/_json.py
@@ -1,3 +1,3 @@
 def f(value):
-    return value > 0
+    return value >= 0
"""


def test_a_change_is_the_stripped_changed_lines_without_headers_or_context() -> None:
    assert change_of(DIFF) == "-return value > 0\n+return value >= 0"


def test_a_survivor_matching_an_entry_becomes_equivalent_with_its_reason() -> None:
    found: dict[str, dict[str, Any]] = {
        "m.x_f__mutmut_7": {"status": "survived", "function": "m.x_f", "diff": DIFF},
        "m.x_f__mutmut_8": {"status": "killed", "function": "m.x_f"},
    }
    entry = Equivalent("m.x_f", change_of(DIFF), "zero never reaches f")
    stale = Equivalent("m.x_g", "-a\n+b", "gone")
    assert apply_equivalents(found, [entry, stale]) == [stale]
    assert found["m.x_f__mutmut_7"] == {
        "status": "equivalent",
        "function": "m.x_f",
        "diff": DIFF,
        "reason": "zero never reaches f",
    }
    assert found["m.x_f__mutmut_8"]["status"] == "killed"


def test_an_entry_for_another_function_with_the_same_change_does_not_match() -> None:
    found = {"m.x_h__mutmut_1": {"status": "survived", "function": "m.x_h", "diff": DIFF}}
    apply_equivalents(found, [Equivalent("m.x_f", change_of(DIFF), "r")])
    assert found["m.x_h__mutmut_1"]["status"] == "survived"


def test_an_entry_without_a_reason_is_refused_with_its_number(tmp_path: Path) -> None:
    path = tmp_path / "eq.toml"
    path.write_text('[[mutant]]\nfunction = "m.x_f"\nmutation = "-a\\n+b"\nreason = ""\n')
    with pytest.raises(UsageError, match="entry 1 lacks reason"):
        load_equivalents(path)


def test_a_missing_list_means_no_equivalents(tmp_path: Path) -> None:
    assert load_equivalents(tmp_path / "absent.toml") == []


def test_invalid_toml_is_refused_with_the_path(tmp_path: Path) -> None:
    path = tmp_path / "eq.toml"
    path.write_text("[[mutant]\n")
    with pytest.raises(UsageError, match="not valid TOML"):
        load_equivalents(path)


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_every_dialects_reviewed_list_loads_and_names_only_its_reference_functions(
    name: str,
) -> None:
    dialect = DIALECTS[name]
    path = Path(__file__).resolve().parents[3] / "docs" / dialect.reference_equivalents
    assert path.is_file(), f"docs/{dialect.reference_equivalents} is the reviewed list: keep it"
    # a function of another dialect's reference inside this package is that dialect's
    # its mutants are those of its package, and of the kernel when it mutates that
    mutated = dialect.reference_package.rpartition(".")[0] if dialect.mutates_kernel else None
    own = mutated or dialect.reference_package
    others = [
        d.reference_package
        for d in DIALECTS.values()
        if d.reference_package.startswith(f"{own}.") and d is not dialect
    ]
    # and, for a dialect with `reference_parts`, those of the modules they name elsewhere
    parts = [
        f"{own.rpartition('.')[0]}.{glob.removesuffix('.py').replace('/', '.')}.*"
        for glob in dialect.reference_parts
    ]
    for entry in load_equivalents(path):
        if any(fnmatch.fnmatch(entry.function, part) for part in parts):
            continue
        assert entry.function.startswith(f"{own}."), entry
        assert not any(entry.function.startswith(f"{other}.") for other in others), entry
        assert entry.mutation.count("\n") >= 1 and len(entry.reason) > 20, entry


def test_the_dialects_keep_their_equivalents_in_different_lists() -> None:
    lists = [d.reference_equivalents for d in DIALECTS.values()]
    assert len(set(lists)) == len(lists)
