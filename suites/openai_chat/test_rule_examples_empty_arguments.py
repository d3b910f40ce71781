"""Rule examples: calls without arguments (TOOL-EMPTY-ARGS), both arms.

Once the fold is finished a call that received no arguments reads "{}", as the
non-streaming response carries; until then it reads "" so a cut-off call is not dressed
up as complete. A whole-list fold is finished on finish reasons alone; the arm that
finishes on `[DONE]` is in the lifecycle examples.
"""

from refold.run.checks import Check
from refold.run.marks import rule

from ._streams import call, choice, completion, delta, fragment, stream


@rule("TOOL-EMPTY-ARGS")
def test_empty_string_arguments_read_braces_once_finished(check: Check) -> None:
    # no_args_tool_empty_string (Q11)
    chunks = stream(
        delta(
            role="assistant",
            tool_calls=[
                fragment(
                    index=0, id="toolu_1", type="function", name="get_page_snapshot", arguments=""
                )
            ],
        ),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(tool_calls=[call("toolu_1", "get_page_snapshot", "{}")], finish_reason="tool_calls")
    )
    check.folds_to(chunks, expected)


@rule("TOOL-EMPTY-ARGS")
def test_absent_or_null_arguments_read_braces_once_finished(check: Check) -> None:
    # no_args_tool_field_missing (Q11), and a second call whose arguments are null
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", type="function", name="f")]),
        delta(tool_calls=[fragment(index=1, id="call_2", name="g", arguments=None)]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[call("call_1", "f", "{}"), call("call_2", "g", "{}")],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("TOOL-EMPTY-ARGS")
def test_empty_arguments_stay_empty_until_the_fold_is_finished(check: Check) -> None:
    chunks = stream(
        delta(
            role="assistant",
            tool_calls=[
                fragment(
                    index=0, id="toolu_1", type="function", name="get_page_snapshot", arguments=""
                )
            ],
        ),
        delta(tool_calls=[fragment(index=0, arguments="")]),
    )
    expected = completion(choice(tool_calls=[call("toolu_1", "get_page_snapshot", "")]))
    check.folds_to(chunks, expected)


@rule("TOOL-EMPTY-ARGS")
def test_an_error_finish_does_not_finish_so_empty_arguments_stay_empty(check: Check) -> None:
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments="")]),
        delta(finish_reason="error"),
    )
    expected = completion(choice(tool_calls=[call("call_1", "f", "")], finish_reason="error"))
    check.folds_to(chunks, expected)


@rule("TOOL-EMPTY-ARGS", "ROB-BLANK")
def test_a_blank_finish_reason_does_not_finish_so_empty_arguments_stay_empty(check: Check) -> None:
    chunks = stream(
        delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments="")]),
        delta(finish_reason=" "),
        delta(finish_reason=""),
    )
    expected = completion(choice(tool_calls=[call("call_1", "f", "")]))
    check.folds_to(chunks, expected)


@rule("TOOL-EMPTY-ARGS")
def test_only_calls_that_received_nothing_read_braces(check: Check) -> None:
    # a call whose arguments arrived, even whitespace, keeps them as they arrived
    chunks = stream(
        delta(
            tool_calls=[
                fragment(index=0, id="call_1", name="f", arguments=""),
                fragment(index=1, id="call_2", name="g", arguments=" "),
                fragment(index=2, id="call_3", name="h", arguments="{}"),
            ]
        ),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[
                call("call_1", "f", "{}"),
                call("call_2", "g", " "),
                call("call_3", "h", "{}"),
            ],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)
