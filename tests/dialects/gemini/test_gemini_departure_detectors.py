"""Each registered Gemini departure, shown on one hand-written stream: its detector finds it
there (and only on the chunks that depart), and the stream reads the departure's class.
A departure registered without an example here fails the inventory test."""

from __future__ import annotations

import pytest

from refold.dialects.gemini import GEMINI
from refold.dialects.gemini._chunks import index_of
from refold.dialects.gemini._departures import DEPARTURES, DETECTORS
from refold.reference import JSON
from refold.verdicts.shapes import StreamShapes

_DONE: JSON = {"finishReason": "STOP"}


def _entry(*parts: JSON, index: int | None = 0, **keys: JSON) -> dict[str, JSON]:
    entry: dict[str, JSON] = {"content": {"role": "model", "parts": list(parts)}, **keys}
    if index is not None:
        entry["index"] = index
    return entry


def _chunk(*entries: JSON, **keys: JSON) -> JSON:
    return {"candidates": list(entries), **keys}


_SIGNATURE = "CiQBcsjafBqUWbG9ZZ2d0c9m2pJw0Q=="
_USAGE: JSON = {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}

EXAMPLES: dict[str, tuple[list[JSON], list[int]]] = {
    # id: (stream, the chunks the detector names)
    "GMD-VERTEX-NO-INDEX": (
        [_chunk(_entry({"text": "Hi"}, index=None)), _chunk(_entry(index=0, **_DONE))],
        [0],
    ),
    "GMD-VERTEX-USAGE-TRAFFIC": (
        [
            _chunk(_entry({"text": "Hi"}), usageMetadata={"trafficType": "ON_DEMAND"}),
            _chunk(_entry(**_DONE), usageMetadata=_USAGE),
        ],
        [0],
    ),
    "GMD-EMPTY-TEXT": (
        [_chunk(_entry({"text": "Hi"})), _chunk(_entry({"text": ""}, **_DONE))],
        [1],
    ),
    "GMD-SIGNATURE-SPLIT": (
        [
            _chunk(_entry({"text": "Hi"})),
            _chunk(_entry({"text": "", "thoughtSignature": _SIGNATURE}, **_DONE)),
        ],
        [1],
    ),
    "GMD-USAGE-DOWN": (
        [
            _chunk(_entry({"text": "Hi"}), usageMetadata={**_USAGE, "thoughtsTokenCount": 244}),
            _chunk(_entry(**_DONE), usageMetadata={**_USAGE, "thoughtsTokenCount": 167}),
        ],
        [0],
    ),
    "GMD-TRAILING-USAGE": (
        [_chunk(_entry({"text": "Hi"}, **_DONE)), {"usageMetadata": _USAGE}],
        [1],
    ),
    "GMD-GROUNDING-EARLY": (
        [
            _chunk(_entry({"text": "Hi"}, groundingMetadata={"webSearchQueries": ["q"]})),
            _chunk(_entry(**_DONE)),
        ],
        [0],
    ),
    "GMD-GROUNDING-RESENT": (
        [
            _chunk(_entry({"text": "Hi"}, groundingMetadata={"webSearchQueries": ["q"]})),
            _chunk(_entry(groundingMetadata={"webSearchQueries": ["q"]}, **_DONE)),
        ],
        [1],
    ),
    "GMD-METADATA-EARLY": (
        [
            _chunk(
                _entry({"text": "Hi"}, safetyRatings=[{"category": "HARM_CATEGORY_HARASSMENT"}])
            ),
            _chunk(_entry(**_DONE)),
        ],
        [0],
    ),
    "GMD-ERROR-CHUNK": (
        [_chunk(_entry({"text": "Hi"})), {"error": {"code": 503, "status": "UNAVAILABLE"}}],
        [1],
    ),
    "GMD-WRONG-TYPE": (
        [_chunk(_entry({"text": "Hi"}, finishReason=7))],
        [0],
    ),
    "GMD-NOT-OBJECT": (
        [_chunk(_entry({"text": "Hi"})), None, _chunk(_entry(**_DONE))],
        [1],
    ),
    "GMD-NULL-ENTRY": (
        [_chunk(None, _entry({"text": "Hi"}, **_DONE))],
        [0],
    ),
    "GMD-UNKNOWN-PART": (
        [_chunk(_entry({"text": "Hi"})), _chunk(_entry({"futurePart": {"x": 1}}, **_DONE))],
        [1],
    ),
    "GMD-INDEX-GAP": (
        [_chunk(_entry({"text": "Hi"}, index=2, **_DONE))],
        [0],
    ),
    "GMD-FINISH-EVERY-CHUNK": (
        # gemini-pro's way: STOP on every chunk, the text going on (Google's cookbook)
        [
            _chunk(_entry({"text": "Hi"}, **_DONE)),
            _chunk(_entry({"text": " again"}, **_DONE)),
            _chunk(_entry({"text": "."}, **_DONE)),
        ],
        [1, 2],
    ),
    "GMD-AFTER-FINISH-CONTENT": (
        [
            _chunk(_entry({"text": "Hi"}, **_DONE)),
            _chunk(_entry({"text": " again"})),
            _chunk(_entry({"text": "."}, finishReason="MAX_TOKENS")),
        ],
        [1, 2],
    ),
    "GMD-AFTER-ERROR": (
        [{"error": {"code": 500}}, _chunk(_entry({"text": "Hi"}, **_DONE))],
        [1],
    ),
    "GMD-CUT": (
        [_chunk(_entry({"text": "Hi"}))],
        [0],
    ),
    "GMD-ARGS-MISMATCH": (
        [
            _chunk(_entry({"functionCall": {"name": "f", "willContinue": True}})),
            _chunk(
                _entry(
                    {"functionCall": {"partialArgs": [{"jsonPath": "city", "stringValue": "x"}]}},
                    **_DONE,
                )
            ),
        ],
        [1],
    ),
}


def _shapes() -> StreamShapes:
    shapes = GEMINI.shapes
    assert isinstance(shapes, StreamShapes)
    return shapes


WIRE_EXAMPLES: dict[str, list[bytes]] = {
    # id: a body departing that way alone (`framing.wire_departures`)
    "GMD-WIRE-CRLF": [b'data: {"candidates": []}\r\n\r\ndata: {"candidates": []}\r\n\r\n'],
    "GMD-WIRE-FRAMING": [b'[{"candidates": []},\n,\n{"candidates": []}]'],
}


def test_every_registered_departure_has_an_example() -> None:
    assert set(EXAMPLES) == set(DETECTORS)
    assert set(EXAMPLES) | set(WIRE_EXAMPLES) == set(DEPARTURES)


@pytest.mark.parametrize("departure", sorted(WIRE_EXAMPLES))
def test_each_departure_of_the_bytes_is_told_from_a_body_departing_that_way(
    departure: str,
) -> None:
    shape = _shapes().of_wire(WIRE_EXAMPLES[departure])
    assert shape is not None and shape.departures == (departure,)
    assert shape.shape == DEPARTURES[departure].shape


@pytest.mark.parametrize(
    "stream",
    [
        [_chunk(_entry({"text": "Hi"}, index=-1, **_DONE))],
        [_chunk(_entry({"text": "Hi"}, **_DONE)), _chunk(_entry({"text": "x"}, index=-1, **_DONE))],
    ],
    ids=["alone", "beside-0"],
)
def test_a_negative_candidate_index_is_an_index_gap(stream: list[JSON]) -> None:
    # two indexes {0, -1} are as many as {0, 1}: the gap is the negative one, not the count
    assert list(DETECTORS["GMD-INDEX-GAP"](stream)) == [len(stream) - 1]
    assert "GMD-INDEX-GAP" in _shapes().of(stream).departures


@pytest.mark.parametrize("departure", sorted(EXAMPLES))
def test_each_departure_is_found_on_the_chunks_that_depart(departure: str) -> None:
    stream, chunks = EXAMPLES[departure]
    assert sorted(set(DETECTORS[departure](stream))) == chunks
    shape = _shapes().of(stream)
    assert departure in shape.departures, shape.describe()
    rank = {"documented": 0, "observed": 1, "synthetic": 2}
    assert rank[shape.shape] >= rank[DEPARTURES[departure].shape], shape.describe()


@pytest.mark.parametrize(
    ("sent", "read"), [(None, 0), (0, 0), (2, 2), (2.0, 2), ("1", 0), (-1, 0), (True, 0)]
)
def test_a_candidate_index_is_read_as_the_reference_reads_it(sent: JSON, read: int) -> None:
    # GM-CAND-INDEX: absent, or not a non-negative integer, is candidate 0
    entry = _entry({"text": "Hi"}, index=None) if sent is None else {"index": sent}
    assert index_of(entry) == read


def test_an_error_that_is_no_status_object_is_the_synthetic_gmd_wrong_type() -> None:
    shape = _shapes().of([_chunk(_entry({"text": "Hi"}, **_DONE)), {"error": "overloaded"}])
    assert shape.departures == ("GMD-WRONG-TYPE",) and shape.unregistered == ()
