"""Every stream the Anthropic rule examples send, recorded: the example modules run against
a recording copy of the reference in a fresh pytest process; every event an accumulator
receives is written down with its test's node id, and each test's rule marks and outcome
with it. Shared by the tests that judge the examples' streams (plain shapes, documented
shapes); one run per test process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from functools import cache
from pathlib import Path
from tempfile import mkdtemp
from typing import Any

__all__ = ["recorded_examples"]

_RECORDER = '''
"""The Anthropic reference accumulator, writing every event it is given to REFOLD_RECORD."""
import json
import os
from itertools import count

from refold.reference.anthropic import FEATURES, Accumulator

_STREAMS = count()


class Recording:
    def __init__(self):
        self._inner = Accumulator()
        self._stream = next(_STREAMS)

    def add(self, event):
        test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
        line = json.dumps({"test": test, "stream": self._stream, "event": event}, default=repr)
        with open(os.environ["REFOLD_RECORD"], "a") as file:
            file.write(line + "\\n")
        self._inner.add(event)

    def response(self):
        return self._inner.response()

    @property
    def finished(self):
        return self._inner.finished

    @property
    def error(self):
        return self._inner.error


refold_target = {"name": "recording", "dialect": "anthropic-messages", "factory": Recording,
                 "features": sorted(set(FEATURES) - {"sse"})}
'''

_COLLECTOR = """
import json
import os

_RULES = {}


def pytest_runtest_logreport(report):
    rules = dict(report.user_properties).get("rules", "").split()
    if rules and report.when == "call":
        _RULES[report.nodeid] = {"rules": rules, "outcome": report.outcome}


def pytest_sessionfinish(session):
    with open(os.environ["REFOLD_MARKS"], "w") as file:
        json.dump(_RULES, file)
"""


def _run(workdir: Path) -> tuple[dict[str, list[list[Any]]], dict[str, Any], str]:
    (workdir / "recording_target.py").write_text(_RECORDER)
    (workdir / "refold_marks.py").write_text(_COLLECTOR)
    record, marks = workdir / "record.jsonl", workdir / "marks.json"
    environment = {
        **os.environ,
        "PYTHONPATH": str(workdir),
        "REFOLD_RECORD": str(record),
        "REFOLD_MARKS": str(marks),
    }
    # In process: the recorder reads PYTEST_CURRENT_TEST, which a worker would not see.
    command = [
        sys.executable,
        "-m",
        "pytest",
        "--target=recording_target.py",
        "--in-process",
        "-p",
        "no:cacheprovider",
        "-p",
        "refold_marks",
        "-q",
        "--hypothesis-profile=dev",
        "-k",
        "test_anthropic_rule_examples",
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
    streams: dict[str, dict[int, list[Any]]] = defaultdict(dict)
    for line in record.read_text().splitlines() if record.exists() else []:
        entry = json.loads(line)
        streams[entry["test"]].setdefault(entry["stream"], []).append(entry["event"])
    by_test = {test: list(found.values()) for test, found in streams.items()}
    recorded = json.loads(marks.read_text()) if marks.exists() else {}
    return by_test, recorded, completed.stdout[-3000:] + completed.stderr[-3000:]


@cache
def recorded_examples() -> tuple[dict[str, list[list[Any]]], dict[str, Any], str]:
    """(streams by test node id, {node id: {"rules", "outcome"}}, the run's output tail):
    the examples' run, once per process."""
    return _run(Path(mkdtemp(prefix="anthropic-examples-")))
