"""Each broken events adapter of `examples/broken/events/` breaks exactly its own rules.

Every module there is `_base_adapter.py` (the reference events adapter wrapped into the
in-process interface) with one step overridden, modelled on a defect cited from
neutral-events.md. On each of its hand-written streams (`SHOWN_BY`), `check_events` given
what the adapter emitted, its outcome and its `persisted()` reports violations of exactly
the rules of `EXPECTED_VIOLATIONS`, and no others; the same streams give no violation for
the correct example `examples/events_adapter.py` and for the base, which emits exactly the
reference's events. `EXPECTED_VIOLATIONS` is the table the `provider-events` suites will be
held to.
"""

from __future__ import annotations

import copy
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from _adapter_streams import CANARIES, STREAMS

from refold.reference.events import check_events, normalize

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_BROKEN = _EXAMPLES / "broken" / "events"

EXPECTED_VIOLATIONS: dict[str, frozenset[str]] = {
    "replays_accumulated_text": frozenset({"EV-TEXT-CONSERVE"}),
    "completes_parsable_prefix": frozenset({"EV-CHAT-COMPLETE-AT-FINISH"}),
    "sums_usage": frozenset({"EV-USAGE-LAST"}),
    "completes_truncated_stream": frozenset({"EV-TRUNCATED"}),
    "opaque_is_the_delta": frozenset({"EV-OPAQUE-FRAME", "EV-FRAME-COVER"}),
    "persists_opaque": frozenset({"PERSIST-STRIP", "PERSIST-CANARY", "PERSIST-RESPONSE-ID"}),
    "emits_empty_deltas": frozenset({"EV-NO-EMPTY-DELTA"}),
    "reasoning_as_text": frozenset({"EV-TEXT-CONSERVE"}),
    "completes_when_next_index_starts": frozenset({"EV-CHAT-COMPLETE-AT-FINISH"}),
}
"""Broken adapter -> the rules `check_events` charges it with on each of its streams."""


SHOWN_BY: dict[str, tuple[str, ...]] = {
    "replays_accumulated_text": ("chat_text_and_call", "message_text_and_call"),
    "completes_parsable_prefix": ("chat_call_in_one_frame",),
    "sums_usage": ("chat_cumulative_usage", "message_text_and_call"),
    "completes_truncated_stream": ("chat_truncated", "message_truncated"),
    "opaque_is_the_delta": ("chat_text_and_call", "message_text_and_call"),
    "persists_opaque": ("chat_text_and_call", "message_text_and_call"),
    "emits_empty_deltas": ("chat_text_and_call", "message_text_and_call"),
    "reasoning_as_text": ("chat_reasoning", "message_thinking"),
    "completes_when_next_index_starts": ("chat_two_calls",),
}
"""Broken adapter -> the streams that show its defect (each shows all of its rules)."""


def _load(path: Path) -> ModuleType:
    # the modules import `_base_adapter` from their own folder, as a target file may
    if str(_BROKEN) not in sys.path:
        sys.path.append(str(_BROKEN))
    spec = importlib.util.spec_from_file_location(f"_events_example_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _target(name: str) -> dict[str, Any]:
    path = _EXAMPLES / "events_adapter.py" if name == "events_adapter" else _BROKEN / f"{name}.py"
    target: dict[str, Any] = _load(path).refold_target
    return target


def _run(target: dict[str, Any], stream: str) -> tuple[list[Any], list[Any], dict[str, Any],
                                                        Any, Any]:
    """(frames, events, outcome, persisted, adapter) of one stream, as the harness calls."""
    dialect, frames = STREAMS[stream]
    adapter = target["adapter"]()
    adapter.begin(dialect)
    events = [event for frame in frames for event in adapter.frame(copy.deepcopy(frame))]
    ending = adapter.end()
    events += ending.pop("events", [])
    return frames, events, ending, adapter.persisted(), adapter


def _violated(target: dict[str, Any], stream: str) -> set[str]:
    frames, events, outcome, persisted, adapter = _run(target, stream)
    found = check_events(STREAMS[stream][0], frames, events, outcome, persisted,
                         canaries=CANARIES, provider=target["provider"],
                         turn_opaque="events.turn_opaque" in target.get("features", []),
                         fold=getattr(adapter, "fold", None))
    return {violation.rule for violation in found}


_CASES = [(name, stream) for name, streams in SHOWN_BY.items() for stream in streams]


@pytest.mark.parametrize(("name", "stream"), _CASES)
def test_broken_adapter_breaks_exactly_its_rules(name: str, stream: str) -> None:
    assert _violated(_target(name), stream) == EXPECTED_VIOLATIONS[name]


@pytest.mark.parametrize("name", ["events_adapter", "_base_adapter"])
@pytest.mark.parametrize("stream", sorted(STREAMS))
def test_correct_adapters_keep_every_rule_on_the_same_streams(name: str, stream: str) -> None:
    assert _violated(_target(name), stream) == set()


@pytest.mark.parametrize("stream", sorted(STREAMS))
def test_base_adapter_emits_the_reference_events(stream: str) -> None:
    target = _target("_base_adapter")
    frames, events, outcome, _, _ = _run(target, stream)
    expected = normalize(STREAMS[stream][0], frames)
    for event in expected["events"]:
        if event["type"] == "Completed":
            event["turn"]["provider"] = target["provider"]
    assert (events, outcome) == (expected["events"], expected["outcome"])


@pytest.mark.parametrize("name", sorted(EXPECTED_VIOLATIONS))
def test_broken_adapter_declares_its_target_and_defect(name: str) -> None:
    module = _load(_BROKEN / f"{name}.py")
    target = module.refold_target
    assert target["dialect"] == "provider-events"
    assert callable(target["adapter"]) and isinstance(target["provider"], str)
    accepted = {STREAMS[stream][0] for stream in SHOWN_BY[name]}
    assert set(target["accepts"]) == accepted  # each accepted dialect shows the defect
    doc = module.__doc__ or ""
    assert "neutral-events.md" in doc and "# the bug" in Path(module.__file__ or "").read_text()
    assert all(rule in doc for rule in EXPECTED_VIOLATIONS[name])


def test_every_broken_adapter_is_in_the_table() -> None:
    modules = {path.stem for path in _BROKEN.glob("*.py") if not path.stem.startswith("_")}
    assert modules == set(EXPECTED_VIOLATIONS) == set(SHOWN_BY)
