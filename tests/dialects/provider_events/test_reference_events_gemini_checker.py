"""The Gemini halves of refold.reference.events agree: whatever the reference adapter
emits for a Gemini stream, lossless (every split family, canaries planted, several
candidates included) or damaged (cut, error chunks, wrong types, mismatched streamed
pieces), the event checker finds no violation in it, read as one output and frame by
frame as the ack protocol sees it (`emitted`: no look-ahead).

The adapter (`_gemini`) and the checker's reading (`checker._gemini`) were written apart
from the spec's table (gemini-fold.md, "Provider-neutral events"), so a stream on which
they disagree is a misreading of it by one of them.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from test_reference_events_invariants import emitted_run

from refold.reference.events import check_events, fold_turn, normalize, strip
from refold.strategies.events import damaged_frames, lossless_frames
from refold.strategies.gemini import FEATURES, round_trips

GEMINI = "gemini-generate-content"
_SLOW = settings(deadline=None)  # a whole stream through the adapter and every check
_SEVERAL = frozenset(FEATURES) - {"sse"}  # with `candidates`: only candidate 0 is read


def violations(
    frames: list[Any], known: Any = None, canaries: list[str] | None = None
) -> list[str]:
    """Every violation the checker finds in the reference adapter's output for `frames`,
    whole and frame by frame."""
    result = normalize(GEMINI, frames)
    checks: dict[str, Any] = {
        "provider": GEMINI,
        "turn_opaque": True,
        "fold": fold_turn,
        "strip": strip,
        "known": known,
        "canaries": canaries or [],
    }
    found = check_events(
        GEMINI, frames, result["events"], result["outcome"], result["persisted"], **checks
    )
    events, emitted, outcome, persisted = emitted_run(GEMINI, frames)
    found += check_events(GEMINI, frames, events, outcome, persisted, emitted=emitted, **checks)
    return [f"{v.rule} (event {v.event}, frame {v.frame}): {v.message}" for v in found]


@_SLOW
@given(lossless_frames(GEMINI))
def test_the_checker_finds_nothing_wrong_with_the_reference_on_gemini_splits(
    case: tuple[Any, list[Any], list[str]],
) -> None:
    known, frames, canaries = case
    assert violations(frames, known, canaries) == []


@_SLOW
@given(round_trips(features=_SEVERAL))
def test_the_checker_finds_nothing_wrong_with_the_reference_on_several_candidates(
    case: tuple[Any, list[Any]],
) -> None:
    # the drawn ids are short: PERSIST-RESPONSE-ID would find them inside any word
    known, chunks = case
    frames = [{**chunk, "responseId": "gemini-response-id"} for chunk in chunks]
    assert violations(frames, {**known, "responseId": "gemini-response-id"}) == []


@_SLOW
@given(damaged_frames(GEMINI))
def test_the_checker_finds_nothing_wrong_with_the_reference_on_damaged_gemini_streams(
    case: tuple[list[Any], list[str]],
) -> None:
    frames, canaries = case
    assert violations(frames, canaries=canaries) == []
