"""Properties of the reference Gemini events mapping over drawn streams: every lossless
split of one response gives the same neutral turn, the view of that response
(EV-DETERMINISM, EV-FOLD-AGREES), and any stream keeps the invariants of every run and
agrees with the Gemini fold of its chunks (EV-UNKNOWN, EV-TURN-OPAQUE).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from test_reference_events_invariants import error_kind, run, turn

from refold.reference.events import normalize
from refold.reference.gemini import fold
from refold.strategies.events import damaged_frames, resplit_frames

GEMINI = "gemini-generate-content"
_SLOW = settings(deadline=None)


def _portable(result: dict[str, Any]) -> dict[str, Any]:
    provider_turn = turn(result)
    return {k: v for k, v in provider_turn.items() if k not in ("opaque", "response_id")}


def _answer(response: dict[str, Any]) -> str:
    """Candidate 0's public text: its text parts that are neither thought nor call."""
    zero = [c for c in response.get("candidates", []) if c["index"] == 0]
    parts = zero[0].get("content", {}).get("parts", []) if zero else []
    return "".join(
        p["text"]
        for p in parts
        if isinstance(p.get("text"), str)
        and p.get("thought") is not True
        and not isinstance(p.get("functionCall"), dict)
    )


@_SLOW
@given(resplit_frames(GEMINI))
def test_every_split_of_one_response_gives_one_neutral_turn(
    case: tuple[list[Any], list[Any]],
) -> None:
    # EV-DETERMINISM: re-splitting text, calls and streamed pieces across chunks changes
    # the number of deltas, never the turn; EV-FOLD-AGREES: it is the response's text
    first, second = case
    results = [run(GEMINI, frames) for frames in (first, second)]
    assert error_kind(results[0]) == error_kind(results[1])
    if error_kind(results[0]) is None:
        assert _portable(results[0]) == _portable(results[1])
        assert turn(results[0])["output_text"] == _answer(fold(first))


@_SLOW
@given(damaged_frames(GEMINI))
def test_any_stream_keeps_the_invariants_and_agrees_with_the_gemini_fold(
    case: tuple[list[Any], list[str]],
) -> None:
    # EV-UNKNOWN (never raises), EV-TURN-OPAQUE, EV-FOLD-AGREES, and `run`'s invariants
    frames, _ = case
    result = run(GEMINI, frames)
    assert normalize(GEMINI, frames) == result  # EV-DETERMINISM: the same frames, the same run
    if error_kind(result) is None:
        response = fold(frames)
        assert turn(result)["opaque"] == response
        assert turn(result)["output_text"] == _answer(response)
