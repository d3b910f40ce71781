"""The SDK adapters: faithful mappings that surface documented SDK defects by rule.

Each test of an extra is skipped with a reason when the extra is not installed
(CI installs `refold[openai,litellm,langchain]` to run them).
"""

from __future__ import annotations

import importlib.util

import pytest

from refold.reference.chat import fold
from refold.run.checks import Check, ConformanceFailure
from refold.targets import BUILTIN_TARGETS, load_target

_ENVELOPE = {"id": "chatcmpl-x", "object": "chat.completion.chunk", "created": 1, "model": "m"}


def _stream(*entries: dict[str, object]) -> list[dict[str, object]]:
    return [{**_ENVELOPE, **entry} for entry in entries]


def _delta(**fields: object) -> dict[str, object]:
    return {"choices": [{"index": 0, "delta": fields}]}


_PLAIN = _stream(
    _delta(role="assistant", content="Hel"),
    _delta(content="lo"),
    {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    {"choices": [], "usage": {"prompt_tokens": 2, "completion_tokens": 1, "total_tokens": 3}},
)
_NAME_EVERY_FRAGMENT = _stream(
    _delta(
        role="assistant",
        tool_calls=[
            {
                "index": 0,
                "id": "call_a",
                "type": "function",
                "function": {"name": "f", "arguments": '{"a"'},
            }
        ],
    ),
    _delta(
        tool_calls=[
            {
                "index": 0,
                "id": "call_a",
                "type": "function",
                "function": {"name": "f", "arguments": ": 1}"},
            }
        ]
    ),
    {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
)
_NULL_CHOICE = _stream(_delta(role="assistant", content="a"), {"choices": [None]})
_CUMULATIVE_USAGE = _stream(
    {
        **_delta(role="assistant", content="a"),
        "usage": {"prompt_tokens": 2, "completion_tokens": 1, "total_tokens": 3},
    },
    {
        "choices": [{"index": 0, "delta": {"content": "b"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 2, "completion_tokens": 2, "total_tokens": 4},
    },
)


def _check(name: str, module: str, rules: tuple[str, ...]) -> Check:
    # find_spec, not importorskip: importing litellm before its adapter would let it
    # fetch its price map over the network (the adapter asks for the bundled copy).
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"install refold[{name}] to check the {name} target")
    check = Check(load_target(name))
    check.rules = rules
    return check


def test_every_sdk_target_is_a_builtin_name() -> None:
    assert {name: BUILTIN_TARGETS[name] for name in ("openai", "litellm", "langchain")} == {
        "openai": "refold.dialects.openai_chat.targets.openai:refold_target",
        "litellm": "refold.dialects.openai_chat.targets.litellm:refold_target",
        "langchain": "refold.dialects.openai_chat.targets.langchain:refold_target",
    }


@pytest.mark.parametrize(
    ("name", "module"),
    [("openai", "openai"), ("litellm", "litellm"), ("langchain", "langchain_openai")],
)
def test_an_openai_shaped_stream_folds_as_the_reference_does(name: str, module: str) -> None:
    check = _check(name, module, ("TEXT-JOIN",))
    received = check.fold(_PLAIN)
    assert received["choices"][0]["message"]["content"] == "Hello"
    counts = ("prompt_tokens", "completion_tokens", "total_tokens")
    # litellm adds zero-valued *_details objects; the counts themselves must survive.
    assert {k: received["usage"][k] for k in counts} == fold(_PLAIN)["usage"]


def test_openai_concatenates_a_name_repeated_on_every_fragment() -> None:
    check = _check("openai", "openai", ("TOOL-NAME",))
    with pytest.raises(ConformanceFailure, match="TOOL-NAME") as failure:
        check.folds_like_reference(_NAME_EVERY_FRAGMENT)
    assert any(d.received == "ff" for d in failure.value.differences)
    assert any(d.received == "call_acall_a" for d in failure.value.differences)


@pytest.mark.parametrize(
    ("name", "module"),
    [("openai", "openai"), ("litellm", "litellm"), ("langchain", "langchain_openai")],
)
def test_a_null_choice_entry_makes_every_sdk_raise(name: str, module: str) -> None:
    check = _check(name, module, ("ROB-NULL-ENTRIES",))
    with pytest.raises(ConformanceFailure, match=r"ROB-NULL-ENTRIES .*raised"):
        check.folds_like_reference(_NULL_CHOICE)


def test_langchain_sums_usage_reported_on_two_chunks() -> None:
    check = _check("langchain", "langchain_openai", ("USAGE-LAST",))
    received = check.fold(_CUMULATIVE_USAGE)
    assert received["usage"] == {"prompt_tokens": 4, "completion_tokens": 3, "total_tokens": 7}


def test_openai_erases_usage_with_a_later_chunk_without_usage() -> None:
    check = _check("openai", "openai", ("USAGE-LAST",))
    chunks = [*_PLAIN, {**_ENVELOPE, "choices": [], "usage": None}]
    assert "usage" not in check.fold(chunks) or check.fold(chunks)["usage"] is None


def test_a_missing_sdk_is_a_usage_error_naming_the_extra() -> None:
    from refold.errors import UsageError
    from refold.targets.sdk._requires import require

    with pytest.raises(UsageError, match=r"pip install 'refold\[openai\]'"):
        require("refold_no_such_sdk_module", extra="openai")


@pytest.mark.parametrize(
    ("name", "module", "claims_sse"),
    [
        ("openai", "openai", True),
        ("litellm", "litellm", False),
        ("langchain", "langchain_openai", False),
    ],
)
def test_only_the_openai_target_carries_its_sdks_sse_decoder(
    name: str, module: str, claims_sse: bool
) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"install refold[{name}] to check the {name} target")
    from refold.targets.sdk.decoders import decode_openai

    target = load_target(name)
    assert ("sse" in target.features) is claims_sse
    assert target.sse is (decode_openai if claims_sse else None)


@pytest.mark.parametrize(
    ("name", "distribution", "label"),
    [
        ("openai", "openai", "openai-python"),
        ("litellm", "litellm", "litellm"),
        ("langchain", "langchain-openai", "langchain-openai"),
    ],
)
def test_an_sdk_target_names_the_sdk_version_it_folds_with(
    name: str, distribution: str, label: str
) -> None:
    pytest.importorskip(distribution.replace("-", "_"), reason=f"install refold[{name}]")
    from importlib.metadata import version

    assert f"{label} {version(distribution)}" in load_target(name).description
