"""The OpenAI Responses dialect's canonical comparison (spec, Input and output)."""

from __future__ import annotations

from refold.reference.responses import ABSENT, Difference, canonical, differences


def equivalent(expected: object, received: object) -> bool:
    """The two Responses are equal under the canonical comparison: no difference."""
    return differences(expected, received) == []


def response(*output: object, **fields: object) -> dict[str, object]:
    return {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "output": list(output),
        **fields,
    }


def part(text: str, **fields: object) -> dict[str, object]:
    return {"type": "output_text", "text": text, **fields}


def message(*content: object) -> dict[str, object]:
    return {"type": "message", "id": "msg_1", "role": "assistant", "content": list(content)}


def test_nulls_are_removed_recursively() -> None:
    expected = response(
        message(part("a", logprobs=None)),
        error=None,
        usage={"input_tokens": 1, "x": None},
        incomplete_details=None,
    )
    received = response(message(part("a")), usage={"input_tokens": 1})
    assert equivalent(expected, received)


def test_empty_annotations_and_logprobs_are_absent_but_other_empty_lists_are_not() -> None:
    assert equivalent(
        response(message(part("a", annotations=[], logprobs=[]))), response(message(part("a")))
    )
    assert not equivalent(
        response(message(part("a", annotations=[{"type": "u"}]))), response(message(part("a")))
    )
    assert differences(response(), response(tools=[])) == [Difference("/tools", ABSENT, [])]
    assert differences(
        response(message()), response({"type": "message", "id": "msg_1", "role": "assistant"})
    ) == [Difference("/output/0/content", [], ABSENT)]


def test_the_top_level_output_text_is_removed_and_only_there() -> None:
    assert equivalent(
        response(message(part("Hi"))), response(message(part("Hi")), output_text="Hi")
    )
    assert canonical({"output": [{"output_text": "x"}], "output_text": "x"}) == {
        "output": [{"output_text": "x"}]
    }
    assert canonical(["kept", None]) == ["kept", None]


def test_json_values_compare_as_json() -> None:
    assert equivalent(response(usage={"total_tokens": 1}), response(usage={"total_tokens": 1.0}))
    assert differences(response(parallel_tool_calls=True), response(parallel_tool_calls=1)) == [
        Difference("/parallel_tool_calls", expected=True, received=1)
    ]
    assert equivalent({"b": 1, "a": 2}, {"a": 2, "b": 1})


def test_differences_are_at_json_pointers_expected_first() -> None:
    expected = response(message(part("Hello")), status="completed")
    received = response(message(part("Help"), part("extra")), status="incomplete", extra={"k/~": 1})
    assert differences(expected, received) == [
        Difference("/status", "completed", "incomplete"),
        Difference("/output/0/content/0/text", "Hello", "Help"),
        Difference("/output/0/content/1", ABSENT, {"type": "output_text", "text": "extra"}),
        Difference("/extra", ABSENT, {"k/~": 1}),
    ]
