"""Rule examples: tool blocks and server tool results (AM-TOOL-*, AM-SERVER-TOOL,
AM-RESULT-AS-SENT)."""

from __future__ import annotations

from typing import Any

from refold.reference import JSON, JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._events import (
    block_start,
    block_stop,
    delta,
    input_delta,
    message,
    message_delta,
    message_start,
    stop,
    text_delta,
    text_start,
    tool_start,
    tool_use,
)
from ._expect import expect_fold


def _tool_stream(
    fragments: list[str], stop_reason: str = "tool_use", **start: Any
) -> list[JSONObject]:
    """One tool block streamed as `fragments` (the docs' tool-use stream shape)."""
    return [
        message_start(),
        tool_start(0, **start),
        *(input_delta(0, fragment) for fragment in fragments),
        block_stop(0),
        message_delta(stop_reason, None),
        stop(),
    ]


def _expect_input(check: Check, events: list[JSONObject], input: JSON, **block: Any) -> None:
    stop_reason = events[-2]["delta"]["stop_reason"]
    expect_fold(check, events, message(tool_use(input, **block), stop_reason=stop_reason))


@rule("AM-TOOL-JOIN")
def test_the_docs_partial_json_is_joined_then_parsed_into_an_object(check: Check) -> None:
    fragments = ["", '{"location": "San Fra', 'ncisco, CA", "unit": "fah', 'renheit"}']
    _expect_input(
        check, _tool_stream(fragments), {"location": "San Francisco, CA", "unit": "fahrenheit"}
    )


@rule("AM-TOOL-JOIN")
def test_fragments_split_inside_escapes_are_parsed_as_a_whole(check: Check) -> None:
    # AQ8: a fold that parses per fragment, or repairs each one, breaks on these splits
    fragments = ['{"s": "caf\\u00', "e9 \\", '"quoted\\"", "n": -1', "2.5e", "1}"]
    _expect_input(check, _tool_stream(fragments), {"s": 'caf\u00e9 "quoted"', "n": -125.0})


@rule("AM-TOOL-JOIN")
def test_empty_fragments_anywhere_are_harmless(check: Check) -> None:
    fragments = ["", '{"a"', "", "", ": [1, ", "", "2]}", ""]
    _expect_input(check, _tool_stream(fragments), {"a": [1, 2]})


@rule("AM-TOOL-JOIN")
def test_whitespace_around_the_joined_input_is_not_part_of_it(check: Check) -> None:
    fragments = ["\n ", '{ "a" :', "\t1 }", " \r\n"]
    _expect_input(check, _tool_stream(fragments), {"a": 1})


@rule("AM-TOOL-JOIN")
def test_nulls_inside_the_input_are_kept(check: Check) -> None:
    # tool input is data: {"unit": null} is not {}
    fragments = ['{"location": "Paris", ', '"unit": null, "opts": {"x": null}}']
    _expect_input(
        check, _tool_stream(fragments), {"location": "Paris", "unit": None, "opts": {"x": None}}
    )


@rule("AM-TOOL-JOIN")
def test_an_input_of_braces_split_in_two_is_the_empty_object(check: Check) -> None:
    _expect_input(check, _tool_stream(["", "{", "}"]), {})


@rule("AM-TOOL-NO-DELTA")
def test_a_tool_block_without_deltas_keeps_its_start_input(check: Check) -> None:
    # AQ6: Kimi and other compatible servers put the whole input on the start event
    events = _tool_stream([], input={"location": "Paris", "unit": "celsius"})
    _expect_input(check, events, {"location": "Paris", "unit": "celsius"})


@rule("AM-TOOL-NO-DELTA")
def test_a_tool_block_with_no_arguments_keeps_the_empty_start_input(check: Check) -> None:
    # AQ5: a tool without parameters sends only the leading "" (litellm#5063: parse error)
    for fragments in ([], [""], ["", ""]):
        _expect_input(check, _tool_stream(fragments), {})


@rule("AM-TOOL-NO-DELTA")
def test_a_null_start_input_without_deltas_stands_and_is_not_made_an_object(check: Check) -> None:
    # the start's input stands, null included, which the canonical comparison reads as
    # absent; a fold that fills in `{}` gives the call an input nothing sent
    for fragments in ([], [""]):
        _expect_input(check, _tool_stream(fragments, input=None), None)


@rule("AM-TOOL-NO-DELTA")
def test_only_empty_or_whitespace_fragments_keep_the_start_input(check: Check) -> None:
    events = _tool_stream(["", " ", "\n", "\t\r"], input={"location": "Paris"})
    _expect_input(check, events, {"location": "Paris"})


@rule("AM-TOOL-NO-DELTA")
def test_deltas_replace_the_start_input_never_merge_with_it(check: Check) -> None:
    # AQ6 exp A: the Vercel AI SDK concatenates both into invalid JSON
    events = _tool_stream(["", '{"unit": ', '"celsius"}'], input={"location": "Paris"})
    _expect_input(check, events, {"unit": "celsius"})


@rule("AM-TOOL-INVALID")
def test_input_cut_off_by_max_tokens_is_kept_as_the_raw_string(check: Check) -> None:
    # AQ9: the SDKs return two different partial parses; the string is the whole truth
    fragments = ['{"poem": ["Roses are red', '", "Violets']
    events = _tool_stream(fragments, stop_reason="max_tokens")
    _expect_input(check, events, '{"poem": ["Roses are red", "Violets')


@rule("AM-TOOL-INVALID")
def test_the_raw_string_is_not_trimmed(check: Check) -> None:
    fragments = ["", "\n ", '{"a": 1,', "  "]
    events = _tool_stream(fragments, stop_reason="max_tokens")
    _expect_input(check, events, '\n {"a": 1,  ')


@rule("AM-TOOL-INVALID")
def test_input_of_whitespace_json_does_not_know_is_not_empty(check: Check) -> None:
    # "empty" trims JSON whitespace only: what JavaScript's trim() and Python's strip()
    # also remove (form feed, no-break space, line separator) is input that is not JSON
    for raw in ("\x0c", "\u00a0", " \u2028\n"):
        _expect_input(check, _tool_stream(["", raw], stop_reason="max_tokens"), raw)


@rule("AM-TOOL-INVALID")
def test_complete_json_that_is_not_an_object_is_kept_as_a_string(check: Check) -> None:
    for raw in ("[1, 2]", "42", '"text"', "null", "true"):
        _expect_input(check, _tool_stream([raw]), raw)


@rule("AM-TOOL-INVALID")
def test_two_objects_one_after_the_other_are_kept_as_a_string(check: Check) -> None:
    _expect_input(check, _tool_stream(['{"a": 1}', '{"b": 2}']), '{"a": 1}{"b": 2}')


@rule("AM-TOOL-INVALID")
def test_malformed_input_is_kept_as_a_string(check: Check) -> None:
    for raw in ("{'a': 1}", '{"a": 1,}', '{"a" 1}'):
        _expect_input(check, _tool_stream([raw]), raw)


@rule("AM-TOOL-IDENTITY")
def test_id_name_and_every_other_start_key_are_kept(check: Check) -> None:
    extra: dict[str, Any] = {
        "caller": {"type": "code_execution_20250825", "tool_id": "srvtoolu_01"},
        "toolset_name": "weather",
        "x_trace": [1, 2],
    }
    events = _tool_stream(['{"location": "Paris"}'], id="toolu_01A", name="get_weather", **extra)
    _expect_input(check, events, {"location": "Paris"}, id="toolu_01A", name="get_weather", **extra)


@rule("AM-TOOL-IDENTITY")
def test_deltas_never_change_the_id_or_name(check: Check) -> None:
    odd = delta(
        0,
        {"type": "input_json_delta", "partial_json": '{"a": 1}', "id": "toolu_X", "name": "other"},
    )
    events = [
        message_start(),
        tool_start(0, id="toolu_01", name="get_weather"),
        odd,
        block_stop(0),
        message_delta("tool_use", None),
        stop(),
    ]
    _expect_input(check, events, {"a": 1}, id="toolu_01", name="get_weather")


def _server_stream(fragments: list[str], **start: Any) -> list[JSONObject]:
    return _tool_stream(
        fragments, type="server_tool_use", id="srvtoolu_014h", name="web_search", **start
    )


_SERVER: dict[str, Any] = {"type": "server_tool_use", "id": "srvtoolu_014h", "name": "web_search"}


@rule("AM-SERVER-TOOL")
def test_server_tool_use_input_is_joined_and_parsed_like_tool_use(check: Check) -> None:
    # the docs' web search stream
    fragments = ["", '{"query', '": "weather', ' NYC today"}']
    _expect_input(check, _server_stream(fragments), {"query": "weather NYC today"}, **_SERVER)


@rule("AM-SERVER-TOOL")
def test_server_tool_use_without_deltas_keeps_its_start_input(check: Check) -> None:
    # AQ14: server-tool input replayed as {} breaks pause_turn continuations
    events = _server_stream([], input={"query": "weather NYC today"})
    _expect_input(check, events, {"query": "weather NYC today"}, **_SERVER)


@rule("AM-SERVER-TOOL")
def test_server_tool_use_deltas_replace_the_start_input(check: Check) -> None:
    events = _server_stream(['{"query": "b"}'], input={"query": "a"})
    _expect_input(check, events, {"query": "b"}, **_SERVER)


@rule("AM-SERVER-TOOL")
def test_cut_off_server_tool_use_input_is_kept_as_the_raw_string(check: Check) -> None:
    _expect_input(check, _server_stream(['{"query": "wea']), '{"query": "wea', **_SERVER)


_SEARCH_RESULT = {
    "type": "web_search_tool_result",
    "tool_use_id": "srvtoolu_014h",
    "content": [
        {
            "type": "web_search_result",
            "title": "Weather in New York City",
            "url": "https://weather.example/nyc",
            "encrypted_content": "Ev0DCioIAxgC",
            "page_age": "December 1, 2026",
        }
    ],
}


@rule("AM-RESULT-AS-SENT")
def test_a_web_search_tool_result_is_output_exactly_as_started(check: Check) -> None:
    # the docs' web search stream: the result arrives complete, then its stop
    events = [
        message_start(),
        block_start(0, _SEARCH_RESULT),
        block_stop(0),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(check, events, message(_SEARCH_RESULT, stop_reason="end_turn"))


@rule("AM-RESULT-AS-SENT")
def test_server_results_and_container_uploads_are_output_as_sent(check: Check) -> None:
    blocks: list[JSONObject] = [
        {
            "type": "web_fetch_tool_result",
            "tool_use_id": "srvtoolu_02",
            "content": {"type": "web_fetch_result", "url": "https://example.com"},
        },
        {
            "type": "code_execution_tool_result",
            "tool_use_id": "srvtoolu_03",
            "content": {
                "type": "code_execution_result",
                "stdout": "1\n",
                "stderr": "",
                "return_code": 0,
                "content": [],
            },
        },
        {"type": "container_upload", "file_id": "file_011"},
    ]
    events = [
        message_start(),
        *(block_start(i, b) for i, b in enumerate(blocks)),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(check, events, message(*blocks, stop_reason="end_turn"))


@rule("AM-RESULT-AS-SENT")
def test_deltas_sent_to_a_result_block_change_nothing(check: Check) -> None:
    events = [
        message_start(),
        block_start(0, _SEARCH_RESULT),
        text_delta(0, "x"),
        input_delta(0, '{"a": 1}'),
        block_stop(0),
        message_delta("end_turn", None),
        stop(),
    ]
    expect_fold(check, events, message(_SEARCH_RESULT, stop_reason="end_turn"))


_LOCATION = {
    "type": "web_search_result_location",
    "url": "https://weather.example/nyc",
    "title": "Weather in New York City",
    "encrypted_index": "Eo8BCioIAhgBIiQyYjQ0",
    "cited_text": "Partly cloudy, 41 F",
}


@rule("AM-SERVER-TOOL", "AM-RESULT-AS-SENT", "AM-CITATIONS-APPEND")
def test_the_docs_web_search_stream_folds_into_its_message(check: Check) -> None:
    # the streaming page's web search example, without usage: text, the search call,
    # its result (complete on the start event), then cited text
    events = [
        message_start(),
        text_start(0),
        text_delta(0, "I'll check the current weather in New York City for you."),
        block_stop(0),
        tool_start(1, type="server_tool_use", id="srvtoolu_014h", name="web_search"),
        input_delta(1, ""),
        input_delta(1, '{"query'),
        input_delta(1, '": "weather'),
        input_delta(1, ' NYC today"}'),
        block_stop(1),
        block_start(2, _SEARCH_RESULT),
        block_stop(2),
        block_start(3, {"type": "text", "text": ""}),
        delta(3, {"type": "citations_delta", "citation": _LOCATION}),
        text_delta(3, "It is partly cloudy, "),
        text_delta(3, "41 F."),
        block_stop(3),
        message_delta("end_turn", None),
        stop(),
    ]
    expected = message(
        {"type": "text", "text": "I'll check the current weather in New York City for you."},
        tool_use({"query": "weather NYC today"}, **_SERVER),
        _SEARCH_RESULT,
        {"type": "text", "text": "It is partly cloudy, 41 F.", "citations": [_LOCATION]},
        stop_reason="end_turn",
    )
    expect_fold(check, events, expected)
