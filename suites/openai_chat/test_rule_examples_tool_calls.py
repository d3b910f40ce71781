"""Rule examples: tool calls (TOOL-1-OPEN, TOOL-5-APPEND and the per-call rules)."""

from refold.run.checks import Check
from refold.run.marks import rule

from ._streams import call, choice, completion, delta, fragment, stream


@rule("TOOL-1-OPEN", "TOOL-5-APPEND")
def test_each_index_opens_its_own_call_in_openais_shape(check: Check) -> None:
    # parallel_tools (research §4): header fragment, then arguments with index only
    chunks = stream(
        delta(
            role="assistant",
            content=None,
            tool_calls=[
                fragment(index=0, id="call_a", type="function", name="get_weather", arguments="")
            ],
        ),
        delta(tool_calls=[fragment(index=0, arguments='{"city":')]),
        delta(tool_calls=[fragment(index=0, arguments='"Oslo"}')]),
        delta(
            tool_calls=[
                fragment(index=1, id="call_b", type="function", name="get_time", arguments="")
            ]
        ),
        delta(tool_calls=[fragment(index=1, arguments='{"tz":"CET"}')]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[
                call("call_a", "get_weather", '{"city":"Oslo"}'),
                call("call_b", "get_time", '{"tz":"CET"}'),
            ],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-5-APPEND")
def test_fragments_for_one_index_in_one_chunk_are_appended_in_order(check: Check) -> None:
    # dup_index_in_first_chunk (Q4)
    chunks = stream(
        delta(
            role="assistant",
            tool_calls=[
                fragment(index=0, id="functions.list_files:0", type="function", name="list_files"),
                fragment(index=0, arguments=' {"'),
            ],
        ),
        delta(tool_calls=[fragment(index=0, arguments='path": "/"}')]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[call("functions.list_files:0", "list_files", ' {"path": "/"}')],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-5-APPEND", "ROB-WRONG-TYPE")
def test_absent_null_or_non_string_arguments_append_nothing(check: Check) -> None:
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments='{"a"')]),
        delta(tool_calls=[fragment(index=0)]),
        delta(tool_calls=[fragment(index=0, arguments=None)]),
        delta(tool_calls=[fragment(index=0, arguments=5)]),
        delta(tool_calls=[fragment(index=0, arguments={"b": 2})]),
        delta(tool_calls=[fragment(index=0, arguments=":1}")], finish_reason="tool_calls"),
    )
    expected = completion(
        choice(tool_calls=[call("call_1", "f", '{"a":1}')], finish_reason="tool_calls")
    )
    check.folds_to(chunks, expected)


@rule("TOOL-INDEX")
def test_fragments_join_by_index_value_when_indexes_start_above_zero(check: Check) -> None:
    # tool_index_starts_at_1 (Q3)
    chunks = stream(
        delta(role="assistant", content="Let me check."),
        delta(
            tool_calls=[
                fragment(index=1, id="toolu_1", type="function", name="get_weather", arguments="")
            ]
        ),
        delta(tool_calls=[fragment(index=1, arguments='{"city":"Oslo"}')]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            content="Let me check.",
            tool_calls=[call("toolu_1", "get_weather", '{"city":"Oslo"}')],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-INDEX")
def test_sparse_interleaved_indexes_join_by_value_not_list_position(check: Check) -> None:
    # sparse_indices_0_2 (Q3), with the fragments of the two calls interleaved
    chunks = stream(
        delta(
            tool_calls=[
                fragment(index=2, id="call_c", name="g", arguments='{"y"'),
                fragment(index=0, id="call_a", name="f", arguments='{"x"'),
            ]
        ),
        delta(tool_calls=[fragment(index=0, arguments=":1}")]),
        delta(tool_calls=[fragment(index=2, arguments=":2}")], finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[call("call_a", "f", '{"x":1}'), call("call_c", "g", '{"y":2}')],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-ADOPT-ID")
def test_a_call_without_an_id_adopts_the_first_non_blank_id_that_arrives(check: Check) -> None:
    # family 5: the id arrives late
    chunks = stream(
        delta(tool_calls=[fragment(index=0, name="f", arguments='{"a"')]),
        delta(tool_calls=[fragment(index=0, id="", arguments=":")]),
        delta(tool_calls=[fragment(index=0, id="call_late", arguments="1")]),
        delta(tool_calls=[fragment(index=0, arguments="}")], finish_reason="tool_calls"),
    )
    expected = completion(
        choice(tool_calls=[call("call_late", "f", '{"a":1}')], finish_reason="tool_calls")
    )
    check.folds_to(chunks, expected)


@rule("TOOL-NAME")
def test_a_name_repeated_on_every_fragment_is_never_concatenated(check: Check) -> None:
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="search", arguments="")]),
        delta(tool_calls=[fragment(index=0, name="search", arguments='{"q":')]),
        delta(tool_calls=[fragment(index=0, name="search", arguments='"x"}')]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(tool_calls=[call("call_1", "search", '{"q":"x"}')], finish_reason="tool_calls")
    )
    check.folds_to(chunks, expected)


@rule("TOOL-NAME")
def test_the_name_is_the_first_non_blank_one_and_later_names_are_ignored(check: Check) -> None:
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="", arguments='{"a":')]),
        delta(tool_calls=[fragment(index=0, name="first", arguments="1")]),
        delta(tool_calls=[fragment(index=0, name="second", arguments="}")]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(tool_calls=[call("call_1", "first", '{"a":1}')], finish_reason="tool_calls")
    )
    check.folds_to(chunks, expected)


@rule("TOOL-NAME", "TOOL-ADOPT-ID")
def test_a_new_name_on_an_id_less_call_does_not_split_it(check: Check) -> None:
    # declined in the seed: no capture shows that shape
    chunks = stream(
        delta(tool_calls=[fragment(index=0, name="first", arguments='{"a":')]),
        delta(tool_calls=[fragment(index=0, name="second", arguments="1}")]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(tool_calls=[call(None, "first", '{"a":1}')], finish_reason="tool_calls")
    )
    check.folds_to(chunks, expected)


@rule("TOOL-TYPE")
def test_the_type_is_function_when_none_arrived(check: Check) -> None:
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments="{}")]),
        delta(tool_calls=[fragment(index=0, type=None)], finish_reason="tool_calls"),
    )
    expected = completion(
        choice(tool_calls=[call("call_1", "f", "{}", type="function")], finish_reason="tool_calls")
    )
    check.folds_to(chunks, expected)


@rule("TOOL-TYPE")
def test_the_type_is_the_first_non_blank_one_and_never_inherited(check: Check) -> None:
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", type="custom", name="f", arguments="{}")]),
        delta(tool_calls=[fragment(index=0, type="function")]),
        delta(tool_calls=[fragment(index=1, id="call_2", name="g", arguments="{}")]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[
                call("call_1", "f", "{}", type="custom"),
                call("call_2", "g", "{}", type="function"),
            ],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-OUTPUT")
def test_output_calls_are_ordered_by_index_and_carry_no_index(check: Check) -> None:
    # dense indexes opened in order, so only the output's shape and order are judged
    # (an index opened before a lower one is TOOL-INDEX's: joined by value, not position)
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_0", name="f", arguments='{"n":')]),
        delta(tool_calls=[fragment(index=1, id="call_1", name="h", arguments='{"n":1}')]),
        delta(tool_calls=[fragment(index=0, arguments="0}")]),
        delta(finish_reason="tool_calls"),
    )
    # the expected calls have no "index" key: a target that echoes one differs at it
    expected = completion(
        choice(
            tool_calls=[call("call_0", "f", '{"n":0}'), call("call_1", "h", '{"n":1}')],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-INDEX", "TOOL-OUTPUT")
def test_sparse_indexes_opened_out_of_order_are_output_in_index_order(check: Check) -> None:
    chunks = stream(
        delta(tool_calls=[fragment(index=3, id="call_3", name="h", arguments='{"n":3}')]),
        delta(tool_calls=[fragment(index=1, id="call_1", name="f", arguments='{"n":1}')]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[call("call_1", "f", '{"n":1}'), call("call_3", "h", '{"n":3}')],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-RAW")
def test_arguments_are_kept_exactly_as_they_arrived(check: Check) -> None:
    # key order, spacing and escapes untouched: nothing is parsed and re-serialised
    arguments = '{ "b" : 1,\n  "a": "caf\\u00e9 \\"x\\"", "n": 1.50 }'
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments=arguments[:9])]),
        delta(tool_calls=[fragment(index=0, arguments=arguments[9:])]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(tool_calls=[call("call_1", "f", arguments)], finish_reason="tool_calls")
    )
    check.folds_to(chunks, expected)


@rule("TOOL-RAW")
def test_a_cut_off_call_stays_cut_off(check: Check) -> None:
    # truncated_args_invalid_json (Q12)
    chunks = stream(
        delta(
            role="assistant",
            tool_calls=[
                fragment(index=0, id="call_1", type="function", name="f", arguments='{"a":')
            ],
        ),
        delta(finish_reason="length"),
    )
    expected = completion(choice(tool_calls=[call("call_1", "f", '{"a":')], finish_reason="length"))
    check.folds_to(chunks, expected)
