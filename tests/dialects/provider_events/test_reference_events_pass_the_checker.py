"""The two halves of refold.reference.events agree: whatever the reference adapters emit
for a stream, lossless or damaged, the event checker finds no violation in it.

The adapters were written from events.md §4 and the checker from §2-§3 independently, so
a stream on which they disagree is a misreading of the spec by one of them. Each stream is
checked twice: as one output (no `emitted`), and frame by frame as the ack protocol sees
it (`emitted`: look-ahead, EV-CHAT-DONE, EV-CHAT-EOF).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_reference_events_invariants import emitted_run

from refold.reference.chat import FEATURES
from refold.reference.events import check_events, fold_turn, normalize, strip
from refold.strategies.anthropic import FEATURES as ANTHROPIC_FEATURES
from refold.strategies.anthropic import event_splits, event_streams, messages
from refold.strategies.anthropic import families_for as anthropic_families
from refold.strategies.chat import chunk_splits, chunk_streams, completions, families_for

_SLOW = settings(deadline=None)  # a whole stream through the adapter and every check
_CHAT_FEATURES = frozenset(FEATURES) - {"choices"}  # EV-CHOICE0: one choice


def _violations(dialect: str, frames: list[Any]) -> list[str]:
    result = normalize(dialect, frames)
    found = check_events(
        dialect,
        frames,
        result["events"],
        result["outcome"],
        result["persisted"],
        provider=dialect,
        turn_opaque=True,
        fold=fold_turn,
        strip=strip,
    )
    events, emitted, outcome, persisted = emitted_run(dialect, frames)
    found += check_events(
        dialect,
        frames,
        events,
        outcome,
        persisted,
        provider=dialect,
        turn_opaque=True,
        fold=fold_turn,
        strip=strip,
        emitted=emitted,
    )
    return [f"{v.rule} (event {v.event}, frame {v.frame}): {v.message}" for v in found]


@st.composite
def _chat_splits(draw: st.DrawFn) -> list[Any]:
    completion = draw(completions(features=_CHAT_FEATURES, max_choices=1))
    frames: list[Any] = draw(chunk_splits(completion, families=families_for(_CHAT_FEATURES)))
    return frames + (["[DONE]"] if draw(st.booleans()) else [])


@_SLOW
@given(_chat_splits())
def test_the_checker_finds_nothing_wrong_with_the_reference_on_chat_splits(
    frames: list[Any],
) -> None:
    assert _violations("openai-chat", frames) == []


@_SLOW
@given(chunk_streams(), st.booleans())
def test_the_checker_finds_nothing_wrong_with_the_reference_on_damaged_chat_streams(
    chunks: list[Any], done: bool
) -> None:
    assert _violations("openai-chat", chunks + (["[DONE]"] if done else [])) == []


@st.composite
def _anthropic_splits(draw: st.DrawFn) -> list[Any]:
    message = draw(messages(features=ANTHROPIC_FEATURES))
    frames: list[Any] = draw(event_splits(message, families=anthropic_families(ANTHROPIC_FEATURES)))
    return frames


@_SLOW
@given(_anthropic_splits())
def test_the_checker_finds_nothing_wrong_with_the_reference_on_anthropic_splits(
    frames: list[Any],
) -> None:
    assert _violations("anthropic-messages", frames) == []


@_SLOW
@given(event_streams())
def test_the_checker_finds_nothing_wrong_with_the_reference_on_damaged_anthropic_streams(
    events: list[Any],
) -> None:
    assert _violations("anthropic-messages", events) == []
