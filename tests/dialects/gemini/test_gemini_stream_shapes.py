"""The gemini-generate-content stream shapes (verdicts.md §1): every stream the strategies
draw from the documented split families reads `documented`, each observed family's streams
read `observed` only with that family's departures, and damaged streams read no better
than their damage's class."""

from __future__ import annotations

import copy

from hypothesis import find, given, settings
from hypothesis import strategies as st

from refold.dialects.gemini import GEMINI
from refold.reference import JSONObject
from refold.strategies.gemini import round_trips
from refold.strategies.gemini._claims import FEATURES
from refold.strategies.gemini._streams import _damages
from refold.verdicts.shapes import StreamShapes


def _shapes() -> StreamShapes:
    shapes = GEMINI.shapes
    assert isinstance(shapes, StreamShapes)
    return shapes


_FAMILY_DEPARTURES: dict[int, set[str]] = {
    2: {"GMD-EMPTY-TEXT", "GMD-SIGNATURE-SPLIT"},
    5: {"GMD-GROUNDING-EARLY", "GMD-GROUNDING-RESENT", "GMD-METADATA-EARLY"},
    6: {"GMD-VERTEX-NO-INDEX"},
    # an empty text put before a signed empty part reads as a split signature (it is one)
    7: {"GMD-EMPTY-TEXT", "GMD-SIGNATURE-SPLIT", "GMD-VERTEX-USAGE-TRAFFIC", "GMD-TRAILING-USAGE"},
    8: {"GMD-USAGE-DOWN"},
}


def test_every_departure_has_a_detector_and_observed_ones_name_a_source() -> None:
    shapes = _shapes()
    # a departure of the bytes is told from them (`wire`), not by a detector of chunks
    assert shapes.wire is not None
    assert set(shapes.detectors) | set(shapes.wire.values()) == set(shapes.departures)
    assert not set(shapes.detectors) & set(shapes.wire.values())
    assert all(d.provenance for d in shapes.departures.values() if d.shape == "observed")
    assert all(line.source.startswith("https://") for line in shapes.grammar)


_KNOWN_KEYS_ONLY = frozenset(FEATURES) - {"robustness"}
"""A response of parts and keys Google's pages name (a part of an unknown kind is
GMD-UNKNOWN-PART, synthetic): what the documented and observed families split."""


@settings(max_examples=200)
@given(round_trips(features=_KNOWN_KEYS_ONLY, families={1, 3, 4}))
def test_documented_families_read_documented(case: tuple[JSONObject, list[JSONObject]]) -> None:
    _, chunks = case
    shape = _shapes().of(chunks)
    assert shape.shape == "documented", shape.describe()


@settings(max_examples=100)
@given(st.sampled_from(sorted(_FAMILY_DEPARTURES)), st.data())
def test_observed_families_read_observed_with_their_departures(
    family: int, data: st.DataObject
) -> None:
    _, chunks = data.draw(round_trips(features=_KNOWN_KEYS_ONLY, families={1, family}))
    shape = _shapes().of(chunks)
    assert shape.shape in ("documented", "observed"), shape.describe()
    assert not shape.unregistered, shape.describe()
    assert set(shape.departures) <= _FAMILY_DEPARTURES[family], shape.describe()
    assert (shape.shape == "observed") == bool(shape.departures)


def _entry(grounding: JSONObject | None = None, *, index: int | None = 0) -> JSONObject:
    entry: JSONObject = {"content": {"role": "model", "parts": [{"text": "A"}]}}
    if index is not None:
        entry["index"] = index
    if grounding is not None:
        entry["groundingMetadata"] = grounding
    return entry


def _stream(*chunks: list[JSONObject]) -> list[JSONObject]:
    """One chunk per list of entries; the last chunk finishes them."""
    for entry in chunks[-1]:
        entry["finishReason"] = "STOP"
    return [{"candidates": entries, "modelVersion": "gemini-2.5-flash"} for entries in chunks]


def test_grounding_resent_reads_observed_and_sent_once_does_not() -> None:
    # R8, langchainjs PR #11456: "Gemini resends the accumulated metadata"
    early = {"webSearchQueries": ["q"]}
    entry_point = {"searchEntryPoint": {"renderedContent": "<p/>"}}
    final = {"webSearchQueries": ["q", "r"], **entry_point}
    resent = _shapes().of(_stream([_entry(early)], [_entry(final)]))
    assert resent.shape == "observed", resent.describe()
    assert "GMD-GROUNDING-RESENT" in resent.departures, resent.describe()
    # the final value again, on candidate 0 without `index` (Vertex): resent too
    again = _stream([_entry(final, index=None)], [_entry(final, index=None)])
    assert "GMD-GROUNDING-RESENT" in _shapes().of(again).departures
    # sent once on the finish chunk: Google's own shape
    once = _shapes().of(_stream([_entry()], [_entry(final)]))
    assert once.shape == "documented" and not once.departures, once.describe()
    # another key later, or the same key for another candidate, is no resend
    keys = _stream(
        [_entry(early), _entry(entry_point, index=1)],
        [_entry(entry_point), _entry(early, index=1)],
    )
    assert "GMD-GROUNDING-RESENT" not in _shapes().of(keys).departures
    # a null value sends nothing
    nulled = _stream([_entry({"webSearchQueries": None})], [_entry(final)])
    assert "GMD-GROUNDING-RESENT" not in _shapes().of(nulled).departures


def _final_list_resent(case: tuple[JSONObject, list[JSONObject]]) -> bool:
    """A candidate's final list of a grounding key on two chunks or more (an earlier
    value of a list is a shorter one unless the list is resent)."""
    response, chunks = case
    for number, candidate in enumerate(response.get("candidates") or []):
        for key, value in (candidate.get("groundingMetadata") or {}).items():
            if not isinstance(value, list):
                continue
            sent = [
                entry["groundingMetadata"].get(key)
                for chunk in chunks
                for entry in chunk.get("candidates", [])
                if entry.get("index", 0) == number and "groundingMetadata" in entry
            ]
            if sent.count(value) > 1:
                return True
    return False


def test_family_5_resends_a_final_grounding_list() -> None:
    # what a client that appends a resent list gets wrong (R8, R12.4)
    _, chunks = find(
        round_trips(features=frozenset({"text", "grounding"}), families={1, 2, 5}),
        _final_list_resent,
        settings=settings(max_examples=2000, database=None),
    )
    assert "GMD-GROUNDING-RESENT" in _shapes().of(chunks).departures


_DAMAGE_CLASS = {
    "truncated": "synthetic",
    "error chunk": "observed",
    "index gaps": "synthetic",
    "content after finish": "synthetic",
    "second signature": "synthetic",
    "mismatched pieces": "synthetic",
    "null entries": "synthetic",
    "wrong types": "synthetic",
}
_RANK = {"documented": 0, "observed": 1, "synthetic": 2}


@settings(max_examples=200)
@given(st.sampled_from(sorted(_DAMAGE_CLASS)), st.data())
def test_damaged_streams_read_no_better_than_their_damage(name: str, data: st.DataObject) -> None:
    _, chunks = data.draw(round_trips(families={1, 3, 4}))
    damage = dict(_damages(FEATURES))[name]
    damaged = damage(data.draw, copy.deepcopy(chunks))
    if damaged == chunks:
        return  # the damage found nothing to damage
    if name == "truncated" and not _shapes().violations(damaged):
        return  # only chunks after every finish were cut: still a whole stream
    if name == "second signature":
        return  # a signed fragment after a signed run starts a new run: documented too
    shape = _shapes().of(damaged)
    assert _RANK[shape.shape] >= _RANK[_DAMAGE_CLASS[name]], (name, shape.describe())
