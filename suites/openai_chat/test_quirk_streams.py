"""The quirk streams of the research catalogue (fold-semantics.md §3, Q1 to Q18, Q20), each
folded to what the spec decides. Test ids are the research's fixture names.

For provider bugs the expected value is the spec's decision, not the faithful
concatenation: Q5's re-sent arguments are a re-send (TOOL-3 [ext]), Q11's empty
arguments read "{}" once finished (TOOL-EMPTY-ARGS). Q19 (SSE framing) is below the fold.
"""

from typing import Any

import pytest

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._streams import call, choice, completion, delta, entry, fragment, stream, usage


def _quirk(
    name: str, rules: tuple[str, ...], chunks: list[JSONObject], expected: JSONObject
) -> Any:
    return pytest.param(chunks, expected, marks=rule(*rules), id=name)


def _calls(finish_reason: str, *calls: JSONObject, **message: Any) -> JSONObject:
    return completion(choice(tool_calls=list(calls), finish_reason=finish_reason, **message))


_WEATHER = fragment(
    id="function-call-1", type="function", name="get_weather", arguments='{"location":"Sydney"}'
)
_TIME = fragment(id="function-call-2", type="function", name="get_time", arguments='{"tz":"AEST"}')

_Q1_TO_Q5 = [
    _quirk(
        "no_index_two_calls",
        ("TOOL-NO-INDEX", "TOOL-2-NEW-ID", "USAGE-LAST"),
        stream(
            delta(role="assistant", tool_calls=[_WEATHER]),
            delta(tool_calls=[_TIME]),
            delta(finish_reason="stop"),
            {"choices": [], "usage": usage(5, 3)},
        ),
        {
            **_calls(
                "stop",
                call("function-call-1", "get_weather", '{"location":"Sydney"}'),
                call("function-call-2", "get_time", '{"tz":"AEST"}'),
            ),
            "usage": usage(5, 3),
        },
    ),
    _quirk(
        "no_index_split_args",
        ("TOOL-NO-INDEX", "TOOL-5-APPEND"),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(id="call_1", type="function", name="get_weather", arguments='{"loc')
                ],
            ),
            delta(tool_calls=[fragment(arguments='ation":"Sydney"}')]),
            delta(finish_reason="stop"),
        ),
        _calls("stop", call("call_1", "get_weather", '{"location":"Sydney"}')),
    ),
    _quirk(
        "all_index0_distinct_ids",
        ("TOOL-2-NEW-ID",),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(
                        index=0,
                        id="call_1",
                        type="function",
                        name="file_write",
                        arguments='{"filePath":"hello.py"}',
                    )
                ],
            ),
            delta(
                tool_calls=[
                    fragment(
                        index=0,
                        id="call_2",
                        type="function",
                        name="file_write",
                        arguments='{"filePath":"world.py"}',
                    )
                ]
            ),
            delta(finish_reason="tool_calls"),
        ),
        _calls(
            "tool_calls",
            call("call_1", "file_write", '{"filePath":"hello.py"}'),
            call("call_2", "file_write", '{"filePath":"world.py"}'),
        ),
    ),
    _quirk(
        "tool_index_starts_at_1",
        ("TOOL-INDEX",),
        stream(
            delta(role="assistant", content="Let me check."),
            delta(
                tool_calls=[
                    fragment(
                        index=1, id="toolu_1", type="function", name="get_weather", arguments=""
                    )
                ]
            ),
            delta(tool_calls=[fragment(index=1, arguments='{"city":"Oslo"}')]),
            delta(finish_reason="tool_calls"),
        ),
        _calls(
            "tool_calls", call("toolu_1", "get_weather", '{"city":"Oslo"}'), content="Let me check."
        ),
    ),
    _quirk(
        "sparse_indices_0_2",
        ("TOOL-INDEX", "TOOL-OUTPUT"),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(index=0, id="call_a", type="function", name="f", arguments="")
                ],
            ),
            delta(tool_calls=[fragment(index=0, arguments='{"x":1}')]),
            delta(
                tool_calls=[fragment(index=2, id="call_c", type="function", name="g", arguments="")]
            ),
            delta(tool_calls=[fragment(index=2, arguments='{"y":2}')]),
            delta(finish_reason="tool_calls"),
        ),
        _calls("tool_calls", call("call_a", "f", '{"x":1}'), call("call_c", "g", '{"y":2}')),
    ),
    _quirk(
        "dup_index_in_first_chunk",
        ("TOOL-5-APPEND",),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(
                        index=0, id="functions.list_files:0", type="function", name="list_files"
                    ),
                    fragment(index=0, arguments=' {"'),
                ],
            ),
            delta(tool_calls=[fragment(index=0, arguments='path": "/"}')]),
            delta(finish_reason="tool_calls"),
        ),
        _calls("tool_calls", call("functions.list_files:0", "list_files", ' {"path": "/"}')),
    ),
    _quirk(
        "resend_full_args_in_final",
        ("TOOL-3-RESEND",),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(
                        index=0, id="call_1", type="function", name="add_expense", arguments=""
                    )
                ],
            ),
            delta(tool_calls=[fragment(index=0, arguments='{"amount": ')]),
            delta(tool_calls=[fragment(index=0, arguments="300}")]),
            delta(
                tool_calls=[
                    fragment(index=0, id=None, type=None, name=None, arguments='{"amount": 300}')
                ],
                finish_reason="tool_calls",
            ),
        ),
        _calls("tool_calls", call("call_1", "add_expense", '{"amount": 300}')),
    ),
]

_Q6_TO_Q12 = [
    _quirk(
        "id_type_name_every_chunk",
        ("TOOL-NAME", "TOOL-5-APPEND"),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(index=0, id="call_1", type="function", name="search", arguments="")
                ],
            ),
            delta(
                tool_calls=[
                    fragment(
                        index=0, id="call_1", type="function", name="search", arguments='{"q":'
                    )
                ]
            ),
            delta(
                tool_calls=[
                    fragment(index=0, id="call_1", type="function", name="search", arguments='"x"}')
                ]
            ),
            delta(finish_reason="tool_calls"),
        ),
        _calls("tool_calls", call("call_1", "search", '{"q":"x"}')),
    ),
    _quirk(
        "empty_type_and_id_on_continuation",
        ("ROB-BLANK", "TOOL-TYPE"),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(
                        index=0, id="call_1", type="function", name="memory_save", arguments=""
                    )
                ],
            ),
            delta(tool_calls=[fragment(index=0, id="", type="", arguments='{"content":"x"}')]),
            delta(finish_reason="tool_calls"),
        ),
        _calls("tool_calls", call("call_1", "memory_save", '{"content":"x"}')),
    ),
    _quirk(
        "explicit_nulls",
        ("ROB-WRONG-TYPE", "TOOL-5-APPEND", "TOOL-TYPE"),
        stream(
            delta(role="assistant", content=None, tool_calls=None),
            delta(
                content=None,
                tool_calls=[
                    fragment(index=0, id="call_1", type="function", name="f", arguments=None)
                ],
            ),
            delta(
                content=None,
                tool_calls=[fragment(index=0, id=None, type=None, name=None, arguments='{"a":1}')],
            ),
            delta(content=None, tool_calls=None, finish_reason="tool_calls"),
        ),
        _calls("tool_calls", call("call_1", "f", '{"a":1}')),
    ),
    _quirk(
        "role_every_chunk",
        ("CHOICE-ROLE",),
        stream(
            delta(role="assistant", content="He"),
            delta(role="assistant", content="y"),
            delta(role="assistant", finish_reason="stop"),
        ),
        completion(choice(content="Hey", finish_reason="stop")),
    ),
    _quirk(
        "args_complete_in_one_fragment",
        ("TOOL-1-OPEN",),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(
                        index=0,
                        id="call_1",
                        type="function",
                        name="get_weather",
                        arguments='{"city":"Rome"}',
                    )
                ],
            ),
            delta(finish_reason="tool_calls"),
        ),
        _calls("tool_calls", call("call_1", "get_weather", '{"city":"Rome"}')),
    ),
    _quirk(
        "parsable_prefix_then_more",
        ("TOOL-4-SPLIT", "TOOL-5-APPEND"),
        stream(
            delta(
                tool_calls=[
                    fragment(index=0, id="call_1", type="function", name="f", arguments="1")
                ]
            ),
            delta(tool_calls=[fragment(index=0, arguments="23")]),
            delta(finish_reason="tool_calls"),
        ),
        _calls("tool_calls", call("call_1", "f", "123")),
    ),
    _quirk(
        "trailing_whitespace_after_json",
        ("TOOL-4-SPLIT", "TOOL-5-APPEND"),
        stream(
            delta(
                tool_calls=[
                    fragment(
                        index=0, id="call_1", type="function", name="f", arguments='{"m":"hi"}'
                    )
                ]
            ),
            delta(tool_calls=[fragment(index=0, arguments=" ")]),
            delta(finish_reason="tool_calls"),
        ),
        _calls("tool_calls", call("call_1", "f", '{"m":"hi"} ')),
    ),
    _quirk(
        "no_args_tool_empty_string",
        ("TOOL-EMPTY-ARGS",),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(
                        index=0,
                        id="toolu_1",
                        type="function",
                        name="get_page_snapshot",
                        arguments="",
                    )
                ],
            ),
            delta(finish_reason="tool_calls"),
        ),
        _calls("tool_calls", call("toolu_1", "get_page_snapshot", "{}")),
    ),
    _quirk(
        "no_args_tool_field_missing",
        ("TOOL-EMPTY-ARGS",),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(index=0, id="toolu_1", type="function", name="get_page_snapshot")
                ],
            ),
            delta(finish_reason="tool_calls"),
        ),
        _calls("tool_calls", call("toolu_1", "get_page_snapshot", "{}")),
    ),
    _quirk(
        "truncated_args_invalid_json",
        ("TOOL-RAW",),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(index=0, id="call_1", type="function", name="f", arguments='{"a":')
                ],
            ),
            delta(finish_reason="length"),
        ),
        _calls("length", call("call_1", "f", '{"a":')),
    ),
    _quirk(
        "truncated_args_tool_calls_finish",
        ("TOOL-RAW",),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(index=0, id="call_1", type="function", name="f", arguments='{"a":')
                ],
            ),
            delta(finish_reason="tool_calls"),
        ),
        _calls("tool_calls", call("call_1", "f", '{"a":')),
    ),
]

_Q13_TO_Q15 = [
    _quirk(
        "empty_string_finish_reason",
        ("CHOICE-FINISH", "ROB-BLANK"),
        stream(
            delta(role="assistant", content="a", finish_reason=""),
            delta(content="b", finish_reason=""),
            delta(finish_reason="stop"),
        ),
        completion(choice(content="ab", finish_reason="stop")),
    ),
    _quirk(
        "finish_then_empty_string",
        ("CHOICE-FINISH", "USAGE-LAST"),
        stream(
            delta(role="assistant", content="a"),
            delta(finish_reason="stop"),
            {"usage": usage(5, 1), **delta(finish_reason="")},
        ),
        completion(choice(content="a", finish_reason="stop"), usage=usage(5, 1)),
    ),
    _quirk(
        "finish_reason_twice",
        ("CHOICE-FINISH", "USAGE-LAST", "TOOL-1-OPEN"),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(index=0, id="call_1", type="function", name="f", arguments="{}")
                ],
            ),
            delta(finish_reason="tool_calls"),
            {"usage": usage(5, 3), **delta(finish_reason="tool_calls")},
        ),
        {**_calls("tool_calls", call("call_1", "f", "{}")), "usage": usage(5, 3)},
    ),
    _quirk(
        "stop_with_tool_calls",
        ("CHOICE-FINISH", "TOOL-1-OPEN"),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(index=0, id="call_1", type="function", name="f", arguments='{"a":1}')
                ],
            ),
            delta(finish_reason="stop"),
        ),
        _calls("stop", call("call_1", "f", '{"a":1}')),
    ),
    _quirk(
        "delta_null_on_finish",
        ("CHOICE-DELTA-NULL",),
        stream(
            delta(role="assistant", content="Hi"),
            entry(index=0, delta=None, finish_reason="stop"),
        ),
        completion(choice(content="Hi", finish_reason="stop")),
    ),
    _quirk(
        "no_finish_reason_at_all",
        ("CHOICE-FINISH",),
        stream(
            delta(role="assistant", content="Hel"),
            delta(content="lo"),
        ),
        completion(choice(content="Hello")),
    ),
    _quirk(
        "usage_every_chunk_cumulative",
        ("USAGE-LAST",),
        stream(
            {"usage": usage(5, 1), **delta(role="assistant", content="a")},
            {"usage": usage(5, 2), **delta(content="b")},
            {"usage": usage(5, 3), **delta(finish_reason="stop")},
        ),
        completion(choice(content="ab", finish_reason="stop"), usage=usage(5, 3)),
    ),
    _quirk(
        "usage_then_trailing_chunk",
        ("USAGE-LAST",),
        stream(
            delta(role="assistant", content="a"),
            {"usage": usage(5, 1), **delta(finish_reason="stop")},
            {"usage": None, **delta()},
        ),
        completion(choice(content="a", finish_reason="stop"), usage=usage(5, 1)),
    ),
    _quirk(
        "fingerprint_first_only_tier_last_only",
        ("PROV-LAST", "USAGE-LAST"),
        stream(
            {"system_fingerprint": "fp_1", **delta(role="assistant", content="Hi")},
            delta(finish_reason="stop"),
            {"service_tier": "flex", "choices": [], "usage": usage(5, 1)},
        ),
        completion(
            choice(content="Hi", finish_reason="stop"),
            system_fingerprint="fp_1",
            service_tier="flex",
            usage=usage(5, 1),
        ),
    ),
    _quirk(
        "obfuscation_on_every_chunk",
        ("ROB-UNKNOWN-KEYS",),
        stream(
            {"obfuscation": "a1", **delta(role="assistant", content="Hi")},
            {"obfuscation": "b22", **delta(finish_reason="stop")},
        ),
        completion(choice(content="Hi", finish_reason="stop")),
    ),
    _quirk(
        "azure_prompt_filter_first",
        ("ENV-ID", "ENV-MODEL", "ENV-CREATED", "ENV-OBJECT", "ROB-UNKNOWN-KEYS"),
        stream(
            {
                "id": "",
                "object": "",
                "created": 0,
                "model": "",
                "choices": [],
                "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": {}}],
            },
            delta(role="assistant", content="Hi"),
            delta(finish_reason="stop"),
        ),
        completion(choice(content="Hi", finish_reason="stop")),
    ),
]

_DETAILS = [
    {"type": "reasoning.text", "text": "Let me", "format": "anthropic-claude-v1", "index": 0},
    {"type": "reasoning.text", "text": " think", "format": "anthropic-claude-v1", "index": 0},
    {
        "type": "reasoning.text",
        "text": "",
        "signature": "sig123",
        "format": "anthropic-claude-v1",
        "index": 0,
    },
]

_Q16_TO_Q20 = [
    _quirk(
        "n2_interleaved",
        ("CHOICE-ORDER",),
        stream(
            delta(index=0, role="assistant", content="A"),
            delta(index=1, role="assistant", content="B"),
            delta(index=0, content="a", finish_reason="stop"),
            delta(index=1, content="b", finish_reason="length"),
        ),
        completion(
            choice(index=0, content="Aa", finish_reason="stop"),
            choice(index=1, content="Bb", finish_reason="length"),
        ),
    ),
    _quirk(
        "choice_index_1_first",
        ("CHOICE-ORDER", "CHOICE-KEY"),
        stream(
            delta(index=1, role="assistant", content="B"),
            delta(index=0, role="assistant", content="A"),
            delta(index=1, content="b", finish_reason="stop"),
            delta(index=0, finish_reason="stop"),
        ),
        completion(
            choice(index=0, content="A", finish_reason="stop"),
            choice(index=1, content="Bb", finish_reason="stop"),
        ),
    ),
    _quirk(
        "reasoning_content_deepseek",
        ("TEXT-REASONING",),
        stream(
            delta(role="assistant", content=None, reasoning_content="Hm, "),
            delta(reasoning_content="7*6."),
            delta(content="42"),
            delta(finish_reason="stop"),
        ),
        completion(choice(content="42", reasoning_content="Hm, 7*6.", finish_reason="stop")),
    ),
    _quirk(
        "openrouter_reasoning_details",
        ("TEXT-REASONING", "RD-MERGE", "RD-FIELDS", "PROV-LAST"),
        stream(
            {
                "provider": "Anthropic",
                **delta(role="assistant", reasoning="Let me", reasoning_details=[_DETAILS[0]]),
            },
            delta(reasoning=" think", reasoning_details=[_DETAILS[1]]),
            delta(reasoning_details=[_DETAILS[2]]),
            delta(content="Done", finish_reason="stop"),
        ),
        completion(
            choice(
                content="Done",
                reasoning="Let me think",
                finish_reason="stop",
                reasoning_details=[
                    {
                        "type": "reasoning.text",
                        "text": "Let me think",
                        "signature": "sig123",
                        "format": "anthropic-claude-v1",
                        "index": 0,
                    }
                ],
            ),
            provider="Anthropic",
        ),
    ),
    _quirk(
        "reasoning_details_no_index_two_chunks",
        ("RD-INDEXLESS",),
        stream(
            delta(role="assistant", reasoning_details=[{"type": "reasoning.text", "text": "Hm"}]),
            delta(reasoning_details=[{"type": "reasoning.text", "text": ".", "signature": "sig"}]),
            delta(finish_reason="stop"),
        ),
        completion(
            choice(
                finish_reason="stop",
                reasoning_details=[{"type": "reasoning.text", "text": "Hm.", "signature": "sig"}],
            )
        ),
    ),
    _quirk(
        "annotations_two_chunks",
        ("TEXT-ANNOTATIONS",),
        stream(
            delta(
                role="assistant",
                content="a",
                annotations=[{"type": "url_citation", "url_citation": {"url": "u1"}}],
            ),
            delta(
                content="b", annotations=[{"type": "url_citation", "url_citation": {"url": "u2"}}]
            ),
            delta(finish_reason="stop"),
        ),
        completion(
            choice(
                content="ab",
                finish_reason="stop",
                annotations=[
                    {"type": "url_citation", "url_citation": {"url": "u1"}},
                    {"type": "url_citation", "url_citation": {"url": "u2"}},
                ],
            )
        ),
    ),
    _quirk(
        "openrouter_midstream_error",
        ("ENV-NO-ERROR", "CHOICE-FINISH", "PROV-LAST"),
        stream(
            {"provider": "openai", **delta(role="assistant", content="Par")},
            {"provider": "openai", **delta(content="tial")},
            {
                "provider": "openai",
                "error": {"code": "server_error", "message": "Provider disconnected unexpectedly"},
                **delta(content="", finish_reason="error"),
            },
        ),
        completion(choice(content="Partial", finish_reason="error"), provider="openai"),
    ),
    _quirk(
        "null_inside_tool_calls",
        ("ROB-NULL-ENTRIES", "TOOL-5-APPEND"),
        stream(
            delta(
                role="assistant",
                tool_calls=[
                    fragment(index=0, id="call_1", type="function", name="f", arguments='{"a"')
                ],
            ),
            delta(tool_calls=[None]),
            delta(tool_calls=[fragment(index=0, arguments=":1}")]),
            delta(finish_reason="tool_calls"),
        ),
        _calls("tool_calls", call("call_1", "f", '{"a":1}')),
    ),
    _quirk(
        "null_inside_choices",
        ("ROB-NULL-ENTRIES",),
        stream(
            delta(role="assistant", content="a"),
            {"choices": [None]},
            delta(content="b", finish_reason="stop"),
        ),
        completion(choice(content="ab", finish_reason="stop")),
    ),
]


@pytest.mark.parametrize(("chunks", "expected"), _Q1_TO_Q5 + _Q6_TO_Q12 + _Q13_TO_Q15 + _Q16_TO_Q20)
def test_a_quirk_stream_folds_as_the_spec_decides(
    check: Check, chunks: list[JSONObject], expected: JSONObject
) -> None:
    check.folds_to(chunks, expected)
