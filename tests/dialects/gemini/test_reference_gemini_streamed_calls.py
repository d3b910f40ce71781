"""Vertex's streamed function-call arguments (`partialArgs`, `willContinue`) fold into one call.

Worked examples from the spec's GM-CALL-STREAMED and GM-CALL-PARTIAL-ARGS, the first one
the captured protocol of research R6.
"""

from __future__ import annotations

from typing import Any

import pytest
from _gemini_streams import chunk, parts_of

from refold.reference.gemini import Accumulator, parse_path

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_a_streamed_call_folds_into_one_call_with_built_args": (
        "GM-CALL-STREAMED",
        "GM-CALL-PARTIAL-ARGS",
    ),
    "test_a_call_may_end_with_a_last_piece_without_will_continue": (
        "GM-CALL-STREAMED",
        "GM-CALL-PARTIAL-ARGS",
    ),
    "test_keep_alive_fragments_change_nothing": ("GM-CALL-STREAMED",),
    "test_a_named_call_ends_the_open_one": ("GM-CALL-STREAMED", "GM-CALL-WHOLE"),
    "test_a_nameless_call_when_none_is_open_is_kept_whole": ("GM-CALL-WHOLE",),
    "test_other_parts_between_fragments_come_after_the_call": (
        "GM-CALL-STREAMED",
        "GM-TEXT-JOIN",
    ),
    "test_fragment_keys_and_signatures_are_kept_on_the_call": (
        "GM-CALL-STREAMED",
        "GM-CALL-ID",
        "GM-SIGNATURE",
    ),
    "test_typed_values_and_nested_paths_build_the_args": ("GM-CALL-PARTIAL-ARGS",),
    "test_continued_strings_join_only_on_the_same_path": ("GM-CALL-PARTIAL-ARGS",),
    "test_without_pieces_the_sent_args_stand": ("GM-CALL-PARTIAL-ARGS",),
    "test_pieces_without_a_path_or_a_value_set_nothing": (
        "GM-CALL-PARTIAL-ARGS",
        "GM-ROB-WRONG-TYPE",
        "GM-ROB-NULL-ENTRIES",
    ),
    "test_a_piece_through_a_value_of_another_type_is_ignored": (
        "GM-CALL-PARTIAL-ARGS",
        "GM-ROB-WRONG-TYPE",
    ),
    "test_json_paths_are_read_as_rfc_9535_segments": ("GM-CALL-PARTIAL-ARGS",),
    "test_the_fold_tells_which_streamed_call_is_still_open": ("GM-CALL-STREAMED",),
}


def call(**fields: Any) -> dict[str, Any]:
    return {"functionCall": fields}


def piece(path: str, **value: Any) -> dict[str, Any]:
    return {"jsonPath": path, **value}


def test_a_streamed_call_folds_into_one_call_with_built_args() -> None:
    chunks = [
        chunk({**call(name="getWeather", willContinue=True), "thoughtSignature": "S"}),
        chunk(
            call(
                partialArgs=[piece("$.location", stringValue="Bos", willContinue=True)],
                willContinue=True,
            )
        ),
        chunk(call(partialArgs=[piece("$.location", stringValue="ton")], willContinue=True)),
        chunk(call()),
        chunk(call(name="getWeather", willContinue=True)),
        chunk(call(partialArgs=[piece("$.location", stringValue="Paris")], willContinue=True)),
        chunk(call(), finishReason="STOP"),
    ]
    assert parts_of(chunks) == [
        {
            "functionCall": {"name": "getWeather", "args": {"location": "Boston"}},
            "thoughtSignature": "S",
        },
        {"functionCall": {"name": "getWeather", "args": {"location": "Paris"}}},
    ]


def test_a_call_may_end_with_a_last_piece_without_will_continue() -> None:
    chunks = [
        chunk(call(name="f", willContinue=True)),
        chunk(call(partialArgs=[piece("$.items[0]", numberValue=1)])),
        chunk(call(partialArgs=[piece("$.items[1]", numberValue=2)])),  # no call open: kept
    ]
    assert parts_of(chunks) == [
        {"functionCall": {"name": "f", "args": {"items": [1]}}},
        {"functionCall": {"args": {"items": [None, 2]}}},
    ]


def test_keep_alive_fragments_change_nothing() -> None:
    chunks = [
        chunk(call(name="f", willContinue=True)),
        chunk(call(partialArgs=[piece("$.a[0]", stringValue="x")], willContinue=True)),
        chunk(call(willContinue=True)),
        chunk(call(partialArgs=[piece("$.a[1]", stringValue="y")], willContinue=True)),
        chunk(call()),
    ]
    assert parts_of(chunks) == [{"functionCall": {"name": "f", "args": {"a": ["x", "y"]}}}]


def test_a_named_call_ends_the_open_one() -> None:
    whole = call(name="g", args={"q": 1})
    chunks = [
        chunk(call(name="f", willContinue=True)),
        chunk(whole),
        chunk(call(partialArgs=[piece("$.x", boolValue=True)], willContinue=True)),
    ]
    assert parts_of(chunks) == [
        {"functionCall": {"name": "f"}},
        whole,
        {"functionCall": {"args": {"x": True}}},
    ]


def test_a_nameless_call_when_none_is_open_is_kept_whole() -> None:
    assert parts_of([chunk(call())]) == [{"functionCall": {}}]


def test_other_parts_between_fragments_come_after_the_call() -> None:
    chunks = [
        chunk({"text": "a"}, call(name="f", willContinue=True)),
        chunk({"text": "b"}, call(partialArgs=[piece("$.n", nullValue="NULL_VALUE")])),
    ]
    assert parts_of(chunks) == [
        {"text": "a"},
        {"functionCall": {"name": "f", "args": {"n": None}}},
        {"text": "b"},
    ]


def test_fragment_keys_and_signatures_are_kept_on_the_call() -> None:
    chunks = [
        chunk(call(name="f", willContinue=True, partialArgs=[piece("$.a", numberValue=1.5)])),
        chunk(
            {
                **call(id="c1", name="", willContinue=True, extra=None),
                "thoughtSignature": "S",
                "other": None,
            }
        ),
        chunk(call(name=None)),
    ]
    assert parts_of(chunks) == [
        {"functionCall": {"name": "f", "id": "c1", "args": {"a": 1.5}}, "thoughtSignature": "S"}
    ]


def test_typed_values_and_nested_paths_build_the_args() -> None:
    pieces = [
        piece("$.a.b[1].c", stringValue="s"),
        piece("$['d e']", numberValue=2),
        piece('$["f"]', boolValue=False),
        piece("$.g", nullValue="NULL_VALUE"),
        piece("$.a.b[0]", numberValue=0),
    ]
    chunks = [chunk(call(name="f", partialArgs=pieces))]
    assert parts_of(chunks) == [
        {
            "functionCall": {
                "name": "f",
                "args": {"a": {"b": [0, {"c": "s"}]}, "d e": 2, "f": False, "g": None},
            }
        }
    ]


def test_continued_strings_join_only_on_the_same_path() -> None:
    pieces = [
        piece("$.a", stringValue="x", willContinue=True),
        piece("$.a", stringValue="y", willContinue=True),
        piece("$.b", stringValue="z"),
        piece("$.a", stringValue="new"),
        piece("$.c", stringValue="1", willContinue=True),
        piece("$.c", numberValue=2),
        piece("$.c", stringValue="3"),
        piece("$.d", numberValue=4, willContinue=True),
        piece("$.d", stringValue="5"),
    ]
    chunks = [chunk(call(name="f", partialArgs=pieces))]
    assert parts_of(chunks)[0]["functionCall"]["args"] == {"a": "new", "b": "z", "c": "3", "d": "5"}


def test_without_pieces_the_sent_args_stand() -> None:
    chunks = [chunk(call(name="f", args={"k": "v"}, willContinue=True)), chunk(call())]
    assert parts_of(chunks) == [{"functionCall": {"name": "f", "args": {"k": "v"}}}]
    replaced = [chunk(call(name="f", args={"k": "v"}, partialArgs=[piece("$.j", numberValue=1)]))]
    assert parts_of(replaced) == [{"functionCall": {"name": "f", "args": {"j": 1}}}]


def test_pieces_without_a_path_or_a_value_set_nothing() -> None:
    pieces = [
        None,
        "x",
        piece("$.a"),
        piece("$.a", nullValue=None, numberValue=True),
        {"stringValue": "s"},
        piece("a.b", stringValue="s"),
        piece("$", stringValue="s"),
    ]
    chunks = [chunk(call(name="f", partialArgs=pieces))]
    assert parts_of(chunks) == [{"functionCall": {"name": "f"}}]
    not_a_list = [chunk(call(name="f", partialArgs="$.a", willContinue=True)), chunk(call())]
    assert parts_of(not_a_list) == [{"functionCall": {"name": "f"}}]


def test_a_piece_through_a_value_of_another_type_is_ignored() -> None:
    pieces = [
        piece("$.a", stringValue="s"),
        piece("$.a.b", stringValue="t"),
        piece("$.a[0]", stringValue="u"),
        piece("$.l[0]", numberValue=1),
        piece("$.l.k", numberValue=2),
        piece("$.l[0].k", numberValue=3),
    ]
    chunks = [chunk(call(name="f", partialArgs=pieces))]
    assert parts_of(chunks)[0]["functionCall"]["args"] == {"a": "s", "l": [1]}


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        ("$.foo.bar[0].data", ("foo", "bar", 0, "data")),
        ("$['a.b'][12]", ("a.b", 12)),
        ('$["x"]', ("x",)),
        ("$['']", ("",)),
        ("$.été", ("été",)),
        ("$", None),
        ("$[0]", None),
        ("$.0a", None),
        ("$.a.", None),
        ("$.a[x]", None),
        ("$.a[01]", None),
        ("$.a[\u0663]", None),
        ("$.\x80", ("\x80",)),
        ("$.\U0001f600_1", ("\U0001f600_1",)),
        ("$.a\ud800", None),
        ("a", None),
        (None, None),
        (3, None),
    ],
)
def test_json_paths_are_read_as_rfc_9535_segments(text: Any, steps: Any) -> None:
    assert parse_path(text) == steps


def test_the_fold_tells_which_streamed_call_is_still_open() -> None:
    # Accumulator.open_call: the position of the call nameless fragments still continue,
    # per candidate; every other call part is final (the neutral events complete it)
    fold = Accumulator()
    assert fold.open_call() is None  # no candidate yet
    fold.add(chunk({"text": "A"}, {"functionCall": {"name": "f", "args": {}}}))
    assert fold.open_call() is None  # a whole call is final
    fold.add(chunk({"functionCall": {"name": "g", "willContinue": True}}))
    assert (fold.open_call(), fold.open_call(1)) == (2, None)
    fold.add(chunk({"text": "between"}))  # parts after it leave it open, at its place
    fold.add(chunk({"functionCall": {"partialArgs": [], "willContinue": True}}))
    assert fold.open_call(0) == 2
    fold.add(chunk({"functionCall": {"willContinue": True}}, index=1))
    assert (fold.open_call(0), fold.open_call(1)) == (2, 0)
    fold.add(chunk({"functionCall": {}}))  # a fragment without willContinue ends it
    assert (fold.open_call(0), fold.open_call(1)) == (None, 0)
    fold.add(chunk({"functionCall": {"name": "h", "willContinue": True}}))
    fold.add(chunk({"functionCall": {"name": "i", "args": {"x": 1}}}))  # a named call ends it
    assert fold.open_call() is None
    content_less = Accumulator()
    content_less.add({"candidates": [{"finishReason": "STOP"}]})
    assert content_less.open_call() is None  # a candidate without content holds no call
