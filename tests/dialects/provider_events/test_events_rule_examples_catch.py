"""The events rule examples catch broken adapters, each on exactly the rules it breaks.

Each throwaway adapter wraps the reference adapter (`refold.reference.events.Adapter`)
with one defect, is written to a file declaring `refold_target`, and is checked the way a
user checks one: `pytest <example modules> --target=<file> --dialect=provider-events` in a
fresh process, the rules' statuses read from the results file (`--refold-report`). Only
the example modules about the defect run (a few seconds each); within them, the failed
rules must be exactly the defect's, so an example failing on another rule's defect shows
up here too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

_SUITES = Path(__file__).resolve().parents[3] / "suites"
"""The suites: the events examples, and each source dialect's mapping examples in its own
suites (`openai_chat/events/`)."""

_WRAPPER = """
from refold.reference.events import Adapter


class _Wrapped:
    def begin(self, dialect):
        self._adapter = Adapter(dialect)

    def frame(self, frame):
        return self._adapter.frame(frame)

    def end(self):
        return self._adapter.end()

    def persisted(self):
        return self._adapter.persisted()
"""

_DEFECTS: dict[str, str] = {
    "accumulating": '''
class Broken(_Wrapped):
    """Emits the text so far in every TextDelta (what some SDK snapshots carry)."""
    _text = ""

    def frame(self, frame):
        events = []
        for event in self._adapter.frame(frame):
            if event["type"] == "TextDelta":
                self._text += event["delta"]
                event = {**event, "delta": self._text}
            events.append(event)
        return events
''',
    "persists_frames": '''
class Broken(_Wrapped):
    """Persists the events as emitted, provider frames and response id included."""
    def begin(self, dialect):
        super().begin(dialect)
        self._events = []

    def frame(self, frame):
        events = self._adapter.frame(frame)
        self._events += events
        return events

    def end(self):
        ending = self._adapter.end()
        self._events += ending["events"]
        return ending

    def persisted(self):
        return {"events": self._events}
''',
    "look_ahead": '''
class Broken(_Wrapped):
    """Emits each frame's events only when the next frame arrives (look-ahead)."""
    def begin(self, dialect):
        super().begin(dialect)
        self._held = []

    def frame(self, frame):
        released, self._held = self._held, self._adapter.frame(frame)
        return released

    def end(self):
        ending = self._adapter.end()
        return {**ending, "events": self._held + ending["events"]}
''',
    "drops_opaque": '''
class Broken(_Wrapped):
    """Never emits Opaque events."""
    def frame(self, frame):
        return [e for e in self._adapter.frame(frame) if e["type"] != "Opaque"]
''',
    "fold_reads_opaque": '''
from refold.reference.events import fold_turn


def _text_of(frame):
    if not isinstance(frame, dict):
        return ""
    if "choices" in frame:
        return (frame["choices"][0].get("delta") or {}).get("content") or ""
    return (frame.get("delta") or {}).get("text") or ""


class Broken(_Wrapped):
    """Its fold of events reads the text back out of the provider frames (opaque)."""
    def fold(self, events):
        text = "".join(_text_of(e.get("opaque")) for e in events
                       if e.get("type") == "TextDelta")
        return {**fold_turn(events), "output_text": text}
''',
    "always_end_turn": '''
class Broken(_Wrapped):
    """Reports every turn's stop reason as end_turn."""
    def frame(self, frame):
        return [self._fixed(e) for e in self._adapter.frame(frame)]

    def end(self):
        ending = self._adapter.end()
        return {**ending, "events": [self._fixed(e) for e in ending["events"]]}

    @staticmethod
    def _fixed(event):
        if event["type"] == "Completed":
            return {**event, "turn": {**event["turn"], "stop_reason": "end_turn"}}
        return event
''',
}

_DECLARATION = """
refold_target = {"dialect": "provider-events", "adapter": Broken,
                 "accepts": ["openai-chat", "anthropic-messages"],
                 "description": "a throwaway broken adapter"}
"""


@dataclass(frozen=True)
class Defect:
    """A broken adapter: the example modules about its defect, the rules it breaks."""

    modules: tuple[str, ...]
    rules: frozenset[str]


CATCHES: dict[str, Defect] = {
    "accumulating": Defect(("text",), frozenset({"EV-TEXT", "EV-TEXT-CONSERVE"})),
    "persists_frames": Defect(
        ("persistence",),
        frozenset({"PERSIST-STRIP", "PERSIST-CANARY", "PERSIST-RESPONSE-ID", "PERSIST-IDEMPOTENT"}),
    ),
    "look_ahead": Defect(
        ("grammar", "chat_mapping"), frozenset({"EV-FRAME-ORDER", "EV-CHAT-DONE"})
    ),
    "drops_opaque": Defect(
        ("opaque",),
        frozenset({"EV-FRAME-COVER", "EV-OPAQUE-FALLBACK", "EV-UNKNOWN", "EV-REFUSAL-OPAQUE"}),
    ),
    "fold_reads_opaque": Defect(
        ("persistence",), frozenset({"PERSIST-PORTABLE", "PERSIST-NO-SEMANTICS"})
    ),
    "always_end_turn": Defect(("stop_and_turn",), frozenset({"EV-STOP-MAP", "EV-STOP-TOOL"})),
}


@dataclass(frozen=True)
class Run:
    """One pytest run of example modules against a broken adapter: each rule's status."""

    exit_code: int
    statuses: dict[str, str]
    output: str

    def rules_with(self, status: str) -> set[str]:
        """The rules whose status is `status`."""
        return {rule for rule, found in self.statuses.items() if found == status}

    def tail(self, lines: int = 40) -> str:
        """The end of the run's output, for assertion messages."""
        return "\n".join(self.output.splitlines()[-lines:])


def _run(name: str, workdir: Path) -> Run:
    workdir.mkdir(parents=True)
    target = workdir / f"broken_{name}.py"
    target.write_text(_WRAPPER + _DEFECTS[name] + _DECLARATION)
    report = workdir / "results.json"
    modules = [
        str(path)
        for m in CATCHES[name].modules
        for path in _SUITES.glob(f"**/events/test_events_rule_examples_{m}.py")
    ]
    assert len(modules) == len(CATCHES[name].modules), modules
    environment = {key: value for key, value in os.environ.items() if key != "CI"}
    command = [
        sys.executable,
        "-m",
        "pytest",
        *modules,
        f"--target={target}",
        "--dialect=provider-events",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        "-q",
        "--in-process",
        f"--refold-report={report}",
    ]
    done = subprocess.run(
        command,
        cwd=workdir,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    statuses: dict[str, str] = {}
    if report.exists():
        statuses = {
            rule: str(entry["status"])
            for rule, entry in json.loads(report.read_text())["rules"].items()
        }
    return Run(done.returncode, statuses, done.stdout + done.stderr)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Future[Run]]]:
    """Every run, two at a time (the machine has two cores)."""
    root = tmp_path_factory.mktemp("broken-adapters")
    with ThreadPoolExecutor(max_workers=2) as pool:
        yield {name: pool.submit(_run, name, root / name) for name in sorted(CATCHES)}


@pytest.mark.parametrize("name", sorted(CATCHES))
def test_the_examples_fail_a_broken_adapter_on_exactly_its_rules(
    runs: dict[str, Future[Run]], name: str
) -> None:
    run = runs[name].result()
    failed, expected = run.rules_with("failed"), CATCHES[name].rules
    assert failed == expected, (
        f"{name}: failed {sorted(failed)}; expected {sorted(expected)} (missed "
        f"{sorted(expected - failed)}, also failed {sorted(failed - expected)}):\n{run.tail()}"
    )
    assert run.exit_code == 1, f"{name}: pytest exited {run.exit_code}:\n{run.tail()}"
