"""Rule examples: usage (GM-USAGE-LAST).

The counts are running totals that can go down (R9), and a count the last object omits
is 0 [PROTO3]: the last `usageMetadata` object is the usage, whole.
"""

from __future__ import annotations

from refold.run.checks import Check
from refold.run.marks import rule

from ._chunks import answer, text_stream
from ._expect import expect_fold


@rule("GM-USAGE-LAST")
def test_running_totals_are_replaced_never_summed(check: Check) -> None:
    # R9: candidatesTokenCount 5 -> 23, totalTokenCount 199 -> 217
    first = {"promptTokenCount": 194, "candidatesTokenCount": 5, "totalTokenCount": 199}
    last = {"promptTokenCount": 194, "candidatesTokenCount": 23, "totalTokenCount": 217}
    chunks = text_stream("Hel", "lo")
    chunks[0]["usageMetadata"] = first
    chunks[1]["usageMetadata"] = last
    expect_fold(check, chunks, answer("Hello", usageMetadata=last))


@rule("GM-USAGE-LAST")
def test_a_count_that_goes_down_is_the_last_ones(check: Check) -> None:
    # image models: thoughtsTokenCount 244 -> 167 (R9)
    first = {"promptTokenCount": 10, "thoughtsTokenCount": 244, "totalTokenCount": 254}
    last = {"promptTokenCount": 10, "thoughtsTokenCount": 167, "totalTokenCount": 1467}
    chunks = text_stream("An ", "image")
    chunks[0]["usageMetadata"] = first
    chunks[1]["usageMetadata"] = last
    expect_fold(check, chunks, answer("An image", usageMetadata=last))


@rule("GM-USAGE-LAST")
def test_a_count_the_last_object_omits_is_not_kept_from_an_earlier_one(check: Check) -> None:
    first = {"promptTokenCount": 10, "cachedContentTokenCount": 4, "totalTokenCount": 10}
    last = {"promptTokenCount": 10, "candidatesTokenCount": 2, "totalTokenCount": 12}
    chunks = text_stream("Hi", "!")
    chunks[0]["usageMetadata"] = first
    chunks[1]["usageMetadata"] = last
    expect_fold(check, chunks, answer("Hi!", usageMetadata=last))


@rule("GM-USAGE-LAST")
def test_vertex_traffic_type_only_usage_is_superseded_by_the_final_one(check: Check) -> None:
    final = {
        "promptTokenCount": 8,
        "candidatesTokenCount": 2,
        "totalTokenCount": 10,
        "trafficType": "ON_DEMAND",
    }
    chunks = text_stream("Hel", "lo", "!")
    chunks[0]["usageMetadata"] = {"trafficType": "ON_DEMAND"}
    chunks[1]["usageMetadata"] = {"trafficType": "ON_DEMAND"}
    chunks[2]["usageMetadata"] = final
    expect_fold(check, chunks, answer("Hello!", usageMetadata=final))


@rule("GM-USAGE-LAST")
def test_usage_is_absent_when_no_chunk_carried_one(check: Check) -> None:
    chunks = text_stream("Hel", "lo")
    del chunks[1]["usageMetadata"]
    expect_fold(check, chunks, answer("Hello"))
