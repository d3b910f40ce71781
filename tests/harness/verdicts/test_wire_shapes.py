"""The shape of a stream's bytes (verdicts.md §1 at the wire, `refold.verdicts.wire_shapes`): the
providers' documented framing departs in nothing however it is cut; each way a frame
departs is named, in the frames that depart, and each dialect telling its bytes maps it
to a registered departure with its class (AQ30 is observed: proxies send data-only
frames)."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.dialects.anthropic_messages import ANTHROPIC_MESSAGES
from refold.dialects.openai_responses import OPENAI_RESPONSES
from refold.verdicts.shapes import StreamShapes
from refold.verdicts.wire_shapes import FRAME_KINDS, framing_departures

_EVENTS = [
    {"type": "message_start", "message": {"id": "m"}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "é\\n"}},
    {"type": "message_stop"},
]


def _frame(event: dict[str, object], name: str | None = None) -> str:
    return f"event: {event['type'] if name is None else name}\ndata: {json.dumps(event)}\n\n"


_DOCUMENTED = "".join(_frame(e) for e in _EVENTS)

DEPARTING: dict[str, tuple[str, list[int]]] = {
    "unnamed": (
        _frame(_EVENTS[0]) + f"data: {json.dumps(_EVENTS[1])}\n\n" + _frame(_EVENTS[2]),
        [1],
    ),
    "empty": (
        _frame(_EVENTS[0]) + "event: ping\n\n" + "event: ping\ndata: \n\n" + _frame(_EVENTS[2]),
        [1, 2],
    ),
    "misnamed": (_frame(_EVENTS[0], name="message_delta") + _frame(_EVENTS[2]), [0]),
    "framing": (": keep-alive\n" + _frame(_EVENTS[0]) + "id: 7\n" + _frame(_EVENTS[2]), [0, 1]),
    "not-json": (_frame(_EVENTS[0]) + "event: message_stop\ndata: [DONE]\n\n", [1]),
    "crlf": (_DOCUMENTED.replace("\n", "\r\n"), [0]),
}
"""Bytes departing in each kind alone, with the frames that depart."""


def _cuts(text: str, points: list[int]) -> list[bytes]:
    data = text.encode()
    bounds = sorted({0, len(data), *(p % (len(data) + 1) for p in points)})
    return [data[a:b] for a, b in itertools.pairwise(bounds)]


@given(st.lists(st.integers(min_value=0), max_size=12))
def test_the_documented_framing_departs_in_nothing_wherever_it_is_cut(points: list[int]) -> None:
    assert framing_departures(_cuts(_DOCUMENTED, points)) == {}


def test_every_kind_has_bytes_departing_that_way_alone() -> None:
    assert set(DEPARTING) == set(FRAME_KINDS)


@pytest.mark.parametrize("kind", FRAME_KINDS)
def test_bytes_departing_one_way_name_that_kind_at_the_frames_that_depart(kind: str) -> None:
    text, frames = DEPARTING[kind]
    assert framing_departures([text.encode()]) == {kind: frames}


@pytest.mark.parametrize(
    "text",
    [
        "\ufeff" + _DOCUMENTED,
        _DOCUMENTED.replace("\n", "\r"),
        _DOCUMENTED.replace("\n\n", "\r\n\n"),
        _DOCUMENTED.replace("data: ", "data:"),
        _DOCUMENTED + "\n",
        "event: x\nevent: x\ndata: {}\n\n",
    ],
)
def test_what_the_examples_never_show_is_framing(text: str) -> None:
    assert "framing" in framing_departures([text.encode()])


def test_unnamed_frames_depart_only_by_a_name_or_what_named_ones_would() -> None:
    unnamed = "".join(f"data: {json.dumps(e)}\n\n" for e in _EVENTS)
    assert framing_departures([unnamed.encode()], named=False) == {}
    assert framing_departures([_DOCUMENTED.encode()], named=False) == {"misnamed": [0, 1, 2]}
    assert framing_departures([(": ping\n\n" + unnamed).encode()], named=False) == {"framing": [0]}
    crlf = unnamed.replace("\n", "\r\n").encode()
    assert framing_departures([crlf[:7], crlf[7:]], named=False) == {"crlf": [0]}


def test_bytes_that_are_not_utf8_are_framing() -> None:
    assert framing_departures([b"event: x\ndata: \xff\n\n"]) == {"framing": [0]}


def test_an_unterminated_last_frame_is_left_to_the_items() -> None:
    assert framing_departures([_DOCUMENTED.encode(), b'data: {"type"']) == {}


def _shapes(dialect: object) -> StreamShapes:
    shapes = getattr(dialect, "shapes", None)
    assert isinstance(shapes, StreamShapes)
    return shapes


@pytest.mark.parametrize("dialect", [ANTHROPIC_MESSAGES, OPENAI_RESPONSES], ids=lambda d: d.name)
@pytest.mark.parametrize("kind", FRAME_KINDS)
def test_each_dialect_tells_every_kind_as_a_registered_departure(
    dialect: object, kind: str
) -> None:
    shapes = _shapes(dialect)
    assert shapes.wire is not None
    shape = shapes.of_wire([DEPARTING[kind][0].encode()])
    assert shape is not None
    departure = shapes.departures[shapes.wire[kind]]
    assert shape.departures == (departure.id,)
    assert shape.shape == departure.shape


@pytest.mark.parametrize("dialect", [ANTHROPIC_MESSAGES, OPENAI_RESPONSES], ids=lambda d: d.name)
def test_the_documented_framing_is_documented_in_each_dialect(dialect: object) -> None:
    shape = _shapes(dialect).of_wire([_DOCUMENTED.encode()])
    assert shape is not None and shape.shape == "documented" and shape.departures == ()


def test_data_only_frames_are_observed_in_anthropic_and_misnamed_ones_synthetic() -> None:
    shapes = _shapes(ANTHROPIC_MESSAGES)
    unnamed = shapes.of_wire([DEPARTING["unnamed"][0].encode()])
    misnamed = shapes.of_wire([DEPARTING["misnamed"][0].encode()])
    assert unnamed is not None and unnamed.shape == "observed"
    assert unnamed.departures == ("AQ30",)
    assert shapes.departures["AQ30"].provenance
    assert misnamed is not None and misnamed.shape == "synthetic"


def test_a_decoder_failing_on_data_only_frames_is_found_on_an_observed_stream() -> None:
    # AQ30: the items decode to the docs' events, but the bytes are what proxies send
    from pathlib import Path

    from refold.run.checks import Check, ConformanceFailure
    from refold.suites.anthropic import test_anthropic_rule_examples_sse as examples
    from refold.targets import load_target

    broken = Path(__file__).resolve().parents[3] / "examples" / "broken"
    check = Check(load_target(str(broken / "anthropic_drops_frames_without_event.py")))
    check.rules = ("AM-SSE-TYPE",)
    with pytest.raises(ConformanceFailure) as failed:
        examples.test_frames_without_an_event_line_are_decoded_like_any_other(check)
    assert failed.value.wire is not None
    assert failed.value.stream_shape.shape == "observed"
    assert "AQ30" in failed.value.stream_shape.departures
    check.sent_wire = None
    examples.test_the_docs_basic_stream_decodes_into_its_events(check)
    assert check.sent_wire is not None and check.sent_wire.shape == "documented"
