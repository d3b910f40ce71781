"""The reference Responses adapter (events.md §4.2) against the event checker, and its
decisions where the §4.2 table is silent (see `refold.reference.responses.neutral._mapping`).

As tests/dialects/provider_events/test_reference_events_pass_the_checker.py does for Chat and
Anthropic: the adapter was written from §4.2, the checker's Responses reading from §2, both on the
Responses reference fold; whatever the adapter emits for a lossless split or a damaged
stream, the checker finds nothing wrong, read as one output and frame by frame.
"""

from __future__ import annotations

from typing import Any

from _responses_event_streams import RESPONSES, USAGE
from hypothesis import given, settings
from test_reference_events_invariants import emitted_run

from refold.reference.events import check_events, fold_turn, normalize, strip
from refold.strategies.responses import event_streams, round_trips
from refold.suites.events._responses_frames import (
    added,
    call_item,
    created,
    message_item,
    terminal,
    text_delta,
    text_done,
)

_SLOW = settings(deadline=None)
_FEATURES = frozenset(
    {
        "text",
        "tool_calls",
        "refusal",
        "reasoning",
        "annotations",
        "usage",
        "robustness",
        "lifecycle",
    }
)


def _violations(frames: list[Any], known: Any = None) -> list[str]:
    result = normalize(RESPONSES, frames)
    found = check_events(
        RESPONSES,
        frames,
        result["events"],
        result["outcome"],
        result["persisted"],
        known=known,
        provider=RESPONSES,
        turn_opaque=known is None,
        fold=fold_turn,
        strip=strip,
    )
    events, emitted, outcome, persisted = emitted_run(RESPONSES, frames)
    found += check_events(
        RESPONSES,
        frames,
        events,
        outcome,
        persisted,
        provider=RESPONSES,
        turn_opaque=True,
        fold=fold_turn,
        strip=strip,
        emitted=emitted,
    )
    return [f"{v.rule} (event {v.event}, frame {v.frame}): {v.message}" for v in found]


@_SLOW
@given(round_trips(features=_FEATURES))
def test_the_checker_finds_nothing_wrong_with_the_reference_on_responses_splits(
    case: tuple[Any, list[Any]],
) -> None:
    known, frames = case
    assert _violations(frames) == []
    assert _violations(frames, known) == []


@_SLOW
@given(event_streams(features=_FEATURES))
def test_the_checker_finds_nothing_wrong_with_the_reference_on_damaged_responses_streams(
    frames: list[Any],
) -> None:
    assert _violations(frames) == []


def _stripped(frames: list[Any]) -> list[Any]:
    return strip(normalize(RESPONSES, frames)["events"])  # type: ignore[no-any-return]


def test_what_only_the_terminal_output_carries_is_emitted_from_the_terminal() -> None:
    # decision (EV-FOLD-AGREES, EV-TURN-CALLS): a gateway sending the whole response at the
    # end; its text and calls come from the terminal frame, before Usage and Completed
    call = call_item("call_t1", "get_time", '{"tz":"CET"}')
    frames = [created(), terminal(output=[message_item("msg_1", "Hi"), call], usage=USAGE)]
    assert [e["type"] for e in _stripped(frames)] == [
        "Opaque",
        "TextDelta",
        "ToolCallStarted",
        "ToolCallArgumentsDelta",
        "ToolCallCompleted",
        "Usage",
        "Completed",
    ]
    turn = fold_turn(normalize(RESPONSES, frames)["events"])
    assert (turn["output_text"], turn["stop_reason"]) == ("Hi", "tool_use")
    assert _violations(frames) == []


def test_a_text_delta_after_its_done_is_opaque() -> None:
    # decision (EV-TEXT vs RS-DONE-REPLACES): the fold keeps the done text
    item = message_item("msg_1", "Hi")
    frames = [
        created(),
        added(0, message_item("msg_1")),
        text_done(0, "Hi"),
        text_delta(0, "!"),
        terminal(output=[item], usage=USAGE),
    ]
    events = _stripped(frames)
    assert [e["delta"] for e in events if e["type"] == "TextDelta"] == ["Hi"]
    assert {"type": "Opaque", "event_type": "response.output_text.delta"} in events
    assert _violations(frames) == []
