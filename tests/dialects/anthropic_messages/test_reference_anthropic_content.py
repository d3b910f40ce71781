"""Text, citations, tool input, server tools and thinking in the Anthropic Messages fold.

One hand-written example per AM rule; `RULES_CHECKED` names the rules each test checks.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from refold.reference.anthropic import fold

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_text_is_the_start_text_then_every_text_delta_verbatim": ("AM-TEXT-JOIN",),
    "test_a_blank_start_text_is_empty_and_whitespace_is_text": (
        "AM-TEXT-JOIN",
        "AM-ROB-WRONG-TYPE",
    ),
    "test_citations_are_appended_after_the_start_citations_in_arrival_order": (
        "AM-CITATIONS-APPEND",
    ),
    "test_a_citation_that_is_not_an_object_is_ignored": (
        "AM-CITATIONS-APPEND",
        "AM-ROB-WRONG-TYPE",
    ),
    "test_partial_json_is_joined_and_parsed_once_as_a_whole": ("AM-TOOL-JOIN",),
    "test_tool_input_split_inside_escapes_parses_whole": ("AM-TOOL-JOIN",),
    "test_nulls_inside_tool_input_are_kept": ("AM-TOOL-JOIN",),
    "test_empty_joined_input_keeps_the_start_input": ("AM-TOOL-NO-DELTA",),
    "test_deltas_replace_the_start_input_never_merge": ("AM-TOOL-NO-DELTA",),
    "test_incomplete_or_malformed_input_is_the_raw_joined_string": ("AM-TOOL-INVALID",),
    "test_tool_identity_keys_are_kept_and_deltas_never_change_them": ("AM-TOOL-IDENTITY",),
    "test_server_tool_use_follows_the_tool_input_rules": ("AM-SERVER-TOOL",),
    "test_mcp_tool_use_takes_input_json_deltas": ("AM-DELTA-MATCH", "AM-TOOL-JOIN"),
    "test_server_tool_results_are_output_exactly_as_sent": ("AM-RESULT-AS-SENT",),
    "test_thinking_is_the_start_value_then_every_thinking_delta": ("AM-THINK-JOIN",),
    "test_a_signature_only_thinking_block_keeps_empty_thinking": ("AM-THINK-JOIN",),
    "test_the_last_signature_delta_wins": ("AM-THINK-SIGNATURE",),
    "test_an_empty_string_signature_is_a_signature": ("AM-THINK-SIGNATURE",),
    "test_without_signature_delta_the_start_signature_stands_or_is_absent": ("AM-THINK-SIGNATURE",),
    "test_redacted_thinking_is_kept_verbatim_in_place": ("AM-REDACTED", "AM-RESULT-AS-SENT"),
}


def start(**message: Any) -> dict[str, Any]:
    return {
        "type": "message_start",
        "message": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            **message,
        },
    }


def block(index: int, **content_block: Any) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": content_block}


def delta(index: int, **fields: Any) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": fields}


def text(index: int, value: Any) -> dict[str, Any]:
    return delta(index, type="text_delta", text=value)


def cite(index: int, citation: Any) -> dict[str, Any]:
    return delta(index, type="citations_delta", citation=citation)


def json_piece(index: int, piece: Any) -> dict[str, Any]:
    return delta(index, type="input_json_delta", partial_json=piece)


def tool(index: int, *pieces: Any, kind: str = "tool_use", **start_input: Any) -> list[Any]:
    events = [block(index, type=kind, id="toolu_1", name="get_weather", **start_input)]
    return events + [json_piece(index, piece) for piece in pieces]


def only_block(events: list[Any]) -> Any:
    content = fold([start(), *events, {"type": "message_stop"}])["content"]
    assert len(content) == 1
    return content[0]


def test_text_is_the_start_text_then_every_text_delta_verbatim() -> None:
    result = only_block(
        [
            block(0, type="text", text="The answer"),
            text(0, " is"),
            text(0, ""),
            text(0, "  42.\n"),
            text(0, "\u00e9\U0001f600"),
        ]
    )
    assert result == {"type": "text", "text": "The answer is  42.\n\u00e9\U0001f600"}


def test_a_blank_start_text_is_empty_and_whitespace_is_text() -> None:
    assert only_block([block(0, type="text"), text(0, "a")])["text"] == "a"
    assert only_block([block(0, type="text", text=None), text(0, None), text(0, 1)]) == {
        "type": "text",
        "text": "",
    }
    assert only_block([block(0, type="text", text=" "), text(0, "\t")])["text"] == " \t"


def test_citations_are_appended_after_the_start_citations_in_arrival_order() -> None:
    first = {"type": "char_location", "cited_text": "a", "document_index": 0, "x": 1}
    second = {"type": "web_search_result_location", "url": "https://example.com"}
    result = only_block(
        [
            block(0, type="text", text="", citations=[{"type": "start"}]),
            cite(0, first),
            text(0, "cited"),
            cite(0, second),
        ]
    )
    assert result == {
        "type": "text",
        "text": "cited",
        "citations": [{"type": "start"}, first, second],
    }
    without = only_block([block(0, type="text", text="", citations=None), cite(0, first)])
    assert without["citations"] == [first]


def test_a_citation_that_is_not_an_object_is_ignored() -> None:
    result = only_block(
        [
            block(0, type="text", text="", citations=[]),
            cite(0, None),
            cite(0, "c"),
            cite(0, [{"type": "char_location"}]),
        ]
    )
    assert result == {"type": "text", "text": "", "citations": []}


def test_partial_json_is_joined_and_parsed_once_as_a_whole() -> None:
    result = only_block(
        tool(0, "", '{"loc', 'ation": "San', ' Francisco"', "", ', "n": 1}', input={})
    )
    assert result["input"] == {"location": "San Francisco", "n": 1}


def test_tool_input_split_inside_escapes_parses_whole() -> None:
    body = json.dumps(
        {"q": 'a "quoted" \u00e9 \\ path', "list": [1.5, None, True]}, ensure_ascii=True
    )
    result = only_block(tool(0, *list(body), input={}))
    assert result["input"] == {"q": 'a "quoted" \u00e9 \\ path', "list": [1.5, None, True]}


def test_nulls_inside_tool_input_are_kept() -> None:
    assert only_block(tool(0, '{"x": null}', input={}))["input"] == {"x": None}


@pytest.mark.parametrize("pieces", [(), ("",), ("", " ", "\n\t\r")])
def test_empty_joined_input_keeps_the_start_input(pieces: tuple[str, ...]) -> None:
    assert only_block(tool(0, *pieces, input={"city": "Oslo"}))["input"] == {"city": "Oslo"}
    assert only_block(tool(0, *pieces, input={}))["input"] == {}
    assert "input" not in only_block(tool(0, *pieces))


def test_deltas_replace_the_start_input_never_merge() -> None:
    result = only_block(tool(0, '{"b": 2}', input={"a": 1}))
    assert result["input"] == {"b": 2}


@pytest.mark.parametrize(
    ("pieces", "raw"),
    [
        (('{"poem": ["Roses are red", "Viol',), '{"poem": ["Roses are red", "Viol'),
        ((" [1, 2] ",), " [1, 2] "),
        (('{"a": 1}', " x"), '{"a": 1} x'),
        (('{"a": NaN}',), '{"a": NaN}'),
        (('{"a": 1', "}}"), '{"a": 1}}'),
        ((" ", '{"a": tru', "e,}\n"), ' {"a": true,}\n'),
    ],
)
def test_incomplete_or_malformed_input_is_the_raw_joined_string(
    pieces: tuple[str, ...], raw: str
) -> None:
    assert only_block(tool(0, *pieces, input={}))["input"] == raw


def test_tool_identity_keys_are_kept_and_deltas_never_change_them() -> None:
    events = [
        block(
            0,
            type="tool_use",
            id="toolu_9",
            name="calc",
            input={},
            caller={"type": "direct"},
            toolset_name="ts",
            x_extra=None,
        ),
        json_piece(0, '{"id": "other", "name": "x"}'),
        delta(0, type="input_json_delta", partial_json=None, id="changed"),
    ]
    assert only_block(events) == {
        "type": "tool_use",
        "id": "toolu_9",
        "name": "calc",
        "input": {"id": "other", "name": "x"},
        "caller": {"type": "direct"},
        "toolset_name": "ts",
        "x_extra": None,
    }


def test_server_tool_use_follows_the_tool_input_rules() -> None:
    joined = only_block(
        tool(0, "", '{"query": "weather', ' in NYC"}', kind="server_tool_use", input={})
    )
    assert joined == {
        "type": "server_tool_use",
        "id": "toolu_1",
        "name": "get_weather",
        "input": {"query": "weather in NYC"},
    }
    kept = only_block(tool(0, "", kind="server_tool_use", input={"query": "q"}))
    assert kept["input"] == {"query": "q"}
    raw = only_block(tool(0, '{"query": "cut', kind="server_tool_use", input={}))
    assert raw["input"] == '{"query": "cut'


def test_mcp_tool_use_takes_input_json_deltas() -> None:
    result = only_block(tool(0, '{"a": [1]}', kind="mcp_tool_use", server_name="s", input={}))
    assert result["input"] == {"a": [1]}


def test_server_tool_results_are_output_exactly_as_sent() -> None:
    sent = {
        "type": "web_search_tool_result",
        "tool_use_id": "srvtoolu_1",
        "content": [
            {
                "type": "web_search_result",
                "title": "T",
                "url": "https://x.y",
                "encrypted_content": "E",
                "page_age": None,
            }
        ],
    }
    result = only_block(
        [
            block(0, **sent),
            text(0, "stray"),
            json_piece(0, "{}"),
            {"type": "content_block_stop", "index": 0},
        ]
    )
    assert result == sent


def test_thinking_is_the_start_value_then_every_thinking_delta() -> None:
    result = only_block(
        [
            block(0, type="thinking", thinking="Let me"),
            delta(0, type="thinking_delta", thinking=" solve"),
            delta(0, type="thinking_delta", thinking=" this.\n"),
            delta(0, type="signature_delta", signature="EqQBCgIYAhIM"),
        ]
    )
    assert result == {
        "type": "thinking",
        "thinking": "Let me solve this.\n",
        "signature": "EqQBCgIYAhIM",
    }


def test_a_signature_only_thinking_block_keeps_empty_thinking() -> None:
    result = only_block(
        [
            block(0, type="thinking", thinking=None),
            delta(0, type="thinking_delta", thinking=None),
            delta(0, type="signature_delta", signature="sig"),
        ]
    )
    assert result == {"type": "thinking", "thinking": "", "signature": "sig"}


def test_the_last_signature_delta_wins() -> None:
    result = only_block(
        [
            block(0, type="thinking", thinking="", signature="start"),
            delta(0, type="signature_delta", signature="first"),
            delta(0, type="signature_delta", signature="second"),
            delta(0, type="signature_delta", signature=None),
        ]
    )
    assert result["signature"] == "second"


def test_an_empty_string_signature_is_a_signature() -> None:
    # A signature is not an identity field, so it is never blank-tested: any string counts.
    result = only_block(
        [
            block(0, type="thinking", thinking="", signature="start"),
            delta(0, type="signature_delta", signature=""),
        ]
    )
    assert result["signature"] == ""


def test_without_signature_delta_the_start_signature_stands_or_is_absent() -> None:
    assert only_block([block(0, type="thinking", thinking="", signature="s0")])["signature"] == "s0"
    assert "signature" not in only_block([block(0, type="thinking", thinking="t")])


def test_redacted_thinking_is_kept_verbatim_in_place() -> None:
    redacted = {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4a"}
    content = fold(
        [
            start(),
            block(0, type="thinking", thinking=""),
            delta(0, type="signature_delta", signature="s"),
            block(1, **redacted),
            block(2, type="text", text="done"),
        ]
    )["content"]
    assert content[1] == redacted
    assert [b["type"] for b in content] == ["thinking", "redacted_thinking", "text"]
