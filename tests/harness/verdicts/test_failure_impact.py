"""Every failure a check raises says what it costs (verdicts.md §3): a fold comparison
by its differences, a crash as a crash, a decoder's and a lifecycle read's by the values
they compared, and a failure that compared none (a non-object accepted, a response
before any item) as a corruption; an event checker's violations state their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from refold.reference import ABSENT, Difference
from refold.run.checks import Check, ConformanceFailure
from refold.targets import load_target

_RAISES = """
def fold(chunks):
    raise ValueError("no")
"""


def test_a_target_that_raises_costs_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "raises.py"
    path.write_text(_RAISES, encoding="utf-8")
    target = load_target(str(path))
    check = Check(target)
    check.rules = ("TEXT-JOIN",)
    with pytest.raises(ConformanceFailure) as raised:
        check.fold([{"id": "c", "choices": []}])
    assert raised.value.impact == "crash"
    target.close()


@pytest.mark.parametrize(
    ("differences", "impact"),
    [
        ([Difference("/choices/0/message/content", "ab", "a")], "loss"),
        ([Difference("/id", "a", "b")], "corruption"),
        ([Difference("/choices/0/message/content", None, "")], "representation"),
    ],
)
def test_a_fold_comparison_costs_what_its_differences_do(
    differences: list[Difference], impact: str
) -> None:
    failure = ConformanceFailure(
        ("TEXT-JOIN",), "differs", chunks=[], differences=differences, compared_fold=True
    )
    assert failure.impact == impact


def test_a_decoder_that_drops_an_event_costs_a_loss() -> None:
    sent = [{"type": "message_start"}, {"type": "ping"}]
    failure = ConformanceFailure(
        ("AM-SSE-TYPE",), "the decoder gave 1 event", chunks=sent, expected=sent, received=sent[:1]
    )
    assert failure.impact == "loss"


def test_a_decoder_that_fails_costs_a_crash() -> None:
    failure = ConformanceFailure(
        ("AM-SSE-TYPE",), "the decoder failed (raised)", target_error="raised KeyError"
    )
    assert failure.impact == "crash"


@pytest.mark.parametrize(("expected", "received"), [(True, False), (ABSENT, {"id": "x"})])
def test_a_lifecycle_read_that_answers_wrong_costs_a_corruption(
    expected: object, received: object
) -> None:
    failure = ConformanceFailure(
        ("LIFE-FINISHED",), "finished is wrong", chunks=[{}], expected=expected, received=received
    )
    assert failure.impact == "corruption"


@pytest.mark.parametrize(
    "summary",
    ["a chunk that is a JSON array was accepted", "response() returned a value before any chunk"],
)
def test_a_failure_comparing_no_value_costs_a_corruption(summary: str) -> None:
    assert ConformanceFailure(("LIFE-EMPTY",), summary, chunks=[[1, 2]]).impact == "corruption"


def test_a_checkers_violations_alone_state_no_impact_here() -> None:
    failure = ConformanceFailure(
        ("EV-GRAMMAR",),
        "violations",
        chunks=[],
        violations=(("EV-GRAMMAR", "event 2: after Completed"),),
    )
    assert failure.impact is None


_DROPS_ROLE_KEEPS_EMPTY_REFUSAL = """
from refold.reference.chat import fold as reference_fold

def fold(chunks):
    folded = reference_fold(chunks)
    message = folded["choices"][0]["message"]
    del message["role"]
    message["refusal"] = ""
    return folded
"""


def test_each_rule_costs_what_the_differences_charged_to_it_cost(tmp_path: Path) -> None:
    """Issue 24: a `""` where the contract says absent is a representation nit, even when
    the same failure also loses a value another rule owns (the role, CHOICE-ROLE's)."""
    path = tmp_path / "drops_role.py"
    path.write_text(_DROPS_ROLE_KEEPS_EMPTY_REFUSAL, encoding="utf-8")
    target = load_target(str(path))
    check = Check(target)
    check.rules = ("TEXT-REFUSAL", "CHOICE-ROLE")
    chunk = {
        "id": "chatcmpl-x",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": None}],
    }
    last = {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    try:
        with pytest.raises(ConformanceFailure) as raised:
            check.folds_like_reference([chunk, last])
    finally:
        target.close()
    failure = raised.value
    assert failure.implicated == ("CHOICE-ROLE", "TEXT-REFUSAL")
    assert failure.impact == "loss"
    assert failure.impacts == {"CHOICE-ROLE": "loss", "TEXT-REFUSAL": "representation"}
