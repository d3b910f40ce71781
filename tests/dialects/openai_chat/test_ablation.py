"""Departures from the plain shape: each is found where it is present, undone into a stream
the reference folds identically, not found again once undone, and never trusted on a
stream where its undoing would change the fold."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refold.dialects.openai_chat.ablation import DEPARTURES, applicable_undos
from refold.reference import JSON
from refold.reference.chat import RULES, differences, fold
from refold.strategies.chat import round_trips
from refold.suites._json_values import json_objects

_ENVELOPE = {
    "id": "chatcmpl-x",
    "object": "chat.completion.chunk",
    "created": 1700000000,
    "model": "m",
}


def _chunk(*entries: Any, **fields: Any) -> dict[str, Any]:
    return {**_ENVELOPE, "choices": list(entries), **fields}


def _entry(index: int = 0, finish_reason: str | None = None, **delta: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"index": index, "delta": delta}
    if finish_reason is not None:
        entry["finish_reason"] = finish_reason
    return entry


def _call(
    index: Any = None, id: Any = None, name: Any = None, arguments: str = "", **extra: Any
) -> dict[str, Any]:
    fragment: dict[str, Any] = {} if index is None else {"index": index}
    if id is not None:
        fragment["id"] = id
    function: dict[str, Any] = {"arguments": arguments}
    if name is not None:
        function["name"] = name
    return {**fragment, **extra, "function": function}


_PLAIN: list[JSON] = [
    _chunk(_entry(role="assistant", content="")),
    _chunk(_entry(content="Hi"), _entry(1, role="assistant", content="Yo")),
    _chunk(_entry(tool_calls=[_call(0, "call_a", "f", "{", type="function")])),
    _chunk(_entry(tool_calls=[_call(0, arguments="}")]), _entry(1, "stop")),
    _chunk(_entry(tool_calls=[_call(1, "call_b", "g", "{}", type="function")])),
    _chunk(_entry(0, "tool_calls")),
    _chunk(
        usage={"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3},
        system_fingerprint="fp",
    ),
]
"""OpenAI's own shape: one role, dense tool indexes from 0, choices in index order."""

_EXAMPLES: dict[str, list[JSON]] = {
    "ROB-NULL-ENTRIES": [
        _chunk(None, _entry(content="a", tool_calls=[None, "x"]), 7),
        _chunk(_entry(0, "stop", annotations=[None])),
    ],
    "CHOICE-DELTA-NULL": [
        _chunk(_entry(content="a")),
        _chunk({"index": 0, "delta": None, "finish_reason": "stop"}),
    ],
    "ROB-WRONG-TYPE": [
        _chunk(_entry(content="a", role=7)),
        _chunk({"index": "0", "delta": {"tool_calls": {}}, "finish_reason": 1}),
    ],
    "LP-SKIP": [
        _chunk({**_entry(content="a"), "logprobs": "x"}),
        _chunk({**_entry(0, "stop"), "logprobs": {"content": 1, "refusal": None}}),
    ],
    "ROB-BLANK": [
        {**_chunk(_entry(role="", content="a")), "id": " "},
        _chunk(_entry(0, "", tool_calls=[_call(0, "", "f", "{}", type="")])),
        _chunk(_entry(0, "stop")),
    ],
    "ROB-UNKNOWN-KEYS": [
        {**_chunk({**_entry(content="a", extra_content={}), "token_ids": [1]}), "obfuscation": "x"},
        _chunk(_entry(0, "stop")),
    ],
    "TOOL-INDEX": [
        _chunk(_entry(tool_calls=[_call(3, "call_a", "f", "{}")])),
        _chunk(_entry(tool_calls=[_call(1, "call_b", "g", "{}")])),
        _chunk(_entry(0, "tool_calls")),
    ],
    "TOOL-NO-INDEX": [
        _chunk(_entry(tool_calls=[_call(None, "call_a", "f", "{")])),
        _chunk(_entry(tool_calls=[_call(None, arguments="}")])),
        _chunk(_entry(0, "tool_calls")),
    ],
    "TOOL-2-NEW-ID": [
        _chunk(_entry(tool_calls=[_call(0, "call_a", "f", "{}")])),
        _chunk(_entry(tool_calls=[_call(0, "call_b", "g", "{}")])),
        _chunk(_entry(tool_calls=[_call(1, "call_c", "h", "{}")])),
    ],
    "TOOL-NAME": [
        _chunk(_entry(tool_calls=[_call(0, "call_a", "f", "{")])),
        _chunk(_entry(tool_calls=[_call(0, None, "renamed", "}")])),
    ],
    "TOOL-TYPE": [
        _chunk(_entry(tool_calls=[_call(0, "call_a", "f", "{", type="function")])),
        _chunk(_entry(tool_calls=[_call(0, None, None, "}", type="function")])),
    ],
    "TOOL-ADOPT-ID": [
        _chunk(_entry(tool_calls=[_call(0, "call_a", "f", "{")])),
        _chunk(_entry(tool_calls=[_call(0, "call_a", None, "}")])),
    ],
    "RD-INDEXLESS": [
        _chunk(_entry(reasoning_details=[{"type": "reasoning.text", "text": "a"}])),
        _chunk(
            _entry(
                0,
                "stop",
                reasoning_details=[{"type": "reasoning.text", "text": "b", "signature": "s"}],
            )
        ),
    ],
    "CHOICE-ROLE": [
        _chunk(_entry(role="assistant", content="a")),
        _chunk(_entry(role="assistant", content="b")),
    ],
    "CHOICE-KEY": [_chunk(_entry(content="a"), _entry(content="b"), _entry(0, "stop"))],
    "CHOICE-ORDER": [
        _chunk(_entry(1, content="B")),
        _chunk(_entry(0, content="A")),
        _chunk(_entry(1, "stop"), _entry(0, "stop")),
    ],
    "ENV-ID": [_chunk(_entry(content="a")), {**_chunk(_entry(0, "stop")), "id": "later"}],
    "ENV-MODEL": [_chunk(_entry(content="a")), {**_chunk(_entry(0, "stop")), "model": "n"}],
    "ENV-CREATED": [_chunk(_entry(content="a")), {**_chunk(_entry(0, "stop")), "created": 1}],
    "PROV-LAST": [
        _chunk(_entry(content="a"), provider="Early"),
        _chunk(_entry(0, "stop"), provider="Late"),
    ],
    "USAGE-LAST": [
        _chunk(_entry(content="a"), usage={"prompt_tokens": 1}),
        _chunk(_entry(0, "stop"), usage=None),
        _chunk(usage={"prompt_tokens": 2}),
    ],
    "CHOICE-FINISH": [_chunk(_entry(0, "length", content="a")), _chunk(_entry(0, "stop"))],
}
"""One stream per departure, holding that departure and no other."""


def test_every_departure_is_named_after_a_rule_of_the_spec_and_has_an_example() -> None:
    names = [rule_id for rule_id, _ in DEPARTURES]
    assert set(names) <= RULES.keys() and len(set(names)) == len(names)
    assert set(_EXAMPLES) == set(names)


def test_the_plain_shape_has_no_departure_to_undo() -> None:
    assert applicable_undos(_PLAIN) == []


@pytest.mark.parametrize("rule_id", list(_EXAMPLES))
def test_a_departure_is_found_alone_and_undone_into_a_stream_the_reference_folds_identically(
    rule_id: str,
) -> None:
    stream = _EXAMPLES[rule_id]
    found = dict(applicable_undos(stream))
    assert list(found) == [rule_id]
    undone = found[rule_id]
    assert not differences(fold(stream), fold(undone))
    assert rule_id not in dict(applicable_undos(undone))


@pytest.mark.parametrize("rule_id", list(_EXAMPLES))
def test_undoing_a_departure_never_mutates_the_stream(rule_id: str) -> None:
    stream = _EXAMPLES[rule_id]
    before = repr(stream)
    for _, undo in DEPARTURES:
        undo(stream)
    assert repr(stream) == before


def test_an_undo_that_would_change_the_fold_on_this_stream_is_not_trusted() -> None:
    # Choice 1 arrives first on a chunk with another id: putting choice 0 first would
    # change the response's id (ENV-ID takes the first), so the reordering is refused.
    stream = [
        {**_chunk(_entry(1, content="B")), "id": "first"},
        _chunk(_entry(0, content="A")),
        _chunk(_entry(0, "stop"), _entry(1, "stop")),
    ]
    undone = dict(DEPARTURES)["CHOICE-ORDER"](stream)
    assert undone != stream and differences(fold(stream), fold(undone))
    assert "CHOICE-ORDER" not in dict(applicable_undos(stream))


@settings(max_examples=60)
@given(case=round_trips())
def test_every_trusted_undo_of_a_drawn_stream_folds_as_the_stream_does(
    case: tuple[Any, list[JSON]],
) -> None:
    _, chunks = case
    expected = fold(chunks)
    for rule_id, undone in applicable_undos(chunks):
        assert not differences(expected, fold(undone)), rule_id
        assert undone != chunks


@given(chunks=st.lists(json_objects(), max_size=3))
def test_looking_for_departures_never_raises_on_any_json_objects(chunks: list[JSON]) -> None:
    for _, undone in applicable_undos(chunks):
        assert isinstance(undone, list)


def test_tool_index_is_undone_into_dense_indexes_arriving_in_index_order() -> None:
    undone = dict(applicable_undos(_EXAMPLES["TOOL-INDEX"]))["TOOL-INDEX"]
    arrived = [
        f["index"]
        for chunk in undone
        for e in chunk["choices"]
        for f in e["delta"].get("tool_calls", [])
    ]
    assert arrived == [0, 1]
    assert [c["id"] for c in fold(undone)["choices"][0]["message"]["tool_calls"]] == [
        "call_b",
        "call_a",
    ]
