"""What every fold benchmark measures the same way: the best of several runs, and a
fold's cost against `json.loads` decoding the same items from their SSE data fields."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The shortest of `runs` timings of `work()`, in seconds (`time.perf_counter`)."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def cost_against_decoding(
    items: list[Any], fold: Callable[[list[Any]], object]
) -> tuple[float, float, float]:
    """Seconds to decode the items' data fields, to fold them, and fold / decode."""
    lines = [json.dumps(item) for item in items]
    decode_time = best_of(7, lambda: [json.loads(line) for line in lines])
    decoded = [json.loads(line) for line in lines]
    fold_time = best_of(7, lambda: fold(decoded))
    return decode_time, fold_time, fold_time / decode_time
