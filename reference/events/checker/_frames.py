"""The rules that read the frames: where each event came from and how the stream ended.

Frame numbers are 0-based indexes into the frames given; the frame an event came from is
inferred by `_context` (see there). The expected outcome is the dialect's reading of the
frames (`_dialects.StreamEnd`): an adapter's other outcome is charged to the rule of the
kind the frames call for, or, on frames that end well, to the rule of the kind it gave.
The turn rules, which read the dialect fold, are in `_turn`.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..._json import JSON
from ._context import Stream, frame_key
from ._dialects import DONE, SOURCES, opaque_event_type
from ._violation import Violation

__all__ = [
    "ev_args_invalid",
    "ev_chat_complete_at_finish",
    "ev_chat_done",
    "ev_chat_eof",
    "ev_choice0",
    "ev_error_frame",
    "ev_frame_cover",
    "ev_frame_order",
    "ev_nothing_after_error",
    "ev_opaque_frame",
    "ev_opaque_type",
    "ev_truncated",
    "outcome_violations",
]

_KIND_RULES = {
    "truncated": "EV-TRUNCATED",
    "provider_error": "EV-ERROR-FRAME",
    "invalid_tool_arguments": "EV-ARGS-INVALID",
    "unsupported": "EV-CHOICE0",
}
"""The rule each error kind stands for (EV-COMPLETED-LAST for any other)."""


def _show(value: JSON, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _type(event: JSON) -> JSON:
    return event.get("type") if isinstance(event, dict) else None


def ev_opaque_frame(stream: Stream) -> Iterator[Violation]:
    """EV-OPAQUE-FRAME: every opaque/payload is JSON-equal to a whole input frame."""
    for number, event in enumerate(stream.events):
        if (
            stream.origin[number] is None
            and isinstance(event, dict)
            and event.get("type") != "Completed"
        ):
            for key in ("opaque", "payload"):
                if key in event:
                    yield Violation(
                        "EV-OPAQUE-FRAME",
                        f"the {key} {_show(event[key])} is "
                        f"JSON-equal to none of the {len(stream.frames)} frames; "
                        f"expected the whole frame that produced the event",
                        event=number,
                        pointer=f"/{key}",
                    )


def ev_frame_order(stream: Stream) -> Iterator[Violation]:
    """EV-FRAME-ORDER: events come from frames in order (buffered deltas excepted); with
    `emitted`, no event carries a frame before the one it arrived at (no look-ahead)."""
    if stream.emitted is not None:
        yield from _look_ahead(stream, stream.emitted)
        return
    last: int | None = None
    for number, found in enumerate(stream.origin):
        if number in stream.order_breaks:
            yield Violation(
                "EV-FRAME-ORDER",
                f"the event's opaque is frame {found}, but an "
                f"earlier event (from frame {last}) came from a later frame; "
                f"expected events in frame order",
                event=number,
                frame=found,
            )
        elif found is not None:
            last = found if last is None else max(last, found)


def _look_ahead(stream: Stream, emitted: tuple[int, ...]) -> Iterator[Violation]:
    final = len(stream.frames)
    for number, found in enumerate(stream.origin):
        if found is None:
            continue
        at = emitted[number]
        arrived = "at end()" if at == final else f"while frame {at} was read"
        if number in stream.order_breaks:
            yield Violation(
                "EV-FRAME-ORDER",
                f"the event carries frame {found}, which was "
                f"not sent yet when it arrived ({arrived})",
                event=number,
                frame=found,
            )
        elif (
            found < at
            and number not in stream.released
            and not (at == final and found == final - 1)
        ):
            yield Violation(
                "EV-FRAME-ORDER",
                f"the event carries frame {found} but arrived "
                f"{arrived}, after frame {found + 1} was sent: look-ahead; "
                f"expected every event of a frame before the next frame is read",
                event=number,
                frame=found,
            )


def ev_frame_cover(stream: Stream) -> Iterator[Violation]:
    """EV-FRAME-COVER: every frame but `[DONE]`, up to the end, is some event's opaque."""
    used = {n for n in stream.origin if n is not None}
    keys = {frame_key(stream.frames[n]) for n in used}
    for number in range(min(stream.analysis.end.cover, len(stream.frames))):
        frame = stream.frames[number]
        if frame != DONE and number not in used and frame_key(frame) not in keys:
            yield Violation(
                "EV-FRAME-COVER",
                f"no event carries frame {number} "
                f"{_show(frame)}; expected at least an Opaque for it",
                frame=number,
            )


def ev_opaque_type(stream: Stream) -> Iterator[Violation]:
    """EV-OPAQUE-TYPE: Opaque.event_type is the frame's event name, `message` for Chat."""
    for number, event in stream.of_type("Opaque"):
        if isinstance(event.get("event_type"), str) and "payload" in event:
            expected = opaque_event_type(stream.dialect, event["payload"])
            if event["event_type"] != expected:
                yield Violation(
                    "EV-OPAQUE-TYPE",
                    f"event_type is {event['event_type']!r}, expected {expected!r}",
                    event=number,
                    pointer="/event_type",
                )


def ev_nothing_after_error(stream: Stream) -> Iterator[Violation]:
    """EV-NOTHING-AFTER-ERROR: no event comes from a frame after the error frame."""
    end = stream.analysis.end
    if end.kind != "provider_error" or end.frame is None:
        return
    for number, found in enumerate(stream.origin):
        if found is not None and found > end.frame:
            yield Violation(
                "EV-NOTHING-AFTER-ERROR",
                f"an event from frame {found}, after "
                f"the error frame {end.frame}; later frames are not normalised",
                event=number,
                frame=found,
            )


def outcome_violations(stream: Stream, rule: str) -> Iterator[Violation]:
    """The outcome check of one error kind's rule (EV-COMPLETED-LAST: of any other kind)."""
    end, outcome = stream.analysis.end, stream.outcome
    if outcome.name is None or (outcome.kind == "unsupported" and stream.analysis.several_choices):
        return  # EV-GRAMMAR's, or a refused n > 1 stream (EV-CHOICE0)
    where = f"frame {end.frame}" if end.frame is not None else "the end of the body"
    received = outcome.name + (f" ({outcome.kind})" if outcome.kind else "")
    if end.kind == "completed":
        if (
            outcome.name == "error"
            and _KIND_RULES.get(outcome.kind or "", "EV-COMPLETED-LAST") == rule
        ):
            yield Violation(
                rule,
                f"the outcome is {received}, but the frames end well at "
                f"{where}; expected completed",
                frame=end.frame,
            )
    elif (end.rule or _KIND_RULES.get(end.kind, "EV-COMPLETED-LAST")) == rule and (
        outcome.name != "error" or outcome.kind not in (None, end.kind)
    ):
        yield Violation(
            rule,
            f"the frames end at {where} with {end.kind}; expected the "
            f"outcome error ({end.kind}), received {received}",
            frame=end.frame,
        )


def ev_truncated(stream: Stream) -> Iterator[Violation]:
    """EV-TRUNCATED: frames without the dialect's terminal end in error (`truncated`)."""
    yield from outcome_violations(stream, "EV-TRUNCATED")


def ev_error_frame(stream: Stream) -> Iterator[Violation]:
    """EV-ERROR-FRAME: an error frame gives one Opaque and the outcome provider_error."""
    yield from outcome_violations(stream, "EV-ERROR-FRAME")
    end = stream.analysis.end
    if end.kind != "provider_error" or end.frame is None:
        return
    made = [n for n, found in enumerate(stream.origin) if found == end.frame]
    kinds = [_type(stream.events[n]) for n in made]
    frame = stream.frames[end.frame]
    # "plus any Usage it carries, Responses response.failed": a Usage before the Opaque
    carries = SOURCES[stream.dialect].usage_at_error(frame)
    if kinds != ["Opaque"] and not (carries and kinds == ["Usage", "Opaque"]):
        expected = (
            "one Opaque (a Usage before it if the response has usage)"
            if carries
            else "exactly one Opaque"
        )
        yield Violation(
            "EV-ERROR-FRAME",
            f"the error frame produced {kinds or 'no events'}; expected {expected}",
            frame=end.frame,
            event=made[0] if made else None,
        )


def ev_args_invalid(stream: Stream) -> Iterator[Violation]:
    """EV-ARGS-INVALID: arguments that are not an object at the boundary give no
    ToolCallCompleted and the outcome invalid_tool_arguments."""
    yield from outcome_violations(stream, "EV-ARGS-INVALID")
    bad = stream.analysis.end.bad_call
    if stream.analysis.end.kind != "invalid_tool_arguments":
        return
    for number, event in stream.of_type("ToolCallCompleted"):
        call = event.get("call")
        if isinstance(call, dict) and call.get("id") == bad:
            yield Violation(
                "EV-ARGS-INVALID",
                f"call {bad!r} completed although its "
                f"arguments are not a JSON object at the boundary",
                event=number,
            )


def ev_choice0(stream: Stream) -> Iterator[Violation]:
    """EV-CHOICE0: `unsupported` is for Chat streams with choices beyond 0 only."""
    yield from outcome_violations(stream, "EV-CHOICE0")


def ev_chat_complete_at_finish(stream: Stream) -> Iterator[Violation]:
    """EV-CHAT-COMPLETE-AT-FINISH: a Chat call completes at a frame that gives choice 0 a
    finish reason, never at another; a call started after the last such frame completes
    at the frame that ends the stream (`[DONE]`, or the last chunk of the body)."""
    if stream.dialect != "openai-chat":
        return
    finishes = stream.analysis.finish_frames
    starts = {
        e["id"]: stream.origin[n]
        for n, e in stream.of_type("ToolCallStarted")
        if isinstance(e.get("id"), str)
    }
    for number, event in stream.of_type("ToolCallCompleted"):
        found = stream.origin[number]
        call = event.get("call")
        call_id = call.get("id") if isinstance(call, dict) else None
        started = starts.get(call_id) if isinstance(call_id, str) else None
        late = started is not None and started > max(finishes, default=-1)
        if found is None or found in finishes or (late and found == _terminal(stream)):
            continue
        expected = ", ".join(map(str, sorted(finishes))) or "none"
        yield Violation(
            "EV-CHAT-COMPLETE-AT-FINISH",
            f"the call completes at frame "
            f"{found}, expected at a frame that gives choice 0 its finish "
            f"reason (frames: {expected}), or, for a call started after "
            f"the last, at the frame that ends the stream",
            event=number,
            frame=found,
        )


def _terminal(stream: Stream) -> int | None:
    """The frame that ends a Chat stream: its `[DONE]`, else the last frame of the body."""
    for number, frame in enumerate(stream.frames):
        if frame == DONE:
            return number
    return len(stream.frames) - 1 if stream.frames else None


def _completions(stream: Stream) -> Iterator[tuple[int, int]]:
    """(event, frame it arrived at) of each Completed of a Chat stream that ends well,
    when `emitted` is known (EV-CHAT-DONE, EV-CHAT-EOF)."""
    if (
        stream.dialect != "openai-chat"
        or stream.emitted is None
        or not stream.completed
        or stream.analysis.end.kind != "completed"
    ):
        return
    for number, _ in stream.of_type("Completed"):
        yield number, stream.emitted[number]


def ev_chat_done(stream: Stream) -> Iterator[Violation]:
    """EV-CHAT-DONE: Completed arrives at the `[DONE]` that follows the finish reason."""
    done = stream.analysis.end.frame
    if done is None:
        return  # the body ended without [DONE]: EV-CHAT-EOF's
    for number, at in _completions(stream):
        if at != done:
            when = "at end()" if at == len(stream.frames) else f"at frame {at}"
            yield Violation(
                "EV-CHAT-DONE",
                f"Completed arrived {when}; expected it at the [DONE] frame {done}",
                event=number,
                frame=done,
            )


def ev_chat_eof(stream: Stream) -> Iterator[Violation]:
    """EV-CHAT-EOF: without `[DONE]`, Completed arrives at the end of the body."""
    if stream.analysis.end.frame is not None:
        return
    for number, at in _completions(stream):
        if at != len(stream.frames):
            yield Violation(
                "EV-CHAT-EOF",
                f"Completed arrived at frame {at}, before the "
                f"body ended; expected it at end() (no [DONE] came)",
                event=number,
                frame=at,
            )
