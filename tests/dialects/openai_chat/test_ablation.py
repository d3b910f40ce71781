"""Departures from the plain shape: each is found where it is present, undone into a stream
the reference folds identically, not found again once undone, and never trusted on a
stream where its undoing would change the fold."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refold.dialects.openai_chat.ablation import DEPARTURES, UNDOING, applicable_undos
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
    "TOOL-5-APPEND": [
        _chunk(_entry(tool_calls=[_call(0, "call_a", "f", "{}")])),
        _chunk(_entry(0, "tool_calls", tool_calls=[{"index": 0}])),
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
    "RD-AS-SENT": [
        _chunk(
            _entry(
                0,
                "stop",
                reasoning_details=[
                    {"type": "reasoning.text", "text": "a", "index": 0},
                    {"type": "reasoning.encrypted", "data": "e"},
                ],
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

_GIVEN_INDEXES: dict[str, list[str]] = {
    "RD-INDEXLESS": ["/choices/0/message/reasoning_details/0/index"],
    "RD-AS-SENT": ["/choices/0/message/reasoning_details/1/index"],
}
"""Where undoing an example's departure changes the fold: the index it gives a reasoning
segment that arrived without one (every other undo folds identically)."""


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
    changed = [d.pointer for d in differences(fold(stream), fold(undone))]
    assert changed == _GIVEN_INDEXES.get(rule_id, [])
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
        changed = [d.pointer for d in differences(expected, fold(undone))]
        assert all(rule_id in UNDOING.rules_at(p) for p in changed), (rule_id, changed)
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


def test_a_choice_entry_without_an_index_is_undone_into_choice_0() -> None:
    stream: list[JSON] = [
        _chunk({"delta": {"content": "a"}}),
        _chunk({"index": 0, "delta": {}, "finish_reason": "stop"}),
    ]
    undone = dict(applicable_undos(stream))["CHOICE-KEY"]
    assert [e["index"] for chunk in undone for e in chunk["choices"]] == [0, 0]
    assert not differences(fold(stream), fold(undone))


def test_sparse_choice_indexes_are_undone_dense_changing_only_the_choice_indexes() -> None:
    stream = [
        _chunk(_entry(2, content="x")),
        _chunk(_entry(5, "stop", content="y"), _entry(2, "stop")),
    ]
    undone = dict(applicable_undos(stream))["CHOICE-KEY"]
    assert [e["index"] for chunk in undone for e in chunk["choices"]] == [0, 1, 0]
    assert [d.pointer for d in differences(fold(stream), fold(undone))] == [
        "/choices/0/index",
        "/choices/1/index",
    ]


def test_choice_indexes_are_not_renumbered_before_every_choice_finished() -> None:
    # the prefix a crash on choice 1 arriving first is located in: choice 0 may follow,
    # and a choice arriving before a lower one is CHOICE-ORDER's departure
    prefix = [_chunk(_entry(1, content="B")), _chunk(_entry(1, "stop"))]
    assert "CHOICE-KEY" in dict(applicable_undos(prefix))
    assert "CHOICE-KEY" not in dict(applicable_undos(prefix[:1]))


def test_a_chunk_without_choices_is_undone_into_one_with_empty_choices() -> None:
    stream: list[JSON] = [_chunk(_entry(content="a")), {"created": 0}, _chunk(_entry(0, "stop"))]
    undone = dict(applicable_undos(stream))["ROB-WRONG-TYPE"]
    assert undone[1] == {"created": 0, "choices": []}


def test_an_index_less_reasoning_segment_gets_an_index_above_every_one_of_its_choice() -> None:
    stream = [
        _chunk(_entry(reasoning_details=[{"type": "reasoning.text", "text": "a", "index": 3}])),
        _chunk(_entry(reasoning_details=[{"type": "reasoning.text", "text": "b"}])),
        _chunk(_entry(reasoning_details=[{"type": "reasoning.text", "text": "c"}])),
        _chunk(_entry(reasoning_details=[{"type": "reasoning.encrypted", "data": "e"}])),
        _chunk(_entry(0, "stop")),
    ]
    found = dict(applicable_undos(stream))
    joined = found["RD-INDEXLESS"][1]["choices"][0]["delta"]["reasoning_details"]
    assert joined == [{"type": "reasoning.text", "text": "bc", "index": 4}]
    encrypted = found["RD-AS-SENT"][3]["choices"][0]["delta"]["reasoning_details"]
    assert encrypted == [{"type": "reasoning.encrypted", "data": "e", "index": 4}]


@pytest.mark.parametrize(
    ("pointer", "rules"),
    [
        ("/choices/1/index", {"CHOICE-KEY"}),
        ("/choices/0/message/tool_calls/1/type", {"TOOL-TYPE"}),
        ("/choices/0/message/reasoning_details/2/index", {"RD-INDEXLESS", "RD-AS-SENT"}),
        ("/choices/0/message/reasoning_details/2/text", set()),
        ("/choices/0/message/tool_calls/0/index", set()),
        ("/choices/0/message/content", set()),
        ("/id", set()),
    ],
)
def test_an_undo_may_change_the_fold_only_at_the_index_its_rule_gives(
    pointer: str, rules: set[str]
) -> None:
    assert UNDOING.rules_at(pointer) == rules


def test_putting_choices_in_order_never_drops_a_null_entry_too() -> None:
    # it rebuilt the chunks from their object entries, so a crash on a null entry went
    # away when the choices were put in order, and CHOICE-ORDER was charged with it
    stream = [_chunk(_entry(1, content="B")), _chunk(None, _entry(0, content="A"))]
    assert "CHOICE-ORDER" not in dict(applicable_undos(stream))
    assert "CHOICE-ORDER" in dict(applicable_undos(dict(DEPARTURES)["ROB-NULL-ENTRIES"](stream)))


def test_a_call_of_another_type_is_undone_into_a_function_call_changing_only_its_type() -> None:
    stream = [
        _chunk(_entry(tool_calls=[_call(0, "call_a", "f", "{", type="custom")])),
        _chunk(_entry(0, "tool_calls", tool_calls=[_call(0, arguments="}")])),
    ]
    undone = dict(applicable_undos(stream))["TOOL-TYPE"]
    assert undone[0]["choices"][0]["delta"]["tool_calls"][0]["type"] == "function"
    assert [d.pointer for d in differences(fold(stream), fold(undone))] == [
        "/choices/0/message/tool_calls/0/type"
    ]
