"""A failure is charged to the rules its differences point at, not to every rule its
test is marked with; known failures are masked in the tests of other rules."""

from refold.attribution import rules_at
from refold.checks import ConformanceFailure, implicated_by
from refold.reference import ABSENT, RULES, Difference


def test_every_pointer_owner_is_a_rule_of_the_spec() -> None:
    from refold.attribution import _TABLE

    for _, rules in _TABLE:
        assert set(rules) <= RULES.keys()


def test_a_usage_difference_found_by_a_robustness_test_is_a_usage_failure() -> None:
    failure = ConformanceFailure(("ROB-BLANK", "ROB-NULL-ENTRIES"), "differs",
                                 differences=[Difference("/usage/total_tokens", 8, 16)])
    assert failure.implicated == ("USAGE-LAST",)
    text = str(failure)
    assert text.startswith("USAGE-LAST (usage): differs")
    assert "(found by a test of ROB-BLANK (robustness), ROB-NULL-ENTRIES (robustness))" in text


def test_a_pointer_of_the_tests_own_rules_is_charged_to_those_rules_only() -> None:
    pointer = "/choices/0/message/tool_calls/0/function/arguments"
    assert implicated_by(pointer, ("TOOL-5-APPEND", "TOOL-RAW", "ENV-ID")) == {
        "TOOL-5-APPEND", "TOOL-RAW"}
    assert "TOOL-EMPTY-ARGS" in rules_at(pointer)


def test_a_pointer_no_rule_owns_falls_back_to_the_tests_rules() -> None:
    assert rules_at("/choices/0/message/unknown") == frozenset()
    failure = ConformanceFailure(("TEXT-JOIN",), "differs",
                                 differences=[Difference("/choices/0/message/unknown", 1, ABSENT)])
    assert failure.implicated == ("TEXT-JOIN",)


def test_a_failure_without_differences_is_charged_to_the_tests_rules() -> None:
    failure = ConformanceFailure(("ROB-WRONG-TYPE",), "the target failed (raised)",
                                 target_error="TypeError")
    assert failure.implicated == ("ROB-WRONG-TYPE",)


def test_known_failures_are_masked_only_outside_their_own_tests() -> None:
    from refold.checks import Check
    from refold.loading import load_target

    check = Check(load_target("reference"))
    expected = {"usage": {"total_tokens": 8}, "id": "a"}
    received = {"usage": {"total_tokens": 16}, "id": "b"}
    check.rules, check.masked = ("ROB-BLANK",), frozenset({"USAGE-LAST"})
    assert [d.pointer for d in check.differences(expected, received)] == ["/id"]
    check.rules, check.masked = ("USAGE-LAST",), frozenset()
    assert [d.pointer for d in check.differences(expected, received)] == ["/usage/total_tokens",
                                                                         "/id"]
