"""Every rule example rests on its own rules: each departure from OpenAI's own shape in
the streams an example sends is governed by a rule it is marked with, and every feature
the streams use is a feature of one of its rules.

Without this a crash or a difference caused by one departure (a sparse tool index in the
TOOL-OUTPUT example) is charged to a rule the example was not about, and a target that
does not claim a feature is sent it by a test of another feature.

The example modules run against a recording copy of the reference in a fresh pytest
process; every stream an accumulator receives is written down with its test's node id,
then classified by `_departures`.
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
from _departures import GOVERNING, departures, features_used

from refold.reference.chat import ALL_RULES

_RECORDER = '''
"""The reference accumulator, writing every chunk it is given to REFOLD_RECORD."""
import json
import os
from itertools import count

from refold.reference.chat import Accumulator

_STREAMS = count()


class Recording:
    def __init__(self):
        self._inner = Accumulator()
        self._stream = next(_STREAMS)

    def add(self, chunk):
        test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
        line = json.dumps({"test": test, "stream": self._stream, "chunk": chunk}, default=repr)
        with open(os.environ["REFOLD_RECORD"], "a") as file:
            file.write(line + "\\n")
        self._inner.add(chunk)

    def response(self):
        return self._inner.response()

    def finished(self):
        return self._inner.finished

    def mark_done(self):
        self._inner.mark_done()


refold_target = {"name": "recording", "factory": Recording}
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
        "test_rule_examples or test_quirk_streams",
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
        streams[entry["test"]].setdefault(entry["stream"], []).append(entry["chunk"])
    by_test = {test: list(found.values()) for test, found in streams.items()}
    recorded = json.loads(marks.read_text()) if marks.exists() else {}
    return by_test, recorded, completed.stdout[-3000:] + completed.stderr[-3000:]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    streams, marks, output = _run(tmp_path_factory.mktemp("plain-examples"))
    assert marks, f"no rule example ran:\n{output}"
    failed = sorted(test for test, entry in marks.items() if entry["outcome"] != "passed")
    assert not failed, f"examples failed against the recording reference: {failed}\n{output}"
    assert len(streams) > 100, f"only {len(streams)} examples recorded a stream:\n{output}"
    return streams, marks


_IMPLIED = {"tool_call_repair": {"tool_calls"}, "empty_arguments": {"tool_calls"}}
"""Features a claim of another one implies: repairing or completing tool calls is a claim
to fold tool calls. `text` is claimed by every target."""


def _with_implied(features: set[str]) -> set[str]:
    return {"text", *features, *(f for claimed in features for f in _IMPLIED.get(claimed, ()))}


def _unmarked_departures(streams: list[list[Any]], rules: set[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for chunks in streams:
        for kind in departures(chunks):
            if not GOVERNING[kind] & rules:
                found[kind] = sorted(GOVERNING[kind])
    return found


def test_every_departure_in_an_example_is_governed_by_a_rule_it_is_marked_with(
    recorded: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    streams, marks = recorded
    wrong = {}
    for test, entry in sorted(marks.items()):
        found = _unmarked_departures(streams.get(test, []), set(entry["rules"]))
        if found:
            wrong[test] = (entry["rules"], found)
    assert not wrong, (
        "examples with departures no rule of theirs governs "
        "(test: marks, {departure: rules that would govern it}):\n"
        + "\n".join(f"  {test}: {rules} {found}" for test, (rules, found) in wrong.items())
    )


def test_every_feature_an_example_sends_is_a_feature_of_its_rules(
    recorded: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    streams, marks = recorded
    wrong = {}
    for test, entry in sorted(marks.items()):
        claimed = _with_implied({ALL_RULES[r].feature for r in entry["rules"]})
        used = set().union(*(features_used(chunks) for chunks in streams.get(test, [])))
        if used - claimed:
            wrong[test] = (entry["rules"], sorted(used - claimed))
    assert not wrong, "examples sending features none of their rules belongs to:\n" + "\n".join(
        f"  {test}: {rules} sends {found}" for test, (rules, found) in wrong.items()
    )


@pytest.mark.parametrize(
    ("chunks", "kind"),
    [
        (
            [
                {
                    "id": "c",
                    "object": "chat.completion.chunk",
                    "created": 1,
                    "model": "m",
                    "choices": [
                        {
                            "index": 0,
                            "delta": {
                                "tool_calls": [
                                    {
                                        "index": 3,
                                        "id": "a",
                                        "function": {"name": "f", "arguments": "{}"},
                                    }
                                ]
                            },
                        }
                    ],
                }
            ],
            "sparse tool index",
        ),
        (
            [
                {
                    "id": "c",
                    "object": "chat.completion.chunk",
                    "created": 1,
                    "model": "m",
                    "choices": [None],
                }
            ],
            "null list entry",
        ),
        (
            [
                {
                    "id": "c",
                    "object": "chat.completion.chunk",
                    "created": 1,
                    "model": "m",
                    "choices": [{"index": 0, "delta": {"content": "a"}, "finish_reason": ""}],
                }
            ],
            "blank finish reason",
        ),
    ],
)
def test_the_classifier_sees_each_departure(chunks: list[Any], kind: str) -> None:
    assert kind in departures(chunks)


def test_the_plain_shape_has_no_departure() -> None:
    envelope = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    header = {"index": 0, "id": "a", "type": "function", "function": {"name": "f", "arguments": ""}}
    chunks = [
        {
            **envelope,
            "choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [header]}}],
        },
        {
            **envelope,
            "choices": [
                {
                    "index": 0,
                    "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]},
                    "finish_reason": "tool_calls",
                }
            ],
        },
        {**envelope, "choices": [], "usage": {"prompt_tokens": 1}},
    ]
    assert departures(chunks) == set()
