"""Benchmarks of the Anthropic Messages reference fold: linear, and no dearer than decoding.

Run: `python benchmarks/anthropic_fold_performance.py` (add `--quick` for a smaller run).

1. Linearity: one tool_use block whose `partial_json` arrives one character per event.
   Folding 1 MB of input should cost about 10x what 100 kB costs (a quadratic fold:
   100x). Measured for the plain input, for an adversarial one made of `{}` fragments
   after an unterminated string (a fold that parsed per fragment or rescanned would pay
   for every one), and for a text block streamed one character per event.
2. Cost against decoding: the time to fold a realistic stream, divided by the time
   `json.loads` takes to decode the same events from their SSE data fields.

Timings are the best of several runs of `time.perf_counter`; ratios, not absolute
numbers, are the result.
"""

from __future__ import annotations

import argparse
import json

import _timing as timing

from refold.reference.anthropic import fold

JSONObject = dict[str, object]


def _envelope() -> JSONObject:
    return {
        "type": "message_start",
        "message": {
            "id": "msg_01",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 472, "output_tokens": 2},
        },
    }


def _closing(stop_reason: str, output_tokens: int) -> list[JSONObject]:
    return [
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": output_tokens},
        },
        {"type": "message_stop"},
    ]


def one_character_per_event(size: int, kind: str = "tool") -> list[JSONObject]:
    """One block whose `size` characters arrive one per event (`kind`: tool, adversarial,
    text)."""
    if kind == "adversarial":
        pieces = ['{"a":"'] + ["{}"] * ((size - 6) // 2)
    elif kind == "tool":
        pieces = list('{"a":"' + "x" * (size - 8) + '"}')
    else:
        pieces = list("x" * size)
    if kind == "text":
        opening: JSONObject = {"type": "text", "text": ""}
        deltas = [{"type": "text_delta", "text": piece} for piece in pieces]
    else:
        opening = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}
        deltas = [{"type": "input_json_delta", "partial_json": piece} for piece in pieces]
    events = [_envelope(), {"type": "content_block_start", "index": 0, "content_block": opening}]
    events += [{"type": "content_block_delta", "index": 0, "delta": delta} for delta in deltas]
    events.append({"type": "content_block_stop", "index": 0})
    return events + _closing("tool_use", size)


def realistic_stream(words: int) -> list[JSONObject]:
    """A documented-shape stream: thinking, `words` text deltas, a tool call, pings, usage."""
    events = [
        _envelope(),
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "thinking", "thinking": ""},
        },
    ]
    events += [
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": f" step {n}."},
        }
        for n in range(words // 4)
    ]
    events += [
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "signature_delta", "signature": "EqQBCgIYAhIM" * 20},
        },
        {"type": "content_block_stop", "index": 0},
        {"type": "ping"},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
    ]
    events += [
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "text_delta", "text": f" word{n}"},
        }
        for n in range(words)
    ]
    arguments = json.dumps({"location": "San Francisco, CA", "unit": "celsius", "days": 3})
    events += [
        {"type": "content_block_stop", "index": 1},
        {
            "type": "content_block_start",
            "index": 2,
            "content_block": {
                "type": "tool_use",
                "id": "toolu_01",
                "name": "get_weather",
                "input": {},
            },
        },
        {
            "type": "content_block_delta",
            "index": 2,
            "delta": {"type": "input_json_delta", "partial_json": ""},
        },
    ]
    events += [
        {
            "type": "content_block_delta",
            "index": 2,
            "delta": {"type": "input_json_delta", "partial_json": arguments[i : i + 4]},
        }
        for i in range(0, len(arguments), 4)
    ]
    events.append({"type": "content_block_stop", "index": 2})
    return events + _closing("tool_use", words + 40)


def linearity(small: int, large: int, kind: str) -> tuple[float, float, float]:
    """Seconds to fold `small` and `large` characters one per event, and their ratio."""
    small_events = one_character_per_event(small, kind)
    large_events = one_character_per_event(large, kind)
    small_time = timing.best_of(5, lambda: fold(small_events))
    large_time = timing.best_of(3, lambda: fold(large_events))
    return small_time, large_time, large_time / small_time


def cost_against_decoding(events: list[JSONObject]) -> tuple[float, float, float]:
    """Seconds to decode the stream's data fields, to fold it, and fold / decode."""
    return timing.cost_against_decoding(events, fold)


def main() -> None:
    """Print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="10 kB / 100 kB instead of 100 kB / 1 MB"
    )
    args = parser.parse_args()
    small, large = (10_000, 100_000) if args.quick else (100_000, 1_000_000)
    labels = {
        "tool": "tool input, one character per event",
        "adversarial": "tool input, adversarial {} fragments",
        "text": "text, one character per event",
    }
    for kind, label in labels.items():
        small_time, large_time, ratio = linearity(small, large, kind)
        print(
            f"linearity, {label}: {small:,} chars {small_time:.3f} s, "
            f"{large:,} chars {large_time:.3f} s, "
            f"ratio {ratio:.1f} (linear: 10, quadratic: 100)"
        )
    streams = {
        "realistic stream (thinking, 2,000 text deltas, a tool call)": realistic_stream(2_000),
        f"tool input one character per event ({small:,} events)": one_character_per_event(small),
    }
    for label, events in streams.items():
        decode, folded, ratio = cost_against_decoding(events)
        print(
            f"{label}: json.loads {decode * 1e3:.1f} ms, fold {folded * 1e3:.1f} ms, "
            f"fold/decode {ratio:.2f}"
        )


if __name__ == "__main__":
    main()
