"""`finished` has no JSON pointer, so a wrong `finished` is charged to the lifecycle rules
that decide it (LIFE-FINISHED, LIFE-DONE, LIFE-ERROR), never to the other rules of the
test that saw it: a target that counts `finish_reason: "error"` as finished fails
LIFE-ERROR or LIFE-FINISHED, and never ENV-NO-ERROR or USAGE-LAST.

The lifecycle and envelope suites run in a fresh pytest process against such a target; the
rules table pytest prints is read back.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

_TARGET = '''
"""The reference accumulator, except that `finished` counts "error" as a finish reason."""
from refold.reference.chat import Accumulator


class FinishesOnError:
    def __init__(self):
        self._inner = Accumulator()
        self._reasons = {}

    def add(self, chunk):
        self._inner.add(chunk)
        for entry in chunk.get("choices") or []:
            if isinstance(entry, dict) and isinstance(entry.get("finish_reason"), str) \\
                    and entry["finish_reason"].strip():
                self._reasons[entry.get("index", 0)] = entry["finish_reason"]

    def response(self):
        return self._inner.response()

    def finished(self):
        if "error" in self._reasons.values():
            return True
        return self._inner.finished

    def mark_done(self):
        self._inner.mark_done()


refold_target = {"name": "finishes-on-error", "factory": FinishesOnError}
'''


@pytest.fixture(scope="module")
def statuses(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], str]:
    workdir = tmp_path_factory.mktemp("finishes-on-error")
    (workdir / "finishes_on_error.py").write_text(_TARGET)
    environment = {**os.environ}
    environment.pop("CI", None)
    command = [
        sys.executable,
        "-m",
        "pytest",
        "--target=finishes_on_error.py",
        "-q",
        "-p",
        "no:cacheprovider",
        "--hypothesis-profile=dev",
        "-k",
        "test_lifecycle or test_rule_examples_lifecycle or test_rule_examples_envelope",
    ]
    completed = subprocess.run(
        command,
        cwd=workdir,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    output = completed.stdout + completed.stderr
    found = dict(
        re.findall(r"^  ([A-Z]+-[A-Z0-9-]+) +(passed|failed|skipped|not run)", output, re.MULTILINE)
    )
    return found, output[-4000:]


def test_finishing_on_an_error_chunk_fails_a_lifecycle_rule(
    statuses: tuple[dict[str, str], str],
) -> None:
    found, output = statuses
    assert "failed" in (found.get("LIFE-ERROR"), found.get("LIFE-FINISHED")), output


def test_finishing_on_an_error_chunk_is_never_charged_to_another_rule(
    statuses: tuple[dict[str, str], str],
) -> None:
    found, output = statuses
    wrong = sorted(
        rule
        for rule, status in found.items()
        if status == "failed" and not rule.startswith("LIFE-")
    )
    assert not wrong, f"charged to {wrong}:\n{output}"
