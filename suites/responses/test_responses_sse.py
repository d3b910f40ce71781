"""Feature `sse`: the target's own decoder of OpenAI Responses `text/event-stream` bytes
hands the fold every event's data, in arrival order, whatever the framing, the `event:`
names and the cuts.

The decoder checked is the target's (`check.decoded`); its events must equal the
reference's (`refold.reference.responses.decode_stream`) for the same byte pieces, which
are the events the bytes were written from. The bytes come from
`refold.strategies.responses.sse_bytes`: frames named by their `type` (as OpenAI sends
them) or unnamed (as gateways send them), with comment keep-alives, mixed line ends, JSON
over several `data:` lines, and cut at any byte (inside a UTF-8 character and between CR
and LF included).

responses-fold.md names no wire rule (see test_responses_rule_examples_sse.py): these
properties are charged to RS-SEQ-ARRIVAL (every event, in arrival order), RS-KEEPALIVE
and RS-ERROR-EVENT (keepalive, unknown and error frames reach the fold), and a target
that does not claim `sse` skips them.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject, json_equal
from refold.reference.responses import decode_stream
from refold.run.checks import Check
from refold.run.marks import rule
from refold.strategies.responses import lifecycle_events, sse_bytes

from ._draws import small_streams

_FOLD = frozenset({"text", "tool_calls", "refusal", "reasoning", "annotations", "usage"})
_PASSED_THROUGH: tuple[JSONObject, ...] = (
    {"type": "keepalive"},
    {"type": "response.x_future_event", "response": {"id": "resp_other"}},
    {"output_index": 0, "delta": "typeless"},
    {
        "type": "error",
        "code": "server_error",
        "message": "The server had an error",
        "param": None,
        "sequence_number": 1,
    },
    {"type": "error", "error": {"type": "server_error", "message": "nested"}},
)
"""Frames a decoder may be tempted to filter or raise on; the fold's rules decide them."""


def _needs_sse(check: Check) -> None:
    if "sse" not in check.target.features:
        pytest.skip(
            f"target {check.target.name} does not claim feature sse, which this "
            f"test needs to send bytes to its decoder"
        )


def _events(check: Check, data: st.DataObject) -> list[JSON]:
    """A short run of single events of every type, or a lossless stream (whose text needs
    every UTF-8 length)."""
    claimed = frozenset(check.target.features & _FOLD) | {"text"}
    streams = st.one_of(
        st.lists(lifecycle_events(features=claimed), min_size=1, max_size=6), small_streams(claimed)
    )
    events: list[JSON] = list(data.draw(streams, label="events"))
    return events


def _with(data: st.DataObject, events: list[JSON], extra: tuple[JSONObject, ...]) -> list[JSON]:
    """`events` with one to three of `extra` inserted anywhere (first and last included)."""
    changed = list(events)
    for item in data.draw(
        st.lists(st.sampled_from(extra), min_size=1, max_size=3), label="inserted"
    ):
        changed.insert(data.draw(st.integers(0, len(changed))), copy.deepcopy(item))
    return changed


def _decodes_like_the_reference(check: Check, parts: list[bytes]) -> None:
    __tracebackhide__ = True
    expected = decode_stream(parts)
    received = check.decoded(parts)
    if not json_equal(expected, received):
        note(f"cut into {parts!r}")
        raise check.fail(
            f"the target's decoder gave {len(received)} event(s) for {len(parts)} byte "
            f"piece(s), the reference's decoder {len(expected)} (the pieces: see the note)",
            events=expected,
            expected=expected,
            received=received,
        )


@rule("RS-SEQ-ARRIVAL")
@pytest.mark.parametrize("event_lines", [True, False, None], ids=["named", "unnamed", "mixed"])
@given(data=st.data())
def test_frames_decode_to_their_data_with_or_without_event_lines(
    check: Check, event_lines: bool | None, data: st.DataObject
) -> None:
    _needs_sse(check)
    events = _events(check, data)
    parts = data.draw(sse_bytes(events, event_lines=event_lines), label="parts")
    _decodes_like_the_reference(check, parts)


@rule("RS-KEEPALIVE", "RS-ERROR-EVENT")
@given(data=st.data())
def test_keepalive_unknown_and_error_frames_are_passed_to_the_fold(
    check: Check, data: st.DataObject
) -> None:
    _needs_sse(check)
    events = _with(data, _events(check, data), _PASSED_THROUGH)
    parts = data.draw(sse_bytes(events, event_lines=None), label="parts")
    _decodes_like_the_reference(check, parts)
