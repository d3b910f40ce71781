"""The reference's exact output, beyond what the canonical comparison judges.

The suites compare responses canonically (nulls and absent keys are alike), so these pin
what a reader of `response()` sees: the shape of a non-streaming response, fields of the
wrong type left out, and the cheap paths of the arguments check taken when they should be.
Found as surviving mutants of `refold mutate --target reference`.
"""

from __future__ import annotations

import pytest

import refold.reference._arguments as arguments_module
from refold.reference import JSONObject
from refold.reference._arguments import Arguments
from refold.reference.chat import fold, lookup_any_rule


def _message(chunks: list[JSONObject]) -> JSONObject:
    message: JSONObject = fold(chunks)["choices"][0]["message"]
    return message


def test_a_message_without_text_carries_content_null_as_a_non_streaming_response_does() -> None:
    assert fold(
        [
            {
                "id": "c",
                "created": 1,
                "model": "m",
                "choices": [{"index": 0, "delta": {"role": "assistant"}}],
            }
        ]
    ) == {
        "id": "c",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": None},
                "finish_reason": None,
                "logprobs": None,
            }
        ],
    }


def test_a_fragment_without_index_before_any_index_belongs_to_index_zero() -> None:
    calls = [
        {"id": "a", "function": {"name": "f", "arguments": "{}"}},
        {"index": 1, "id": "b", "function": {"name": "g", "arguments": "{}"}},
        {"index": 0, "id": "c", "function": {"name": "h", "arguments": "{}"}},
    ]
    message = _message([{"choices": [{"index": 0, "delta": {"tool_calls": calls}}]}])
    assert [call["id"] for call in message["tool_calls"]] == ["a", "c", "b"]


def test_a_type_first_sent_on_a_later_fragment_is_the_calls_type() -> None:
    calls = [
        {"index": 0, "id": "a", "function": {"name": "f"}},
        {"index": 0, "type": "custom", "function": {"arguments": "{}"}},
    ]
    message = _message([{"choices": [{"index": 0, "delta": {"tool_calls": calls}}]}])
    assert message["tool_calls"] == [
        {"id": "a", "type": "custom", "function": {"name": "f", "arguments": "{}"}}
    ]


def test_a_reasoning_index_of_the_wrong_type_is_left_out_of_the_merged_segment() -> None:
    segments = [
        {"type": "reasoning.text", "index": "0", "text": "a"},
        {"type": "reasoning.text", "index": "0", "text": "b"},
    ]
    message = _message([{"choices": [{"index": 0, "delta": {"reasoning_details": segments}}]}])
    assert message["reasoning_details"] == [{"type": "reasoning.text", "text": "ab"}]


def test_an_unknown_rule_id_names_both_registries_and_their_sizes() -> None:
    with pytest.raises(KeyError) as caught:
        lookup_any_rule("SSE-X")
    assert caught.value.args == (
        "unknown rule id 'SSE-X'; the spec has 49 rules and the wire registry 16 "
        "(see `refold rules`)",
    )


def test_arguments_reopened_after_their_object_closed_are_rejected_without_decoding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decoded: list[str] = []

    def counting_parse(text: str) -> JSONObject | None:
        decoded.append(text)
        return None

    monkeypatch.setattr(arguments_module, "parse_complete", counting_parse)
    arguments = Arguments()
    for fragment in ('{"a": 1}', " {", "}"):
        arguments.append(fragment)
    assert arguments.complete_value() is None
    assert decoded == []
