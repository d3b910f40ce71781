"""Issue 24 point 9: a fold that sends every index-less tool fragment to index 0
(litellm's policy) instead of the choice's most recently touched index is caught, on
exactly TOOL-NO-INDEX, and diagnosed as that policy."""

from __future__ import annotations

import copy
import importlib.util
import sys
from pathlib import Path
from typing import Any

from refold.dialects import DIALECTS
from refold.dialects.openai_chat.policies import CHAT_POLICIES
from refold.reference import JSON
from refold.reference.chat import RULES, differences, fold
from refold.run.marks import rule
from refold.verdicts.diagnosis import diagnose

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _chat_rule_example_streams import rule_examples

_BROKEN = Path(__file__).resolve().parents[3] / "examples" / "broken"
_NAME = "index_less_fragments_at_zero"
_ENVELOPE = {
    "id": "chatcmpl-x",
    "object": "chat.completion.chunk",
    "created": 1700000000,
    "model": "m",
}


def _fragment(**fields: Any) -> dict[str, Any]:
    found: dict[str, Any] = {k: fields[k] for k in ("index", "id") if k in fields}
    found["function"] = {k: fields[k] for k in ("name", "arguments") if k in fields}
    return found


def _chunk(*fragments: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        **_ENVELOPE,
        "choices": [
            {"index": 0, "delta": {"tool_calls": list(fragments)}, "finish_reason": finish}
        ],
    }


_BEFORE: list[JSON] = [
    _chunk(
        _fragment(index=0, id="call_a", name="f", arguments='{"a"'),
        _fragment(index=1, id="call_b", name="g", arguments='{"b"'),
    ),
    _chunk(_fragment(index=0, arguments=":")),
    _chunk(_fragment(arguments="1}"), _fragment(index=None, arguments="")),
    _chunk(_fragment(index=1, arguments=":2}"), finish="tool_calls"),
]
"""The rule example before the fix: its most recently touched index was 0."""


def _broken() -> Any:
    if str(_BROKEN) not in sys.path:
        sys.path.append(str(_BROKEN))
    spec = importlib.util.spec_from_file_location(f"point9_{_NAME}", _BROKEN / f"{_NAME}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.refold_target


def _broken_fold(chunks: list[JSON]) -> JSON:
    accumulator = _broken()["factory"]()
    for chunk in copy.deepcopy(chunks):
        accumulator.add(chunk)
    return accumulator.response()  # type: ignore[no-any-return]


_EXAMPLES = rule_examples()
_FIXED = next(
    e
    for e in _EXAMPLES
    if e.name.endswith("test_an_index_less_fragment_joins_the_most_recently_touched_index")
)


@rule("TOOL-NO-INDEX")
def test_the_old_rule_example_could_not_tell_index_zero_from_the_last_touched_index() -> None:
    assert not differences(fold(_BEFORE), _broken_fold(_BEFORE))


@rule("TOOL-NO-INDEX")
def test_the_fixed_rule_example_tells_index_zero_from_the_last_touched_index() -> None:
    (stream,) = _FIXED.streams
    found = differences(fold(stream), _broken_fold(stream))
    assert [d.pointer for d in found] == [
        "/choices/0/message/tool_calls/0/function/arguments",
        "/choices/0/message/tool_calls/1/function/arguments",
    ]


@rule("TOOL-NO-INDEX")
def test_the_broken_fold_fails_exactly_the_tool_no_index_rule_examples() -> None:
    # on every rule example of the features it claims (not reasoning_details), whole
    # streams of JSON objects folded at once, it differs from the reference on TOOL-NO-INDEX's
    claimed = set(_broken()["features"])
    judged = [e for e in _EXAMPLES if all(RULES[r].feature in claimed for r in e.rules)]
    failing = {
        rule
        for example in judged
        for stream in example.streams
        if stream
        and all(isinstance(c, dict) for c in stream)
        and differences(fold(stream), _broken_fold(stream))
        for rule in example.rules
    }
    assert len(judged) > 80
    assert failing == {"TOOL-NO-INDEX"}


@rule("TOOL-NO-INDEX")
def test_the_failure_is_diagnosed_as_litellm_s_policy() -> None:
    (stream,) = _FIXED.streams
    (policy,) = diagnose(DIALECTS["openai-chat"], stream, _broken_fold(stream))
    assert policy.example == _NAME and policy.rules == ("TOOL-NO-INDEX",)
    assert policy.libraries == ("litellm 1.110.2",)
    assert policy in CHAT_POLICIES
