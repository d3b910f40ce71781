"""Each Gemini fold policy (`refold.dialects.gemini.policies`) is its broken example's fold.

For every policy of the catalogue, on any stream `refold.strategies.gemini` draws (lossless
round trips, damaged streams, runs of lifecycle chunks) and on dense streams drawn here
(`_DENSE_STREAMS`: few kinds of value, many times over, so that runs, calls, signatures,
candidates and finish reasons meet) that the broken example of
`examples/broken/` folds without raising, the policy's fold equals the example's exactly;
on the example's hand-written defect streams (`test_broken_gemini_accumulators.DEFECTS`)
it departs from the reference, as the example does. Each policy breaks exactly the rules
the example's docstring names, in the registry's order, and names libraries its docstring
models it on.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_broken_gemini_accumulators import DEFECTS, EXPECTED_FAILURES, NEUTRAL
from test_broken_gemini_accumulators import _fold as _module_fold

from refold.dialects import DIALECTS
from refold.dialects.gemini.policies import GEMINI_POLICIES
from refold.policies import Policy
from refold.reference import JSON
from refold.reference.gemini import RULES, differences, fold
from refold.strategies.gemini import chunk_streams, lifecycle_chunks, round_trips

_BROKEN = Path(__file__).resolve().parents[3] / "examples" / "broken"
_POLICIES = {policy.example: policy for policy in GEMINI_POLICIES}
_SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class _Example:
    """A broken example's own fold, in this process (its module's factory, as
    test_broken_gemini_accumulators.py folds it): thousands of folds, no worker round trip."""

    def __init__(self, name: str) -> None:
        self._name = name

    def fold(self, chunks: list[JSON]) -> JSON:
        return _module_fold(self._name, chunks)


@functools.cache
def _example(name: str) -> _Example:
    return _Example(name)


def _agrees(policy: Policy, chunks: list[JSON]) -> None:
    """The policy folds `chunks` exactly as its example does, when the example folds them."""
    try:
        expected = _example(policy.example).fold(copy.deepcopy(chunks))
    except Exception:
        return  # the example refuses the stream: there is no fold to reproduce
    assert policy.fold(copy.deepcopy(chunks)) == expected


def test_the_catalogue_is_registered_one_policy_per_broken_gemini_example() -> None:
    assert DIALECTS["gemini-generate-content"].policies == GEMINI_POLICIES
    assert sorted(_POLICIES) == sorted(EXPECTED_FAILURES)
    assert len({policy.name for policy in GEMINI_POLICIES}) == len(GEMINI_POLICIES)


@pytest.mark.parametrize("name", sorted(_POLICIES))
def test_a_policy_breaks_its_examples_rules_and_names_its_libraries(name: str) -> None:
    policy = _POLICIES[name]
    assert policy.rules == tuple(rule for rule in RULES if rule in EXPECTED_FAILURES[name])
    doc = (_BROKEN / f"{name}.py").read_text(encoding="utf-8").split('"""')[1]
    modelled = doc[doc.index("Modelled on: ") : doc.index("Evidence: ")]
    assert policy.libraries
    for library in policy.libraries:
        assert library.split()[0] in modelled, library


@pytest.mark.parametrize("name", sorted(_POLICIES))
def test_a_policy_departs_from_the_reference_on_its_examples_defect_streams(name: str) -> None:
    policy = _POLICIES[name]
    for chunks in DEFECTS[name]:
        folded = policy.fold(copy.deepcopy(chunks))
        assert differences(fold(copy.deepcopy(chunks)), folded), (name, chunks)
        assert folded == _example(name).fold(copy.deepcopy(chunks))
    for chunks in NEUTRAL:
        assert policy.fold(copy.deepcopy(chunks)) == fold(copy.deepcopy(chunks))


@pytest.mark.parametrize("name", sorted(_POLICIES))
@_SETTINGS
@given(data=st.data())
def test_a_policy_folds_a_round_trip_as_its_example_does(name: str, data: st.DataObject) -> None:
    _, chunks = data.draw(round_trips())
    _agrees(_POLICIES[name], list(chunks))


@pytest.mark.parametrize("name", sorted(_POLICIES))
@_SETTINGS
@given(chunks=chunk_streams())
def test_a_policy_folds_a_damaged_stream_as_its_example_does(name: str, chunks: list[JSON]) -> None:
    _agrees(_POLICIES[name], chunks)


_PARTS: list[JSON] = [
    {"text": "a"},
    {"text": "b", "thoughtSignature": "S1"},
    {"text": "", "thoughtSignature": "S2"},
    {"text": ""},
    {"text": "t", "thought": True},
    {"text": "", "thought": True, "thoughtSignature": "S3"},
    {"text": "c", "thoughtSignature": " "},
    {"text": "d", "partMetadata": {"source": "x"}},
    {"functionCall": {"name": "f", "args": {"x": 1}}},
    {"functionCall": {"name": "g", "willContinue": True}},
    {"functionCall": {"partialArgs": [{"jsonPath": "$.x", "stringValue": "v"}]}},
    {"functionCall": {"willContinue": True, "partialArgs": []}},
    {"functionCall": {}},
    {"functionCall": None, "text": "q"},
    {"fileData": {"mimeType": "image/png", "fileUri": "gs://b/x.png"}},
    {"inlineData": {"mimeType": "image/png", "data": "iVBO"}},
    {"toolCall": {"id": "t1"}},
    {"text": None},
    None,
    "part",
]
_RATINGS: list[JSON] = [{"category": "HARM_A", "probability": "LOW"}, {"category": "HARM_B"}, None]


def _optional(**values: st.SearchStrategy[JSON]) -> st.SearchStrategy[dict[str, JSON]]:
    return st.fixed_dictionaries({}, optional=values)


_ENTRIES = st.one_of(
    st.builds(
        lambda keys, parts: {**keys, "content": {"role": "model", "parts": parts}},
        _optional(
            index=st.sampled_from([0, 1, 2, 1.0, -1, "1", None]),
            finishReason=st.sampled_from(["STOP", "SAFETY", "", " ", None]),
            safetyRatings=st.lists(st.sampled_from(_RATINGS), max_size=3),
            groundingMetadata=st.sampled_from([{"q": ["x"]}, {"q": None, "r": 1}, None, "x"]),
        ),
        st.lists(st.sampled_from(_PARTS), max_size=5),
    ),
    st.sampled_from([None, {}, {"index": 1, "finishReason": "STOP"}]),
)
_USAGE = st.dictionaries(
    st.sampled_from(["promptTokenCount", "thoughtsTokenCount", "totalTokenCount"]),
    st.sampled_from([0, 3, 7, 7.0, None, "9"]),
)
_DENSE_CHUNKS = st.builds(
    lambda keys, entries: {**keys, "candidates": entries},
    _optional(usageMetadata=_USAGE | st.none(), modelVersion=st.just("m")),
    st.lists(_ENTRIES, max_size=3),
)
_LAST_CHUNKS = st.lists(
    st.sampled_from([{"error": {"code": 500}}, {"usageMetadata": {"promptTokenCount": 1}}]),
    max_size=1,
)
_DENSE_STREAMS = st.builds(
    lambda *lists: [chunk for chunks in lists for chunk in chunks],
    st.lists(_DENSE_CHUNKS, min_size=1, max_size=8),
    _LAST_CHUNKS,
    st.lists(_DENSE_CHUNKS, max_size=1),
)
"""Streams of the few values above, maybe ended by an error or a usage-only chunk (and
one chunk after it)."""


@pytest.mark.parametrize("name", sorted(_POLICIES))
@_SETTINGS
@given(chunks=_DENSE_STREAMS)
def test_a_policy_folds_a_dense_stream_as_its_example_does(name: str, chunks: list[JSON]) -> None:
    _agrees(_POLICIES[name], chunks)


@pytest.mark.parametrize("name", sorted(_POLICIES))
@_SETTINGS
@given(chunks=st.lists(lifecycle_chunks(), min_size=1, max_size=6))
def test_a_policy_folds_lifecycle_chunks_as_its_example_does(name: str, chunks: list[JSON]) -> None:
    _agrees(_POLICIES[name], chunks)
