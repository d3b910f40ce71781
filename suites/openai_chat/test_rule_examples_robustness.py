"""Rule examples: robustness (ROB-*): what the fold skips, and what it refuses."""

import pytest

from refold.run.checks import Check
from refold.run.marks import rule

from ._streams import call, choice, completion, delta, entry, fragment, stream

_UNKNOWN = {
    "obfuscation": "Zx81",
    "prompt_filter_results": [{"prompt_index": 0}],
    "stop_reason": 128009,
    "token_ids": [1, 2],
    "extra_content": {"google": {}},
}
"""Unknown keys real providers add; every level of a chunk may carry them."""


@rule("ROB-NULL-ENTRIES")
def test_a_null_choice_entry_is_skipped(check: Check) -> None:
    # null_inside_choices (Q20)
    chunks = stream(
        delta(role="assistant", content="a"),
        {"choices": [None]},
        {
            "choices": [
                None,
                "x",
                3,
                {"index": 0, "delta": {"content": "b"}, "finish_reason": "stop"},
            ]
        },
    )
    check.folds_to(chunks, completion(choice(content="ab", finish_reason="stop")))


@rule("ROB-NULL-ENTRIES", "TOOL-5-APPEND")
def test_a_null_tool_call_entry_is_skipped(check: Check) -> None:
    # null_inside_tool_calls (Q20)
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments='{"a"')]),
        delta(tool_calls=[None]),
        delta(tool_calls=[None, ":1}", fragment(index=0, arguments=":1}")]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(tool_calls=[call("call_1", "f", '{"a":1}')], finish_reason="tool_calls")
    )
    check.folds_to(chunks, expected)


@rule("ROB-BLANK", "TOOL-TYPE")
def test_a_blank_type_echoes_as_function_and_a_blank_id_is_no_id(check: Check) -> None:
    # empty_type_and_id_on_continuation (Q7)
    chunks = stream(
        delta(
            role="assistant",
            tool_calls=[fragment(index=0, id="call_1", type="", name="memory_save", arguments="")],
        ),
        delta(tool_calls=[fragment(index=0, id="", type="", arguments='{"content":"x"}')]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[call("call_1", "memory_save", '{"content":"x"}')],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("ROB-BLANK", "CHOICE-ROLE", "CHOICE-FINISH")
def test_blank_roles_and_finish_reasons_count_as_absent(check: Check) -> None:
    # empty_string_finish_reason (Q13): "" on every chunk, then "stop"
    chunks = stream(
        delta(role=" ", content="a", finish_reason=""),
        delta(role="", content="b", finish_reason="\n"),
        delta(finish_reason="stop"),
    )
    check.folds_to(chunks, completion(choice(role="assistant", content="ab", finish_reason="stop")))


@rule("ROB-WRONG-TYPE")
def test_fields_of_the_wrong_type_are_treated_as_absent(check: Check) -> None:
    chunks = stream(
        {"choices": {"index": 0, "delta": {"content": "lost"}}},
        delta(role=7, content="a"),
        delta(content="b", tool_calls="none"),
        entry(index=0, delta={}, finish_reason=1),
        entry(index=0, delta={}, finish_reason=["stop"]),
        {"model": ["m"], "created": "now", "provider": 3, "choices": "none"},
        delta(finish_reason="stop"),
    )
    check.folds_to(chunks, completion(choice(content="ab", finish_reason="stop")))


@rule("ROB-UNKNOWN-KEYS")
def test_unknown_keys_at_every_level_never_change_the_result(check: Check) -> None:
    chunks = stream(
        {
            **_UNKNOWN,
            "choices": [
                {
                    **_UNKNOWN,
                    "index": 0,
                    "delta": {**_UNKNOWN, "role": "assistant", "content": "Hi"},
                }
            ],
        },
        {**_UNKNOWN, "choices": [{**_UNKNOWN, "index": 0, "delta": {}, "finish_reason": "stop"}]},
    )
    check.folds_to(chunks, completion(choice(content="Hi", finish_reason="stop")))


@rule("ROB-UNKNOWN-KEYS", "TOOL-5-APPEND")
def test_unknown_keys_on_tool_call_fragments_never_change_the_call(check: Check) -> None:
    # Gemini's extra_content.google.thought_signature rides on the fragment (Q1)
    thought = {"extra_content": {"google": {"thought_signature": "c2ln"}}}
    chunks = stream(
        delta(
            tool_calls=[{**fragment(index=0, id="call_1", name="f", arguments='{"a"'), **thought}]
        ),
        delta(tool_calls=[{**fragment(index=0, arguments=":1}"), **_UNKNOWN}]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(tool_calls=[call("call_1", "f", '{"a":1}')], finish_reason="tool_calls")
    )
    check.folds_to(chunks, expected)


@rule("ROB-NOT-OBJECT")
@pytest.mark.parametrize(
    "value",
    [["a", "json", "array"], "data", 42, None, True],
    ids=["array", "string", "number", "null", "boolean"],
)
def test_a_chunk_that_is_not_an_object_is_refused(check: Check, value: object) -> None:
    check.refuses(value)


@rule("ROB-NOT-OBJECT")
def test_a_refused_array_chunk_names_what_arrived_and_changes_nothing(check: Check) -> None:
    if "lifecycle" not in check.target.features:
        pytest.skip("needs the incremental interface (feature lifecycle)")
    acc = check.accumulator()
    acc.add(stream(delta(role="assistant", content="Hi"))[0])
    before = acc.response()
    error = acc.add_raw([{"choices": [{"index": 0, "delta": {"content": "!"}}]}])
    if error is None:
        raise check.fail("a chunk that is a JSON array was accepted", chunks=acc.chunks)
    if not any(word in str(error).lower() for word in ("array", "list")):
        raise check.fail(f"the refusal does not name what was received: {error}", chunks=acc.chunks)
    found = check.projected_differences(before, acc.response())
    if found:
        raise check.fail("refusing a chunk changed the fold", chunks=acc.chunks, differences=found)
