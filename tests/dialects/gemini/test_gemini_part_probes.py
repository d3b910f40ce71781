"""Charging a difference under `…/content/parts/m` to the kind of part (or candidate) it
needs (`refold.dialects.gemini._part_probes`): each probe takes one kind out of the
stream's way by a change the reference folds identically but at that kind's pointers, and
a difference that goes away with it is charged to that kind's rule alone, not to every
rule owning the slot. Broken Gemini accumulators are the targets."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

from refold.dialects.gemini._part_probes import kind_probes
from refold.dialects.gemini.attribution import rules_at
from refold.dialects.gemini.undecided import KIND_RULES, undecided_at
from refold.reference import ABSENT, JSON
from refold.reference.gemini import differences, fold
from refold.run.checks import Check, ConformanceFailure
from refold.strategies.gemini import FEATURES, round_trips
from refold.targets import Target, load_target
from refold.verdicts.difference_ablation import ablate

_BROKEN = Path(__file__).resolve().parents[3] / "examples" / "broken"
_EVERY_FEATURE = frozenset(FEATURES)


def _chunk(*parts: JSON, index: int | None = 0, **candidate: JSON) -> JSON:
    entry: dict[str, JSON] = {"content": {"role": "model", "parts": list(parts)}, **candidate}
    if index is not None:
        entry["index"] = index
    return {"candidates": [entry]}


def _charged(name: str, stream: list[JSON], rules: tuple[str, ...]) -> set[str]:
    """The rules a differential test of `rules` charges the broken accumulator `name`
    with on `stream`, once ablated as the plugin does after a test failed."""
    target: Target = load_target(str(_BROKEN / f"{name}.py"))
    check = Check(target)
    check.rules = rules
    with pytest.raises(ConformanceFailure) as excinfo:
        check.folds_like_reference(stream)
    failure = excinfo.value
    failure.ablation = ablate(stream, failure.differences, target, failure.claimed)
    return set(failure.implicated)


def test_a_dropped_file_part_is_charged_to_media_not_to_the_text_joined_around_it() -> None:
    stream: list[JSON] = [
        _chunk({"text": "See"}),
        _chunk({"fileData": {"mimeType": "image/png", "fileUri": "gs://b/x.png"}}),
        _chunk({"text": "here."}, finishReason="STOP"),
    ]
    # without the probe, "Seehere." at parts/0/text is owned by GM-TEXT-JOIN, a test rule
    assert _charged("gemini_drops_file_data", stream, ("GM-TEXT-JOIN", "GM-INLINE")) == {
        "GM-INLINE"
    }


def test_a_dropped_lone_signature_is_charged_to_signatures_not_thoughts() -> None:
    stream: list[JSON] = [
        _chunk({"text": "Plan", "thought": True}, index=None),
        _chunk({"text": "", "thoughtSignature": "CiQB"}, index=None, finishReason="STOP"),
    ]
    charged = _charged("gemini_drops_lone_signature", stream, ("GM-THOUGHT-APART", "GM-SIGNATURE"))
    assert charged == {"GM-SIGNATURE"}


def test_kept_call_fragments_are_charged_to_streamed_calls_not_to_text_or_whole_calls() -> None:
    stream: list[JSON] = [
        _chunk({"text": "Checking."}),
        _chunk({"functionCall": {"name": "get_weather", "willContinue": True}}),
        _chunk({"functionCall": {}}, finishReason="STOP"),
    ]
    rules = ("GM-TEXT-JOIN", "GM-CALL-WHOLE", "GM-CALL-STREAMED")
    assert _charged("gemini_keeps_argument_fragments", stream, rules) == {"GM-CALL-STREAMED"}


def test_candidates_routed_by_position_are_charged_to_the_candidate_rules_not_text() -> None:
    stream: list[JSON] = [
        {
            "candidates": [
                {"content": {"role": "model", "parts": [{"text": "Red"}]}, "index": 0},
                {"content": {"role": "model", "parts": [{"text": "Blue"}]}, "index": 1},
            ]
        },
        _chunk({"text": " sky"}, index=1, finishReason="STOP"),
        _chunk({"text": " rose"}, index=0, finishReason="STOP"),
    ]
    charged = _charged(
        "gemini_first_entry_is_candidate_zero", stream, ("GM-CAND-ORDER", "GM-CAND-INDEX")
    )
    assert charged == {"GM-CAND-ORDER", "GM-CAND-INDEX"}


def test_a_defect_of_another_candidate_is_not_charged_to_candidates_by_removing_it() -> None:
    # the candidate-0-only probe removes candidate 1, and with it the place of the
    # difference: it tells nothing about a finish reason candidate 1 lost
    stream: list[JSON] = [
        {
            "candidates": [
                {"content": {"role": "model", "parts": [{"text": "A"}]}, "index": 0},
                {"content": {"role": "model", "parts": [{"text": "B"}]}, "index": 1},
            ]
        },
        _chunk({"text": "."}, index=0, finishReason="STOP"),
        _chunk({"text": "."}, index=1, finishReason="STOP"),
        _chunk({"text": ""}, index=1, finishReason="STOP"),
    ]
    charged = _charged("gemini_concatenates_finish_reason", stream, ("GM-CAND-ORDER", "GM-FINISH"))
    assert "GM-CAND-ORDER" not in charged and "GM-FINISH" in charged


@settings(max_examples=150, deadline=None)  # each probe folds the whole stream again
@given(case=round_trips(features=_EVERY_FEATURE - {"lifecycle", "sse"}))
def test_every_probe_changes_the_fold_only_where_its_rules_decide(
    case: tuple[object, list[JSON]],
) -> None:
    _, stream = case
    expected = fold(stream)
    for rule, deciding, undone in kind_probes(stream, _EVERY_FEATURE):
        assert rule in deciding
        for difference in differences(expected, fold(undone)):
            owners = rules_at(difference.pointer)
            assert owners & (deciding | {"GM-CODE", "GM-INLINE", "GM-CALL-WHOLE"}), (
                rule,
                difference,
            )


def test_no_stand_in_is_used_for_a_kind_the_target_does_not_claim() -> None:
    stream: list[JSON] = [_chunk({"text": "See"}), _chunk({"fileData": {"fileUri": "gs://x"}})]
    with_code = {rule for rule, _, _ in kind_probes(stream, frozenset({"text", "code_execution"}))}
    assert "GM-INLINE" in with_code
    # a stand-in of its own kind would leave the difference of a target dropping media
    only_media = {rule for rule, _, _ in kind_probes(stream, frozenset({"text", "media"}))}
    assert "GM-INLINE" not in only_media


def test_a_signature_decides_joining_only_where_it_closes_a_run_with_text() -> None:
    def deciding(*parts: JSON) -> frozenset[str]:
        probes = kind_probes([_chunk(part) for part in parts], _EVERY_FEATURE)
        return next(rules for rule, rules, _ in probes if rule == "GM-SIGNATURE")

    closes = deciding({"text": "a", "thoughtSignature": "S"}, {"text": "b"})
    assert closes == {"GM-SIGNATURE", "GM-TEXT-JOIN"}
    joined_then_closes = deciding(
        {"text": "a"}, {"text": "", "thoughtSignature": "S"}, {"text": "b"}
    )
    assert joined_then_closes == {"GM-SIGNATURE", "GM-TEXT-JOIN"}
    # a lone signed empty part after a thought run: unsigned it is dropped, and "b" joins
    # nothing either way
    lone = deciding(
        {"text": "P", "thought": True}, {"text": "", "thoughtSignature": "S"}, {"text": "b"}
    )
    assert lone == {"GM-SIGNATURE"}
    assert deciding({"text": "a", "thoughtSignature": "S"}, {"text": "b", "thought": True}) == {
        "GM-SIGNATURE"
    }


def test_at_a_slot_only_the_kinds_folded_or_returned_there_are_decided() -> None:
    stream: list[JSON] = [
        _chunk({"text": "See", "thought": True}),
        _chunk({"functionCall": {"name": "f", "args": {}}}),
        _chunk({"fileData": {"fileUri": "gs://x"}}, finishReason="STOP"),
    ]
    slot = "/candidates/0/content/parts/2"
    assert KIND_RULES - undecided_at(stream, slot, ABSENT) == {"GM-INLINE"}
    returned_text = KIND_RULES - undecided_at(stream, slot, {"text": "x"})
    assert returned_text == {"GM-INLINE", "GM-TEXT-JOIN"}
    # the whole list: every part folded there
    whole = KIND_RULES - undecided_at(stream, "/candidates/0/content/parts", ABSENT)
    assert whole == {"GM-TEXT-JOIN", "GM-THOUGHT-APART", "GM-CALL-WHOLE", "GM-INLINE"}


def test_below_a_slot_the_kinds_the_candidate_was_sent_are_decided() -> None:
    stream: list[JSON] = [
        {
            "candidates": [
                {"content": {"parts": [{"text": "a", "thought": True}]}, "index": 0},
                {"content": {"parts": [{"text": "b"}, {"executableCode": {}}]}, "index": 1},
            ]
        }
    ]
    assert KIND_RULES - undecided_at(stream, "/candidates/1/content/parts/0/text") == {
        "GM-TEXT-JOIN",
        "GM-CODE",
    }
    # with no received value, a slot is read as below it: the candidate's kinds
    assert "GM-THOUGHT-APART" not in undecided_at(stream, "/candidates/0/content/parts/0")
    assert undecided_at(stream, "/candidates/0/finishReason") == frozenset()


def test_a_streamed_call_sent_whole_carries_the_args_the_reference_assembles() -> None:
    # litellm raises KeyError 'args' on a call without them: a whole call carries its args
    opening = {"functionCall": {"name": "f", "willContinue": True}}
    piece = {"jsonPath": "$.n", "numberValue": 1}
    stream: list[JSON] = [
        _chunk(opening),
        _chunk({"functionCall": {"partialArgs": [piece], "willContinue": True}}),
        _chunk({"functionCall": {}}, finishReason="STOP"),
    ]
    probes = {rule: undone for rule, _, undone in kind_probes(stream, _EVERY_FEATURE)}
    whole = probes["GM-CALL-STREAMED"]
    assert whole[0] == _chunk({"functionCall": {"name": "f", "args": {"n": 1}}})
    assert differences(fold(stream), fold(whole)) == []
