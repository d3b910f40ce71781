"""Rule examples on documented streams (verdicts.md §2): each stream is one OpenAI's API
definition and its streaming reference allow (`refold.dialects.openai_chat` shapes), so a
failure here bites on the streams OpenAI itself sends. The other rule-example modules show
the same rules on the departures real providers send."""

from __future__ import annotations

from refold.run.checks import Check
from refold.run.marks import rule

from ._streams import call, choice, completion, delta, entry, fragment, stream, usage

_HE = {"token": "He", "logprob": -0.1, "bytes": [72, 101], "top_logprobs": []}
_LLO = {"token": "llo", "logprob": -0.2, "bytes": [108, 108, 111], "top_logprobs": []}
_USAGE = usage(5, 2)


@rule("ENV-OBJECT", "ENV-MODEL", "ENV-CREATED", "CHOICE-ROLE", "TEXT-JOIN", "USAGE-LAST")
def test_openai_text_stream_folds_to_its_completion(check: Check) -> None:
    chunks = stream(
        delta(role="assistant", content=""),
        delta(content="Hel"),
        delta(content="lo"),
        delta(finish_reason="stop"),
        {"choices": [], "usage": _USAGE},
    )
    expected = completion(choice(content="Hello", finish_reason="stop"), usage=_USAGE)
    check.folds_to(chunks, expected)


@rule("PROV-NATIVE-FINISH", "PROV-LAST")
def test_openrouter_keys_on_a_documented_stream_fold_to_their_last_values(check: Check) -> None:
    chunks = stream(
        {
            **delta(role="assistant", content="Hi"),
            "provider": "OpenAI",
            "system_fingerprint": "fp_1",
        },
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {},
                    "finish_reason": "stop",
                    "native_finish_reason": "end_turn",
                }
            ],
            "provider": "OpenAI",
            "system_fingerprint": "fp_1",
        },
    )
    expected = completion(
        choice(content="Hi", finish_reason="stop"), provider="OpenAI", system_fingerprint="fp_1"
    )
    expected["choices"][0]["native_finish_reason"] = "end_turn"
    check.folds_to(chunks, expected)


@rule("TOOL-INDEX", "TOOL-TYPE", "TOOL-OUTPUT")
def test_parallel_calls_interleaved_join_by_their_index(check: Check) -> None:
    # the second call's header has no type: "function" is the default
    chunks = stream(
        delta(
            role="assistant",
            content=None,
            tool_calls=[fragment(index=0, id="call_a", type="function", name="f", arguments="")],
        ),
        delta(tool_calls=[fragment(index=1, id="call_b", name="g", arguments='{"b"')]),
        delta(tool_calls=[fragment(index=0, arguments='{"a":1}')]),
        delta(tool_calls=[fragment(index=1, arguments=":2}")]),
        delta(finish_reason="tool_calls"),
    )
    expected = completion(
        choice(
            tool_calls=[call("call_a", "f", '{"a":1}'), call("call_b", "g", '{"b":2}')],
            finish_reason="tool_calls",
        )
    )
    check.folds_to(chunks, expected)


@rule("LP-CONCAT", "LP-SHAPE")
def test_logprobs_of_every_chunk_are_concatenated_on_a_documented_stream(check: Check) -> None:
    chunks = stream(
        entry(
            index=0,
            delta={"role": "assistant", "content": "He"},
            finish_reason=None,
            logprobs={"content": [_HE], "refusal": None},
        ),
        entry(
            index=0,
            delta={"content": "llo"},
            finish_reason=None,
            logprobs={"content": [_LLO], "refusal": None},
        ),
        entry(index=0, delta={}, finish_reason="stop", logprobs=None),
    )
    expected = completion(
        choice(
            content="Hello",
            finish_reason="stop",
            logprobs={"content": [_HE, _LLO], "refusal": None},
        )
    )
    check.folds_to(chunks, expected)
