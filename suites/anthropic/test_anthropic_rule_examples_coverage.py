"""Rule examples for branches of the reference no other example reached (measured with
`refold coverage --dialect anthropic-messages --target reference`): a wrong-typed
`citation`, `signature` or `partial_json` in a delta is treated as absent
(AM-ROB-WRONG-TYPE), so it appends no citation (AM-CITATIONS-APPEND), replaces no signature
(AM-THINK-SIGNATURE) and adds no input fragment (AM-TOOL-JOIN)."""

from __future__ import annotations

import pytest

from refold.reference import JSON, JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    block_stop,
    citation_delta,
    input_delta,
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
    tool_start,
    tool_use,
    unsigned_thinking_start,
)
from ._expect import expect_fold

_CITATION: JSONObject = {
    "type": "char_location",
    "cited_text": "The grass is green.",
    "document_index": 0,
    "document_title": "Example Document",
    "start_char_index": 0,
    "end_char_index": 20,
}
_NOT_OBJECTS: list[JSON] = [None, "char_location", 3, [_CITATION], True]
_NOT_STRINGS: list[JSON] = [None, 3, ["SigB"], {"signature": "SigB"}, True]


def _one_block(*events: JSONObject) -> list[JSONObject]:
    """`events` of block 0, stopped, between message_start and an end_turn stop."""
    return [message_start(), *events, block_stop(0), message_delta("end_turn", None), stop()]


@rule("AM-ROB-WRONG-TYPE", "AM-CITATIONS-APPEND")
@pytest.mark.parametrize("citation", _NOT_OBJECTS)
def test_a_citation_that_is_not_an_object_appends_nothing(check: Check, citation: JSON) -> None:
    events = _one_block(
        text_start(0, "", citations=[_CITATION]),
        text_delta(0, "green"),
        citation_delta(0, citation),
        text_delta(0, "!"),
    )
    expect_fold(
        check, events, message(text("green!", citations=[_CITATION]), stop_reason="end_turn")
    )


@rule("AM-ROB-WRONG-TYPE", "AM-THINK-SIGNATURE")
@pytest.mark.parametrize("signature", _NOT_STRINGS)
def test_a_signature_that_is_not_a_string_replaces_nothing(check: Check, signature: JSON) -> None:
    events = _one_block(
        thinking_start(0),
        thinking_delta(0, "Hmm."),
        signature_delta(0, "SigA"),
        signature_delta(0, signature),
    )
    expect_fold(check, events, message(thinking("Hmm.", signature="SigA"), stop_reason="end_turn"))


@rule("AM-ROB-WRONG-TYPE", "AM-THINK-SIGNATURE")
@pytest.mark.parametrize("signature", _NOT_STRINGS)
def test_a_lone_signature_that_is_not_a_string_leaves_the_block_unsigned(
    check: Check, signature: JSON
) -> None:
    events = _one_block(
        unsigned_thinking_start(0), thinking_delta(0, "Hmm."), signature_delta(0, signature)
    )
    expect_fold(check, events, message(thinking("Hmm."), stop_reason="end_turn"))


@rule("AM-ROB-WRONG-TYPE", "AM-TOOL-JOIN")
@pytest.mark.parametrize("fragment", _NOT_STRINGS)
def test_an_input_fragment_that_is_not_a_string_adds_nothing(check: Check, fragment: JSON) -> None:
    events = _one_block(
        tool_start(0),
        input_delta(0, '{"city": '),
        input_delta(0, fragment),
        input_delta(0, '"Paris"}'),
    )
    expect_fold(check, events, message(tool_use({"city": "Paris"}), stop_reason="end_turn"))
