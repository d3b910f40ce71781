"""The strategies themselves: lossless, schema-valid, covering every family, shrinking small."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from jsonschema import Draft202012Validator

from refold.reference import JSONObject
from refold.reference.chat import FEATURES, differences, fold
from refold.strategies.chat import (
    SPLIT_FAMILIES,
    chunk_schema,
    chunk_splits,
    chunk_streams,
    completion_schema,
    completions,
    families_for,
    round_trips,
)

_CHUNK = Draft202012Validator(chunk_schema())
_COMPLETION = Draft202012Validator(completion_schema())
_FIND = settings(
    max_examples=2000, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
_EXISTS = settings(_FIND, phases=[Phase.generate])  # found is enough: no shrinking
_TOOLS = frozenset({"text", "tool_calls", "tool_call_repair", "empty_arguments"})
_any_features = st.sets(st.sampled_from(FEATURES)).map(lambda f: frozenset(f | {"text"}))
_any_families = st.sets(st.sampled_from(sorted(SPLIT_FAMILIES)), min_size=1)


def _schema_errors(validator: Draft202012Validator, value: JSONObject) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(value)]


def test_the_schemas_are_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(chunk_schema())
    Draft202012Validator.check_schema(completion_schema())


@given(data=st.data())
@settings(deadline=None)  # drawing a whole stream can outlast 200 ms on a loaded machine
def test_every_split_folds_back_to_its_completion_on_the_reference(data: st.DataObject) -> None:
    features, families = data.draw(_any_features), data.draw(_any_families)
    completion, chunks = data.draw(round_trips(features=features, families=families))
    assert differences(completion, fold(chunks)) == []


@given(data=st.data())
@settings(deadline=None)  # drawing a whole stream can outlast 200 ms on a loaded machine
def test_every_drawn_completion_and_chunk_validates_against_the_schemas(
    data: st.DataObject,
) -> None:
    completion, chunks = data.draw(round_trips())
    assert _schema_errors(_COMPLETION, completion) == []
    for number, chunk in enumerate(chunks):
        assert _schema_errors(_CHUNK, chunk) == [], f"chunk {number}: {json.dumps(chunk)}"


@given(data=st.data())
@settings(deadline=None)  # drawing a whole stream can outlast 200 ms on a loaded machine
def test_completions_use_only_the_features_asked_for(data: st.DataObject) -> None:
    completion = data.draw(completions(features={"text"}))
    assert len(completion["choices"]) == 1
    message = completion["choices"][0]["message"]
    assert set(message) <= {"role", "content"}
    assert completion["choices"][0]["logprobs"] is None
    assert "usage" not in completion and "provider" not in completion


def _calls(chunks: list[JSONObject]) -> list[JSONObject]:
    return [
        fragment
        for chunk in chunks
        for entry in chunk["choices"]
        if isinstance(entry, dict) and isinstance(entry.get("delta"), dict)
        for fragment in entry["delta"].get("tool_calls") or []
        if isinstance(fragment, dict)
    ]


def _shares_an_index(chunks: list[JSONObject]) -> bool:
    ids_by_index: dict[int, set[str]] = {}
    for fragment in _calls(chunks):
        if "index" in fragment and fragment.get("id"):
            ids_by_index.setdefault(fragment["index"], set()).add(fragment["id"])
    return any(len(ids) > 1 for ids in ids_by_index.values())


def _late_id(chunks: list[JSONObject]) -> bool:
    seen: set[int] = set()
    for fragment in _calls(chunks):
        index = fragment.get("index")
        if index not in seen and not fragment.get("id"):
            return True
        seen.add(index)
    return False


def _resent(chunks: list[JSONObject]) -> bool:
    arguments = [f.get("function", {}).get("arguments") for f in _calls(chunks)]
    return any(a and a.strip().startswith("{") and arguments.count(a) > 1 for a in arguments)


def _role_repeated(chunks: list[JSONObject]) -> bool:
    roles = [
        entry.get("index")
        for chunk in chunks
        for entry in chunk["choices"]
        if isinstance(entry, dict)
        and isinstance(entry.get("delta"), dict)
        and entry["delta"].get("role")
    ]
    return len(roles) > len(set(roles))


def _call_without_arguments(chunks: list[JSONObject]) -> bool:
    characters: dict[int, str] = {}
    for fragment in _calls(chunks):
        arguments = fragment.get("function", {}).get("arguments") or ""
        characters[fragment["index"]] = characters.get(fragment["index"], "") + arguments
    return "" in characters.values()


_FAMILY_SHAPES = {
    2: _role_repeated,
    3: _shares_an_index,
    4: lambda chunks: any("index" not in f for f in _calls(chunks)),
    5: _late_id,
    6: _resent,
    7: _call_without_arguments,
    8: lambda chunks: any(chunk.get("choices") == [] for chunk in chunks[:-1]),
}


@pytest.mark.parametrize("family", sorted(_FAMILY_SHAPES))
def test_each_family_is_actually_produced(family: int) -> None:
    features = _TOOLS if family in range(3, 8) else frozenset({"text", "choices"})
    found = find(
        round_trips(features=features, families={1, family}),
        lambda case: _FAMILY_SHAPES[family](case[1]),
        settings=_EXISTS,
    )
    assert differences(found[0], fold(found[1])) == []


def test_a_failure_shrinks_to_a_single_small_chunk() -> None:
    completion, chunks = find(
        round_trips(features={"text"}),
        lambda case: case[0]["choices"][0]["message"]["content"] is not None,
        settings=_FIND,
    )
    assert len(chunks) == 1
    assert completion["choices"][0]["message"]["content"] == "0"


def test_a_two_piece_content_shrinks_to_two_one_character_chunks() -> None:
    _, chunks = find(
        round_trips(features={"text"}, families={1}),
        lambda case: (
            sum(bool(e["delta"].get("content")) for c in case[1] for e in c["choices"]) >= 2
        ),
        settings=_FIND,
    )
    assert [e["delta"].get("content") for c in chunks for e in c["choices"]] == ["0", "0"]


def test_a_call_split_inside_an_escape_sequence_is_found() -> None:
    def cut_inside_escape(case: tuple[JSONObject, list[JSONObject]]) -> bool:
        pieces = [f.get("function", {}).get("arguments") or "" for f in _calls(case[1])]
        return any(piece.endswith("\\") for piece in pieces)

    completion, chunks = find(
        round_trips(features={"text", "tool_calls"}, families={1}),
        cut_inside_escape,
        settings=_EXISTS,
    )
    assert differences(completion, fold(chunks)) == []


@given(data=st.data())
@settings(deadline=None)  # drawing a whole stream can outlast 200 ms on a loaded machine
def test_chunk_streams_are_objects_the_reference_folds(data: st.DataObject) -> None:
    chunks = data.draw(chunk_streams(features=data.draw(_any_features)))
    assert chunks and all(isinstance(chunk, dict) for chunk in chunks)
    fold(chunks)


@pytest.mark.parametrize("features", [{"robustness"}, {"text", "telepathy"}])
def test_completions_refuse_features_outside_the_vocabulary_or_without_text(
    features: set[str],
) -> None:
    with pytest.raises(InvalidArgument, match="features="):
        find(completions(features=features), lambda _: True)


def test_chunk_splits_refuses_unknown_families() -> None:
    completion = {"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": []}
    with pytest.raises(InvalidArgument, match="families="):
        find(chunk_splits(completion, families={9}), lambda _: True)


def test_families_follow_the_claimed_features() -> None:
    assert families_for({"text"}) == {1, 2, 5}
    assert families_for(FEATURES) == SPLIT_FAMILIES
