"""Benchmarks of the reference fold: linear in stream size, and no dearer than decoding.

Run: `python benchmarks/fold_performance.py` (add `--quick` for a smaller run).

1. Linearity: one tool call whose arguments arrive one character per chunk. Folding
   1 MB of arguments should cost about 10x what 100 kB costs (a quadratic fold: 100x).
   Measured for the plain stream and for an adversarial one where a complete `{}`
   fragment follows an unterminated string, so every fragment makes the ladder ask
   whether the accumulated arguments are complete (TOOL-3, TOOL-4).
2. Cost against decoding: the time to fold a realistic stream, divided by the time
   `json.loads` takes to decode the same chunks from their SSE data lines.

Timings are the best of several runs of `time.perf_counter`; ratios, not absolute
numbers, are the result.
"""

from __future__ import annotations

import argparse
import json

import _timing as timing

from refold.reference.chat import fold

JSONObject = dict[str, object]


def one_character_per_chunk(size: int, *, adversarial: bool = False) -> list[JSONObject]:
    """A call whose `size` characters of arguments arrive one per chunk."""
    header: JSONObject = {
        "choices": [
            {
                "index": 0,
                "delta": {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "f", "arguments": ""},
                        }
                    ],
                },
            }
        ]
    }
    if adversarial:
        body = '{"a":"' + "{}" * ((size - 6) // 2)
        pieces = ['{"a":"'] + ["{}"] * ((size - 6) // 2)
    else:
        body = '{"a":"' + "x" * (size - 8) + '"}'
        pieces = list(body)
    assert "".join(pieces) == body
    chunks = [header]
    chunks += [
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {"tool_calls": [{"index": 0, "function": {"arguments": piece}}]},
                }
            ]
        }
        for piece in pieces
    ]
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    return chunks


def realistic_stream(words: int) -> list[JSONObject]:
    """An OpenAI-shaped stream: role chunk, one word per chunk, a call, usage."""
    envelope: JSONObject = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": "gpt-x",
        "system_fingerprint": "fp_1",
        "obfuscation": "abcd",
    }
    chunks: list[JSONObject] = [
        {
            **envelope,
            "choices": [
                {
                    "index": 0,
                    "delta": {"role": "assistant", "content": ""},
                    "finish_reason": None,
                    "logprobs": None,
                }
            ],
            "usage": None,
        }
    ]
    for n in range(words):
        chunks.append(
            {
                **envelope,
                "choices": [
                    {
                        "index": 0,
                        "delta": {"content": f" word{n}"},
                        "finish_reason": None,
                        "logprobs": None,
                    }
                ],
                "usage": None,
            }
        )
    arguments = json.dumps({"city": "Oslo", "units": "metric", "days": 3})
    chunks.append(
        {
            **envelope,
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "call_1",
                                "type": "function",
                                "function": {"name": "forecast", "arguments": ""},
                            }
                        ]
                    },
                    "finish_reason": None,
                }
            ],
        }
    )
    for start in range(0, len(arguments), 4):
        chunks.append(
            {
                **envelope,
                "choices": [
                    {
                        "index": 0,
                        "delta": {
                            "tool_calls": [
                                {
                                    "index": 0,
                                    "function": {"arguments": arguments[start : start + 4]},
                                }
                            ]
                        },
                        "finish_reason": None,
                    }
                ],
            }
        )
    chunks.append(
        {**envelope, "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}
    )
    chunks.append(
        {
            **envelope,
            "choices": [],
            "usage": {"prompt_tokens": 10, "completion_tokens": words, "total_tokens": 10 + words},
        }
    )
    return chunks


def linearity(small: int, large: int, *, adversarial: bool) -> tuple[float, float, float]:
    """Seconds to fold `small` and `large` characters one per chunk, and their ratio."""
    small_chunks = one_character_per_chunk(small, adversarial=adversarial)
    large_chunks = one_character_per_chunk(large, adversarial=adversarial)
    small_time = timing.best_of(5, lambda: fold(small_chunks))
    large_time = timing.best_of(3, lambda: fold(large_chunks))
    return small_time, large_time, large_time / small_time


def cost_against_decoding(chunks: list[JSONObject]) -> tuple[float, float, float]:
    """Seconds to decode the stream's data fields, to fold it, and fold / decode."""
    return timing.cost_against_decoding(chunks, fold)


def main() -> None:
    """Print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="10 kB / 100 kB instead of 100 kB / 1 MB"
    )
    args = parser.parse_args()
    small, large = (10_000, 100_000) if args.quick else (100_000, 1_000_000)
    for adversarial in (False, True):
        label = "adversarial {} fragments" if adversarial else "one character per chunk"
        small_time, large_time, ratio = linearity(small, large, adversarial=adversarial)
        print(
            f"linearity, {label}: {small:,} chars {small_time:.3f} s, "
            f"{large:,} chars {large_time:.3f} s, "
            f"ratio {ratio:.1f} (linear: 10, quadratic: 100)"
        )
    streams = {
        "realistic stream (2,000 content chunks, a call, usage)": realistic_stream(2_000),
        f"one character per chunk ({small:,} chunks)": one_character_per_chunk(small),
    }
    for label, chunks in streams.items():
        decode, folded, ratio = cost_against_decoding(chunks)
        print(
            f"{label}: json.loads {decode * 1e3:.1f} ms, fold {folded * 1e3:.1f} ms, "
            f"fold/decode {ratio:.2f}"
        )


if __name__ == "__main__":
    main()
