"""Metamorphic: changes to a stream that the rules say cannot matter never change the fold.

Each test draws a lossless stream, changes it, and checks that the target folds the
changed stream exactly as it folds the original: inserting noise, re-splitting a
fragment, repeating identity fields, moving usage and provider fields. The relation
holds between two folds of the target, so it singles out the change even when the
target's fold of the original is itself wrong.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator

from hypothesis import event, given, note
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.run.checks import Check
from refold.run.marks import rule
from refold.strategies import argument_texts, texts
from refold.strategies.chat import chunk_splits, completions, families_for

_TEXT_FEATURES = frozenset({"text", "choices"})
_TOOL_FEATURES = frozenset({"text", "choices", "tool_calls", "tool_call_repair", "empty_arguments"})
_USAGE_FEATURES = frozenset({"text", "choices", "usage"})
_PROVIDER_FEATURES = frozenset({"text", "choices", "provider_fields"})
"""What each relation's completions are drawn with (when claimed): the fields the
change touches, so the examples go there."""

_USAGE: JSONObject = {"prompt_tokens": 3, "completion_tokens": 5, "total_tokens": 8}
_PROVIDER: JSONObject = {
    "provider": "OpenAI",
    "system_fingerprint": "fp_1",
    "service_tier": "default",
}


def _assert_same_fold(check: Check, original: list[JSONObject], changed: list[JSONObject]) -> None:
    __tracebackhide__ = True
    note(f"original stream: {json.dumps(original, ensure_ascii=False)}")
    check.folds_to(changed, check.fold(original))


def _noise_chunks(indexes: list[int]) -> st.SearchStrategy[JSONObject]:
    index = st.sampled_from(indexes)
    return st.one_of(
        st.just({"choices": []}),
        st.just({"choices": [None]}),
        st.just({"choices": [], "obfuscation": "q8", "prompt_filter_results": []}),
        index.map(lambda i: {"choices": [{"index": i, "delta": {}}]}),
        index.map(lambda i: {"choices": [{"index": i, "delta": None, "finish_reason": ""}]}),
        index.map(
            lambda i: {
                "choices": [{"index": i, "delta": {"tool_calls": [None]}, "stop_reason": None}]
            }
        ),
    )


@rule("ROB-NULL-ENTRIES", "ROB-UNKNOWN-KEYS", "CHOICE-DELTA-NULL")
@given(data=st.data())
def test_inserting_noise_chunks_never_changes_the_fold(check: Check, data: st.DataObject) -> None:
    claimed = check.target.features
    completion = data.draw(completions(features=claimed), label="completion")
    chunks = data.draw(chunk_splits(completion, families=families_for(claimed)), label="chunks")
    indexes = [choice["index"] for choice in completion["choices"]]
    changed = list(chunks)
    for chunk in data.draw(st.lists(_noise_chunks(indexes), min_size=1, max_size=3)):
        changed.insert(data.draw(st.integers(0, len(changed))), copy.deepcopy(chunk))
    _assert_same_fold(check, chunks, changed)


def _content_places(chunks: list[JSONObject]) -> Iterator[tuple[list[JSON], int]]:
    for chunk in chunks:
        for position, entry in enumerate(chunk["choices"]):
            delta = entry.get("delta") if isinstance(entry, dict) else None
            if isinstance(delta, dict) and isinstance(delta.get("content"), str):
                yield chunk["choices"], position


@rule("TEXT-JOIN")
@given(data=st.data())
def test_re_splitting_a_content_fragment_never_changes_the_fold(
    check: Check, data: st.DataObject
) -> None:
    claimed = check.target.features
    completion = data.draw(completions(features=claimed & _TEXT_FEATURES), label="completion")
    completion["choices"][0]["message"]["content"] = data.draw(texts(min_size=1))
    chunks = data.draw(chunk_splits(completion, families=families_for(claimed)), label="chunks")
    changed = copy.deepcopy(chunks)
    places = list(_content_places(changed))
    entries, position = places[data.draw(st.integers(0, len(places) - 1))]
    entry = entries[position]
    text = entry["delta"]["content"]
    cut = data.draw(st.integers(0, len(text)))
    entry["delta"]["content"] = text[:cut]
    suffix = {key: entry[key] for key in ("index",) if key in entry}
    entries.insert(position + 1, {**suffix, "delta": {"content": text[cut:]}})
    _assert_same_fold(check, chunks, changed)


def _argument_places(chunks: list[JSONObject]) -> Iterator[tuple[list[JSON], int]]:
    for chunk in chunks:
        for entry in chunk["choices"]:
            delta = entry.get("delta") if isinstance(entry, dict) else None
            calls = delta.get("tool_calls") if isinstance(delta, dict) else None
            for position, fragment in enumerate(calls if isinstance(calls, list) else []):
                function = fragment.get("function") if isinstance(fragment, dict) else None
                if isinstance(function, dict) and isinstance(function.get("arguments"), str):
                    yield calls, position  # type: ignore[misc]


@rule("TOOL-5-APPEND", "TOOL-RAW")
@given(data=st.data())
def test_re_splitting_an_arguments_fragment_never_changes_the_fold(
    check: Check, data: st.DataObject
) -> None:
    claimed = check.target.features
    completion = data.draw(completions(features=claimed & _TOOL_FEATURES), label="completion")
    calls = completion["choices"][0]["message"].setdefault("tool_calls", [])
    calls.append(
        {
            "id": "call_resplit",
            "type": "function",
            "function": {"name": "f", "arguments": data.draw(argument_texts())},
        }
    )
    # A re-send (family 6) is one fragment by definition: cut, it would be appended.
    # Family 7 may stream a "{}" call with no arguments at all, leaving nothing to cut.
    families = families_for(claimed) - {6, 7}
    chunks = data.draw(chunk_splits(completion, families=families), label="chunks")
    changed = copy.deepcopy(chunks)
    places = list(_argument_places(changed))
    fragments, position = places[data.draw(st.integers(0, len(places) - 1))]
    fragment = fragments[position]
    text = fragment["function"]["arguments"]
    cut = data.draw(st.integers(0, len(text)))
    fragment["function"]["arguments"] = text[:cut]
    suffix = {key: fragment[key] for key in ("index",) if key in fragment}
    fragments.insert(position + 1, {**suffix, "function": {"arguments": text[cut:]}})
    event(f"re-split: cut inside an escape: {text[max(cut - 1, 0) : cut] == chr(92)}")
    _assert_same_fold(check, chunks, changed)


def _deltas(chunks: list[JSONObject]) -> Iterator[JSONObject]:
    for chunk in chunks:
        for entry in chunk["choices"]:
            if isinstance(entry, dict) and isinstance(entry.get("delta"), dict):
                yield entry["delta"]


@rule("CHOICE-ROLE")
@given(data=st.data())
def test_repeating_the_role_on_every_delta_never_changes_the_fold(
    check: Check, data: st.DataObject
) -> None:
    claimed = check.target.features
    completion = data.draw(completions(features=claimed & _TOOL_FEATURES), label="completion")
    chunks = data.draw(chunk_splits(completion, families=families_for(claimed)), label="chunks")
    changed = copy.deepcopy(chunks)
    for delta in _deltas(changed):
        delta.setdefault("role", "assistant")
    _assert_same_fold(check, chunks, changed)


@rule("TOOL-TYPE")
@given(data=st.data())
def test_repeating_the_type_on_every_tool_fragment_never_changes_the_fold(
    check: Check, data: st.DataObject
) -> None:
    claimed = check.target.features
    completion = data.draw(completions(features=claimed & _TOOL_FEATURES), label="completion")
    chunks = data.draw(chunk_splits(completion, families=families_for(claimed)), label="chunks")
    changed = copy.deepcopy(chunks)
    for delta in _deltas(changed):
        for fragment in delta.get("tool_calls") or []:
            if isinstance(fragment, dict):
                fragment.setdefault("type", "function")
    _assert_same_fold(check, chunks, changed)


def _without(chunks: list[JSONObject], keys: tuple[str, ...]) -> list[JSONObject]:
    return [
        {key: copy.deepcopy(value) for key, value in chunk.items() if key not in keys}
        for chunk in chunks
    ]


@rule("USAGE-LAST")
@given(data=st.data())
def test_moving_the_usage_to_any_chunk_never_changes_the_fold(
    check: Check, data: st.DataObject
) -> None:
    claimed = check.target.features
    completion = data.draw(completions(features=claimed & _USAGE_FEATURES), label="completion")
    completion.setdefault("usage", _USAGE)
    # Without noise: noise puts an earlier usage first, which the move could overtake.
    families = families_for(claimed) - {8}
    chunks = data.draw(chunk_splits(completion, families=families), label="chunks")
    changed = _without(chunks, ("usage",))
    last = data.draw(st.integers(0, len(changed)))
    if last == len(changed):
        changed.append({"choices": [], "usage": completion["usage"]})  # OpenAI's usage chunk
    else:
        changed[last]["usage"] = completion["usage"]
    for number in data.draw(st.sets(st.integers(0, len(changed) - 1))):
        # USAGE-LAST: an earlier copy is reported once, a later null never clears it
        changed[number].setdefault("usage", completion["usage"] if number < last else None)
    _assert_same_fold(check, chunks, changed)


@rule("PROV-LAST")
@given(data=st.data())
def test_moving_provider_fields_to_any_chunks_never_changes_the_fold(
    check: Check, data: st.DataObject
) -> None:
    claimed = check.target.features
    completion = data.draw(completions(features=claimed & _PROVIDER_FEATURES), label="completion")
    for key, value in _PROVIDER.items():
        completion.setdefault(key, value)
    families = families_for(claimed) - {8}
    chunks = data.draw(chunk_splits(completion, families=families), label="chunks")
    changed = _without(chunks, tuple(_PROVIDER))
    positions = st.integers(0, len(changed) - 1)
    for key in _PROVIDER:
        for number in data.draw(st.sets(positions, min_size=1)):
            changed[number][key] = completion[key]
        for number in data.draw(st.sets(positions)):
            changed[number].setdefault(key, data.draw(st.sampled_from(["", None, " "])))
    _assert_same_fold(check, chunks, changed)
