"""Rule examples: usage (USAGE-LAST)."""

from refold.run.checks import Check
from refold.run.marks import rule

from ._streams import choice, completion, delta, stream, usage


@rule("USAGE-LAST")
def test_usage_on_the_final_empty_choices_chunk_is_reported(check: Check) -> None:
    chunks = stream(
        {"usage": None, **delta(role="assistant", content="Hi")},
        {"usage": None, **delta(finish_reason="stop")},
        {"choices": [], "usage": usage(5, 1)},
    )
    check.folds_to(
        chunks, completion(choice(content="Hi", finish_reason="stop"), usage=usage(5, 1))
    )


@rule("USAGE-LAST")
def test_cumulative_usage_on_every_chunk_is_never_summed(check: Check) -> None:
    # usage_every_chunk_cumulative (Q14)
    chunks = stream(
        {"usage": usage(5, 1), **delta(content="a")},
        {"usage": usage(5, 2), **delta(content="b")},
        {"usage": usage(5, 3), **delta(content="c", finish_reason="stop")},
    )
    check.folds_to(
        chunks, completion(choice(content="abc", finish_reason="stop"), usage=usage(5, 3))
    )


@rule("USAGE-LAST")
def test_a_figure_repeated_on_two_chunks_is_reported_once(check: Check) -> None:
    # OpenRouter's two trailing finish chunks, both carrying the usage (Q13)
    chunks = stream(
        delta(content="a"),
        {"usage": usage(5, 1), **delta(finish_reason="stop")},
        {"usage": usage(5, 1), **delta(finish_reason="stop")},
    )
    check.folds_to(chunks, completion(choice(content="a", finish_reason="stop"), usage=usage(5, 1)))


@rule("USAGE-LAST")
def test_a_later_chunk_without_usage_never_clears_it(check: Check) -> None:
    # usage_then_trailing_chunk (Q14)
    chunks = stream(
        {"usage": usage(5, 1), **delta(content="a", finish_reason="stop")},
        {"usage": None, "choices": []},
        {"choices": []},
    )
    check.folds_to(chunks, completion(choice(content="a", finish_reason="stop"), usage=usage(5, 1)))


@rule("USAGE-LAST")
def test_usage_is_replaced_whole_never_merged_field_by_field(check: Check) -> None:
    first = usage(5, 1, prompt_tokens_details={"cached_tokens": 4}, cost=0.5)
    chunks = stream(
        {"usage": first, **delta(content="a")},
        {"choices": [], "usage": usage(5, 2)},
    )
    check.folds_to(chunks, completion(choice(content="a"), usage=usage(5, 2)))


@rule("USAGE-LAST", "ROB-WRONG-TYPE")
def test_usage_is_absent_when_no_chunk_carried_a_usage_object(check: Check) -> None:
    chunks = stream(
        {"usage": None, **delta(content="a")},
        {"usage": "8 tokens", **delta(content="b")},
        {"usage": [usage(5, 1)], **delta(finish_reason="stop")},
    )
    check.folds_to(chunks, completion(choice(content="ab", finish_reason="stop")))
