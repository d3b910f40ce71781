"""Rule examples: tool-call repair (TOOL-2 … TOOL-4, TOOL-NO-INDEX).

The ladder: a new id splits (TOOL-2); complete arguments onto complete arguments are a
re-send when the id matches, or when there is no id and no name and the JSON is equal
(TOOL-3), and otherwise a new call (TOOL-4); anything else appends (TOOL-5).
"""

from refold.run.checks import Check
from refold.run.marks import rule

from ._streams import call, choice, completion, delta, fragment, stream


@rule("TOOL-2-NEW-ID")
def test_a_new_id_on_an_occupied_index_starts_a_new_call(check: Check) -> None:
    # all_index0_distinct_ids (Q2)
    chunks = stream(
        delta(
            role="assistant",
            tool_calls=[
                fragment(
                    index=0,
                    id="call_1",
                    type="function",
                    name="file_write",
                    arguments='{"filePath":"hello.py"}',
                )
            ],
        ),
        delta(
            tool_calls=[
                fragment(
                    index=0,
                    id="call_2",
                    type="function",
                    name="file_write",
                    arguments='{"filePath":"world.py"}',
                )
            ]
        ),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[
                call("call_1", "file_write", '{"filePath":"hello.py"}'),
                call("call_2", "file_write", '{"filePath":"world.py"}'),
            ],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-2-NEW-ID", "TOOL-TYPE")
def test_a_new_call_on_the_same_index_never_inherits_the_previous_type(check: Check) -> None:
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", type="custom", name="f", arguments="{")]),
        delta(tool_calls=[fragment(index=0, id="call_2", name="g", arguments="{")]),
        delta(tool_calls=[fragment(index=0, arguments="}")], finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[
                call("call_1", "f", "{", type="custom"),
                call("call_2", "g", "{}", type="function"),
            ],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-3-RESEND")
def test_complete_arguments_resent_with_the_same_id_change_nothing(check: Check) -> None:
    # vLLM GLM final chunks repeat id, type and name with the whole arguments (Q5)
    chunks = stream(
        delta(
            tool_calls=[
                fragment(index=0, id="call_1", type="function", name="add", arguments='{"amount": ')
            ]
        ),
        delta(tool_calls=[fragment(index=0, arguments="300}")]),
        delta(
            tool_calls=[
                fragment(
                    index=0, id="call_1", type="function", name="add", arguments='{"amount":300}'
                )
            ],
            finish_reason="tool_calls",
        ),
    )
    expected = completion(
        choice(tool_calls=[call("call_1", "add", '{"amount": 300}')], finish_reason="tool_calls")
    )
    check.folds_to(chunks, expected)


@rule("TOOL-3-RESEND")
def test_an_id_less_nameless_resend_of_equal_json_changes_nothing(check: Check) -> None:
    # resend_full_args_in_final (Q5): vLLM's flush re-sends with id, type and name null
    chunks = stream(
        delta(
            role="assistant",
            tool_calls=[
                fragment(index=0, id="call_1", type="function", name="add_expense", arguments="")
            ],
        ),
        delta(tool_calls=[fragment(index=0, arguments='{"amount": ')]),
        delta(tool_calls=[fragment(index=0, arguments="300}")]),
        delta(
            tool_calls=[
                fragment(index=0, id=None, type=None, name=None, arguments='{ "amount" : 300.0 }')
            ],
            finish_reason="tool_calls",
        ),
    )
    expected = completion(
        choice(
            tool_calls=[call("call_1", "add_expense", '{"amount": 300}')],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-4-SPLIT")
def test_complete_arguments_onto_complete_arguments_start_a_new_call(check: Check) -> None:
    # no id and no name, but different JSON: not a re-send
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments='{"a":1}')]),
        delta(tool_calls=[fragment(index=0, arguments='{"a":2}')]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[call("call_1", "f", '{"a":1}'), call(None, None, '{"a":2}')],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-4-SPLIT")
def test_an_equal_resend_that_names_a_function_is_a_new_call(check: Check) -> None:
    # TOOL-3's id-less arm needs no id *and* no name; a name makes it a second call
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments='{"a":1}')]),
        delta(tool_calls=[fragment(index=0, name="f", arguments='{"a":1}')]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[call("call_1", "f", '{"a":1}'), call(None, "f", '{"a":1}')],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-4-SPLIT")
def test_whitespace_around_complete_json_still_splits_and_is_kept(check: Check) -> None:
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments=' {"a":1}\n')]),
        delta(tool_calls=[fragment(index=0, arguments='\t{"b":2} ')]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[call("call_1", "f", ' {"a":1}\n'), call(None, None, '\t{"b":2} ')],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-4-SPLIT", "TOOL-5-APPEND")
def test_a_stray_brace_after_complete_arguments_never_splits(check: Check) -> None:
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments="{}")]),
        delta(tool_calls=[fragment(index=0, arguments="}")]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(tool_calls=[call("call_1", "f", "{}}")], finish_reason="tool_calls")
    )
    check.folds_to(chunks, expected)


@rule("TOOL-4-SPLIT", "TOOL-5-APPEND")
def test_whitespace_after_complete_arguments_is_appended(check: Check) -> None:
    # trailing_whitespace_after_json (Q10)
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments='{"m":"hi"}')]),
        delta(tool_calls=[fragment(index=0, arguments=" ")]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(tool_calls=[call("call_1", "f", '{"m":"hi"} ')], finish_reason="tool_calls")
    )
    check.folds_to(chunks, expected)


@rule("TOOL-4-SPLIT", "TOOL-5-APPEND")
def test_json_that_is_not_an_object_is_never_complete_so_1_then_23_is_123(check: Check) -> None:
    # parsable_prefix_then_more (Q10)
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments="1")]),
        delta(tool_calls=[fragment(index=0, arguments="23")]),
        delta(tool_calls=[fragment(index=1, id="call_2", name="g", arguments="[1]")]),
        delta(tool_calls=[fragment(index=1, arguments="[2]")]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[call("call_1", "f", "123"), call("call_2", "g", "[1][2]")],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-4-SPLIT", "TOOL-5-APPEND")
def test_nan_and_infinity_are_not_json_so_never_complete(check: Check) -> None:
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments='{"x":NaN}')]),
        delta(tool_calls=[fragment(index=0, arguments='{"y":Infinity}')]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[call("call_1", "f", '{"x":NaN}{"y":Infinity}')], finish_reason="tool_calls"
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-NO-INDEX")
def test_index_less_calls_with_new_ids_are_separate_calls(check: Check) -> None:
    # no_index_two_calls (Q1a)
    chunks = stream(
        delta(
            role="assistant",
            tool_calls=[
                fragment(
                    id="function-call-1",
                    type="function",
                    name="get_weather",
                    arguments='{"location":"Sydney"}',
                )
            ],
        ),
        delta(
            tool_calls=[
                fragment(
                    id="function-call-2",
                    type="function",
                    name="get_time",
                    arguments='{"tz":"AEST"}',
                )
            ]
        ),
        delta(finish_reason="stop"),
    )
    expected = completion(
        choice(
            tool_calls=[
                call("function-call-1", "get_weather", '{"location":"Sydney"}'),
                call("function-call-2", "get_time", '{"tz":"AEST"}'),
            ],
            finish_reason="stop",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-NO-INDEX")
def test_an_index_less_continuation_appends_to_the_current_call(check: Check) -> None:
    # no_index_split_args (Q1b)
    chunks = stream(
        delta(
            role="assistant",
            tool_calls=[
                fragment(id="call_1", type="function", name="get_weather", arguments='{"loc')
            ],
        ),
        delta(tool_calls=[fragment(arguments='ation":"Sydney"}')]),
        delta(finish_reason="stop"),
    )
    expected = completion(
        choice(
            tool_calls=[call("call_1", "get_weather", '{"location":"Sydney"}')],
            finish_reason="stop",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-NO-INDEX")
def test_an_index_less_fragment_joins_the_most_recently_touched_index(check: Check) -> None:
    # the most recently touched index is 1, not 0: a fold sending every index-less
    # fragment to index 0 (litellm) appends "2}" to the call on index 0
    chunks = stream(
        delta(
            tool_calls=[
                fragment(index=0, id="call_a", name="f", arguments='{"a"'),
                fragment(index=1, id="call_b", name="g", arguments='{"b"'),
            ]
        ),
        delta(tool_calls=[fragment(index=0, arguments=":1}")]),
        delta(tool_calls=[fragment(index=1, arguments=":")]),
        delta(
            tool_calls=[fragment(arguments="2}"), fragment(index=None, arguments="")],
            finish_reason="tool_calls",
        ),
    )
    expected = completion(
        choice(
            tool_calls=[call("call_a", "f", '{"a":1}'), call("call_b", "g", '{"b":2}')],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-NO-INDEX", "ROB-WRONG-TYPE")
def test_an_index_that_is_not_a_non_negative_integer_counts_as_no_index(check: Check) -> None:
    chunks = stream(
        delta(tool_calls=[fragment(index=-1, id="call_1", name="f", arguments='{"a"')]),
        delta(tool_calls=[fragment(index="0", arguments=":")]),
        delta(tool_calls=[fragment(index=True, arguments="1}")], finish_reason="tool_calls"),
    )
    expected = completion(
        choice(tool_calls=[call("call_1", "f", '{"a":1}')], finish_reason="tool_calls")
    )
    check.folds_to(chunks, expected)


@rule("TOOL-4-SPLIT")
def test_braces_and_escapes_inside_strings_do_not_fool_completeness(check: Check) -> None:
    # the first call is complete only at its last fragment, whatever its strings hold
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments='{"s":"a}')]),
        delta(tool_calls=[fragment(index=0, arguments='\\"{\\\\","n":[1,{"x":')]),
        delta(tool_calls=[fragment(index=0, arguments="[2]}]}")]),
        delta(tool_calls=[fragment(index=0, arguments='{"b":1}')]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[
                call("call_1", "f", '{"s":"a}\\"{\\\\","n":[1,{"x":[2]}]}'),
                call(None, None, '{"b":1}'),
            ],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-4-SPLIT", "TOOL-5-APPEND")
def test_complete_json_onto_arguments_that_are_not_one_object_is_appended(check: Check) -> None:
    # a stray prefix, or text after the closing brace, makes the current call incomplete
    chunks = stream(
        delta(
            tool_calls=[
                fragment(index=0, id="call_1", name="f", arguments='x{"a":1}'),
                fragment(index=1, id="call_2", name="g", arguments='{"a":1} x'),
            ]
        ),
        delta(
            tool_calls=[
                fragment(index=0, arguments='{"b":2}'),
                fragment(index=1, arguments='{"b":2}'),
            ]
        ),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[
                call("call_1", "f", 'x{"a":1}{"b":2}'),
                call("call_2", "g", '{"a":1} x{"b":2}'),
            ],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)
