"""Rule examples: thought summaries and signatures (GM-THOUGHT-APART, GM-SIGNATURE).

A `thoughtSignature` must be sent back exactly as it was received [SIG]: it stays on the
part it arrived with, and a run holds at most one, its last fragment's.
"""

from __future__ import annotations

from refold.run.checks import Check
from refold.run.marks import rule

from ._chunks import USAGE, call, candidate, chunk, response, text, thought
from ._expect import expect_fold

_SIGNATURE = "CiQBcsjafBqUWbG9ZZ2d0c9m2pJw0Q=="


@rule("GM-THOUGHT-APART")
def test_thought_summaries_and_the_answer_are_two_parts(check: Check) -> None:
    chunks = [
        chunk(candidate(thought("**Planning**\nThe user"))),
        chunk(candidate(thought(" wants a greeting."))),
        chunk(candidate(text("Hel"))),
        chunk(candidate(text("lo!"), finishReason="STOP"), usageMetadata=USAGE),
    ]
    expected = response(
        candidate(
            thought("**Planning**\nThe user wants a greeting."),
            text("Hello!"),
            finishReason="STOP",
        ),
        usageMetadata=USAGE,
    )
    expect_fold(check, chunks, expected)


@rule("GM-THOUGHT-APART")
def test_a_thought_part_after_the_answer_starts_a_thought_run_of_its_own(check: Check) -> None:
    chunks = [
        chunk(candidate(thought("Think"))),
        chunk(candidate(text("Answer"))),
        chunk(candidate(thought("More thinking"), finishReason="STOP")),
    ]
    expected = response(
        candidate(thought("Think"), text("Answer"), thought("More thinking"), finishReason="STOP")
    )
    expect_fold(check, chunks, expected)


@rule("GM-SIGNATURE", "GM-TEXT-JOIN")
def test_the_gemini_3_finish_chunks_signature_lands_on_the_answer(check: Check) -> None:
    # R5: the finish chunk holds {"text": "", "thoughtSignature": S}
    chunks = [
        chunk(candidate(text("Hello"))),
        chunk(candidate(text(" world"))),
        chunk(
            candidate(text("", thoughtSignature=_SIGNATURE), finishReason="STOP"),
            usageMetadata=USAGE,
        ),
    ]
    expected = response(
        candidate(text("Hello world", thoughtSignature=_SIGNATURE), finishReason="STOP"),
        usageMetadata=USAGE,
    )
    expect_fold(check, chunks, expected)


@rule("GM-SIGNATURE", "GM-TEXT-JOIN")
def test_a_signed_run_takes_no_further_fragment_so_each_signature_keeps_its_text(
    check: Check,
) -> None:
    # a run holds at most one signature, its last fragment's: the next plain part, signed
    # too, starts a run of its own, and neither signature is merged or moved
    other = "Q2lRQmNzamFmQnFVV2JHOQ=="
    chunks = [
        chunk(candidate(text("Hel", thoughtSignature=_SIGNATURE))),
        chunk(candidate(text("lo", thoughtSignature=other), finishReason="STOP")),
    ]
    expected = response(
        candidate(
            text("Hel", thoughtSignature=_SIGNATURE),
            text("lo", thoughtSignature=other),
            finishReason="STOP",
        )
    )
    expect_fold(check, chunks, expected)


@rule("GM-SIGNATURE", "GM-THOUGHT-APART")
def test_a_signature_after_a_thought_run_stays_a_part_of_its_own(check: Check) -> None:
    chunks = [
        chunk(candidate(thought("Considering"))),
        chunk(candidate(text("", thoughtSignature=_SIGNATURE), finishReason="STOP")),
    ]
    expected = response(
        candidate(
            thought("Considering"), text("", thoughtSignature=_SIGNATURE), finishReason="STOP"
        )
    )
    expect_fold(check, chunks, expected)


@rule("GM-SIGNATURE", "GM-CALL-WHOLE")
def test_a_signature_on_a_function_call_stays_on_the_call(check: Check) -> None:
    # [SIG]: "parallel function calls: the first functionCall part" carries one
    signed = {**call("get_weather", args={"city": "Paris"}), "thoughtSignature": _SIGNATURE}
    chunks = [
        chunk(candidate(signed, call("get_weather", args={"city": "Rome"}), finishReason="STOP"))
    ]
    expected = response(
        candidate(signed, call("get_weather", args={"city": "Rome"}), finishReason="STOP")
    )
    expect_fold(check, chunks, expected)


@rule("GM-SIGNATURE", "GM-TEXT-JOIN")
def test_a_signature_after_a_function_call_stays_a_part_of_its_own(check: Check) -> None:
    # R5: the finish chunk's `{"text": "", "thoughtSignature": S}` after a call is a part
    # of its own; it never moves onto the text before the call
    chunks = [
        chunk(candidate(text("Checking."))),
        chunk(candidate(call("get_weather", args={"city": "Paris"}))),
        chunk(candidate(text("", thoughtSignature=_SIGNATURE), finishReason="STOP")),
    ]
    expected = response(
        candidate(
            text("Checking."),
            call("get_weather", args={"city": "Paris"}),
            text("", thoughtSignature=_SIGNATURE),
            finishReason="STOP",
        )
    )
    expect_fold(check, chunks, expected)
