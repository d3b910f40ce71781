"""The Anthropic Messages dialect's canonical comparison (spec, Input and output)."""

from __future__ import annotations

from refold.reference.anthropic import ABSENT, Difference, canonical, differences
from refold.reference.chat import differences as chat_differences


def equivalent(expected: object, received: object) -> bool:
    """The two Messages are equal under the canonical comparison: no difference."""
    return differences(expected, received) == []


def message(*content: object, **fields: object) -> dict[str, object]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": list(content),
        **fields,
    }


def tool(tool_input: object) -> dict[str, object]:
    return {"type": "tool_use", "id": "t", "name": "f", "input": tool_input}


def test_nulls_are_removed_recursively_outside_block_input() -> None:
    expected = message(
        {"type": "text", "text": "a", "x": None},
        stop_reason="end_turn",
        stop_sequence=None,
        usage={"a": None, "b": 1},
    )
    received = message({"type": "text", "text": "a"}, stop_reason="end_turn", usage={"b": 1})
    assert equivalent(expected, received)


def test_nulls_inside_a_block_input_are_data() -> None:
    with_null = message(tool({"x": None, "y": {"z": None}}))
    assert differences(with_null, message(tool({"y": {}}))) == [
        Difference("/content/0/input/x", None, ABSENT),
        Difference("/content/0/input/y/z", None, ABSENT),
    ]
    assert equivalent(with_null, message(tool({"x": None, "y": {"z": None}})))
    assert chat_differences(with_null, message(tool({"y": {}}))) == []


def test_only_objects_in_a_content_list_are_blocks_whose_input_keeps_its_nulls() -> None:
    # an `input` key elsewhere (an unknown key's list, a content that is no list) is not
    # a block's: its nulls are removed like any other
    other = {"type": "x", "input": {"k": None}}
    assert equivalent(message(extra=[other]), message(extra=[{"type": "x", "input": {}}]))
    assert canonical({"content": {"input": {"k": None}}}) == {"content": {"input": {}}}
    assert canonical({"content": "text"}) == {"content": "text"}


def test_differences_in_a_block_come_in_its_key_order_input_included() -> None:
    # "in document order of the expected value": the input is not moved to the end
    expected = message({"type": "tool_use", "input": {"a": 1}, "id": "t", "name": "f"})
    received = message({"type": "tool_use", "input": {"a": 2}, "id": "u", "name": "f"})
    assert [d.pointer for d in differences(expected, received)] == [
        "/content/0/input/a",
        "/content/0/id",
    ]


def test_a_null_input_key_itself_is_absent() -> None:
    assert equivalent(
        message({"type": "tool_use", "id": "t", "input": None}),
        message({"type": "tool_use", "id": "t"}),
    )


def test_blocks_in_nested_content_lists_keep_their_input() -> None:
    nested = {"type": "x_result", "content": [{"type": "x", "input": {"k": None}}]}
    assert not equivalent(
        message(nested), message({"type": "x_result", "content": [{"type": "x", "input": {}}]})
    )


def test_empty_citations_are_absent_and_other_empty_lists_are_not() -> None:
    assert equivalent(
        message({"type": "text", "text": "a", "citations": []}),
        message({"type": "text", "text": "a"}),
    )
    assert not equivalent(message(), {"id": "msg_1", "type": "message", "role": "assistant"})
    assert not equivalent(
        message({"type": "text", "text": "a", "citations": [{"n": 1}]}),
        message({"type": "text", "text": "a"}),
    )


def test_citations_inside_tool_input_are_data() -> None:
    assert not equivalent(message(tool({"citations": []})), message(tool({})))


def test_json_values_compare_as_json() -> None:
    assert equivalent(message(usage={"output_tokens": 1}), message(usage={"output_tokens": 1.0}))
    assert not equivalent(message(tool({"flag": True})), message(tool({"flag": 1})))
    assert differences(message(tool({"a": [1, 2]})), message(tool({"a": [2, 1]}))) == [
        Difference("/content/0/input/a/0", 1, 2),
        Difference("/content/0/input/a/1", 2, 1),
    ]


def test_canonical_keeps_non_block_content_and_scalars() -> None:
    assert canonical({"content": ["text", None]}) == {"content": ["text", None]}
    assert canonical([None, {"a": None}]) == [None, {}]
    assert canonical("x") == "x"


def test_differences_name_keys_only_the_received_message_has() -> None:
    found = differences(message(), message(stop_details={"type": "refusal"}))
    assert found == [Difference("/stop_details", ABSENT, {"type": "refusal"})]
    assert str(found[0]) == 'at /stop_details: expected (absent), received {"type": "refusal"}'
