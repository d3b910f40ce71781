"""Benchmarks of the OpenAI Responses reference fold: linear, and no dearer than decoding.

Run: `python benchmarks/responses_fold_performance.py` (add `--quick` for a smaller run).

1. Linearity: one function call whose `arguments` arrive one character per
   `response.function_call_arguments.delta` event. Folding 1 MB of arguments should cost
   about 10x what 100 kB costs (a quadratic fold: 100x). Measured for the arguments, for
   a text part streamed one character per event, and for the same text read back after
   every event (`response()` per event, as a live UI does), at a tenth of the sizes: a
   read copies no event and re-joins only the fragments added since the last read, but
   it hands out a new `str` of the whole text, which CPython must allocate, so that run
   is the memory copy of n reads of up to n characters (fast, yet not linear at 1 MB).
2. Cost against decoding: the time to fold a realistic stream, divided by the time
   `json.loads` takes to decode the same events from their SSE data fields.

Timings are the best of several runs of `time.perf_counter`; ratios, not absolute
numbers, are the result.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

import _timing as timing

from refold.reference.responses import Accumulator, fold

JSONObject = dict[str, object]


def _lifecycle(kind: str, status: str, **fields: object) -> JSONObject:
    return {
        "type": f"response.{kind}",
        "response": {
            "id": "resp_01",
            "object": "response",
            "created_at": 1700000000,
            "status": status,
            "model": "gpt-x",
            "output": [],
            **fields,
        },
    }


def _usage(output_tokens: int) -> JSONObject:
    return {
        "input_tokens": 472,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 472 + output_tokens,
    }


def one_character_per_event(size: int, kind: str = "arguments") -> list[JSONObject]:
    """One item whose `size` characters arrive one per event (`kind`: arguments, text);
    the terminal output is `[]` (RQ1), so the fold must build the item itself."""
    if kind == "arguments":
        pieces = list('{"a":"' + "x" * (size - 8) + '"}')
        item: JSONObject = {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "f",
            "arguments": "",
            "status": "in_progress",
        }
        deltas = [
            {
                "type": "response.function_call_arguments.delta",
                "item_id": "fc_1",
                "output_index": 0,
                "delta": piece,
                "sequence_number": n,
            }
            for n, piece in enumerate(pieces)
        ]
    else:
        item = {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "content": [],
            "status": "in_progress",
        }
        deltas = [
            {
                "type": "response.output_text.delta",
                "item_id": "msg_1",
                "output_index": 0,
                "content_index": 0,
                "delta": "x",
                "sequence_number": n,
            }
            for n in range(size)
        ]
    return [
        _lifecycle("created", "in_progress"),
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        *deltas,
        _lifecycle("completed", "completed", usage=_usage(size)),
    ]


def realistic_stream(words: int) -> list[JSONObject]:
    """A documented-shape stream: reasoning summary, `words` text deltas, a call, usage."""
    events = [
        _lifecycle("created", "in_progress"),
        _lifecycle("in_progress", "in_progress"),
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {"type": "reasoning", "id": "rs_1", "summary": []},
        },
        {
            "type": "response.reasoning_summary_part.added",
            "item_id": "rs_1",
            "output_index": 0,
            "summary_index": 0,
            "part": {"type": "summary_text", "text": ""},
        },
    ]
    events += [
        {
            "type": "response.reasoning_summary_text.delta",
            "item_id": "rs_1",
            "output_index": 0,
            "summary_index": 0,
            "delta": f" step {n}.",
            "obfuscation": "a8Xk",
        }
        for n in range(words // 4)
    ]
    message: JSONObject = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "content": [],
        "status": "in_progress",
    }
    events += [
        {
            "type": "response.output_item.done",
            "output_index": 0,
            "item": {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [],
                "encrypted_content": "gAAA" * 50,
            },
        },
        {"type": "response.output_item.added", "output_index": 1, "item": message},
        {
            "type": "response.content_part.added",
            "item_id": "msg_1",
            "output_index": 1,
            "content_index": 0,
            "part": {"type": "output_text", "text": "", "annotations": []},
        },
    ]
    events += [
        {
            "type": "response.output_text.delta",
            "item_id": "msg_1",
            "output_index": 1,
            "content_index": 0,
            "delta": f" word{n}",
            "obfuscation": "q2",
        }
        for n in range(words)
    ]
    arguments = json.dumps({"location": "San Francisco, CA", "unit": "celsius", "days": 3})
    events += [
        {
            "type": "response.output_item.added",
            "output_index": 2,
            "item": {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "call_1",
                "name": "get_weather",
                "arguments": "",
                "status": "in_progress",
            },
        }
    ]
    events += [
        {
            "type": "response.function_call_arguments.delta",
            "item_id": "fc_1",
            "output_index": 2,
            "delta": arguments[i : i + 4],
        }
        for i in range(0, len(arguments), 4)
    ]
    events.append(
        {
            "type": "response.function_call_arguments.done",
            "item_id": "fc_1",
            "output_index": 2,
            "arguments": arguments,
        }
    )
    return [*events, _lifecycle("completed", "completed", usage=_usage(words + 40))]


def _read_after_every_event(events: list[JSONObject]) -> None:
    accumulator = Accumulator()
    for event in events:
        accumulator.add(event)
        accumulator.response()


def linearity(small: int, large: int, kind: str) -> tuple[float, float, float]:
    """Seconds to fold `small` and `large` characters one per event, and their ratio."""
    work: Callable[[list[JSONObject]], object] = fold
    if kind == "reads":
        kind, work = "text", _read_after_every_event
    small_events = one_character_per_event(small, kind)
    large_events = one_character_per_event(large, kind)
    small_time = timing.best_of(5, lambda: work(small_events))
    large_time = timing.best_of(3, lambda: work(large_events))
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
        "arguments": "function-call arguments, one character per event",
        "text": "output text, one character per event",
        "reads": "output text, one character per event, response() after each",
    }
    for kind, label in labels.items():
        low, high = (small // 10, large // 10) if kind == "reads" else (small, large)
        small_time, large_time, ratio = linearity(low, high, kind)
        print(
            f"linearity, {label}: {low:,} chars {small_time:.3f} s, "
            f"{high:,} chars {large_time:.3f} s, "
            f"ratio {ratio:.1f} (linear: 10, quadratic: 100)"
        )
    streams = {
        "realistic stream (reasoning, 2,000 text deltas, a call)": realistic_stream(2_000),
        f"arguments one character per event ({small:,} events)": one_character_per_event(small),
    }
    for label, events in streams.items():
        decode, folded, ratio = cost_against_decoding(events)
        print(
            f"{label}: json.loads {decode * 1e3:.1f} ms, fold {folded * 1e3:.1f} ms, "
            f"fold/decode {ratio:.2f}"
        )


if __name__ == "__main__":
    main()
