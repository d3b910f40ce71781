"""The event checker is total: any JSON an adapter sends gives violations, never a raise.

Frames are drawn by the dialects' stream strategies (damaged streams included); events mix
well-formed events carrying those frames with arbitrary JSON; outcome and persisted value
are arbitrary too. Every violation names a registered rule and places it in range.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from refold.reference.events import RULES, Violation, check_events
from refold.strategies.anthropic import event_streams
from refold.strategies.chat import chunk_streams

_json: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
_KEYS = (
    "type",
    "delta",
    "id",
    "name",
    "call",
    "usage",
    "turn",
    "event_type",
    "payload",
    "opaque",
    "arguments",
    "output_text",
    "tool_calls",
    "stop_reason",
    "response_id",
)


@st.composite
def _event(draw: st.DrawFn, frames: list[Any]) -> Any:
    kind = draw(
        st.sampled_from(
            [
                "TextDelta",
                "ToolCallStarted",
                "ToolCallArgumentsDelta",
                "ToolCallCompleted",
                "Usage",
                "Completed",
                "Opaque",
                "?",
            ]
        )
    )
    fields = draw(st.dictionaries(st.sampled_from(_KEYS), _json, max_size=5))
    if frames and draw(st.booleans()):
        fields["opaque" if kind != "Opaque" else "payload"] = draw(st.sampled_from(frames))
    return draw(st.one_of(st.just({**fields, "type": kind}), _json))


@st.composite
def _streams(draw: st.DrawFn) -> tuple[str, list[Any], list[Any]]:
    dialect = draw(st.sampled_from(["openai-chat", "anthropic-messages"]))
    frames: list[Any] = draw(chunk_streams() if dialect == "openai-chat" else event_streams())
    if dialect == "openai-chat" and draw(st.booleans()):
        frames = [*frames, "[DONE]"]
    events = draw(st.lists(_event(frames), max_size=12))
    return dialect, frames, events


_outcomes = st.one_of(
    st.sampled_from(["completed", "error"]),
    _json,
    st.builds(
        lambda k: {"outcome": "error", "error": {"kind": k}},
        st.sampled_from(["truncated", "provider_error", "unsupported", "invalid_tool_arguments"]),
    ),
)


@given(_streams(), _outcomes, _json, st.lists(st.text(min_size=1, max_size=6), max_size=2))
def test_any_adapter_output_gives_violations_in_range_never_a_raise(
    stream: tuple[str, list[Any], list[Any]], outcome: Any, persisted: Any, canaries: list[str]
) -> None:
    dialect, frames, events = stream
    found = check_events(
        dialect,
        frames,
        events,
        outcome,
        persisted,
        canaries=canaries,
        provider="p",
        turn_opaque=True,
        fold=lambda e: e,
        strip=lambda x: x,
    )
    for violation in found:
        assert isinstance(violation, Violation) and violation.rule in RULES
        assert violation.message
        assert violation.event is None or 0 <= violation.event < len(events)
        assert violation.frame is None or 0 <= violation.frame < len(frames)
