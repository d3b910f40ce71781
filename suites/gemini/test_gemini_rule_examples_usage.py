"""Rule examples: usage (GM-USAGE-LAST).

The counts are running totals that can go down (R9), and a count the last object omits
is 0 [PROTO3]: the last `usageMetadata` object is the usage, whole.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from refold.reference import JSONObject
from refold.run.checks import Check
from refold.run.marks import rule

from ._chunks import answer, text_stream
from ._expect import expect_fold


def _reporting(usages: Sequence[JSONObject], *pieces: str) -> list[JSONObject]:
    """A text stream of `pieces` whose chunks carry `usages` as their `usageMetadata`, one
    each, in order."""
    chunks = text_stream(*pieces)
    for one, usage in zip(chunks, usages, strict=True):
        one["usageMetadata"] = copy.deepcopy(usage)
    return chunks


@rule("GM-USAGE-LAST")
def test_running_totals_are_replaced_never_summed(check: Check) -> None:
    # R9: candidatesTokenCount 5 -> 23, totalTokenCount 199 -> 217
    first = {"promptTokenCount": 194, "candidatesTokenCount": 5, "totalTokenCount": 199}
    last = {"promptTokenCount": 194, "candidatesTokenCount": 23, "totalTokenCount": 217}
    chunks = _reporting([first, last], "Hel", "lo")
    expect_fold(check, chunks, answer("Hello", usageMetadata=last))


@rule("GM-USAGE-LAST")
def test_a_count_that_goes_down_is_the_last_ones(check: Check) -> None:
    # image models: thoughtsTokenCount 244 -> 167 (R9)
    first = {"promptTokenCount": 10, "thoughtsTokenCount": 244, "totalTokenCount": 254}
    last = {"promptTokenCount": 10, "thoughtsTokenCount": 167, "totalTokenCount": 1467}
    chunks = _reporting([first, last], "An ", "image")
    expect_fold(check, chunks, answer("An image", usageMetadata=last))


@rule("GM-USAGE-LAST")
def test_a_count_the_last_object_omits_is_not_kept_from_an_earlier_one(check: Check) -> None:
    first = {"promptTokenCount": 10, "cachedContentTokenCount": 4, "totalTokenCount": 10}
    last = {"promptTokenCount": 10, "candidatesTokenCount": 2, "totalTokenCount": 12}
    chunks = _reporting([first, last], "Hi", "!")
    expect_fold(check, chunks, answer("Hi!", usageMetadata=last))


@rule("GM-USAGE-LAST")
def test_vertex_traffic_type_only_usage_is_superseded_by_the_final_one(check: Check) -> None:
    traffic_only = {"trafficType": "ON_DEMAND"}
    final = {
        "promptTokenCount": 8,
        "candidatesTokenCount": 2,
        "totalTokenCount": 10,
        "trafficType": "ON_DEMAND",
    }
    chunks = _reporting([traffic_only, traffic_only, final], "Hel", "lo", "!")
    expect_fold(check, chunks, answer("Hello!", usageMetadata=final))


@rule("GM-USAGE-LAST")
def test_usage_is_absent_when_no_chunk_carried_one(check: Check) -> None:
    chunks = text_stream("Hel", "lo")
    del chunks[1]["usageMetadata"]
    expect_fold(check, chunks, answer("Hello"))
