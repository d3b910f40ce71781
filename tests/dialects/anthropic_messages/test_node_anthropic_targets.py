"""The built-in Node.js targets: the TypeScript SDK's MessageStream (`anthropic-ts`) and the
Vercel AI SDK's Anthropic provider (`ai-sdk-anthropic`), run with `node` over `exec:`.

A simple stream round-trips through each; each documented defect the pinned versions still
have (research anthropic-fold.md, AQ table, columns TS and AI) fails through refold's Check
machinery on a minimal stream and is charged to exactly its rule (a crash by ablation, as
the plugin charges it); a defect the pinned version fixed passes. One process per target
serves the whole module.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from refold.dialects.anthropic_messages import targets
from refold.errors import UsageError
from refold.reference import JSON, JSONObject
from refold.run.checks import Check, ConformanceFailure
from refold.targets import BUILTIN_TARGETS, Target, load_target
from refold.targets.sdk import nodejs
from refold.verdicts.crashes import analyse

TS_VERSION = "1.15.0"  # @anthropic-ai/sdk, pinned by harness/targets/sdk/node/package-lock.json
AI_VERSION = "3.0.140"  # @ai-sdk/anthropic (4.x needs Node 22)
_LOCK = nodejs.NODE_DIR / "package-lock.json"

# The plain round trip's rules: a crash on a stream drawn for them is charged by ablation.
_ROUND_TRIP = (
    "AM-START-BASE",
    "AM-BLOCK-OPEN",
    "AM-TEXT-JOIN",
    "AM-STOP-REASON",
    "AM-STOP-SEQUENCE",
    "AM-USAGE-BASE",
    "AM-USAGE-REPLACE",
)


@pytest.fixture(scope="module")
def ts() -> Iterator[Target]:
    target = load_target("anthropic-ts")
    yield target
    target.close()


@pytest.fixture(scope="module")
def ai() -> Iterator[Target]:
    target = load_target("ai-sdk-anthropic")
    yield target
    target.close()


def _check(target: Target, *rules: str) -> Check:
    check = Check(target)
    check.rules = rules
    return check


def _start(usage: JSONObject | None = None, **extra: JSON) -> JSONObject:
    message: JSONObject = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        **extra,
    }
    if usage is not None:
        message["usage"] = usage
    return {"type": "message_start", "message": message}


def _text(index: int, *texts: str, start: str = "") -> list[JSONObject]:
    return [
        {
            "type": "content_block_start",
            "index": index,
            "content_block": {"type": "text", "text": start},
        },
        *(
            {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "text_delta", "text": t},
            }
            for t in texts
        ),
        {"type": "content_block_stop", "index": index},
    ]


def _delta(stop_reason: str | None = "end_turn", usage: JSONObject | None = None) -> JSONObject:
    event: JSONObject = {
        "type": "message_delta",
        "delta": {"stop_reason": stop_reason, "stop_sequence": None},
    }
    if usage is not None:
        event["usage"] = usage
    return event


_USAGE: JSONObject = {"input_tokens": 10, "output_tokens": 1}
_STOP: JSONObject = {"type": "message_stop"}
_PLAIN = [_start(_USAGE), *_text(0, "Hel", "lo"), _delta(usage={"output_tokens": 5}), _STOP]


def _failure(check: Check, events: list[JSON]) -> ConformanceFailure:
    """The failure of folding `events` like the reference, a crash charged by ablation."""
    with pytest.raises(ConformanceFailure) as raised:
        check.folds_like_reference(events)
    failure = raised.value
    if failure.crash is not None:
        analyse(failure.crash, events, check.target)
    return failure


# The targets, their versions, their refusal without node or node_modules.


def test_the_node_targets_are_built_in_names_for_node_and_their_file() -> None:
    for name, file in (
        ("anthropic-ts", "anthropic-ts.js"),
        ("ai-sdk-anthropic", "ai-sdk-anthropic.js"),
    ):
        path = Path(targets.__file__).resolve().parent / "node" / file
        assert BUILTIN_TARGETS[name] == f"exec:node {path}"
        assert path.is_file()


def test_the_lock_file_pins_the_versions_the_targets_report(ts: Target, ai: Target) -> None:
    packages = json.loads(_LOCK.read_text("utf-8"))["packages"]
    assert packages["node_modules/@anthropic-ai/sdk"]["version"] == TS_VERSION
    assert packages["node_modules/@ai-sdk/anthropic"]["version"] == AI_VERSION
    assert f"@anthropic-ai/sdk {TS_VERSION}" in ts.description
    assert f"@ai-sdk/anthropic {AI_VERSION}" in ai.description
    assert ts.dialect.name == ai.dialect.name == "anthropic-messages"


def test_only_the_typescript_target_carries_its_sdks_sse_decoder(ts: Target, ai: Target) -> None:
    assert "sse" in ts.features and ts.sse is not None
    assert "sse" not in ai.features and ai.sse is None
    # the provider's parts carry no server tool results and reshape stop_details/container
    assert {"server_tools", "stop_details"} & ai.features == set()


def test_without_the_npm_packages_the_target_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(nodejs, "NODE_DIR", tmp_path)
    with pytest.raises(UsageError, match=rf"npm ci --prefix {tmp_path}$") as raised:
        nodejs.require_node("anthropic-ts")
    assert "@anthropic-ai/sdk" in str(raised.value) and "\n" not in str(raised.value)


def test_without_node_refold_check_is_a_usage_error_naming_the_command(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"  # only this Python on PATH: no node
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    refold = Path(sys.executable).parent / "refold"
    done = subprocess.run(
        [str(refold), "check", "--target", "ai-sdk-anthropic"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PATH": str(bin_dir)},
    )
    assert done.returncode == 4, done.stdout + done.stderr
    assert "`node` is not on PATH" in done.stderr
    assert nodejs.install_command() in done.stderr
    assert "Traceback" not in done.stdout + done.stderr


# A simple stream round-trips through both.


@pytest.mark.parametrize("name", ["ts", "ai"])
def test_a_simple_stream_folds_as_the_reference_does(
    name: str, request: pytest.FixtureRequest
) -> None:
    target: Target = request.getfixturevalue(name)
    received = _check(target, *_ROUND_TRIP).folds_like_reference(_PLAIN)
    assert received["content"] == [{"type": "text", "text": "Hello"}]
    assert received["usage"] == {"input_tokens": 10, "output_tokens": 5}


@pytest.mark.parametrize("name", ["ts", "ai"])
def test_the_lifecycle_reads_the_live_message_then_the_finished_one(
    name: str, request: pytest.FixtureRequest
) -> None:
    accumulator = _check(request.getfixturevalue(name), "AM-LIFE-FINISHED").accumulator()
    for event in _PLAIN[:-1]:
        accumulator.add(event)
    assert accumulator.response()["content"] == [{"type": "text", "text": "Hello"}]
    assert not accumulator.finished
    accumulator.add(_STOP)
    assert accumulator.finished and accumulator.error is None


# anthropic-ts (@anthropic-ai/sdk 1.15.0): the TS column of the AQ table.

_NO_USAGE = [_start(), *_text(0, "Hi"), _delta(), _STOP]


def test_ts_crashes_when_no_event_carries_usage(ts: Target) -> None:  # AQ4
    failure = _failure(_check(ts, *_ROUND_TRIP), _NO_USAGE)
    assert failure.crash is not None and "output_tokens" in (failure.target_error or "")
    assert failure.implicated == ("AM-USAGE-ABSENT",)


def test_ts_erases_end_turn_with_a_later_null_stop_reason(ts: Target) -> None:  # AQ26
    events = [
        _start(_USAGE),
        *_text(0, "a"),
        _delta(usage={"output_tokens": 2}),
        _delta(None, usage={"output_tokens": 2}),
        _STOP,
    ]
    failure = _failure(_check(ts, "AM-STOP-REASON"), events)
    assert [(d.pointer, d.expected) for d in failure.differences] == [("/stop_reason", "end_turn")]
    assert failure.implicated == ("AM-STOP-REASON",)


def test_ts_drops_the_text_of_a_block_whose_index_leaves_a_gap(ts: Target) -> None:  # AQ27
    events = [_start(_USAGE), *_text(1, "lost"), _delta(usage=_USAGE), _STOP]
    failure = _failure(_check(ts, "AM-BLOCK-ORDER"), events)
    assert [(d.pointer, d.expected, d.received) for d in failure.differences] == [
        ("/content/0/text", "lost", "")
    ]
    assert failure.implicated == ("AM-BLOCK-ORDER",)


def test_ts_throws_on_a_second_message_start(ts: Target) -> None:  # AQ28
    events = [_start(_USAGE), *_text(0, "a"), _start(_USAGE), _delta(usage=_USAGE), _STOP]
    # no undo of a repeated message_start for ablation: the test's rule is the repeat's
    failure = _failure(_check(ts, "AM-START-ONCE"), events)
    assert "Unexpected event order" in (failure.target_error or "")
    assert failure.implicated == ("AM-START-ONCE",)


def test_ts_throws_on_a_null_delta(ts: Target) -> None:  # AQ29
    events = [
        _start(_USAGE),
        *_text(0, "a"),
        {"type": "content_block_delta", "index": 0, "delta": None},
        _delta(usage=_USAGE),
        _STOP,
    ]
    # without `delta` (ablation's undo) TS throws too: the test's rule is the null's
    failure = _failure(_check(ts, "AM-ROB-WRONG-TYPE"), events)
    assert failure.crash is not None
    assert failure.implicated == ("AM-ROB-WRONG-TYPE",)


def test_ts_keeps_a_partial_parse_of_cut_off_tool_input(ts: Target) -> None:  # AQ9
    events = [
        _start(_USAGE),
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": '{"a": ["Roses", "Viol'},
        },
        {"type": "content_block_stop", "index": 0},
        _delta("max_tokens", _USAGE),
        _STOP,
    ]
    failure = _failure(_check(ts, "AM-TOOL-INVALID"), events)
    assert [d.received for d in failure.differences] == [{"a": ["Roses"]}]
    assert failure.implicated == ("AM-TOOL-INVALID",)


def test_ts_fails_a_stream_that_ends_without_message_stop(ts: Target) -> None:  # AQ19
    failure = _failure(_check(ts, "AM-LIFE-TRUNCATED"), _PLAIN[:-1])
    assert "stream ended without producing a Message" in (failure.target_error or "")
    assert failure.implicated == ("AM-LIFE-TRUNCATED",)


def test_ts_fails_a_stream_with_an_error_event(ts: Target) -> None:  # AQ18
    events = [
        _start(_USAGE),
        *_text(0, "partial"),
        {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
    ]
    failure = _failure(_check(ts, "AM-LIFE-ERROR"), events)
    assert "overloaded_error" in (failure.target_error or "")
    assert failure.implicated == ("AM-LIFE-ERROR",)


def test_ts_lets_a_message_delta_after_message_stop_change_the_usage(ts: Target) -> None:
    events = [*_PLAIN, _delta(usage={"output_tokens": 99})]  # AQ28, exp E
    failure = _failure(_check(ts, "AM-LIFE-AFTER-STOP"), events)
    assert [(d.pointer, d.received) for d in failure.differences] == [("/usage/output_tokens", 99)]
    # the final message shares its usage object with the live snapshot; a difference is
    # charged to its pointer's rules (refold.attribution), here the usage rules, less
    # AM-USAGE-BASE (a count message_delta re-reported is not message_start's to decide)
    # and AM-USAGE-NEVER-SUM (99 is a count the stream reported: kept, not added up)
    assert failure.implicated == ("AM-USAGE-REPLACE",)


def test_ts_accepts_an_event_that_is_not_an_object(ts: Target) -> None:
    accumulator = _check(ts, "AM-ROB-NOT-OBJECT").accumulator()
    accumulator.add(_start(_USAGE))
    assert accumulator.add_raw(5) is None  # the spec: refused with an error


def test_ts_throws_on_a_delta_before_its_block_starts(ts: Target) -> None:  # AQ27, exp H
    events = [
        _start(_USAGE),
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": "early"},
        },
        *_text(0, "a"),
        _delta(usage=_USAGE),
        _STOP,
    ]
    failure = _failure(_check(ts, *_ROUND_TRIP, "AM-DELTA-ROUTE"), events)
    assert "TypeError" in (failure.target_error or "")
    assert failure.implicated == ("AM-DELTA-ROUTE",)


_SIGNED = [
    _start(_USAGE),
    {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "thinking", "thinking": ""},
    },
    {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "thinking_delta", "thinking": "Hm."},
    },
    {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "signature_delta", "signature": "sig-1"},
    },
    {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "signature_delta", "signature": "sig-2"},
    },
    {"type": "content_block_stop", "index": 0},
    _delta(usage=_USAGE),
    _STOP,
]
_WRONG_KIND = [
    _start(_USAGE),
    *_text(0)[:1],
    {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "thinking_delta", "thinking": "stray"},
    },
    *_text(0, "a")[1:],
    _delta(usage=_USAGE),
    _STOP,
]


@pytest.mark.parametrize(
    ("rule", "events"),
    [
        ("AM-PING", [{"type": "ping"}, *_PLAIN]),  # AQ23: TS's decoder filters it
        ("AM-THINK-SIGNATURE", _SIGNED),  # AQ10: the last signature
        ("AM-DELTA-MATCH", _WRONG_KIND),  # AQ25: ignored by block type
        (
            "AM-TEXT-JOIN",
            [_start(_USAGE), *_text(0, " is 42.", start="The answer"), _delta(usage=_USAGE), _STOP],
        ),  # AQ24
    ],
)
def test_ts_passes_what_the_research_saw_it_pass(ts: Target, rule: str, events: list[JSON]) -> None:
    _check(ts, rule).folds_like_reference(events)


def _frame(event: JSONObject, name: str | None) -> bytes:
    head = f"event: {name}\n" if name is not None else ""
    return f"{head}data: {json.dumps(event)}\n\n".encode()


def test_ts_decoder_drops_frames_without_an_event_line(ts: Target) -> None:  # AQ30
    check = _check(ts, "AM-SSE-TYPE")
    assert check.decoded([_frame(_STOP, "message_stop")]) == [_STOP]
    assert check.decoded([_frame(_STOP, None)]) == []  # the spec: [_STOP]


def test_ts_decoder_filters_ping_frames_and_raises_on_error_frames(ts: Target) -> None:
    check = _check(ts, "AM-SSE-EMPTY")
    assert check.decoded([_frame({"type": "ping"}, "ping")]) == []  # the spec: passed on
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "o"}}
    with pytest.raises(ConformanceFailure, match=r"AM-SSE-EMPTY .*decoder failed"):
        check.decoded([_frame(error, "error")])


def test_ts_decoder_skips_frames_with_empty_data(ts: Target) -> None:
    # fixed before 1.14.0 (PRs #861/#903: an `event:` line without data crashed JSON.parse)
    check = _check(ts, "AM-SSE-EMPTY")
    assert check.decoded([b"event: ping\n\n", _frame(_STOP, "message_stop")]) == [_STOP]


# ai-sdk-anthropic (@ai-sdk/anthropic 3.0.140): the AI column of the AQ table.


def test_ai_drops_text_sent_on_content_block_start(ai: Target) -> None:  # AQ24
    events = [_start(_USAGE), *_text(0, " is 42.", start="The answer"), _delta(usage=_USAGE), _STOP]
    failure = _failure(_check(ai, "AM-TEXT-JOIN"), events)
    assert [(d.pointer, d.received) for d in failure.differences] == [
        ("/content/0/text", " is 42.")
    ]
    assert failure.implicated == ("AM-TEXT-JOIN",)


def test_ai_erases_end_turn_with_a_later_null_stop_reason(ai: Target) -> None:  # AQ26
    events = [
        _start(_USAGE),
        *_text(0, "a"),
        _delta(usage={"output_tokens": 2}),
        _delta(None, usage={"output_tokens": 2}),
        _STOP,
    ]
    failure = _failure(_check(ai, "AM-STOP-REASON"), events)
    assert [(d.pointer, d.expected) for d in failure.differences] == [("/stop_reason", "end_turn")]
    assert failure.implicated == ("AM-STOP-REASON",)


def test_ai_fails_validation_when_no_event_carries_usage(ai: Target) -> None:  # AQ4
    # the first event fails validation: doStream throws, which ablation cannot charge
    failure = _failure(_check(ai, "AM-USAGE-ABSENT"), _NO_USAGE)
    assert "Type validation failed" in (failure.target_error or "")
    assert failure.implicated == ("AM-USAGE-ABSENT",)


def test_ai_fails_validation_on_an_unknown_event_type(ai: Target) -> None:  # AQ20
    events = [
        _start(_USAGE),
        *_text(0, "a"),
        {"type": "vertex_event", "usage": _USAGE},
        _delta(usage=_USAGE),
        _STOP,
    ]
    failure = _failure(_check(ai, *_ROUND_TRIP), events)
    assert failure.implicated == ("AM-UNKNOWN-EVENT",)


def test_ai_fails_validation_on_an_unknown_block_type(ai: Target) -> None:  # AQ21
    events = [
        _start(_USAGE),
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "future_block", "data": "x"},
        },
        {"type": "content_block_stop", "index": 0},
        _delta(usage=_USAGE),
        _STOP,
    ]
    failure = _failure(_check(ai, "AM-UNKNOWN-BLOCK"), events)
    assert "AI_TypeValidationError" in (failure.target_error or "")
    assert failure.implicated == ("AM-UNKNOWN-BLOCK",)


def test_ai_fails_validation_on_a_finished_text_block_in_message_start(ai: Target) -> None:
    # AQ7: the provider reads only tool_use blocks from message_start.message.content
    events = [
        _start(_USAGE, content=[{"type": "text", "text": "done"}], stop_reason="end_turn"),
        _STOP,
    ]
    failure = _failure(_check(ai, *_ROUND_TRIP, "AM-START-CONTENT"), events)
    assert "Type validation failed" in (failure.target_error or "")
    assert failure.implicated == ("AM-START-CONTENT",)


def test_ai_keeps_a_finished_tool_use_block_in_message_start(ai: Target) -> None:  # AQ7
    block: JSONObject = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}
    events = [_start(_USAGE, content=[block], stop_reason="tool_use"), _STOP]
    assert _check(ai, "AM-START-CONTENT").folds_like_reference(events)["content"] == [block]


def test_ai_concatenates_start_input_and_deltas(ai: Target) -> None:  # AQ6, exp A
    events = [
        _start(_USAGE),
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": '{"b": 2}'},
        },
        {"type": "content_block_stop", "index": 0},
        _delta("tool_use", _USAGE),
        _STOP,
    ]
    failure = _failure(_check(ai, "AM-TOOL-NO-DELTA"), events)
    assert [d.received for d in failure.differences] == ['{"a":1}{"b": 2}']
    assert failure.implicated == ("AM-TOOL-NO-DELTA",)


def test_ai_drops_a_document_citation(ai: Target) -> None:  # AQ13
    citation: JSONObject = {
        "type": "char_location",
        "cited_text": "Two",
        "document_index": 0,
        "document_title": "Doc",
        "start_char_index": 0,
        "end_char_index": 3,
    }
    events = [
        _start(_USAGE),
        *_text(0, "Two")[:2],
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "citations_delta", "citation": citation},
        },
        *_text(0)[1:],
        _delta(usage=_USAGE),
        _STOP,
    ]
    failure = _failure(_check(ai, "AM-CITATIONS-APPEND"), events)
    assert [d.pointer for d in failure.differences] == ["/content/0/citations"]
    assert failure.implicated == ("AM-CITATIONS-APPEND",)


def test_ai_folds_text_sent_after_message_stop(ai: Target) -> None:  # AQ28, exp E
    events = [*_PLAIN, *_text(1, "late")]
    failure = _failure(_check(ai, "AM-LIFE-AFTER-STOP"), events)
    assert [d.pointer for d in failure.differences] == ["/content/1"]
    # charged to the rules of its pointer (refold.attribution): a block that should not be
    assert failure.implicated == ("AM-BLOCK-OPEN",)


def test_ai_records_an_error_event_and_keeps_the_partial_message(ai: Target) -> None:
    accumulator = _check(ai, "AM-LIFE-ERROR").accumulator()
    error: JSONObject = {"type": "overloaded_error", "message": "Overloaded"}
    for event in [_start(_USAGE), *_text(0, "partial"), {"type": "error", "error": error}]:
        accumulator.add(event)
    assert accumulator.error == error and not accumulator.finished
    assert accumulator.response()["content"] == [{"type": "text", "text": "partial"}]


def test_ai_routes_a_delta_of_the_wrong_kind_by_its_type(ai: Target) -> None:  # AQ25
    failure = _failure(_check(ai, "AM-DELTA-MATCH"), _WRONG_KIND)
    assert [d.pointer for d in failure.differences] == ["/content/1"]  # a reasoning block
    # a block that should not exist is charged to its pointer's rule (refold.attribution)
    assert failure.implicated == ("AM-BLOCK-OPEN",)


def test_ai_loses_message_start_keys_no_part_carries(ai: Target) -> None:
    events = [_start(_USAGE, x_gateway={"region": "eu"}), *_PLAIN[1:]]
    failure = _failure(_check(ai, "AM-START-BASE"), events)
    assert [d.pointer for d in failure.differences] == ["/x_gateway"]
    assert failure.implicated == ("AM-START-BASE",)


def test_ai_fails_validation_on_a_null_delta(ai: Target) -> None:  # AQ29
    events = [
        _start(_USAGE),
        *_text(0, "a")[:2],
        {"type": "content_block_delta", "index": 0, "delta": None},
        *_text(0)[1:],
        _delta(usage=_USAGE),
        _STOP,
    ]
    failure = _failure(_check(ai, "AM-ROB-WRONG-TYPE"), events)
    assert "Type validation failed" in (failure.target_error or "")
    assert failure.implicated == ("AM-ROB-WRONG-TYPE",)


@pytest.mark.parametrize(
    ("rule", "events"),
    [
        (
            "AM-TOOL-INVALID",
            [
                _start(_USAGE),  # AQ9: the raw string
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "f",
                        "input": {},
                    },
                },
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": '{"a": ["Roses", "Viol'},
                },
                {"type": "content_block_stop", "index": 0},
                _delta("max_tokens", _USAGE),
                _STOP,
            ],
        ),
        ("AM-THINK-SIGNATURE", _SIGNED),  # AQ10: the last signature
        ("AM-PING", [{"type": "ping"}, *_PLAIN]),  # AQ23
    ],
)
def test_ai_passes_what_the_research_saw_it_pass(ai: Target, rule: str, events: list[JSON]) -> None:
    _check(ai, rule).folds_like_reference(events)
