"""`refold` exports its public API by name, and importing it imports nothing else."""

from __future__ import annotations

import subprocess
import sys

import pytest

import refold


def test_every_name_in_all_is_importable_from_refold() -> None:
    for name in refold.__all__:
        assert getattr(refold, name) is not None, name
    from refold import Check, rule
    from refold.run.checks import Check as CheckHome
    from refold.run.marks import rule as rule_home

    assert (Check, rule) == (CheckHome, rule_home)


def test_importing_refold_imports_no_harness_module_nor_pytest() -> None:
    probe = (
        "import sys, refold, refold.reference\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(('refold.', 'pytest', "
        "'hypothesis')) and not m.startswith('refold.reference'))\n"
        "print(loaded)\n"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]", run.stdout


def test_an_unknown_name_is_an_attribute_error_naming_it() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        refold.no_such_name  # noqa: B018
