"""An SDK's crash on a chat stream is charged to the rule of the departure it needs, not to
every rule of the test that drew the stream: undoing that departure (a change the
reference folds identically, but for the index the undo gives) makes the crash go away.

The streams are the minimal failing streams of the committed SDK reports that were left
unexplained before these undos existed.
"""

from __future__ import annotations

import importlib.util

import pytest

from refold.reference import JSON
from refold.run.checks import Check, ConformanceFailure
from refold.targets import load_target
from refold.verdicts.crashes import analyse

_ENVELOPE = {
    "id": "chatcmpl-x",
    "object": "chat.completion.chunk",
    "created": 1700000000,
    "model": "m",
}


def _chunk(*entries: JSON) -> JSON:
    return {**_ENVELOPE, "choices": list(entries)}


def _details(*details: JSON) -> list[JSON]:
    return [_chunk({"index": 0, "delta": {"reasoning_details": list(details)}})]


_FINISHED = _chunk({"index": 0, "delta": {}, "finish_reason": "stop"})
_CALL_FRAGMENT: JSON = {"index": 0, "id": "call_1", "function": {"name": "f"}}
_CALL = _chunk({"index": 0, "delta": {"tool_calls": [_CALL_FRAGMENT]}})

_CASES: list[tuple[str, str, list[JSON], str]] = [
    (
        "openai",
        "openai",
        [
            *_details(
                {"type": "reasoning.encrypted", "data": "e"},
                {"type": "reasoning.text", "text": "", "index": 0},
            ),
            _FINISHED,
        ],
        "RD-AS-SENT",
    ),
    (
        "openai",
        "openai",
        [
            *_details(
                {"type": "reasoning.summary", "summary": "", "index": 0},
                {"type": "reasoning.text", "text": "t"},
            ),
            _FINISHED,
        ],
        "RD-INDEXLESS",
    ),
    (
        "openai",
        "openai",
        [_chunk({"index": 2, "delta": {"content": "x"}, "finish_reason": "stop"})],
        "CHOICE-KEY",
    ),
    (
        "openai",
        "openai",
        [_chunk({"delta": {"content": "a"}}), _chunk({"delta": {"content": "b"}}), _FINISHED],
        "CHOICE-KEY",
    ),
    ("openai", "openai", [{"created": 0}, _FINISHED], "ROB-WRONG-TYPE"),
    (
        "litellm",
        "litellm",
        [_CALL, _chunk({"index": 0, "delta": {"tool_calls": [{"index": 0}]}})],
        "TOOL-5-APPEND",
    ),
    (
        "litellm",
        "litellm",
        [
            _chunk({"index": 0, "delta": {"tool_calls": [{**_CALL_FRAGMENT, "type": "custom"}]}}),
            _chunk(
                {
                    "index": 0,
                    "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]},
                    "finish_reason": "tool_calls",
                }
            ),
        ],
        "TOOL-TYPE",
    ),
    (
        "langchain",
        "langchain_openai",
        [_CALL, _chunk({"index": 0, "delta": {"tool_calls": [{"index": 0, "type": None}]}})],
        "TOOL-5-APPEND",
    ),
]


@pytest.mark.parametrize(
    ("name", "module", "stream", "rule_id"),
    _CASES,
    ids=[f"{name}-{rule_id}-{n}" for n, (name, _, _, rule_id) in enumerate(_CASES)],
)
def test_an_sdk_crash_is_charged_to_the_rule_of_the_departure_it_needs(
    name: str, module: str, stream: list[JSON], rule_id: str
) -> None:
    # find_spec, not importorskip: importing litellm before its adapter would let it
    # fetch its price map over the network (the adapter asks for the bundled copy).
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"install refold[{name}] to check the {name} target")
    target = load_target(name)
    check = Check(target)
    check.rules = ("ENV-ID", "TEXT-JOIN")
    with pytest.raises(ConformanceFailure) as excinfo:
        check.fold(stream)
    crash = excinfo.value.crash
    assert crash is not None
    analyse(crash, stream, target)
    assert crash.charged == (rule_id,), crash.describe(len(stream))
