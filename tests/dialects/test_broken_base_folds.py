"""The broken examples are correct folds with one defect each: every `examples/broken/`
module subclasses the base fold of its dialect (`_chat_fold.py`, `_anthropic_fold.py`,
`_responses_fold.py`, `_gemini_fold.py`), and each base folds the streams drawn over its
features exactly like its reference, so the only departures of a broken example are in
the methods it overrides.

The suites hold the bases to every rule (the "reference and base fold pass" tests of
`tests/dialects/*/test_suite_catches_broken_*accumulators.py`); these draws are the fast check."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import refold.reference.anthropic as anthropic
import refold.reference.gemini as gemini
import refold.strategies.anthropic as anthropic_strategies
import refold.strategies.gemini as gemini_strategies
from refold.reference import JSON, JSONObject
from refold.reference.chat import differences, fold
from refold.strategies.chat import chunk_streams, round_trips
from refold.targets import load_target
from refold.targets.python import PythonTarget

_BROKEN = Path(__file__).resolve().parents[2] / "examples" / "broken"
_BASES = {
    "openai-chat": "_chat_fold",
    "anthropic-messages": "_anthropic_fold",
    "openai-responses": "_responses_fold",
    "gemini-generate-content": "_gemini_fold",
}


def _load(name: str) -> PythonTarget:
    target = load_target(str(_BROKEN / f"{name}.py"))
    assert isinstance(target, PythonTarget)
    return target


_CHAT = _load("_chat_fold")
_ANTHROPIC = _load("_anthropic_fold")


@pytest.mark.parametrize(
    "name", sorted(p.stem for p in _BROKEN.glob("*.py") if not p.stem.startswith("_"))
)
def test_every_broken_example_subclasses_the_base_fold_of_its_dialect(name: str) -> None:
    target = _load(name)
    assert target.factory is not None
    # the example imports the base as the module `_chat_fold`; the harness loaded the
    # file itself under another name, so the classes are compared by where they live
    bases = {(cls.__qualname__, cls.__module__) for cls in target.factory.__mro__}
    assert ("Accumulator", _BASES[target.dialect.name]) in bases, (
        f"{name}: {target.factory} does not subclass {_BASES[target.dialect.name]}.Accumulator"
    )


@given(
    st.one_of(
        chunk_streams(features=_CHAT.features),
        round_trips(features=_CHAT.features).map(lambda drawn: drawn[1]),
    )
)
def test_the_chat_base_folds_every_drawn_stream_like_the_reference(
    chunks: list[JSONObject],
) -> None:
    assert differences(fold(chunks), _CHAT.fold(chunks)) == []


@given(
    st.one_of(
        anthropic_strategies.event_streams(features=_ANTHROPIC.features),
        anthropic_strategies.round_trips(features=_ANTHROPIC.features).map(lambda drawn: drawn[1]),
    )
)
def test_the_anthropic_base_folds_every_drawn_stream_like_the_reference(
    events: list[JSONObject],
) -> None:
    assert anthropic.differences(anthropic.fold(events), _ANTHROPIC.fold(events)) == []


@given(
    anthropic_strategies.round_trips().flatmap(
        lambda drawn: anthropic_strategies.sse_bytes(drawn[1], wrong_names=True)
    )
)
def test_the_anthropic_base_decodes_sse_bytes_like_the_reference(parts: list[bytes]) -> None:
    assert _ANTHROPIC.sse is not None
    assert _ANTHROPIC.sse(parts) == anthropic.decode_stream(parts)


_GEMINI = _load("_gemini_fold")


def _gemini_steps(accumulator: Any, chunks: list[JSON]) -> list[tuple[object, ...]]:
    """After each chunk: whether it was refused, the response (or that reading raised),
    whether the fold finished, and its error."""
    steps: list[tuple[object, ...]] = []
    for chunk in copy.deepcopy(chunks):
        try:
            accumulator.add(chunk)
            refused = False
        except TypeError:
            refused = True
        try:
            response: object = accumulator.response()
        except LookupError:
            response = LookupError
        finished, error = accumulator.finished, accumulator.error
        steps.append((refused, response, finished, error))
    return steps


@given(
    st.one_of(
        gemini_strategies.chunk_streams(features=_GEMINI.features),
        gemini_strategies.round_trips(features=_GEMINI.features).map(lambda drawn: drawn[1]),
        st.lists(gemini_strategies.lifecycle_chunks(features=_GEMINI.features), max_size=6),
    )
)
def test_the_gemini_base_folds_every_drawn_stream_like_the_reference_after_every_chunk(
    chunks: list[JSON],
) -> None:
    expected = _gemini_steps(gemini.Accumulator(), chunks)
    found = _gemini_steps(_GEMINI.factory(), chunks)
    for (refused, response, finished, error), step in zip(expected, found, strict=True):
        assert step[0] == refused and step[2:] == (finished, error)
        if isinstance(response, dict) and isinstance(step[1], dict):
            assert gemini.differences(response, step[1]) == []
        else:
            assert step[1] == response
