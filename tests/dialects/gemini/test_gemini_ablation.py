"""The Gemini ablation: each departure's undo is a change the reference folds identically,
present exactly when the stream departs that way, so a crash or a difference that goes
away with it is charged to the departure's rule."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from refold.dialects.gemini.ablation import (
    _DEPARTURES,
    applicable_undos,
    departures_alone,
    difference_undos,
)
from refold.reference import JSON
from refold.reference.gemini import differences, fold
from refold.strategies.gemini import FEATURES, round_trips

_NOISY: list[JSON] = [
    {"candidates": [None, {"content": {"role": "model", "parts": [{"text": "Hel"}, None, {}]}}]},
    {"candidates": [{"content": {"parts": [{"text": ""}, {"text": "lo"}]}, "index": 0}]},
    {"candidates": [{"content": {"parts": [{"functionCall": {"name": "now"}}]}, "index": 0}]},
    {"usageMetadata": {"trafficType": "ON_DEMAND"}},
    {"candidates": [{"finishReason": "STOP"}], "usageMetadata": {"totalTokenCount": 3}},
    {"error": "overloaded"},  # GM-LIFE-ERROR: an error that is no Status object
]


@settings(max_examples=200, deadline=None)  # a whole stream folded six times: slow when loaded
@given(case=round_trips(features=frozenset(FEATURES) - {"lifecycle", "sse"}))
def test_every_undo_of_a_lossless_stream_folds_identically(case: tuple[object, list[JSON]]) -> None:
    _, stream = case
    expected = fold(stream)
    for rule, undo in _DEPARTURES:
        undone = undo(stream)
        assert differences(expected, fold(undone)) == [], rule


def test_a_stream_departing_every_way_has_every_undo_and_a_plain_one_none() -> None:
    found = {rule for rule, _ in applicable_undos(_NOISY)}
    assert found == {rule for rule, _ in _DEPARTURES}
    # GM-CALL-WHOLE decides every whole call: its undo charges crashes, not differences
    probed = {rule for rule, _, _ in difference_undos(_NOISY, frozenset(FEATURES))}
    assert probed == found - {"GM-CALL-WHOLE"}
    plain: list[JSON] = [
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}, "index": 0}]}
    ]
    assert applicable_undos(plain) == [] and difference_undos(plain, frozenset()) == []


def test_each_departure_alone_keeps_only_that_one() -> None:
    alone = dict(departures_alone(_NOISY))
    assert set(alone) == {"", *(rule for rule, _ in _DEPARTURES)}
    plain = alone[""]
    assert applicable_undos(plain) == []
    assert {rule for rule, _ in applicable_undos(alone["GM-TEXT-EMPTY"])} == {"GM-TEXT-EMPTY"}


@settings(deadline=None)
@given(tail=st.lists(st.sampled_from(_NOISY), max_size=3))
def test_an_undo_that_would_change_the_fold_is_not_applied(tail: list[JSON]) -> None:
    # after an error chunk, later usage is not folded: dropping earlier usage would be
    stream: list[JSON] = [_NOISY[3], {"error": {"code": 500}}, *tail]
    for rule, undone in applicable_undos(stream):
        assert differences(fold(stream), fold(undone)) == [], rule


def test_a_whole_call_without_args_is_undone_to_empty_args_and_a_fragment_is_not() -> None:
    # GM-CALL-WHOLE: a call without arguments may have no `args` (litellm raises KeyError)
    whole: list[JSON] = [_NOISY[0], _NOISY[2], _NOISY[4]]
    undone = dict(applicable_undos(whole))["GM-CALL-WHOLE"]
    assert undone[1] == {
        "candidates": [
            {"content": {"parts": [{"functionCall": {"name": "now", "args": {}}}]}, "index": 0}
        ]
    }
    ending = {"functionCall": {}}  # the nameless last fragment of a streamed call
    opening = {"functionCall": {"name": "f", "willContinue": True, "partialArgs": []}}
    streamed: list[JSON] = [
        {"candidates": [{"content": {"parts": [opening, ending]}, "index": 0}]},
        {"candidates": [{"finishReason": "STOP", "index": 0}]},
    ]
    assert "GM-CALL-WHOLE" not in dict(applicable_undos(streamed))


def test_an_error_that_is_no_status_object_is_undone_to_the_status_object_google_documents() -> (
    None
):
    # GM-LIFE-ERROR reads it as `{}`; ai-sdk-google refuses the chunk ("Type validation failed")
    stream: list[JSON] = [_NOISY[0], {"error": "overloaded"}]
    undone = dict(applicable_undos(stream))["GM-LIFE-ERROR"]
    assert undone[1] == {"error": {"code": 500, "message": "overloaded", "status": "INTERNAL"}}
    documented: list[JSON] = [_NOISY[0], {"error": {"code": 503, "message": "m"}}]
    assert "GM-LIFE-ERROR" not in dict(applicable_undos(documented))
