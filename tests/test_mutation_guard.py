"""A mutant that breaks the harness while collecting ends the run as an internal error
(status 3, which mutmut counts as killed), not a usage error (status 4, on which
mutmut aborts the whole mutation run)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BROKEN_COLLECTION = '''
import pytest

def pytest_collection_modifyitems(items):
    raise pytest.UsageError("the target could not be loaded")
'''


@pytest.mark.parametrize(("plugins", "status"), [
    ([], 4),
    (["-p", "refold.mutation._guard"], 3),
])
def test_a_usage_error_while_collecting_becomes_an_internal_error(
        tmp_path: Path, plugins: list[str], status: int) -> None:
    (tmp_path / "conftest.py").write_text(BROKEN_COLLECTION)
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert True\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          *plugins, "--rootdir", str(tmp_path), str(tmp_path)],
                         cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == status, run.stdout + run.stderr
