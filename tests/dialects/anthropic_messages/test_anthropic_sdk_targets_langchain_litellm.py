"""The Anthropic-dialect targets `langchain-anthropic` and `litellm-anthropic`: each documented
defect of the installed version, on a minimal stream, charged to exactly the rule it breaks.

Versions: langchain-anthropic 1.7.10 (langchain-core 1.8.3, anthropic 2.15.0) and litellm
1.110.2 (docs/sdk-conformance.md, research AQn). A defect a version fixed is a test that the
stream now passes. Each test is skipped with a reason when its SDK is not installed.
"""

from __future__ import annotations

import importlib.util
from importlib.metadata import version
from typing import Any

import pytest

from refold.reference import ABSENT
from refold.run.checks import Check, ConformanceFailure
from refold.targets import BUILTIN_TARGETS, load_target

Event = dict[str, Any]
_MODULES = {"langchain-anthropic": "langchain_anthropic", "litellm-anthropic": "litellm"}
_LC, _LL = "langchain-anthropic", "litellm-anthropic"


def _start(**message: Any) -> Event:
    # No id and no usage on message_start: LangChain keeps neither (its own rows pin that),
    # so a stream of another rule does not fail on them too.
    return {
        "type": "message_start",
        "message": {
            "type": "message",
            "role": "assistant",
            "content": [],
            "model": "m",
            "stop_reason": None,
            "stop_sequence": None,
            **message,
        },
    }


def _text(index: int, *deltas: str) -> list[Event]:
    return [
        {
            "type": "content_block_start",
            "index": index,
            "content_block": {"type": "text", "text": ""},
        },
        *(
            {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "text_delta", "text": t},
            }
            for t in deltas
        ),
        {"type": "content_block_stop", "index": index},
    ]


def _delta(reason: str | None = "end_turn", *, usage: Event | None = None, **fields: Any) -> Event:
    event: Event = {
        "type": "message_delta",
        "delta": {"stop_reason": reason, "stop_sequence": None, **fields},
    }
    event["usage"] = {"input_tokens": 3, "output_tokens": 5} if usage is None else usage
    return event


def _json_delta(index: int, partial: str) -> Event:
    return {
        "type": "content_block_delta",
        "index": index,
        "delta": {"type": "input_json_delta", "partial_json": partial},
    }


def _tool(index: int, given: Event) -> Event:
    return {
        "type": "content_block_start",
        "index": index,
        "content_block": {"type": "tool_use", "id": f"toolu_{index}", "name": "f", "input": given},
    }


def _thinking(index: int, *deltas: tuple[str, str]) -> list[Event]:
    return [
        {
            "type": "content_block_start",
            "index": index,
            "content_block": {"type": "thinking", "thinking": ""},
        },
        *(
            {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": kind, kind.removesuffix("_delta"): value},
            }
            for kind, value in deltas
        ),
        {"type": "content_block_stop", "index": index},
    ]


_STOP: Event = {"type": "message_stop"}


def _after_text(block: Event) -> list[Event]:
    """A text block, then `block` whole on its start event (last, so nothing moves)."""
    return [
        _start(),
        *_text(0, "Hi"),
        {"type": "content_block_start", "index": 1, "content_block": block},
        {"type": "content_block_stop", "index": 1},
        _delta(),
        _STOP,
    ]


_PLAIN = [_start(), *_text(0, "Hel", "lo"), _delta(), _STOP]


def _check(name: str, rules: tuple[str, ...]) -> Check:
    # find_spec, not importorskip: importing litellm before its adapter would let it
    # fetch its price map over the network (the adapter asks for the bundled copy).
    if importlib.util.find_spec(_MODULES[name]) is None:
        pytest.skip(f"install the SDK of target {name} to check it")
    check = Check(load_target(name))
    check.rules = rules
    if name == _LL and rules != ("AM-START-BASE",):
        # litellm replaces every message id (its own row pins it).
        check.masked = frozenset({"AM-START-BASE"})
    return check


def _failure(name: str, rules: tuple[str, ...], events: list[Event]) -> ConformanceFailure:
    check = _check(name, rules)
    with pytest.raises(ConformanceFailure) as failure:
        check.folds_like_reference(events)
    assert failure.value.implicated == rules, str(failure.value)
    return failure.value


def _pairs(failure: ConformanceFailure) -> dict[str, tuple[Any, Any]]:
    """Each difference as pointer -> (expected, received)."""
    return {d.pointer: (d.expected, d.received) for d in failure.differences}


def test_both_targets_are_builtin_names_of_the_anthropic_dialect() -> None:
    assert {n: BUILTIN_TARGETS[n] for n in (_LC, _LL)} == {
        _LC: "refold.dialects.anthropic_messages.targets.langchain_anthropic:refold_target",
        _LL: "refold.dialects.anthropic_messages.targets.litellm_anthropic:refold_target",
    }
    for name in (_LC, _LL):
        check = _check(name, ("AM-TEXT-JOIN",))
        assert check.target.dialect.name == "anthropic-messages"
        assert not {"lifecycle", "sse"} & check.target.features


@pytest.mark.parametrize(
    ("name", "label", "distribution"),
    [(_LC, "langchain-anthropic", "langchain-anthropic"), (_LL, "litellm", "litellm")],
)
def test_a_target_names_the_sdk_version_it_folds_with(
    name: str, label: str, distribution: str
) -> None:
    description = _check(name, ("AM-TEXT-JOIN",)).target.description
    assert f"{label} {version(distribution)}" in description


@pytest.mark.parametrize("name", [_LC, _LL])
def test_a_plain_text_stream_folds_as_the_reference_does(name: str) -> None:
    received = _check(name, ("AM-TEXT-JOIN",)).folds_like_reference(_PLAIN)
    assert received["content"] == [{"type": "text", "text": "Hello"}]


# langchain-anthropic 1.7.10 (langchain-core 1.8.3)


def test_langchain_drops_the_message_id() -> None:
    failure = _failure(_LC, ("AM-START-BASE",), [_start(id="msg_1"), *_PLAIN[1:]])
    assert _pairs(failure) == {"/id": ("msg_1", ABSENT)}


def test_langchain_takes_input_and_cache_tokens_from_message_delta_only() -> None:  # AQ2
    start = _start(usage={"input_tokens": 10, "output_tokens": 1, "cache_read_input_tokens": 4})
    events = [start, *_text(0, "a"), _delta(usage={"output_tokens": 5}), _STOP]
    failure = _failure(_LC, ("AM-USAGE-BASE",), events)
    assert _pairs(failure) == {
        "/usage/input_tokens": (10, 0),
        "/usage/cache_read_input_tokens": (4, ABSENT),
    }


def test_langchain_sums_the_usage_of_two_message_deltas() -> None:  # AQ1, AQ26
    events = [
        _start(),
        *_text(0, "a"),
        _delta(None, usage={"input_tokens": 3, "output_tokens": 2}),
        _delta(),
        _STOP,
    ]
    failure = _failure(_LC, ("AM-USAGE-NEVER-SUM",), events)
    assert _pairs(failure) == {"/usage/input_tokens": (3, 6), "/usage/output_tokens": (5, 7)}


def test_langchain_drops_usage_keys_other_than_token_counts() -> None:  # AQ3
    usage = {"input_tokens": 3, "output_tokens": 5, "server_tool_use": {"web_search_requests": 1}}
    failure = _failure(
        _LC, ("AM-USAGE-REPLACE",), [_start(), *_text(0, "a"), _delta(usage=usage), _STOP]
    )
    assert _pairs(failure) == {"/usage/server_tool_use": ({"web_search_requests": 1}, ABSENT)}


def test_langchain_reports_zero_usage_when_no_event_carried_any() -> None:  # AQ4
    events = [_start(), *_text(0, "a"), {**_delta(), "usage": None}, _STOP]
    failure = _failure(_LC, ("AM-USAGE-ABSENT",), events)
    assert _pairs(failure) == {"/usage": (ABSENT, {"input_tokens": 0, "output_tokens": 0})}


def test_langchain_concatenates_two_stop_reasons() -> None:  # AQ26, exp E
    events = [_start(), *_text(0, "a"), _delta("end_turn", usage={}), _delta("max_tokens"), _STOP]
    failure = _failure(_LC, ("AM-STOP-REASON",), events)
    assert _pairs(failure)["/stop_reason"] == ("max_tokens", "end_turnmax_tokens")


def test_langchain_concatenates_two_signatures() -> None:  # AQ10, exp D
    events = [
        _start(),
        *_thinking(
            0, ("thinking_delta", "hm"), ("signature_delta", "s1"), ("signature_delta", "s2")
        ),
        _delta(),
        _STOP,
    ]
    failure = _failure(_LC, ("AM-THINK-SIGNATURE",), events)
    assert _pairs(failure) == {"/content/0/signature": ("s2", "s1s2")}


def test_langchain_loses_blocks_and_stop_reason_of_message_start() -> None:  # AQ7
    block = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}
    events = [_start(content=[block], stop_reason="tool_use"), _STOP]
    failure = _failure(_LC, ("AM-START-CONTENT", "AM-STOP-REASON"), events)
    assert _pairs(failure) == {"/content/0": (block, ABSENT), "/stop_reason": ("tool_use", ABSENT)}


def test_langchain_keeps_the_start_input_when_deltas_follow() -> None:  # AQ6, exp A
    events = [
        _start(),
        _tool(0, {"a": 1}),
        _json_delta(0, '{"b": 2}'),
        {"type": "content_block_stop", "index": 0},
        _delta("tool_use"),
        _STOP,
    ]
    failure = _failure(_LC, ("AM-TOOL-NO-DELTA",), events)
    assert _pairs(failure) == {"/content/0/input/a": (ABSENT, 1), "/content/0/input/b": (2, ABSENT)}


def test_langchain_closes_a_cut_tool_input_into_an_object() -> None:  # AQ9
    cut = '{"a": ["Roses are red", "Viol'
    events = [
        _start(),
        _tool(0, {}),
        _json_delta(0, cut),
        {"type": "content_block_stop", "index": 0},
        _delta("max_tokens"),
        _STOP,
    ]
    failure = _failure(_LC, ("AM-TOOL-INVALID",), events)
    assert _pairs(failure) == {"/content/0/input": (cut, {"a": ["Roses are red", "Viol"]})}


def test_langchain_applies_a_thinking_delta_to_a_text_block() -> None:  # AQ25
    events = [
        _start(),
        _text(0)[0],
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": "x"},
        },
        *_text(0, "Hi")[1:],
        _delta(),
        _STOP,
    ]
    failure = _failure(_LC, ("AM-BLOCK-OPEN", "AM-DELTA-MATCH"), events)
    assert _pairs(failure) == {
        "/content/0/type": ("text", "thinking"),
        "/content/0/thinking": (ABSENT, "x"),
    }


def test_langchain_drops_a_block_of_an_unknown_type() -> None:  # AQ21 (1.7.10: dropped)
    block = {"type": "refold_future_block", "x": 1}
    failure = _failure(_LC, ("AM-UNKNOWN-BLOCK",), _after_text(block))
    assert _pairs(failure) == {"/content/1": (block, ABSENT)}


def test_langchain_drops_a_text_block_that_stays_empty() -> None:
    failure = _failure(_LC, ("AM-BLOCK-OPEN",), [_start(), *_text(0), _delta(), _STOP])
    assert _pairs(failure) == {"/content/0": ({"type": "text", "text": ""}, ABSENT)}


def test_langchain_raises_on_a_null_delta() -> None:  # AQ29
    events = [
        _start(),
        _text(0)[0],
        {"type": "content_block_delta", "index": 0, "delta": None},
        *_text(0, "a")[1:],
        _delta(),
        _STOP,
    ]
    failure = _failure(_LC, ("AM-ROB-WRONG-TYPE",), events)
    assert "AttributeError" in (failure.target_error or "")


@pytest.mark.parametrize("second", [None, ""])
def test_langchain_keeps_end_turn_when_a_later_stop_reason_is_blank(second: str | None) -> None:
    events = [_start(), *_text(0, "a"), _delta("end_turn"), _delta(second, usage={}), _STOP]
    assert (
        _check(_LC, ("AM-STOP-REASON",)).folds_like_reference(events)["stop_reason"] == "end_turn"
    )


# litellm 1.110.2, completion path (ModelResponseIterator, stream_chunk_builder, adapter)


def test_litellm_replaces_the_message_id_and_model_with_its_own() -> None:  # §2.3
    failure = _failure(_LL, ("AM-START-BASE",), [_start(id="msg_1"), *_PLAIN[1:]])
    pairs = _pairs(failure)
    assert pairs.keys() == {"/id", "/model"}
    assert pairs["/id"][0] == "msg_1" and str(pairs["/id"][1]).startswith("chatcmpl-")
    assert pairs["/model"] == ("m", "claude-refold-offline")  # the model the call named


def test_litellm_merges_text_blocks_and_moves_them_before_tools() -> None:  # AQ14
    events = [
        _start(),
        *_text(0, "A"),
        _tool(1, {}),
        _json_delta(1, '{"a": 1}'),
        {"type": "content_block_stop", "index": 1},
        *_text(2, "B"),
        _delta("tool_use"),
        _STOP,
    ]
    failure = _failure(_LL, ("AM-BLOCK-OPEN", "AM-TEXT-JOIN"), events)
    assert _pairs(failure) == {
        "/content/0/text": ("A", "AB"),
        "/content/2": ({"type": "text", "text": "B"}, ABSENT),
    }


def test_litellm_reports_a_stop_sequence_stop_as_end_turn() -> None:  # AQ17
    events = [_start(), *_text(0, "a"), _delta("stop_sequence", stop_sequence="\n\nH:"), _STOP]
    failure = _failure(_LL, ("AM-STOP-REASON", "AM-STOP-SEQUENCE"), events)
    assert _pairs(failure) == {
        "/stop_reason": ("stop_sequence", "end_turn"),
        "/stop_sequence": ("\n\nH:", ABSENT),
    }


def test_litellm_splits_a_block_with_two_signatures() -> None:  # AQ10, exp D
    events = [
        _start(),
        *_thinking(
            0, ("thinking_delta", "hm"), ("signature_delta", "s1"), ("signature_delta", "s2")
        ),
        _delta(),
        _STOP,
    ]
    failure = _failure(_LL, ("AM-BLOCK-OPEN", "AM-THINK-SIGNATURE"), events)
    assert _pairs(failure)["/content/0/signature"] == ("s2", "s1")
    assert _pairs(failure)["/content/1"] == (
        ABSENT,
        {"type": "thinking", "thinking": "", "signature": "s2"},
    )


def test_litellm_drops_citations() -> None:  # AQ13
    citation = {
        "type": "char_location",
        "cited_text": "x",
        "document_index": 0,
        "start_char_index": 0,
        "end_char_index": 1,
    }
    events = [
        _start(),
        *_text(0, "Hi")[:2],
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "citations_delta", "citation": citation},
        },
        {"type": "content_block_stop", "index": 0},
        _delta(),
        _STOP,
    ]
    failure = _failure(_LL, ("AM-CITATIONS-APPEND",), events)
    assert _pairs(failure) == {"/content/0/citations": ([citation], ABSENT)}


def test_litellm_drops_the_container() -> None:
    container = {"id": "container_1", "expires_at": "2026-12-01T00:00:00Z"}
    events = [_start(), *_text(0, "a"), _delta(container=container), _STOP]
    failure = _failure(_LL, ("AM-CONTAINER",), events)
    assert _pairs(failure) == {"/container": (container, ABSENT)}


def test_litellm_drops_a_block_of_an_unknown_type() -> None:  # AQ21
    block = {"type": "refold_future_block", "x": 1}
    failure = _failure(_LL, ("AM-UNKNOWN-BLOCK",), _after_text(block))
    assert _pairs(failure) == {"/content/1": (block, ABSENT)}


def test_litellm_adds_an_empty_text_block_after_a_redacted_thinking_block() -> None:  # AQ5
    block = {"type": "redacted_thinking", "data": "abc"}
    events = [
        _start(),
        {"type": "content_block_start", "index": 0, "content_block": block},
        {"type": "content_block_stop", "index": 0},
        _delta(),
        _STOP,
    ]
    failure = _failure(_LL, ("AM-BLOCK-OPEN",), events)
    assert _pairs(failure) == {"/content/1": (ABSENT, {"type": "text", "text": ""})}


def test_litellm_makes_a_thinking_block_of_a_stray_thinking_delta() -> None:  # AQ25
    events = [
        _start(),
        _text(0)[0],
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": "x"},
        },
        *_text(0, "Hi")[1:],
        _delta(),
        _STOP,
    ]
    failure = _failure(_LL, ("AM-BLOCK-OPEN", "AM-DELTA-MATCH"), events)
    assert _pairs(failure)["/content/0/type"] == ("text", "thinking")


@pytest.mark.parametrize(
    ("rule", "events", "error"),
    [
        (
            "AM-START-CONTENT",
            [
                _start(
                    content=[{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}],
                    stop_reason="tool_use",
                ),
                _STOP,
            ],
            "MidStreamFallbackError",
        ),
        (
            "AM-TOOL-INVALID",
            [
                _start(),
                _tool(0, {}),
                _json_delta(0, '{"a": "cu'),
                {"type": "content_block_stop", "index": 0},
                _delta("max_tokens"),
                _STOP,
            ],
            "ValueError",
        ),
        (
            "AM-ROB-WRONG-TYPE",
            [
                _start(),
                _text(0)[0],
                {"type": "content_block_delta", "index": 0, "delta": None},
                *_text(0, "a")[1:],
                _delta(),
                _STOP,
            ],
            "MidStreamFallbackError",
        ),
        (
            "AM-USAGE-ABSENT",
            [_start(), *_text(0, "a"), {**_delta(), "usage": None}, _STOP],
            "MidStreamFallbackError",
        ),
    ],
    ids=["message-start-content", "cut-tool-input", "null-delta", "no-usage"],
)
def test_litellm_raises_where_the_spec_decides(
    rule: str, events: list[Event], error: str
) -> None:  # AQ7, AQ9, AQ29, AQ4
    failure = _failure(_LL, (rule,), events)
    assert error in (failure.target_error or "")


@pytest.mark.parametrize(
    ("rule", "events"),
    [
        ("AM-STOP-REASON", [_start(), *_text(0, "a"), _delta("end_turn"), _delta(None), _STOP]),
        (
            "AM-USAGE-REPLACE",
            [
                _start(),
                *_text(0, "a"),
                _delta(None, usage={"input_tokens": 3, "output_tokens": 2}),
                _delta(),
                _STOP,
            ],
        ),
    ],
    ids=["null-after-end_turn", "second-message_delta-usage"],
)
def test_litellm_keeps_end_turn_and_takes_the_last_message_delta_usage(
    rule: str, events: list[Event]
) -> None:  # AQ26: 1.110.2 keeps end_turn, takes last usage
    _check(_LL, (rule,)).folds_like_reference(events)


def test_litellm_loses_a_tool_input_sent_whole_on_the_start_event() -> None:  # AQ6
    events = [
        _start(),
        *_text(0, "Hi"),
        _tool(1, {"a": 1}),
        {"type": "content_block_stop", "index": 1},
        _delta("tool_use"),
        _STOP,
    ]
    failure = _failure(_LL, ("AM-TOOL-NO-DELTA",), events)
    assert _pairs(failure) == {"/content/1/input/a": (1, ABSENT)}


def test_langchain_keeps_a_tool_input_sent_whole_on_the_start_event() -> None:  # AQ6
    events = [
        _start(),
        *_text(0, "Hi"),
        _tool(1, {"a": 1}),
        {"type": "content_block_stop", "index": 1},
        _delta("tool_use"),
        _STOP,
    ]
    received = _check(_LC, ("AM-TOOL-NO-DELTA",)).folds_like_reference(events)
    assert received["content"][1]["input"] == {"a": 1}
