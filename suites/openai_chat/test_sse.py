"""Feature `sse`: the target's decoder of `text/event-stream` bytes follows the wire rules.

The decoder checked is the target's own (`refold_target.sse`): the reference's for
`--target reference`, openai-python's for `--target openai`. A target without a decoder
cannot claim `sse`, so the plugin skips these tests for it. Each test is marked with the
wire rules it checks (`refold.reference.chat.SSE_RULES`: WHATWG server-sent events, not part of
chat-fold.md), so the results table and reports list them per rule; a failure here is a
plain assertion and is charged to those marks, never to a spec rule.

A target's documented deviation (`KNOWN_DEVIATIONS`, by target name) is a strict xfail
naming the rule: it is reported on every run, and the day the decoder is fixed the xfail
turns into a failure that says so. openai-python's and httpx-sse's decoders are also
checked directly, whatever the target, by tests/dialects/openai_chat/test_sdk_sse_decoders.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.reference.sse import decode_chunks
from refold.run.marks import rule
from refold.strategies.wire import sse_bytes
from refold.targets import Target
from refold.targets.sdk.decoders import SSEDecode, decode_reference

from ._sse_cases import CASES, KNOWN_DEVIATIONS, PROPERTY_RULES, SSECase, chunk_lists, mismatch


def _decoder(target: Target) -> SSEDecode:
    # getattr: a Target written against the protocol before `sse` existed has no attribute.
    decode: SSEDecode | None = getattr(target, "sse", None)
    if decode is None:
        pytest.fail(f"target {target.name} claims `sse` but declares no SSE decoder")
    return decode


@pytest.mark.parametrize("case", [pytest.param(c, marks=rule(c.rule), id=c.rule) for c in CASES])
def test_decoder_follows_the_whatwg_event_stream_rules(
    refold_target: Target, case: SSECase, request: pytest.FixtureRequest
) -> None:
    decode = _decoder(refold_target)
    deviation = KNOWN_DEVIATIONS.get(refold_target.name, {}).get(case.rule)
    if deviation is not None:
        # Applied here, not at collection: which deviations apply depends on --target.
        request.applymarker(
            pytest.mark.xfail(
                strict=True, reason=f"{refold_target.name} deviates from {case.rule}: {deviation}"
            )
        )
    problem = mismatch(case, decode)
    assert problem is None, problem


@rule(*PROPERTY_RULES)
@given(data=st.data())
def test_decoder_yields_the_reference_events_for_any_server_framing_and_cuts(
    refold_target: Target, data: st.DataObject
) -> None:
    decode = _decoder(refold_target)
    chunks = data.draw(chunk_lists(), label="chunks")
    parts = data.draw(sse_bytes(chunks), label="parts")
    assert decode(parts) == decode_reference(parts), f"cut into {parts!r}"
    assert decode_chunks(parts) == chunks
