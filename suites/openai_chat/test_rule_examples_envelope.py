"""Rule examples: the envelope (ENV-*)."""

from refold.run.checks import Check
from refold.run.marks import rule

from ._streams import choice, completion, delta, stream


@rule("ENV-OBJECT")
def test_the_object_is_chat_completion_whatever_the_chunks_say(check: Check) -> None:
    chunks = stream(
        {"object": "chat.completion.chunk", **delta(content="a")},
        {"object": "something.else", **delta(content="b")},
        {"object": None, **delta(finish_reason="stop")},
    )
    check.folds_to(chunks, completion(choice(content="ab", finish_reason="stop")))


@rule("ENV-ID")
def test_the_id_is_the_first_non_blank_chunk_id(check: Check) -> None:
    chunks = stream(
        {"id": "", **delta(role="assistant", content="a")},
        {"id": "chatcmpl-x", **delta(content="b")},
        {"id": "chatcmpl-later", **delta(finish_reason="stop")},
    )
    check.folds_to(chunks, completion(choice(content="ab", finish_reason="stop")))


@rule("ENV-ID", "ROB-WRONG-TYPE")
def test_a_null_whitespace_or_numeric_id_is_not_an_id(check: Check) -> None:
    chunks = stream(
        {"id": None, **delta(content="a")},
        {"id": " \t", **delta(content="b")},
        {"id": 42, **delta(content="c")},
        {"id": "chatcmpl-x", **delta(finish_reason="stop")},
    )
    check.folds_to(chunks, completion(choice(content="abc", finish_reason="stop")))


@rule("ENV-MODEL")
def test_the_model_is_the_first_non_blank_chunk_model(check: Check) -> None:
    chunks = stream(
        {"model": "", **delta(content="a")},
        {"model": "m", **delta(content="b")},
        {"model": "m-routed-later", **delta(finish_reason="stop")},
    )
    check.folds_to(chunks, completion(choice(content="ab", finish_reason="stop")))


@rule("ENV-CREATED")
def test_created_is_the_first_positive_integer_created(check: Check) -> None:
    chunks = stream(
        {"created": 0, **delta(content="a")},
        {"created": -5, **delta(content="b")},
        {"created": "1700000001", **delta(content="c")},
        {"created": 1700000000.5, **delta(content="d")},
        {"created": True, **delta(content="e")},
        {"created": 1700000000, **delta(content="f")},
        {"created": 1700000099, **delta(finish_reason="stop")},
    )
    check.folds_to(chunks, completion(choice(content="abcdef", finish_reason="stop")))


@rule("ENV-NO-ERROR")
def test_a_top_level_error_object_is_never_copied_into_the_response(check: Check) -> None:
    chunks = stream(
        delta(role="assistant", content="Par"),
        {
            "error": {"code": "server_error", "message": "Provider disconnected"},
            **delta(content="tial", finish_reason="stop"),
        },
    )
    check.folds_to(chunks, completion(choice(content="Partial", finish_reason="stop")))
