"""Every Responses rule that can be shown on a documented stream has a rule example on one
(verdicts.md §2; issue 24 point 2): the streams the examples send are gathered and each is
classified by the dialect's `StreamShapes`.

The example modules run against a recording copy of the reference in a fresh pytest
process (in process: the recorder reads PYTEST_CURRENT_TEST); every event an accumulator
receives is written down with its test's node id. A rule in `UNDOCUMENTABLE` is about a
departure by definition, and says why.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from refold.dialects.openai_responses import OPENAI_RESPONSES
from refold.reference.responses import RULES

_RECORDER = '''
"""The Responses reference accumulator, writing every event it is given to REFOLD_RECORD."""
import json
import os
from itertools import count

from refold.reference.responses import FEATURES, Accumulator

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


refold_target = {"name": "recording", "dialect": "openai-responses", "factory": Recording,
                 "features": sorted(set(FEATURES) - {"sse", "events"})}
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

_WHOLE = (
    "on a documented stream the terminal response carries the whole output "
    "(RS-OUTPUT-TERMINAL), so what the stream builds shows only when the terminal "
    "omits it (RQ1, RQ2) or in a snapshot before the terminal"
)

UNDOCUMENTABLE: dict[str, str] = {
    "RS-RECOVER-FROM-DELTAS": "an item that never got output_item.done (RQ4)",
    "RS-RECOVER-STATUS": "an item that never got output_item.done (RQ4)",
    "RS-ORPHAN": "item events before their item was added (RQ5)",
    "RS-READD": "an output_item.added at an index that already holds an item (RQ5, RQ13)",
    "RS-ROUTE": "an item's events at another item's output_index (RQ13)",
    "RS-KEY-OUTPUT-INDEX": "item ids that rotate or are missing (RQ7, RQ10)",
    "RS-KIND-MATCH": "an item event routed to an item it does not fit",
    "RS-ENV-FILL": "a terminal response without keys its schema requires",
    "RS-TERMINAL-REPEAT": "a second terminal event (RQ19)",
    "RS-SEQ-ARRIVAL": "sequence numbers absent, repeated or out of order (RQ12)",
    "RS-KEEPALIVE": "keepalive and unknown event types (RQ24)",
    "RS-WRONG-TYPE": "a field of the wrong JSON type",
    "RS-NOT-OBJECT": "an event that is not a JSON object",
    "RS-NULL-ITEM": "output_item.added with a null item (RQ6)",
    "LIFE-RS-EMPTY": "a stream without events",
    "LIFE-RS-AFTER": "events after the terminal event",
    "LIFE-RS-FINISHED": "streams that end without a terminal event, or with events after it",
    "RS-OUTPUT-ORDER": "items streamed out of output_index order",
    **dict.fromkeys(
        (
            "RS-REFUSAL",
            "RS-REASONING-SUMMARY",
            "RS-REASONING-TEXT",
            "RS-ANNOTATIONS",
            "RS-ARGS-JOIN",
            "RS-DONE-REPLACES",
            "RS-ITEM-DONE-REPLACES",
            "RS-CONTENT-INDEX",
        ),
        _WHOLE,
    ),
}
"""Rules about a departure by definition, and the departure."""


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
    command = [
        sys.executable,
        "-m",
        "pytest",
        "--target=recording_target.py",
        "--in-process",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        "-p",
        "refold_marks",
        "-q",
        "--hypothesis-profile=dev",
        "--pyargs",
        "refold.suites.responses",
        "-k",
        "test_responses_rule_examples",
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


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    streams, marks, output = _run(tmp_path_factory.mktemp("documented-responses-examples"))
    assert marks, f"no rule example ran:\n{output}"
    failed = sorted(t for t, e in marks.items() if e["outcome"] not in ("passed", "skipped"))
    assert not failed, f"examples failed against the recording reference: {failed}\n{output}"
    assert len(streams) > 100, f"only {len(streams)} examples recorded a stream:\n{output}"
    return streams, marks


def _key(node: str) -> str:
    return node.rsplit("::", 1)[-1]


def _documented_rules(recorded: tuple[dict[str, Any], dict[str, Any]]) -> set[str]:
    """The rules of every example that sent at least one documented stream."""
    streams, marks = recorded
    shapes = OPENAI_RESPONSES.shapes
    assert shapes is not None
    documented: set[str] = set()
    for node, entry in marks.items():
        found = streams.get(node) or next(
            (s for test, s in streams.items() if test.endswith("::" + _key(node))), []
        )
        if any(shapes.of(stream).shape == "documented" for stream in found):
            documented |= set(entry["rules"])
    return documented


def test_every_rule_that_can_be_shown_on_a_documented_stream_has_an_example_on_one(
    recorded: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    missing = sorted(set(RULES) - set(UNDOCUMENTABLE) - _documented_rules(recorded))
    assert not missing, f"rules with no rule example on a documented stream: {missing}"


def test_no_undocumentable_rule_has_an_example_on_a_documented_stream(
    recorded: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    # the table stays exact: a rule shown on a documented stream after all leaves it
    shown = sorted(set(UNDOCUMENTABLE) & _documented_rules(recorded))
    assert not shown, f"shown on a documented stream, to remove from UNDOCUMENTABLE: {shown}"


def test_undocumentable_rules_are_rules_and_say_why() -> None:
    assert set(UNDOCUMENTABLE) <= set(RULES)
    assert all(reason.strip() for reason in UNDOCUMENTABLE.values())


def test_every_departure_an_example_makes_is_registered(
    recorded: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    # verdicts.md §1: every quirk a rule example shows is a registered departure
    shapes = OPENAI_RESPONSES.shapes
    assert shapes is not None
    streams, _ = recorded
    found = sorted(
        {
            f"  {_key(test)}: {shape.describe()}"
            for test, sent in streams.items()
            for shape in map(shapes.of, sent)
            if shape.unregistered
        }
    )
    assert not found, "unregistered departures:\n" + "\n".join(found)
