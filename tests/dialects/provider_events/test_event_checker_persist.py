"""The event checker on the PERSIST rules, and the rules registry against the spec's ids."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from _event_streams import CANARIES, DIALECTS, Case, case, errored_case

from refold.reference.events import (
    CHECKED_RULES,
    RULES,
    SECTIONS,
    UNCHECKED,
    Violation,
    check_events,
)

each_dialect = pytest.mark.parametrize("dialect", DIALECTS)


def check(c: Case, persisted: Any = None, **options: Any) -> list[Violation]:
    return check_events(
        c.dialect, c.frames, c.events, c.outcome, persisted, canaries=CANARIES, **options
    )


def only(found: list[Violation], rule_id: str) -> list[Violation]:
    assert found, f"expected a {rule_id} violation, found none"
    assert {v.rule for v in found} == {rule_id}, [str(v) for v in found]
    return found


def _strip(value: Any) -> Any:
    """A correct strip, written here so the checker is not tested against itself."""
    if isinstance(value, dict):
        return {
            k: _strip(v) for k, v in value.items() if k not in ("opaque", "payload", "response_id")
        }
    if isinstance(value, list):
        return [_strip(v) for v in value if not (isinstance(v, dict) and v.get("type") == "Opaque")]
    return value


def _fold(events: list[Any]) -> Any:
    """A correct fold for these tests: the portable turn is the Completed's."""
    return next(e["turn"] for e in events if e["type"] == "Completed")


@each_dialect
def test_a_stripped_runtime_record_breaks_no_rule(dialect: str) -> None:
    for c in (case(dialect), errored_case(dialect)):
        record = {"events": _strip(c.events), "checkpoint": {"n": 1}}
        assert check(c, record, fold=_fold, strip=_strip) == []


@each_dialect
def test_persist_strip_a_key_left_at_depth(dialect: str) -> None:
    c = case(dialect)
    [v] = only(check(c, {"turn": {"nested": [{"payload": 1}]}}), "PERSIST-STRIP")
    assert v.pointer == "/turn/nested/0/payload" and v.event is None


@each_dialect
def test_persist_strip_and_canary_and_response_id_on_unstripped_events(dialect: str) -> None:
    c = case(dialect)
    rules = {v.rule for v in check(c, c.events)}
    assert rules == {"PERSIST-STRIP", "PERSIST-CANARY", "PERSIST-RESPONSE-ID"}


@each_dialect
def test_persist_strip_a_response_id_key_even_when_hashed(dialect: str) -> None:
    c = case(dialect)
    [v] = only(check(c, {"turn": {"response_id": "sha256:0f"}}), "PERSIST-STRIP")
    assert v.pointer == "/turn/response_id"


@each_dialect
def test_persist_canary_found_plain(dialect: str) -> None:
    c = case(dialect)
    [v] = only(check(c, {"log": ["ok", f"fingerprint {CANARIES[0]}"]}), "PERSIST-CANARY")
    assert v.pointer == "/log/1"


@each_dialect
def test_persist_canary_found_escaped_inside_nested_json(dialect: str) -> None:
    c = case(dialect)
    canary = 'CANARY-\u00e9"q'
    nested = json.dumps({"k": canary})  # the quote escaped, the é as \u00e9
    found = check_events(
        c.dialect, c.frames, c.events, c.outcome, {"raw": nested}, canaries=[canary]
    )
    [v] = only(found, "PERSIST-CANARY")
    assert v.pointer == "/raw"


@each_dialect
def test_persist_canary_found_in_a_key(dialect: str) -> None:
    c = case(dialect)
    [v] = only(check(c, {CANARIES[1]: 1}), "PERSIST-CANARY")
    assert v.pointer == f"/{CANARIES[1]}"


@each_dialect
def test_persist_response_id_under_another_key(dialect: str) -> None:
    c = case(dialect)
    raw = c.turn["response_id"]
    assert check(c, {"response_ref": "sha256:0f"}) == []
    [v] = only(check(c, {"response_ref": f"id={raw}"}), "PERSIST-RESPONSE-ID")
    assert v.pointer == "/response_ref"


@each_dialect
def test_persist_response_id_of_the_frames_on_an_error_stream(dialect: str) -> None:
    c = errored_case(dialect)  # no turn: the raw id is the one the frames carry
    raw = "chatcmpl-ev" if dialect == "openai-chat" else "msg_ev"
    only(check(c, {"note": raw}), "PERSIST-RESPONSE-ID")


@each_dialect
def test_persist_portable_a_fold_that_needs_the_response_id(dialect: str) -> None:
    def fold(events: list[Any]) -> Any:
        turn = copy.deepcopy(_fold(events))
        turn["output_text"] = turn["output_text"] if "response_id" in turn else ""
        return turn

    c = case(dialect)
    [v] = only(check(c, fold=fold), "PERSIST-PORTABLE")
    assert v.event == c.at["completed"]


@each_dialect
def test_persist_portable_a_strip_that_drops_portable_events(dialect: str) -> None:
    def strip(value: Any) -> Any:
        return (
            [e for e in _strip(value) if e.get("type") != "TextDelta"]
            if isinstance(value, list)
            else _strip(value)
        )

    only(check(case(dialect), strip=strip), "PERSIST-PORTABLE")


@each_dialect
def test_persist_idempotent(dialect: str) -> None:
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {**_strip(value), "passes": value.get("passes", 0) + 1}
        return _strip(value)

    only(check(case(dialect), strip=strip), "PERSIST-IDEMPOTENT")


@each_dialect
def test_persist_no_semantics_a_fold_that_reads_opaque(dialect: str) -> None:
    def fold(events: list[Any]) -> Any:
        turn = copy.deepcopy(_fold(events))
        if "opaque" in turn and turn["opaque"] is None:
            turn["output_text"] = ""
        return turn

    only(check(case(dialect), fold=fold), "PERSIST-NO-SEMANTICS")


@each_dialect
def test_an_adapter_op_that_raises_is_a_violation_not_a_crash(dialect: str) -> None:
    def fold(events: list[Any]) -> Any:
        raise RuntimeError("boom")

    found = check(case(dialect), fold=fold)
    assert {v.rule for v in found} == {"PERSIST-PORTABLE", "PERSIST-NO-SEMANTICS"}
    assert all("RuntimeError: boom" in v.message for v in found)


SPEC_IDS = [
    "EV-GRAMMAR",
    "EV-COMPLETED-LAST",
    "EV-NO-COMPLETED-ON-ERROR",
    "EV-FRAME-ORDER",
    "EV-OPAQUE-FRAME",
    "EV-FRAME-COVER",
    "EV-OPAQUE-FALLBACK",
    "EV-OPAQUE-TYPE",
    "EV-TEXT",
    "EV-NO-EMPTY-DELTA",
    "EV-TEXT-CONSERVE",
    "EV-REASONING-OPAQUE",
    "EV-REFUSAL-OPAQUE",
    "EV-CALL-STARTED",
    "EV-IDS-SINGLE-USE",
    "EV-CALL-ROUTE",
    "EV-ARGS-DELTA",
    "EV-ARGS-BUFFER",
    "EV-ARGS-CONSERVE",
    "EV-ARGS-OPTIONAL",
    "EV-ARGS-PARSED",
    "EV-ARGS-EMPTY-OBJECT",
    "EV-ARGS-INVALID",
    "EV-CALL-IDENTITY",
    "EV-STARTED-COMPLETED",
    "EV-TURN-CALLS",
    "EV-NO-DELTA-AFTER-COMPLETED",
    "EV-HOSTED-OPAQUE",
    "EV-USAGE",
    "EV-USAGE-LAST",
    "EV-USAGE-UNREPORTED",
    "EV-USAGE-MONOTONE",
    "EV-STOP-MAP",
    "EV-STOP-TOOL",
    "EV-TURN-FIELDS",
    "EV-TURN-OPAQUE",
    "EV-FOLD-AGREES",
    "EV-TRUNCATED",
    "EV-ERROR-FRAME",
    "EV-NOTHING-AFTER-ERROR",
    "EV-UNKNOWN",
    "EV-DETERMINISM",
    "EV-CHOICE0",
    "PERSIST-STRIP",
    "PERSIST-CANARY",
    "PERSIST-RESPONSE-ID",
    "PERSIST-PORTABLE",
    "PERSIST-IDEMPOTENT",
    "PERSIST-NO-SEMANTICS",
    "EV-CHAT-COMPLETE-AT-FINISH",
    "EV-CHAT-DONE",
    "EV-CHAT-EOF",
]
"""events.md's rule ids in its order (§2, §3, §4.1), copied from its tables."""


def test_the_registry_holds_every_rule_of_the_spec_in_its_order() -> None:
    assert list(RULES) == SPEC_IDS
    assert all(
        r.statement and r.feature in ("events", "events.turn_opaque") for r in RULES.values()
    )
    assert [r.id for r in RULES.values() if r.feature == "events.turn_opaque"] == ["EV-TURN-OPAQUE"]
    assert SECTIONS["PERSIST-CANARY"] == "§3" and SECTIONS["EV-CHAT-EOF"] == "§4.1"


def test_every_rule_is_checked_or_says_why_not() -> None:
    assert not CHECKED_RULES & set(UNCHECKED)
    assert CHECKED_RULES | set(UNCHECKED) == set(RULES)
    assert all(reason for reason in UNCHECKED.values())
