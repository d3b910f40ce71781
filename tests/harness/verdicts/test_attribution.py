"""A failure is charged to the rules its differences point at, not to every rule its
test is marked with; known failures are masked in the tests of other rules."""

from refold.reference import ABSENT, Difference
from refold.reference.chat import RULES
from refold.reference.chat._attribution import rules_at
from refold.run.checks import ConformanceFailure, implicated_by


def test_every_pointer_owner_is_a_rule_of_the_spec() -> None:
    from refold.reference.chat._attribution import _TABLE

    for _, rules in _TABLE:
        assert set(rules) <= RULES.keys()


def test_a_usage_difference_found_by_a_robustness_test_is_a_usage_failure() -> None:
    failure = ConformanceFailure(
        ("ROB-BLANK", "ROB-NULL-ENTRIES"),
        "differs",
        differences=[Difference("/usage/total_tokens", 8, 16)],
    )
    assert failure.implicated == ("USAGE-LAST",)
    text = str(failure)
    assert text.startswith("USAGE-LAST (usage): differs")
    assert "(found by a test of ROB-BLANK (robustness), ROB-NULL-ENTRIES (robustness))" in text


def test_a_pointer_of_the_tests_own_rules_is_charged_to_those_rules_only() -> None:
    pointer = "/choices/0/message/tool_calls/0/function/arguments"
    assert implicated_by(pointer, ("TOOL-5-APPEND", "TOOL-RAW", "ENV-ID")) == {
        "TOOL-5-APPEND",
        "TOOL-RAW",
    }
    assert "TOOL-EMPTY-ARGS" in rules_at(pointer)


def test_a_failure_without_differences_is_charged_to_the_tests_rules() -> None:
    failure = ConformanceFailure(
        ("ROB-WRONG-TYPE",), "the target failed (raised)", target_error="TypeError"
    )
    assert failure.implicated == ("ROB-WRONG-TYPE",)


def test_known_failures_are_masked_only_outside_their_own_tests() -> None:
    from refold.run.checks import Check
    from refold.targets import load_target

    check = Check(load_target("reference"))
    expected = {"usage": {"total_tokens": 8}, "id": "a"}
    received = {"usage": {"total_tokens": 16}, "id": "b"}
    check.rules, check.masked = ("ROB-BLANK",), frozenset({"USAGE-LAST"})
    assert [d.pointer for d in check.differences(expected, received)] == ["/id"]
    check.rules, check.masked = ("USAGE-LAST",), frozenset()
    assert [d.pointer for d in check.differences(expected, received)] == [
        "/usage/total_tokens",
        "/id",
    ]


def test_every_rule_owns_a_pointer_or_is_declared_pointer_less() -> None:
    from refold.reference.chat import ALL_RULES
    from refold.reference.chat._attribution import _TABLE, OUTSIDE_THE_SHAPE, POINTERLESS

    owners = {r for _, rules in _TABLE for r in rules} | OUTSIDE_THE_SHAPE
    both = owners & POINTERLESS
    assert not both, f"both own pointers and are declared pointer-less: {sorted(both)}"
    unaccounted = sorted(set(ALL_RULES) - owners - POINTERLESS)
    assert not unaccounted, f"own no pointer and are not declared pointer-less: {unaccounted}"
    assert set(POINTERLESS) <= set(ALL_RULES)


def test_a_key_outside_the_output_shape_is_an_unknown_keys_failure() -> None:
    # openai-python copies Azure's `prompt_filter_results` into the response (Q15): that is
    # ROB-UNKNOWN-KEYS, not a failure of the envelope rules the quirk's test is marked with
    failure = ConformanceFailure(
        ("ENV-ID", "ENV-MODEL", "ENV-CREATED", "ROB-UNKNOWN-KEYS"),
        "differs",
        differences=[Difference("/prompt_filter_results", ABSENT, [{"prompt_index": 0}])],
    )
    assert failure.implicated == ("ROB-UNKNOWN-KEYS",)
    found_by_text_test = ConformanceFailure(
        ("TEXT-JOIN",),
        "differs",
        differences=[Difference("/choices/0/message/stop_reason", ABSENT, "end_turn")],
    )
    assert found_by_text_test.implicated == ("ROB-UNKNOWN-KEYS",)


def test_a_difference_in_the_whole_response_falls_back_to_the_tests_rules() -> None:
    assert rules_at("") == frozenset()
    failure = ConformanceFailure(
        ("TEXT-JOIN",), "differs", differences=[Difference("", {"a": 1}, [1])]
    )
    assert failure.implicated == ("TEXT-JOIN",)


def test_a_usage_difference_is_charged_to_usage_last_whatever_test_found_it() -> None:
    # litellm invents usage when no chunk carried one
    for tested in [
        ("TEXT-JOIN",),
        ("LP-CONCAT", "LP-SHAPE"),
        ("TEXT-ANNOTATIONS",),
        ("LIFE-AFTER", "LIFE-ERROR"),
        ("ROB-NULL-ENTRIES",),
    ]:
        failure = ConformanceFailure(
            tested,
            "differs",
            differences=[
                Difference("/usage", ABSENT, {"prompt_tokens": 0, "completion_tokens": 1})
            ],
        )
        assert failure.implicated == ("USAGE-LAST",), tested


def test_a_difference_is_never_charged_to_a_rule_of_a_feature_the_target_does_not_claim() -> None:
    invented = [Difference("/opaque", ABSENT, {"frame": 1})]  # a key outside the shape
    claims_robustness = ConformanceFailure(
        ("TEXT-JOIN",), "differs", differences=invented, claimed=frozenset({"text", "robustness"})
    )
    assert claims_robustness.implicated == ("ROB-UNKNOWN-KEYS",)
    text_only = ConformanceFailure(
        ("TEXT-JOIN",), "differs", differences=invented, claimed=frozenset({"text"})
    )
    assert text_only.implicated == ("TEXT-JOIN",)
    assert implicated_by("/opaque", ("TEXT-JOIN",), frozenset({"text"})) == {"TEXT-JOIN"}
