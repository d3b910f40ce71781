"""Parts in the Gemini fold: text runs, thoughts, signatures, calls, code, media, the rest.

One worked example (at least) per rule of the spec's "Parts" section; `RULES_CHECKED`
names the rules each test checks.
"""

from __future__ import annotations

from _gemini_streams import chunk, parts_of

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_text_parts_of_one_candidate_join_across_chunks_verbatim": ("GM-TEXT-JOIN",),
    "test_adjacent_text_parts_inside_one_chunk_join": ("GM-TEXT-JOIN",),
    "test_a_text_part_with_extra_keys_is_kept_apart_and_starts_a_new_run": (
        "GM-TEXT-JOIN",
        "GM-PART-OTHER",
    ),
    "test_empty_text_without_signature_is_dropped": ("GM-TEXT-EMPTY",),
    "test_thought_parts_never_join_answer_parts": ("GM-THOUGHT-APART", "GM-TEXT-JOIN"),
    "test_a_thought_flag_that_is_not_true_is_an_answer": (
        "GM-THOUGHT-APART",
        "GM-ROB-WRONG-TYPE",
    ),
    "test_a_trailing_signature_only_part_lands_on_the_joined_run": ("GM-SIGNATURE",),
    "test_a_signed_run_takes_no_further_fragment": ("GM-SIGNATURE", "GM-TEXT-JOIN"),
    "test_a_signature_after_thoughts_on_an_answer_part_stands_alone": (
        "GM-SIGNATURE",
        "GM-THOUGHT-APART",
    ),
    "test_a_blank_signature_is_no_signature": ("GM-SIGNATURE", "GM-ROB-WRONG-TYPE"),
    "test_function_calls_are_kept_whole_each_its_own_part": ("GM-CALL-WHOLE",),
    "test_text_after_a_call_starts_a_new_run": ("GM-CALL-WHOLE", "GM-TEXT-JOIN"),
    "test_a_call_id_is_kept_where_sent_and_never_invented": ("GM-CALL-ID",),
    "test_code_parts_are_kept_whole_in_order": ("GM-CODE",),
    "test_inline_data_is_never_concatenated": ("GM-INLINE",),
    "test_other_parts_are_kept_as_sent_in_place": ("GM-PART-OTHER", "GM-UNKNOWN-KEYS"),
    "test_parts_that_carry_nothing_are_skipped": ("GM-PART-OTHER", "GM-ROB-NULL-ENTRIES"),
}


def test_text_parts_of_one_candidate_join_across_chunks_verbatim() -> None:
    chunks = [chunk({"text": "There are **3**"}), chunk({"text": ' "r"s\n'}), chunk({"text": " "})]
    assert parts_of(chunks) == [{"text": 'There are **3** "r"s\n '}]


def test_adjacent_text_parts_inside_one_chunk_join() -> None:
    assert parts_of([chunk({"text": "a"}, {"text": "b"}), chunk({"text": "c"})]) == [
        {"text": "abc"}
    ]


def test_a_text_part_with_extra_keys_is_kept_apart_and_starts_a_new_run() -> None:
    tagged = {"text": "b", "partMetadata": {"k": 1}}
    chunks = [chunk({"text": "a"}, tagged, {"text": "c"}, {"text": "d"})]
    assert parts_of(chunks) == [{"text": "a"}, tagged, {"text": "cd"}]


def test_empty_text_without_signature_is_dropped() -> None:
    chunks = [chunk({"text": ""}), chunk({"text": "a"}), chunk({"text": ""}, finishReason="STOP")]
    assert parts_of(chunks) == [{"text": "a"}]
    assert parts_of([chunk({"text": "", "thought": True})]) == []


def test_thought_parts_never_join_answer_parts() -> None:
    chunks = [
        chunk({"text": "Let me ", "thought": True}),
        chunk({"text": "think.", "thought": True}),
        chunk({"text": "hel"}),
        chunk({"text": "lo"}),
        chunk({"text": "more", "thought": True}),
    ]
    assert parts_of(chunks) == [
        {"text": "Let me think.", "thought": True},
        {"text": "hello"},
        {"text": "more", "thought": True},
    ]


def test_a_thought_flag_that_is_not_true_is_an_answer() -> None:
    chunks = [chunk({"text": "a", "thought": False}), chunk({"text": "b", "thought": "yes"})]
    assert parts_of(chunks) == [{"text": "ab"}]


def test_a_trailing_signature_only_part_lands_on_the_joined_run() -> None:
    chunks = [
        chunk({"text": "Hello!"}),
        chunk({"text": " How can I help?"}),
        chunk({"text": "", "thoughtSignature": "AY89"}, finishReason="STOP"),
    ]
    assert parts_of(chunks) == [{"text": "Hello! How can I help?", "thoughtSignature": "AY89"}]


def test_a_signed_run_takes_no_further_fragment() -> None:
    chunks = [
        chunk({"text": "a", "thoughtSignature": "S1"}),
        chunk({"text": "b"}),
        chunk({"text": "", "thoughtSignature": "S2"}),
        chunk({"text": "", "thoughtSignature": "S3"}),
    ]
    assert parts_of(chunks) == [
        {"text": "a", "thoughtSignature": "S1"},
        {"text": "b", "thoughtSignature": "S2"},
        {"text": "", "thoughtSignature": "S3"},
    ]


def test_a_signature_after_thoughts_on_an_answer_part_stands_alone() -> None:
    chunks = [
        chunk({"text": "plan", "thought": True}),
        chunk({"text": "", "thoughtSignature": "S"}),
    ]
    assert parts_of(chunks) == [
        {"text": "plan", "thought": True},
        {"text": "", "thoughtSignature": "S"},
    ]
    code_assist = [
        chunk({"text": "plan", "thought": True}),
        chunk({"text": "", "thought": True, "thoughtSignature": "S"}),
    ]
    assert parts_of(code_assist) == [{"text": "plan", "thought": True, "thoughtSignature": "S"}]


def test_a_blank_signature_is_no_signature() -> None:
    chunks = [chunk({"text": "a", "thoughtSignature": " "}), chunk({"text": "b"})]
    assert parts_of(chunks) == [{"text": "ab"}]


def test_function_calls_are_kept_whole_each_its_own_part() -> None:
    first = {"functionCall": {"name": "f", "args": {"x": 1}}, "thoughtSignature": "S"}
    second = {"functionCall": {"name": "g", "args": {}}}
    no_args = {"functionCall": {"name": "read_theme"}}
    last = {"functionCall": {"name": "h", "args": {}, "willContinue": False}}
    chunks = [chunk(first, second), chunk(no_args), chunk(last)]
    assert parts_of(chunks) == [first, second, no_args, last]


def test_text_after_a_call_starts_a_new_run() -> None:
    call = {"functionCall": {"name": "f", "args": {}}}
    chunks = [chunk({"text": "a"}), chunk(call), chunk({"text": "b"})]
    assert parts_of(chunks) == [{"text": "a"}, call, {"text": "b"}]


def test_a_call_id_is_kept_where_sent_and_never_invented() -> None:
    with_id = {"functionCall": {"id": "g1bmv6il", "name": "f", "args": {}}}
    without = {"functionCall": {"name": "f", "args": {}}}
    assert parts_of([chunk(with_id, without)]) == [with_id, without]


def test_code_parts_are_kept_whole_in_order() -> None:
    code = {"executableCode": {"language": "PYTHON", "code": "print(1)"}}
    result = {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1\n"}}
    chunks = [chunk({"text": "Run:"}, code), chunk(result, {"text": "Done"})]
    assert parts_of(chunks) == [{"text": "Run:"}, code, result, {"text": "Done"}]


def test_inline_data_is_never_concatenated() -> None:
    first = {"inlineData": {"mimeType": "audio/pcm", "data": "AAAA"}}
    second = {"inlineData": {"mimeType": "audio/pcm", "data": "BBBB"}}
    image = {"inlineData": {"mimeType": "image/png", "data": "iVBO"}, "thoughtSignature": "S"}
    file = {"fileData": {"mimeType": "application/pdf", "fileUri": "gs://b/f.pdf"}}
    assert parts_of([chunk(first), chunk(second), chunk(image, file)]) == [
        first,
        second,
        image,
        file,
    ]


def test_other_parts_are_kept_as_sent_in_place() -> None:
    response = {"functionResponse": {"name": "f", "response": {"ok": True}}}
    unknown = {"toolCall": {"name": "search"}, "futureKey": [1]}
    chunks = [chunk({"text": "a"}, response, unknown, {"text": "b"})]
    assert parts_of(chunks) == [{"text": "a"}, response, unknown, {"text": "b"}]


def test_parts_that_carry_nothing_are_skipped() -> None:
    chunks = [chunk(None, {}, {"text": None}, 3, "x", {"text": "a"}, [], {"text": "b"})]
    assert parts_of(chunks) == [{"text": "ab"}]
