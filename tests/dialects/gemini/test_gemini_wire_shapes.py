"""The shape of a Gemini body (verdicts.md §1 at the wire, `framing.wire_departures`):
Google's own framings, unnamed `alt=sse` frames with LF line ends and a JSON array with
any JSON whitespace around its commas, depart in nothing however they are cut; CR LF line
ends are observed (GMD-WIRE-CRLF); everything else the strategies draw is synthetic
(GMD-WIRE-FRAMING), and every drawn body reads as registered departures only."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.dialects.gemini import GEMINI
from refold.dialects.gemini.framing import wire_departures
from refold.reference import JSON
from refold.strategies.gemini import FEATURES, array_bytes, round_trips, sse_bytes
from refold.verdicts.shapes import StreamShapes

_CHUNKS = round_trips(features=frozenset(FEATURES) - {"lifecycle"}).map(lambda case: case[1])


def _shapes() -> StreamShapes:
    shapes = GEMINI.shapes
    assert isinstance(shapes, StreamShapes)
    return shapes


def _googles_sse(chunks: list[JSON], line_end: str = "\n") -> bytes:
    text = "".join(f"data: {json.dumps(chunk)}{line_end}{line_end}" for chunk in chunks)
    return text.encode()


def _cut(body: bytes, points: list[int]) -> list[bytes]:
    bounds = sorted({0, len(body), *(p % (len(body) + 1) for p in points)})
    return [body[a:b] for a, b in itertools.pairwise(bounds)]


@given(data=st.data())
def test_googles_own_sse_framing_departs_in_nothing_wherever_it_is_cut(
    data: st.DataObject,
) -> None:
    chunks: list[JSON] = data.draw(_CHUNKS)
    points = data.draw(st.lists(st.integers(min_value=0), max_size=12))
    parts = _cut(_googles_sse(chunks), points)
    assert wire_departures(parts) == {}
    crlf = _cut(_googles_sse(chunks, "\r\n"), points)
    assert wire_departures(crlf) == {"crlf": [0]}
    shape = _shapes().of_wire(parts)
    assert shape is not None and shape.shape == "documented"


@given(data=st.data())
def test_an_array_body_without_bom_or_empty_elements_departs_in_nothing(
    data: st.DataObject,
) -> None:
    chunks: list[JSON] = data.draw(_CHUNKS)
    assert wire_departures(data.draw(array_bytes(chunks, bom=False))) == {}


@given(data=st.data())
def test_every_drawn_body_reads_as_registered_departures(data: st.DataObject) -> None:
    chunks: list[JSON] = data.draw(_CHUNKS)
    framing = data.draw(st.sampled_from(["sse", "array"]))
    parts = data.draw(
        sse_bytes(chunks, bom=data.draw(st.booleans()))
        if framing == "sse"
        else array_bytes(chunks, empty_elements=data.draw(st.booleans()))
    )
    shape = _shapes().of_wire(parts)
    assert shape is not None
    assert set(shape.departures) <= {"GMD-WIRE-CRLF", "GMD-WIRE-FRAMING"}
    assert (shape.shape == "documented") == (shape.departures == ())


def test_crlf_line_ends_are_observed_and_a_mix_of_line_ends_synthetic() -> None:
    crlf = b'data: {"candidates": []}\r\n\r\ndata: {"usageMetadata": {}}\r\n\r\n'
    shape = _shapes().of_wire([crlf])
    assert shape is not None and (shape.shape, shape.departures) == ("observed", ("GMD-WIRE-CRLF",))
    assert _shapes().departures["GMD-WIRE-CRLF"].provenance
    mixed = crlf.replace(b"\r\n\r\ndata", b"\n\ndata", 1)
    shape = _shapes().of_wire([mixed])
    assert shape is not None and shape.departures == ("GMD-WIRE-FRAMING",)


def test_event_names_comments_bom_and_empty_elements_are_synthetic() -> None:
    for body in (
        b'event: chunk\ndata: {"candidates": []}\n\n',
        b': keep-alive\n\ndata: {"candidates": []}\n\n',
        b'\xef\xbb\xbfdata: {"candidates": []}\n\n',
        b'[{"candidates": []},,{"candidates": []}]',
        b'\xef\xbb\xbf[{"candidates": []}]',
        b"data: not json\n\n",
    ):
        shape = _shapes().of_wire([body])
        assert shape is not None and shape.departures == ("GMD-WIRE-FRAMING",), body
        assert shape.shape == "synthetic"


def test_an_error_body_and_googles_array_separators_are_documented() -> None:
    for body in (
        b'{"error": {"code": 429, "message": "quota", "status": "RESOURCE_EXHAUSTED"}}',
        b'[{"candidates": []}\r\n,\r\n{"candidates": []}]',
        b'[\n  {"candidates": [{"content": {"parts": [{"text": "a,]\\" ,,"}]}}]}\n]',
    ):
        assert wire_departures([body]) == {}, body


_LF_ONLY_DECODER = """
import json
from refold.reference.gemini import Accumulator

def decode(parts):
    # splits frames on LF LF only, as openfang's Gemini driver did (PR #723)
    body = b"".join(parts).decode()
    return [json.loads(f[len("data: "):]) for f in body.split("\\n\\n") if f.startswith("data: ")]

refold_target = {"dialect": "gemini-generate-content", "factory": Accumulator,
                 "sse": decode, "features": ["text", "sse"]}
"""


def test_a_decoder_that_splits_on_lf_only_fails_on_an_observed_body(tmp_path: Path) -> None:
    from refold.run.checks import Check, ConformanceFailure
    from refold.suites.gemini import test_gemini_rule_examples_wire as examples
    from refold.targets import load_target

    path = tmp_path / "lf_only.py"
    path.write_text(_LF_ONLY_DECODER, encoding="utf-8")
    check = Check(load_target(str(path)))
    check.rules = ("GM-WIRE-SSE",)
    examples.test_each_sse_event_ended_by_lf_is_one_chunk(check)
    assert check.sent_wire is not None and check.sent_wire.shape == "documented"
    with pytest.raises(ConformanceFailure) as failed:
        examples.test_each_sse_event_is_one_chunk(check)
    shape = failed.value.stream_shape
    # the example's chunks carry no `index` (Vertex's way, also observed)
    assert shape.shape == "observed" and "GMD-WIRE-CRLF" in shape.departures
