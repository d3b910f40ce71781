"""The dialect registry is extensible: a distribution registers a `Dialect` through the
entry point group `refold.dialects`, and the registry refuses anything else."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from refold.run.preflight import USAGE_ERROR

_PROBE = "from refold.dialects import DIALECTS; print(' '.join(DIALECTS))"


def _installed(site: Path, module: str, entry: str) -> dict[str, str]:
    (site / "x_dialect.py").write_text(module, encoding="utf-8")
    info = site / "x_dialect-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: x-dialect\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[refold.dialects]\nx = {entry}\n")
    return {**os.environ, "PYTHONPATH": str(site)}


def _probe(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env, check=False
    )


def test_a_dialect_registered_through_the_entry_point_group_joins_the_registry(
    tmp_path: Path,
) -> None:
    module = (
        "import dataclasses\n"
        "from refold.dialects.openai_chat import OPENAI_CHAT\n"
        "X = dataclasses.replace(OPENAI_CHAT, name='x-chat', title='X', rules={},\n"
        "                        spec_rules=frozenset())\n"
    )
    run = _probe(_installed(tmp_path, module, "x_dialect:X"))
    assert run.returncode == 0, run.stderr
    names = run.stdout.split()
    assert names[-1] == "x-chat" and "openai-chat" in names


def test_an_entry_point_that_is_not_a_dialect_is_refused_by_name(tmp_path: Path) -> None:
    run = _probe(_installed(tmp_path, "X = 'not a dialect'\n", "x_dialect:X"))
    assert run.returncode != 0
    assert "entry point 'x'" in run.stderr and "expected a refold.dialects.Dialect" in run.stderr


def test_a_broken_dialect_entry_point_is_a_one_paragraph_usage_error_of_the_command(
    tmp_path: Path,
) -> None:
    env = _installed(tmp_path, "X = 'not a dialect'\n", "x_dialect:X")
    run = subprocess.run(
        [sys.executable, "-m", "refold.cli", "rules"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert run.returncode == USAGE_ERROR, run.stderr
    assert "Traceback" not in run.stderr
    assert run.stderr.startswith("refold: entry point 'x' of group 'refold.dialects'")
    assert len(run.stderr.strip().splitlines()) == 1
