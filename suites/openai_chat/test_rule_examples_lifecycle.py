"""Rule examples: the incremental fold's lifecycle (LIFE-*), through `check.accumulator()`."""

from refold.reference import JSONObject
from refold.run.checks import Check, CheckedAccumulator, ConformanceFailure
from refold.run.marks import rule

from .._examples_lifecycle import expect_kept_after, expect_never_mutated, expect_read
from ._streams import call, choice, completion, delta, fragment, stream, usage

_ERROR = {"code": "server_error", "message": "Provider disconnected unexpectedly"}


def _add_all(acc: CheckedAccumulator, chunks: list[JSONObject]) -> None:
    for chunk in chunks:
        acc.add(chunk)


_FINISHED_RULES = ("LIFE-FINISHED", "LIFE-DONE", "LIFE-ERROR", "CHOICE-KEY")
"""The rules that decide `finished` (CHOICE-KEY: which choice a finish reason is of)."""


def _expect_finished(check: Check, acc: CheckedAccumulator, *, expected: bool) -> None:
    if acc.finished is not expected:
        # `finished` has no JSON pointer to attribute by: a wrong value is evidence against
        # the rules that decide it, not against the test's others (usage, error objects)
        rules = tuple(r for r in check.rules if r in _FINISHED_RULES) or ("LIFE-FINISHED",)
        raise ConformanceFailure(
            rules,
            f"finished is {not expected} after chunk {len(acc.chunks) - 1}, expected {expected}",
            chunks=list(acc.chunks),
        )


def _expect_response(check: Check, acc: CheckedAccumulator, expected: JSONObject) -> None:
    summary = f"the response after chunk {len(acc.chunks) - 1} differs"
    expect_read(check, acc, expected, summary, compare=check.projected_differences)


@rule("LIFE-EMPTY")
def test_reading_the_response_before_any_chunk_raises(check: Check) -> None:
    acc = check.accumulator()
    error = acc.response_error()
    if error is None:
        raise check.fail("response() returned a value before any chunk was folded")
    if error.kind != "raised":
        raise check.fail(
            f"response() before any chunk failed ({error.kind}) instead of raising an error",
            target_error=str(error),
        )


@rule("LIFE-EMPTY", "ROB-NOT-OBJECT")
def test_a_refused_chunk_is_not_a_folded_chunk(check: Check) -> None:
    acc = check.accumulator()
    if acc.add_raw([1, 2]) is None:
        raise check.fail("a chunk that is a JSON array was accepted", chunks=[[1, 2]])
    if acc.response_error() is None:
        raise check.fail(
            "response() returned a value although only a refused chunk arrived", chunks=[[1, 2]]
        )


@rule("LIFE-EMPTY")
def test_one_folded_chunk_with_no_choices_is_enough_to_read_a_response(check: Check) -> None:
    acc = check.accumulator()
    acc.add(stream({"choices": []})[0])
    _expect_response(check, acc, completion())


@rule("LIFE-SNAPSHOT")
def test_a_response_handed_out_never_changes_after_later_chunks(check: Check) -> None:
    acc = check.accumulator()
    first, *rest = stream(
        delta(role="assistant", content="Hel"),
        delta(content="lo"),
        delta(finish_reason="stop"),
    )
    acc.add(first)
    expect_kept_after(
        check,
        acc,
        rest,
        "a response already handed out changed when later chunks were folded",
        compare=check.projected_differences,
    )


@rule("LIFE-SNAPSHOT")
def test_changing_a_response_never_changes_the_next_one(check: Check) -> None:
    acc = check.accumulator()
    _add_all(acc, stream(delta(role="assistant", content="Hi")))
    handed_out = acc.response()
    handed_out["choices"][0]["message"]["content"] = "changed"
    handed_out["choices"][0]["message"]["extra"] = {"added": True}
    handed_out["choices"].append({"index": 9})
    _expect_response(check, acc, completion(choice(content="Hi")))


@rule("LIFE-SNAPSHOT", "TOOL-5-APPEND")
def test_changing_a_response_never_changes_the_tool_calls_of_the_next_one(check: Check) -> None:
    acc = check.accumulator()
    _add_all(
        acc,
        stream(
            delta(
                role="assistant",
                content="Hi",
                tool_calls=[fragment(index=0, id="call_1", name="f", arguments="{}")],
            )
        ),
    )
    handed_out = acc.response()
    handed_out["choices"][0]["message"]["tool_calls"].append({"id": "call_x"})
    handed_out["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = "x"
    _expect_response(
        check, acc, completion(choice(content="Hi", tool_calls=[call("call_1", "f", "{}")]))
    )


@rule("LIFE-SNAPSHOT")
def test_folding_and_reading_never_mutate_the_chunks(check: Check) -> None:
    expect_never_mutated(
        check,
        stream(
            delta(role="assistant", content="a"),
            delta(content="b"),
            delta(finish_reason="stop"),
        ),
    )


@rule("LIFE-SNAPSHOT", "TOOL-5-APPEND")
def test_folding_and_reading_never_mutate_tool_call_fragments(check: Check) -> None:
    expect_never_mutated(
        check,
        stream(
            delta(
                role="assistant",
                content="a",
                tool_calls=[fragment(index=0, id="call_1", name="f", arguments="")],
            ),
            delta(tool_calls=[fragment(index=0, arguments="{}")]),
            delta(finish_reason="tool_calls"),
        ),
    )


def _expect_steps(check: Check, steps: list[tuple[JSONObject, bool]]) -> None:
    acc = check.accumulator()
    for chunk, finished in steps:
        acc.add(stream(chunk)[0])
        _expect_finished(check, acc, expected=finished)


@rule("LIFE-FINISHED")
def test_finished_once_the_choice_has_a_finish_reason_other_than_error(check: Check) -> None:
    _expect_steps(
        check,
        [
            ({"choices": []}, False),  # no choice exists yet
            (delta(content="A"), False),
            (delta(finish_reason="error"), False),  # "error" does not finish
            (delta(finish_reason="length"), True),
        ],
    )


@rule("LIFE-FINISHED", "CHOICE-FINISH")
def test_a_blank_finish_reason_neither_finishes_nor_unfinishes(check: Check) -> None:
    _expect_steps(
        check,
        [
            (delta(content="A", finish_reason=""), False),  # blank is absent
            (delta(finish_reason="stop"), True),
            (delta(finish_reason=""), True),  # and never erases "stop"
        ],
    )


@rule("LIFE-FINISHED", "CHOICE-KEY", "CHOICE-ORDER")
def test_finished_once_every_choice_has_a_finish_reason(check: Check) -> None:
    _expect_steps(
        check,
        [
            (delta(index=0, content="A"), False),
            (delta(index=1, content="B", finish_reason="stop"), False),  # choice 0 is open
            (delta(index=0, finish_reason="stop"), True),
        ],
    )


@rule("LIFE-DONE")
def test_recording_done_finishes_a_fold_without_finish_reasons(check: Check) -> None:
    acc = check.accumulator()
    acc.add(stream(delta(role="assistant", content="Hi"))[0])
    _expect_finished(check, acc, expected=False)
    acc.mark_done()
    _expect_finished(check, acc, expected=True)
    _expect_response(check, acc, completion(choice(content="Hi")))


@rule("LIFE-DONE", "TOOL-EMPTY-ARGS")
def test_empty_arguments_read_braces_only_once_done_is_recorded(check: Check) -> None:
    acc = check.accumulator()
    acc.add(stream(delta(tool_calls=[fragment(index=0, id="call_1", name="f", arguments="")]))[0])
    _expect_response(check, acc, completion(choice(tool_calls=[call("call_1", "f", "")])))
    acc.mark_done()
    _expect_response(check, acc, completion(choice(tool_calls=[call("call_1", "f", "{}")])))


@rule("LIFE-ERROR")
def test_an_error_chunk_folds_its_deltas_keeps_no_error_and_does_not_finish(check: Check) -> None:
    # openrouter_midstream_error (Q18), with a delta on the error chunk that must count
    acc = check.accumulator()
    _add_all(
        acc,
        stream(
            delta(role="assistant", content="Par"),
            delta(content="tia"),
            {"error": _ERROR, **delta(content="l", finish_reason="error")},
        ),
    )
    _expect_response(check, acc, completion(choice(content="Partial", finish_reason="error")))
    _expect_finished(check, acc, expected=False)


@rule("LIFE-AFTER", "LIFE-ERROR")
def test_chunks_after_an_error_chunk_are_still_folded(check: Check) -> None:
    acc = check.accumulator()
    _add_all(
        acc,
        stream(
            delta(role="assistant", content="Par"),
            {"error": _ERROR, **delta(content="", finish_reason="error")},
            delta(content="tial"),
            delta(finish_reason="stop"),
        ),
    )
    _expect_response(check, acc, completion(choice(content="Partial", finish_reason="stop")))
    _expect_finished(check, acc, expected=True)


@rule("LIFE-AFTER", "USAGE-LAST")
def test_the_usage_chunk_after_the_fold_finished_is_still_folded(check: Check) -> None:
    acc = check.accumulator()
    _add_all(acc, stream(delta(role="assistant", content="Hi", finish_reason="stop")))
    _expect_finished(check, acc, expected=True)
    acc.add(stream({"choices": [], "usage": usage(5, 1)})[0])
    _expect_response(
        check, acc, completion(choice(content="Hi", finish_reason="stop"), usage=usage(5, 1))
    )


@rule("LIFE-AFTER")
def test_content_after_the_fold_finished_or_done_is_still_folded(check: Check) -> None:
    acc = check.accumulator()
    _add_all(
        acc, stream(delta(role="assistant", content="a", finish_reason="stop"), delta(content="b"))
    )
    acc.mark_done()
    acc.add(stream(delta(content="c"))[0])
    _expect_response(check, acc, completion(choice(content="abc", finish_reason="stop")))
    _expect_finished(check, acc, expected=True)
