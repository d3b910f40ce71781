"""Each broken Responses accumulator of `examples/broken/` has its one defect, shown by hand
against the reference fold, without the harness.

For every `responses_*.py` module: the streams of `DEFECTS` fold differently from
`refold.reference.responses.fold` (or make the module raise where the reference folds),
the rules of their differences' pointers (`rules_at`) include one of the module's expected
rules, and together the streams reach all of them; and every hand-written stream of
`NEUTRAL`, which cannot show any of the defects, folds exactly like the reference, so the
defect is the only one. The base, `_responses_fold.py`, folds every stream here like the
reference. `EXPECTED_FAILURES` is the table the suites are held to
(tests/dialects/openai_responses/test_suite_catches_broken_responses_accumulators.py): each module
fails exactly these RS rules.
"""

from __future__ import annotations

import copy
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from _responses_streams import (
    HELLO,
    HELLO_ITEM,
    added,
    call,
    call_events,
    created,
    done,
    message,
    message_events,
    output_text,
    terminal,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from refold.dialects.openai_responses.attribution import rules_at
from refold.reference import JSON, JSONObject
from refold.reference.responses import FEATURES, RULES, Accumulator, differences, fold
from refold.strategies.responses import event_streams, families_for, round_trips

_BROKEN = Path(__file__).resolve().parents[3] / "examples" / "broken"

EXPECTED_FAILURES: dict[str, frozenset[str]] = {
    "responses_keeps_empty_terminal_output": frozenset({"RS-OUTPUT-RECOVER"}),
    "responses_orphan_content_raises": frozenset({"RS-ORPHAN"}),
    "responses_only_completed_is_final": frozenset(
        {"RS-TERMINAL-EVENTS", "RS-INCOMPLETE", "RS-FAILED"}
    ),
    "responses_item_id_must_not_change": frozenset({"RS-KEY-OUTPUT-INDEX"}),
    "responses_ignores_arguments_done": frozenset({"RS-DONE-REPLACES"}),
    "responses_merges_repeated_terminal": frozenset({"RS-TERMINAL-REPEAT"}),
    "responses_drops_refusals": frozenset({"RS-REFUSAL"}),
    "responses_drops_annotations": frozenset({"RS-ANNOTATIONS"}),
    "responses_ignores_reasoning_text": frozenset({"RS-REASONING-TEXT"}),
    "responses_failed_as_completed": frozenset({"RS-FAILED"}),
    "responses_error_event_raises": frozenset({"RS-ERROR-EVENT"}),
    "responses_unknown_event_raises": frozenset({"RS-KEEPALIVE"}),
}
"""Each broken Responses accumulator and the RS rules its defect breaks (README table)."""


def _load(name: str) -> ModuleType:
    # Each example subclasses the base fold next to it (_responses_fold.py), which a file
    # target may import: the harness puts a target file's folder last on sys.path.
    if str(_BROKEN) not in sys.path:
        sys.path.append(str(_BROKEN))
    spec = importlib.util.spec_from_file_location(f"broken_{name}", _BROKEN / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fold(name: str, events: list[JSON]) -> JSONObject:
    accumulator = _load(name).refold_target["factory"]()
    for event in copy.deepcopy(events):
        accumulator.add(event)
    response: JSONObject = accumulator.response()
    return response


# Hand-written streams, in OpenAI's own shape unless a defect needs otherwise.


def _recovered(*items_events: list[JSONObject], output: Any = None) -> list[JSON]:
    """Items streamed, the terminal's output left out (RS-OUTPUT-RECOVER: they are it)."""
    final = terminal(output=output)
    if output is None:
        final["response"].pop("output")
    return [created(), *(e for events in items_events for e in events), final]


ANNOTATION: JSONObject = {
    "type": "url_citation",
    "url": "https://example.com",
    "title": "Ex",
    "start_index": 0,
    "end_index": 5,
}
ANNOTATED = message("msg_2", output_text("Hello there", [ANNOTATION]))
REFUSED = message(
    "msg_3", output_text("Partly: "), {"type": "refusal", "refusal": "I can't help with that."}
)
CALL = call()
SUMMARY: JSONObject = {
    "type": "reasoning",
    "id": "rs_1",
    "status": "completed",
    "summary": [{"type": "summary_text", "text": "Weighing it."}],
}
REASONING_TEXT: JSONObject = {
    "type": "reasoning",
    "id": "rs_2",
    "summary": [],
    "content": [{"type": "reasoning_text", "text": "Think."}],
}


def _summary_events(index: int) -> list[JSONObject]:
    base = {"item_id": "rs_1", "output_index": index, "summary_index": 0}
    return [
        added(index, {**SUMMARY, "summary": [], "status": "in_progress"}),
        {
            "type": "response.reasoning_summary_part.added",
            **base,
            "part": {"type": "summary_text", "text": ""},
        },
        {"type": "response.reasoning_summary_text.delta", **base, "delta": "Weighing it."},
        done(index, SUMMARY),
    ]


def _reasoning_text_events(index: int) -> list[JSONObject]:
    base = {"item_id": "rs_2", "output_index": index, "content_index": 0}
    return [
        added(index, {**REASONING_TEXT, "content": [{"type": "reasoning_text", "text": ""}]}),
        {"type": "response.reasoning_text.delta", **base, "delta": "Thi"},
        {"type": "response.reasoning_text.delta", **base, "delta": "nk."},
    ]


NEUTRAL: list[list[JSON]] = [
    HELLO,
    [
        created(),
        *_summary_events(0),
        *message_events(1, HELLO_ITEM),
        *call_events(2, CALL),
        terminal(output=[SUMMARY, HELLO_ITEM, CALL]),
    ],
    _recovered(message_events(0, HELLO_ITEM), call_events(1, CALL)),
    _recovered(message_events(0, HELLO_ITEM, dones=False)),
    [*HELLO[:-1], {"type": "keepalive"}, HELLO[-1]],
]
"""Streams no defect here shows in: OpenAI's own shape, whole terminal outputs, recovered
items built from deltas only, a keepalive."""

_ERROR: JSONObject = {
    "type": "error",
    "code": "rate_limit_exceeded",
    "message": "Slow down",
    "param": None,
}
_FAILED = terminal(
    "failed",
    output=[HELLO_ITEM],
    usage=None,
    error={"code": "server_error", "message": "The server had an error."},
)
_INCOMPLETE = terminal(
    "incomplete", output=[HELLO_ITEM], incomplete_details={"reason": "max_output_tokens"}
)

DEFECTS: dict[str, list[list[JSON]]] = {
    "responses_keeps_empty_terminal_output": [_recovered(message_events(0, HELLO_ITEM), output=[])],
    "responses_ignores_arguments_done": [_recovered(call_events(0, CALL, deltas=False)[:-1])],
    "responses_merges_repeated_terminal": [[*HELLO, HELLO[-1]]],
    "responses_drops_refusals": [_recovered(message_events(0, REFUSED, dones=False))],
    "responses_drops_annotations": [_recovered(message_events(0, ANNOTATED, dones=False))],
    "responses_ignores_reasoning_text": [_recovered(_reasoning_text_events(0))],
    "responses_failed_as_completed": [[created(), *message_events(0, HELLO_ITEM), _FAILED]],
}
"""Streams that show each pointer-visible defect."""

RAISES: dict[str, list[list[JSON]]] = {
    "responses_orphan_content_raises": [
        [created(), *message_events(0, HELLO_ITEM)[1:], terminal(output=[HELLO_ITEM])]
    ],
    "responses_only_completed_is_final": [
        [created(), *message_events(0, HELLO_ITEM), _INCOMPLETE],
        [created(), *message_events(0, HELLO_ITEM), _FAILED],
    ],
    "responses_item_id_must_not_change": [
        [
            created(),
            *message_events(0, HELLO_ITEM)[:-1],
            done(0, {**HELLO_ITEM, "id": "msg_rotated"}),
            terminal(output=[HELLO_ITEM]),
        ]
    ],
    "responses_error_event_raises": [[*HELLO[:-1], _ERROR, HELLO[-1]]],
    "responses_unknown_event_raises": [
        [created(), {"type": "response.vendor_progress"}, *HELLO[1:]]
    ],
}
"""Streams each raising module raises on, where the reference folds."""


def test_the_table_names_every_responses_module_with_spec_rules() -> None:
    modules = {path.stem for path in _BROKEN.glob("responses_*.py")}
    assert modules == set(EXPECTED_FAILURES) == set(DEFECTS) | set(RAISES)
    assert len(modules) >= 8
    unknown = {rule for rules in EXPECTED_FAILURES.values() for rule in rules} - set(RULES)
    assert not unknown, f"rules the spec does not have: {sorted(unknown)}"


@pytest.mark.parametrize("name", sorted(EXPECTED_FAILURES))
def test_each_module_declares_a_responses_target_and_cites_its_rules(name: str) -> None:
    module = _load(name)
    target = module.refold_target
    assert target["dialect"] == "openai-responses" and target["name"] == name
    features = set(target["features"])
    assert features <= set(FEATURES) and "text" in features
    assert target["factory"]().finished is False
    doc = module.__doc__ or ""
    breaks = next(line for line in doc.splitlines() if line.startswith("Breaks: "))
    assert set(breaks.removeprefix("Breaks: ").rstrip(".").split(", ")) == EXPECTED_FAILURES[name]
    assert "RQ" in doc, f"{name} cites no quirk of responses-fold.md"
    claimed = {RULES[rule].feature for rule in EXPECTED_FAILURES[name]}
    assert claimed <= features, f"{name} breaks rules of features it does not claim"


@pytest.mark.parametrize("name", sorted(DEFECTS))
def test_a_defect_stream_departs_from_the_reference_on_the_modules_rules(name: str) -> None:
    expected = EXPECTED_FAILURES[name]
    reached: set[str] = set()
    for events in DEFECTS[name]:
        found = differences(fold(events), _fold(name, events))
        assert found, f"{name}: folds {events} like the reference"
        rules = frozenset().union(*(rules_at(d.pointer) for d in found))
        assert rules & expected, f"{name}: differences {found} implicate only {sorted(rules)}"
        reached |= rules & expected
    assert reached == expected, f"{name}: no stream departs on {sorted(expected - reached)}"


@pytest.mark.parametrize("name", sorted(RAISES))
def test_a_defect_stream_raises_where_the_reference_folds(name: str) -> None:
    for events in RAISES[name]:
        fold(events)
        with pytest.raises((RuntimeError, ValueError)):
            _fold(name, events)


@pytest.mark.parametrize("name", sorted(EXPECTED_FAILURES))
def test_a_stream_that_cannot_show_the_defect_folds_like_the_reference(name: str) -> None:
    for events in NEUTRAL:
        assert differences(fold(events), _fold(name, events)) == [], name


def test_the_base_folds_every_stream_here_like_the_reference() -> None:
    streams = [
        *NEUTRAL,
        *(s for v in DEFECTS.values() for s in v),
        *(s for v in RAISES.values() for s in v),
    ]
    for events in streams:
        assert differences(fold(events), _fold("_responses_fold", events)) == []


@settings(deadline=None)
@given(events=event_streams())
def test_the_base_folds_any_stream_like_the_reference_after_every_event(
    events: list[JSONObject],
) -> None:
    # Damaged streams too (strategies.responses.event_streams): the base is the reference,
    # so a broken module's departure is its override's alone.
    reference, base = Accumulator(), _load("_responses_fold").refold_target["factory"]()
    for event in copy.deepcopy(events):
        reference.add(event)
        base.add(event)
        assert differences(reference.response(), base.response()) == []
        assert base.finished == reference.finished


_EVERY_FAMILY = families_for(FEATURES)


def _with_status(status: str, *, keep: bool) -> Callable[[JSONObject], bool]:
    return lambda response: (response.get("status") == status) == keep


_FAMILY_DRAWS: dict[str, tuple[frozenset[int], Callable[[JSONObject], bool]]] = {
    "responses_keeps_empty_terminal_output": (_EVERY_FAMILY - {2, 4}, bool),
    "responses_orphan_content_raises": (_EVERY_FAMILY - {6}, bool),
    "responses_only_completed_is_final": (_EVERY_FAMILY, _with_status("completed", keep=True)),
    "responses_item_id_must_not_change": (_EVERY_FAMILY - {5}, bool),
    "responses_ignores_arguments_done": (_EVERY_FAMILY, bool),
    "responses_merges_repeated_terminal": (_EVERY_FAMILY - {7}, bool),
    "responses_drops_refusals": (_EVERY_FAMILY - {4}, bool),
    "responses_drops_annotations": (_EVERY_FAMILY - {4}, bool),
    "responses_ignores_reasoning_text": (_EVERY_FAMILY - {4}, bool),
    "responses_failed_as_completed": (_EVERY_FAMILY, _with_status("failed", keep=False)),
    "responses_error_event_raises": (_EVERY_FAMILY, bool),
    "responses_unknown_event_raises": (_EVERY_FAMILY - {7}, bool),
}
"""For each module: the split families whose streams cannot show its defect (2 and 4 omit
the terminal output, 4 every `.done`, 5 rotates ids, 6 sends orphans, 7 repeats terminals
and adds unknown events), and a filter on the drawn Response (`bool`: any)."""


@pytest.mark.parametrize("name", sorted(_FAMILY_DRAWS))
@settings(deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_lossless_stream_that_cannot_show_the_defect_folds_like_the_reference(
    name: str, data: st.DataObject
) -> None:
    families, wanted = _FAMILY_DRAWS[name]
    response, events = data.draw(round_trips(families=families))
    assume(wanted(response))
    assert differences(fold(events), _fold(name, events)) == []
