"""Rule examples: function calls (GM-CALL-WHOLE, GM-CALL-ID, GM-CALL-STREAMED,
GM-CALL-PARTIAL-ARGS).

The Gemini API sends each call complete in one part (R6); Vertex AI with
`streamFunctionCallArguments` streams a call's arguments as `partialArgs` pieces [VTX],
which fold into one call. No example here sends a nameless fragment while no call is
open: the spec reads that case two ways (GM-CALL-STREAMED, "kept whole").
"""

from __future__ import annotations

from refold.run.checks import Check
from refold.run.marks import rule

from ._chunks import USAGE, call, candidate, chunk, piece, response, text
from ._expect import expect_fold


@rule("GM-CALL-WHOLE")
def test_parallel_calls_are_separate_parts_kept_as_sent(check: Check) -> None:
    first = call("get_weather", args={"city": "Paris", "unit": "celsius"})
    second = call("get_weather", args={"city": "Rome", "days": [1, 2], "alerts": None})
    chunks = [chunk(candidate(first, second, finishReason="STOP"), usageMetadata=USAGE)]
    expected = response(candidate(first, second, finishReason="STOP"), usageMetadata=USAGE)
    expect_fold(check, chunks, expected)


@rule("GM-CALL-WHOLE", "GM-TEXT-JOIN")
def test_a_call_between_text_pieces_splits_the_text_into_two_parts(check: Check) -> None:
    lookup = call("lookup", args={"q": "tides"})
    chunks = [
        chunk(candidate(text("Let me "))),
        chunk(candidate(text("check."), lookup)),
        chunk(candidate(text("Done"), finishReason="STOP")),
    ]
    expected = response(candidate(text("Let me check."), lookup, text("Done"), finishReason="STOP"))
    expect_fold(check, chunks, expected)


@rule("GM-CALL-WHOLE")
def test_a_call_without_arguments_is_kept_without_args(check: Check) -> None:
    # Vertex, google-stream-no-args-tool-call (R6)
    chunks = [chunk(candidate(call("get_time"), finishReason="STOP"))]
    expect_fold(check, chunks, response(candidate(call("get_time"), finishReason="STOP")))


@rule("GM-CALL-ID")
def test_a_call_id_the_gemini_api_sent_is_kept_verbatim(check: Check) -> None:
    sent = call("get_weather", args={"city": "Paris"}, id="g1bmv6il")
    chunks = [chunk(candidate(sent, finishReason="STOP"))]
    expect_fold(check, chunks, response(candidate(sent, finishReason="STOP")))


@rule("GM-CALL-ID")
def test_a_call_without_id_gets_none(check: Check) -> None:
    # Vertex v1's FunctionCall has no id field
    sent = call("get_weather", args={"city": "Paris"})
    chunks = [chunk(candidate(sent, finishReason="STOP"))]
    expect_fold(check, chunks, response(candidate(sent, finishReason="STOP")))


@rule("GM-CALL-STREAMED", "GM-CALL-PARTIAL-ARGS")
def test_vertex_streamed_arguments_fold_into_one_call(check: Check) -> None:
    # R6, google-stream-tool-call-arguments: opening, pieces, then {} ends the call
    chunks = [
        chunk(candidate(call("getWeather", willContinue=True))),
        chunk(
            candidate(
                call(
                    partialArgs=[piece("$.location", stringValue="Bos", willContinue=True)],
                    willContinue=True,
                )
            )
        ),
        chunk(
            candidate(call(partialArgs=[piece("$.location", stringValue="ton")], willContinue=True))
        ),
        chunk(candidate(call(), finishReason="STOP"), usageMetadata=USAGE),
    ]
    expected = response(
        candidate(call("getWeather", args={"location": "Boston"}), finishReason="STOP"),
        usageMetadata=USAGE,
    )
    expect_fold(check, chunks, expected)


@rule("GM-CALL-STREAMED")
def test_keep_alive_fragments_of_an_open_call_change_nothing(check: Check) -> None:
    chunks = [
        chunk(candidate(call("getTime", willContinue=True))),
        chunk(candidate(call(willContinue=True))),
        chunk(candidate(call(partialArgs=[piece("$.zone", stringValue="UTC")]))),
        chunk(candidate(finishReason="STOP")),
    ]
    expected = response(candidate(call("getTime", args={"zone": "UTC"}), finishReason="STOP"))
    expect_fold(check, chunks, expected)


@rule("GM-CALL-STREAMED", "GM-CALL-WHOLE")
def test_a_named_call_ends_the_open_one_and_is_a_call_of_its_own(check: Check) -> None:
    chunks = [
        chunk(candidate(call("first", willContinue=True))),
        chunk(candidate(call(partialArgs=[piece("$.n", numberValue=1)], willContinue=True))),
        chunk(candidate(call("second", willContinue=True))),
        chunk(candidate(call(partialArgs=[piece("$.n", numberValue=2)]))),
        chunk(candidate(finishReason="STOP")),
    ]
    expected = response(
        candidate(call("first", args={"n": 1}), call("second", args={"n": 2}), finishReason="STOP")
    )
    expect_fold(check, chunks, expected)


@rule("GM-CALL-PARTIAL-ARGS")
def test_typed_pieces_and_nested_paths_build_the_arguments(check: Check) -> None:
    pieces = [
        piece("$.trip.city", stringValue="Oslo", willContinue=True),
        piece("$.trip.days", numberValue=3, willContinue=True),
        piece("$.trip['refundable']", boolValue=False, willContinue=True),
        piece("$.stops[1]", stringValue="Bergen", willContinue=True),
        piece('$["note"]', nullValue="NULL_VALUE"),
    ]
    chunks = [
        chunk(candidate(call("book", willContinue=True))),
        chunk(candidate(call(partialArgs=pieces[:3], willContinue=True))),
        chunk(candidate(call(partialArgs=pieces[3:]))),
        chunk(candidate(finishReason="STOP")),
    ]
    args = {
        "trip": {"city": "Oslo", "days": 3, "refundable": False},
        "stops": [None, "Bergen"],
        "note": None,
    }
    expect_fold(check, chunks, response(candidate(call("book", args=args), finishReason="STOP")))


@rule("GM-CALL-PARTIAL-ARGS")
def test_a_string_piece_on_another_path_replaces_nothing_before_it(check: Check) -> None:
    chunks = [
        chunk(candidate(call("route", willContinue=True))),
        chunk(
            candidate(
                call(
                    partialArgs=[
                        piece("$.origin", stringValue="Ber", willContinue=True),
                        piece("$.origin", stringValue="lin", willContinue=True),
                        piece("$.destination", stringValue="Rome"),
                    ]
                )
            )
        ),
        chunk(candidate(finishReason="STOP")),
    ]
    args = {"origin": "Berlin", "destination": "Rome"}
    expect_fold(check, chunks, response(candidate(call("route", args=args), finishReason="STOP")))
