"""Rule examples: OpenRouter reasoning details (RD-*)."""

from refold.run.checks import Check
from refold.run.marks import rule

from ._streams import choice, completion, delta, stream

_TEXT = "reasoning.text"
_SUMMARY = "reasoning.summary"
_ENCRYPTED = "reasoning.encrypted"


@rule("RD-MERGE")
def test_text_fragments_of_one_index_merge_into_one_segment(check: Check) -> None:
    chunks = stream(
        delta(reasoning_details=[{"type": _TEXT, "text": "Let me", "index": 0}]),
        delta(reasoning_details=[{"type": _TEXT, "text": " think", "index": 0}]),
        delta(content="42", finish_reason="stop"),
    )
    expected = completion(
        choice(
            content="42",
            finish_reason="stop",
            reasoning_details=[{"type": _TEXT, "text": "Let me think", "index": 0}],
        )
    )
    check.folds_to(chunks, expected)


@rule("RD-MERGE", "RD-ORDER")
def test_text_and_summary_of_the_same_index_are_separate_segments(check: Check) -> None:
    chunks = stream(
        delta(
            reasoning_details=[
                {"type": _SUMMARY, "summary": "Plan", "index": 0},
                {"type": _TEXT, "text": "Step", "index": 0},
            ]
        ),
        delta(
            reasoning_details=[
                {"type": _TEXT, "text": " one", "index": 0},
                {"type": _SUMMARY, "summary": "ning", "index": 0},
                {"type": _TEXT, "text": "Other", "index": 1},
            ]
        ),
        delta(finish_reason="stop"),
    )
    expected = completion(
        choice(
            finish_reason="stop",
            reasoning_details=[
                {"type": _SUMMARY, "summary": "Planning", "index": 0},
                {"type": _TEXT, "text": "Step one", "index": 0},
                {"type": _TEXT, "text": "Other", "index": 1},
            ],
        )
    )
    check.folds_to(chunks, expected)


@rule("RD-FIELDS")
def test_a_signature_survives_a_later_null(check: Check) -> None:
    chunks = stream(
        delta(
            reasoning_details=[
                {
                    "type": _TEXT,
                    "text": "Hm",
                    "signature": None,
                    "format": "anthropic-claude-v1",
                    "index": 0,
                }
            ]
        ),
        delta(
            reasoning_details=[
                {
                    "type": _TEXT,
                    "text": ".",
                    "signature": "sig123",
                    "format": "anthropic-claude-v1",
                    "index": 0,
                }
            ]
        ),
        delta(
            reasoning_details=[
                {"type": _TEXT, "text": "", "signature": None, "format": "", "index": 0}
            ]
        ),
        delta(finish_reason="stop"),
    )
    expected = completion(
        choice(
            finish_reason="stop",
            reasoning_details=[
                {
                    "type": _TEXT,
                    "text": "Hm.",
                    "signature": "sig123",
                    "format": "anthropic-claude-v1",
                    "index": 0,
                }
            ],
        )
    )
    check.folds_to(chunks, expected)


@rule("RD-FIELDS")
def test_other_string_fields_keep_their_last_non_blank_value(check: Check) -> None:
    chunks = stream(
        delta(
            reasoning_details=[
                {
                    "type": _SUMMARY,
                    "summary": "a",
                    "id": "rs_1",
                    "format": "unknown",
                    "x_note": "first",
                    "index": 0,
                }
            ]
        ),
        delta(
            reasoning_details=[
                {
                    "type": _SUMMARY,
                    "summary": "b",
                    "id": " ",
                    "format": "openai-responses-v1",
                    "x_note": "second",
                    "index": 0,
                }
            ]
        ),
        delta(finish_reason="stop"),
    )
    expected = completion(
        choice(
            finish_reason="stop",
            reasoning_details=[
                {
                    "type": _SUMMARY,
                    "summary": "ab",
                    "id": "rs_1",
                    "format": "openai-responses-v1",
                    "x_note": "second",
                    "index": 0,
                }
            ],
        )
    )
    check.folds_to(chunks, expected)


@rule("RD-INDEXLESS")
def test_index_less_text_fragments_join_until_a_signature_closes_them(check: Check) -> None:
    # reasoning_details_no_index_two_chunks (Q17), then a second segment after the signature
    chunks = stream(
        delta(reasoning_details=[{"type": _TEXT, "text": "First "}]),
        delta(reasoning_details=[{"type": _TEXT, "text": "thought", "signature": "sig_a"}]),
        delta(reasoning_details=[{"type": _TEXT, "text": "Second"}]),
        delta(reasoning_details=[{"type": _TEXT, "text": " thought", "signature": "sig_b"}]),
        delta(finish_reason="stop"),
    )
    expected = completion(
        choice(
            finish_reason="stop",
            reasoning_details=[
                {"type": _TEXT, "text": "First thought", "signature": "sig_a"},
                {"type": _TEXT, "text": "Second thought", "signature": "sig_b"},
            ],
        )
    )
    check.folds_to(chunks, expected)


@rule("RD-INDEXLESS")
def test_an_open_index_less_segment_is_per_type(check: Check) -> None:
    chunks = stream(
        delta(reasoning_details=[{"type": _TEXT, "text": "a"}, {"type": _SUMMARY, "summary": "x"}]),
        delta(
            reasoning_details=[
                {"type": _SUMMARY, "summary": "y"},
                {"type": _TEXT, "text": "b", "signature": "s"},
            ]
        ),
        delta(finish_reason="stop"),
    )
    expected = completion(
        choice(
            finish_reason="stop",
            reasoning_details=[
                {"type": _TEXT, "text": "ab", "signature": "s"},
                {"type": _SUMMARY, "summary": "xy"},
            ],
        )
    )
    check.folds_to(chunks, expected)


@rule("RD-AS-SENT")
def test_encrypted_and_unknown_segments_are_kept_as_sent_never_merged(check: Check) -> None:
    encrypted_a = {"type": _ENCRYPTED, "data": "[REDACTED]", "id": "r1", "index": 0}
    encrypted_b = {"type": _ENCRYPTED, "data": "gAAAA", "id": None, "index": 0}
    server_tool = {"type": "reasoning.server_tool", "name": "web", "index": 0, "n": 2}
    chunks = stream(
        delta(reasoning_details=[encrypted_a]),
        delta(reasoning_details=[encrypted_b, server_tool]),
        delta(finish_reason="stop"),
    )
    expected = completion(
        choice(finish_reason="stop", reasoning_details=[encrypted_a, encrypted_b, server_tool])
    )
    check.folds_to(chunks, expected)


@rule("RD-ORDER")
def test_segments_are_in_order_of_first_appearance_with_index_kept(check: Check) -> None:
    chunks = stream(
        delta(reasoning_details=[{"type": _TEXT, "text": "one", "index": 1}]),
        delta(reasoning_details=[{"type": _TEXT, "text": "zero", "index": 0}]),
        delta(reasoning_details=[{"type": _TEXT, "text": " more", "index": 1}]),
        delta(finish_reason="stop"),
    )
    expected = completion(
        choice(
            finish_reason="stop",
            reasoning_details=[
                {"type": _TEXT, "text": "one more", "index": 1},
                {"type": _TEXT, "text": "zero", "index": 0},
            ],
        )
    )
    check.folds_to(chunks, expected)


@rule("RD-ORDER", "RD-INDEXLESS")
def test_an_index_less_segment_takes_its_place_of_first_appearance_and_no_index(
    check: Check,
) -> None:
    chunks = stream(
        delta(reasoning_details=[{"type": _TEXT, "text": "one", "index": 1}]),
        delta(reasoning_details=[{"type": _TEXT, "text": "no index"}]),
        delta(reasoning_details=[{"type": _TEXT, "text": "zero", "index": 0}]),
        delta(finish_reason="stop"),
    )
    expected = completion(
        choice(
            finish_reason="stop",
            reasoning_details=[
                {"type": _TEXT, "text": "one", "index": 1},
                {"type": _TEXT, "text": "no index"},
                {"type": _TEXT, "text": "zero", "index": 0},
            ],
        )
    )
    check.folds_to(chunks, expected)


@rule("RD-MERGE", "ROB-NULL-ENTRIES")
def test_null_reasoning_detail_entries_are_skipped(check: Check) -> None:
    chunks = stream(
        delta(reasoning_details=[None, {"type": _TEXT, "text": "a", "index": 0}, 7]),
        delta(reasoning_details=[None]),
        delta(reasoning_details=[{"type": _TEXT, "text": "b", "index": 0}], finish_reason="stop"),
    )
    expected = completion(
        choice(finish_reason="stop", reasoning_details=[{"type": _TEXT, "text": "ab", "index": 0}])
    )
    check.folds_to(chunks, expected)


@rule("RD-MERGE", "RD-FIELDS", "ROB-WRONG-TYPE")
def test_reasoning_values_of_the_wrong_type_are_skipped(check: Check) -> None:
    # a non-list reasoning_details, and a `text` that is not a string, join nothing
    chunks = stream(
        delta(reasoning_details={"type": _TEXT, "text": "lost", "index": 0}),
        delta(reasoning_details=[{"type": _TEXT, "text": "ok", "signature": "sig", "index": 0}]),
        delta(
            reasoning_details=[
                {"type": _TEXT, "text": None, "index": 0},
                {"type": _TEXT, "text": 5, "index": 0},
            ]
        ),
        delta(finish_reason="stop"),
    )
    expected = completion(
        choice(
            finish_reason="stop",
            reasoning_details=[{"type": _TEXT, "text": "ok", "signature": "sig", "index": 0}],
        )
    )
    check.folds_to(chunks, expected)


@rule("RD-FIELDS")
def test_a_merged_segment_keeps_the_last_non_null_value_of_a_non_string_field(
    check: Check,
) -> None:
    # The spec names string fields only; the reference reads a non-string field the same
    # way (last value that is not null), so a later null never erases an earlier value.
    chunks = stream(
        delta(
            reasoning_details=[
                {"type": "reasoning.text", "index": 0, "text": "a", "extra": {"n": 1}}
            ]
        ),
        delta(
            reasoning_details=[{"type": "reasoning.text", "index": 0, "text": "b", "extra": None}]
        ),
        delta(reasoning_details=[{"type": "reasoning.text", "index": 0, "extra": [2]}]),
    )
    check.folds_to(
        chunks,
        completion(
            choice(
                reasoning_details=[
                    {"type": "reasoning.text", "index": 0, "text": "ab", "extra": [2]}
                ]
            )
        ),
    )


@rule("RD-MERGE")
def test_a_merged_segment_that_never_received_text_has_no_text_field(check: Check) -> None:
    chunks = stream(
        delta(reasoning_details=[{"type": "reasoning.summary", "index": 0, "format": "f"}]),
        delta(reasoning_details=[{"type": "reasoning.summary", "index": 0, "summary": None}]),
    )
    check.folds_to(
        chunks,
        completion(
            choice(reasoning_details=[{"type": "reasoning.summary", "index": 0, "format": "f"}])
        ),
    )
