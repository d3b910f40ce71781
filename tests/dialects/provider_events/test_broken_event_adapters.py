"""Each broken events adapter of `examples/broken/events/` breaks exactly its own rules.

Every module there is `_base_adapter.py` (the reference events adapter wrapped into the
in-process interface) with one step overridden, modelled on a defect cited from
neutral-events.md. On each of its hand-written streams (`SHOWN_BY`), `check_events` given
what the adapter emitted, its outcome and its `persisted()` reports violations of exactly
the rules listed for that stream, and no others; together they are its row of
`EXPECTED_VIOLATIONS`, and on drawn streams it breaks nothing outside that row. The same
hand-written streams give no violation for the correct example `examples/events_adapter.py`
and for the base, which emits exactly the reference's events. `EXPECTED_VIOLATIONS` is the
table the `provider-events` suites will be held to.
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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from refold.reference.events import check_events, normalize
from refold.strategies.anthropic import event_streams
from refold.strategies.chat import chunk_streams

_EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
_BROKEN = _EXAMPLES / "broken" / "events"

_TEXT = frozenset({"EV-TEXT-CONSERVE"})
_AT_FINISH = frozenset({"EV-CHAT-COMPLETE-AT-FINISH"})
_OPAQUE = frozenset({"EV-OPAQUE-FRAME", "EV-FRAME-COVER"})
_PERSIST = frozenset({"PERSIST-STRIP", "PERSIST-CANARY", "PERSIST-RESPONSE-ID"})
_EMPTY = frozenset({"EV-NO-EMPTY-DELTA"})

SHOWN_BY: dict[str, dict[str, frozenset[str]]] = {
    "replays_accumulated_text": {"chat_text_and_call": _TEXT, "message_text_and_call": _TEXT},
    "completes_parsable_prefix": {
        "chat_call_in_one_frame": _AT_FINISH,
        "chat_parsable_prefix_then_more": _AT_FINISH | {"EV-ARGS-INVALID"},
    },
    "sums_usage": {
        "chat_cumulative_usage": frozenset({"EV-USAGE-LAST"}),
        "message_text_and_call": frozenset({"EV-USAGE-LAST"}),
    },
    "completes_truncated_stream": {
        "chat_truncated": frozenset({"EV-TRUNCATED"}),
        "message_truncated": frozenset({"EV-TRUNCATED"}),
        "chat_cut_in_call": frozenset({"EV-TRUNCATED", "EV-STARTED-COMPLETED"}),
        "message_cut_in_call": frozenset({"EV-TRUNCATED", "EV-STARTED-COMPLETED"}),
    },
    "opaque_is_the_delta": {"chat_text_and_call": _OPAQUE, "message_text_and_call": _OPAQUE},
    "persists_opaque": {"chat_text_and_call": _PERSIST, "message_text_and_call": _PERSIST},
    "emits_empty_deltas": {"chat_text_and_call": _EMPTY, "message_text_and_call": _EMPTY},
    "reasoning_as_text": {"chat_reasoning": _TEXT, "message_thinking": _TEXT},
    "completes_when_next_index_starts": {"chat_two_calls": _AT_FINISH},
}
"""Broken adapter -> its hand-written streams -> the rules `check_events` charges it with."""

EXPECTED_VIOLATIONS: dict[str, frozenset[str]] = {
    name: frozenset().union(*streams.values()) for name, streams in SHOWN_BY.items()
}
"""Broken adapter -> every rule its defect breaks: the table of the README."""

ALSO_ON_DRAWN: dict[str, frozenset[str]] = {
    # found by Hypothesis on a drawn stream: a call completed on a parsable prefix whose
    # arguments then grow completes a second time at the finish (one id, two completions)
    "completes_parsable_prefix": frozenset({"EV-IDS-SINGLE-USE"}),
}
"""Rules a defect also breaks on some drawn streams, beyond those its hand-written streams
show."""


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


def _run(
    target: dict[str, Any], dialect: str, frames: list[Any]
) -> tuple[list[Any], dict[str, Any], Any, Any]:
    """(events, outcome, persisted, adapter) of one stream, as the harness calls."""
    adapter = target["adapter"]()
    adapter.begin(dialect)
    events = [event for frame in frames for event in adapter.frame(copy.deepcopy(frame))]
    ending = adapter.end()
    events += ending.pop("events", [])
    return events, ending, adapter.persisted(), adapter


def _violated(target: dict[str, Any], stream: str | tuple[str, list[Any]]) -> set[str]:
    dialect, frames = STREAMS[stream] if isinstance(stream, str) else stream
    events, outcome, persisted, adapter = _run(target, dialect, frames)
    found = check_events(
        dialect,
        frames,
        events,
        outcome,
        persisted,
        canaries=CANARIES,
        provider=target["provider"],
        turn_opaque="events.turn_opaque" in target.get("features", []),
        fold=getattr(adapter, "fold", None),
    )
    return {violation.rule for violation in found}


_CASES = [(name, stream) for name, streams in SHOWN_BY.items() for stream in streams]


@pytest.mark.parametrize(("name", "stream"), _CASES)
def test_broken_adapter_breaks_exactly_its_rules(name: str, stream: str) -> None:
    assert _violated(_target(name), stream) == SHOWN_BY[name][stream]


@pytest.mark.parametrize("name", ["events_adapter", "_base_adapter"])
@pytest.mark.parametrize("stream", sorted(STREAMS))
def test_correct_adapters_keep_every_rule_on_the_same_streams(name: str, stream: str) -> None:
    assert _violated(_target(name), stream) == set()


@pytest.mark.parametrize("stream", sorted(STREAMS))
def test_base_adapter_emits_the_reference_events(stream: str) -> None:
    target = _target("_base_adapter")
    dialect, frames = STREAMS[stream]
    events, outcome, _, _ = _run(target, dialect, frames)
    expected = normalize(dialect, frames)
    for event in expected["events"]:
        if event["type"] == "Completed":
            event["turn"]["provider"] = target["provider"]
    assert (events, outcome) == (expected["events"], expected["outcome"])


_DRAWN = st.one_of(
    event_streams().map(lambda events: ("anthropic-messages", events)),
    st.tuples(chunk_streams(), st.booleans()).map(
        lambda drawn: ("openai-chat", [*drawn[0], "[DONE]"] if drawn[1] else drawn[0])
    ),
)
"""Streams drawn by refold.strategies, damaged ones included (Chat: "[DONE]" or not)."""


@pytest.mark.parametrize("name", sorted(EXPECTED_VIOLATIONS))
@settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(stream=_DRAWN)
def test_broken_adapter_breaks_no_other_rule_on_drawn_streams(
    name: str, stream: tuple[str, list[Any]]
) -> None:
    # only streams the wrapped reference keeps every rule on: on a few drawn streams
    # check_events charges the reference itself (reported), and a defect cannot be told
    # from that there
    target = _target(name)
    if stream[0] not in target["accepts"] or _violated(_target("_base_adapter"), stream):
        return
    assert _violated(target, stream) <= EXPECTED_VIOLATIONS[name] | ALSO_ON_DRAWN.get(
        name, frozenset()
    )


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
