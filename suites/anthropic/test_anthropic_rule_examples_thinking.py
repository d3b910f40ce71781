"""Rule examples: thinking blocks (AM-THINK-JOIN, AM-THINK-SIGNATURE, AM-REDACTED)."""

from __future__ import annotations

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    block_start,
    block_stop,
    message,
    message_delta,
    message_start,
    signature_delta,
    stop,
    text,
    text_delta,
    text_start,
    thinking,
    thinking_delta,
    thinking_start,
    unsigned_thinking_start,
)
from ._expect import expect_fold

_SIGNATURE = "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"
_REDACTED: JSONObject = {
    "type": "redacted_thinking",
    "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8c",
}


def _thinking_block(*events: JSONObject) -> list[JSONObject]:
    """`events` of a thinking block 0, stopped, then message_delta and message_stop."""
    return [message_start(), *events, block_stop(0), message_delta("end_turn", None), stop()]


@rule("AM-THINK-JOIN", "AM-THINK-SIGNATURE")
def test_the_docs_extended_thinking_stream_folds_into_its_message(check: Check) -> None:
    # the streaming page's thinking example (which carries no usage at all)
    events = [
        message_start(),
        thinking_start(0),
        thinking_delta(0, "Let me solve this step by step:\n\n1. First break down 27 * 453"),
        thinking_delta(0, "\n2. 453 = 400 + 50 + 3"),
        signature_delta(0, _SIGNATURE),
        block_stop(0),
        text_start(1),
        text_delta(1, "27 * 453 = 12,231"),
        block_stop(1),
        message_delta("end_turn", None),
        stop(),
    ]
    expected = message(
        thinking(
            "Let me solve this step by step:\n\n1. First break down 27 * 453"
            "\n2. 453 = 400 + 50 + 3",
            signature=_SIGNATURE,
        ),
        text("27 * 453 = 12,231"),
        stop_reason="end_turn",
    )
    expect_fold(check, events, expected)


@rule("AM-THINK-JOIN")
def test_a_signature_only_thinking_block_keeps_its_empty_thinking(check: Check) -> None:
    # AQ11: empty plaintext plus a signature is normal for adaptive thinking
    events = _thinking_block(thinking_start(0), signature_delta(0, _SIGNATURE))
    expect_fold(check, events, message(thinking("", signature=_SIGNATURE), stop_reason="end_turn"))


@rule("AM-THINK-JOIN")
def test_thinking_on_the_start_event_is_kept_before_the_deltas(check: Check) -> None:
    events = _thinking_block(
        thinking_start(0, "First, "), thinking_delta(0, "the sum."), signature_delta(0, _SIGNATURE)
    )
    expect_fold(
        check,
        events,
        message(thinking("First, the sum.", signature=_SIGNATURE), stop_reason="end_turn"),
    )


@rule("AM-THINK-JOIN")
def test_a_thinking_start_without_thinking_starts_from_empty(check: Check) -> None:
    for start in ({"type": "thinking"}, {"type": "thinking", "thinking": None}):
        events = _thinking_block(
            block_start(0, start), thinking_delta(0, "Hmm."), signature_delta(0, _SIGNATURE)
        )
        expect_fold(
            check, events, message(thinking("Hmm.", signature=_SIGNATURE), stop_reason="end_turn")
        )


@rule("AM-THINK-JOIN")
def test_thinking_is_joined_verbatim(check: Check) -> None:
    parts = ["  ", "Step 1:\n", "", "\te\u0301 ", "\n\n"]
    events = _thinking_block(
        thinking_start(0), *(thinking_delta(0, p) for p in parts), signature_delta(0, _SIGNATURE)
    )
    expect_fold(
        check,
        events,
        message(thinking("".join(parts), signature=_SIGNATURE), stop_reason="end_turn"),
    )


@rule("AM-THINK-SIGNATURE")
def test_a_second_signature_delta_replaces_the_first(check: Check) -> None:
    # AQ10 exp D: LangChain concatenates the two, litellm splits the block in two
    events = _thinking_block(
        thinking_start(0),
        thinking_delta(0, "Hmm."),
        signature_delta(0, "SigA"),
        signature_delta(0, "SigB"),
    )
    expect_fold(check, events, message(thinking("Hmm.", signature="SigB"), stop_reason="end_turn"))


@rule("AM-THINK-SIGNATURE")
def test_without_a_signature_delta_the_start_signature_stands(check: Check) -> None:
    events = _thinking_block(thinking_start(0, "", signature="SigStart"), thinking_delta(0, "Hmm."))
    expect_fold(
        check, events, message(thinking("Hmm.", signature="SigStart"), stop_reason="end_turn")
    )


@rule("AM-THINK-SIGNATURE")
def test_a_signature_delta_replaces_the_start_signature(check: Check) -> None:
    events = _thinking_block(
        thinking_start(0, "", signature="SigStart"),
        thinking_delta(0, "Hmm."),
        signature_delta(0, "SigFinal"),
    )
    expect_fold(
        check, events, message(thinking("Hmm.", signature="SigFinal"), stop_reason="end_turn")
    )


@rule("AM-THINK-SIGNATURE")
def test_an_unsigned_thinking_block_has_no_signature(check: Check) -> None:
    # AQ11: litellm dropped unsigned thinking; the block stays, with no signature invented
    # (the docs' thinking start, which carries no `signature`)
    events = _thinking_block(unsigned_thinking_start(0), thinking_delta(0, "Hmm."))
    expect_fold(check, events, message(thinking("Hmm."), stop_reason="end_turn"))


@rule("AM-THINK-SIGNATURE")
def test_a_signature_goes_to_the_thinking_block_its_delta_names(check: Check) -> None:
    events = [
        message_start(),
        thinking_start(0),
        thinking_delta(0, "a"),
        thinking_start(1),
        thinking_delta(1, "b"),
        signature_delta(1, "SigOne"),
        signature_delta(0, "SigZero"),
        block_stop(0),
        block_stop(1),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(
        check,
        events,
        message(
            thinking("a", signature="SigZero"),
            thinking("b", signature="SigOne"),
            stop_reason="end_turn",
        ),
    )


@rule("AM-REDACTED")
def test_a_redacted_thinking_block_is_kept_verbatim_in_place(check: Check) -> None:
    # AQ12: litellm, goai and others dropped it; the next turn must send it back unmodified
    events = [
        message_start(),
        thinking_start(0),
        thinking_delta(0, "Hmm."),
        signature_delta(0, _SIGNATURE),
        block_stop(0),
        block_start(1, _REDACTED),
        block_stop(1),
        text_start(2),
        text_delta(2, "Answer."),
        block_stop(2),
        message_delta("end_turn", None),
        stop(),
    ]
    expected = message(
        thinking("Hmm.", signature=_SIGNATURE), _REDACTED, text("Answer."), stop_reason="end_turn"
    )
    expect_fold(check, events, expected)


@rule("AM-REDACTED")
def test_deltas_sent_to_a_redacted_thinking_block_change_nothing(check: Check) -> None:
    events = _thinking_block(
        block_start(0, _REDACTED),
        thinking_delta(0, "leak"),
        signature_delta(0, "Sig"),
        text_delta(0, "x"),
    )
    expect_fold(check, events, message(_REDACTED, stop_reason="end_turn"))
