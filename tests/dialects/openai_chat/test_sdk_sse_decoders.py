"""openai-python's and httpx-sse's SSE decoders against the wire rules, whatever `--target`.

The `sse` suite checks only the decoder of the target under check; this file keeps both real
decoders' documented deviations (`KNOWN_DEVIATIONS`) shown as strict xfails in every CI
run: an xfail that starts passing means the library fixed its decoder, and the entry must
go. httpx-sse is checked only here, since no target carries it. Skipped with a reason when
the `openai` extra (openai-python and httpx-sse) is absent.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.strategies.wire import sse_bytes
from refold.suites.openai_chat._sse_cases import (
    CASES,
    KNOWN_DEVIATIONS,
    SSECase,
    chunk_lists,
    mismatch,
)
from refold.targets.sdk.decoders import SSEDecode, decode_httpx_sse, decode_openai, decode_reference

# The real decoders by name, with the module each needs (both come with refold[openai]).
_REAL: dict[str, tuple[str, SSEDecode]] = {
    "openai": ("openai", decode_openai),
    "httpx-sse": ("httpx_sse", decode_httpx_sse),
}


def _decoder(name: str) -> SSEDecode:
    module, decode = _REAL[name]
    pytest.importorskip(module, reason=f"install refold[openai] to check {name}")
    return decode


def _case_params() -> list[object]:
    params = []
    for name in _REAL:
        for case in CASES:
            deviation = KNOWN_DEVIATIONS[name].get(case.rule)
            marks = (
                []
                if deviation is None
                else [
                    pytest.mark.xfail(
                        strict=True, reason=f"{name} deviates from {case.rule}: {deviation}"
                    )
                ]
            )
            params.append(pytest.param(name, case, marks=marks, id=f"{name}-{case.rule}"))
    return params


@pytest.mark.parametrize(("name", "case"), _case_params())
def test_a_real_decoder_follows_each_wire_rule_except_its_documented_deviations(
    name: str, case: SSECase
) -> None:
    problem = mismatch(case, _decoder(name))
    assert problem is None, problem


@pytest.mark.parametrize("name", list(_REAL))
@given(data=st.data())
def test_a_real_decoder_yields_the_reference_events_for_any_server_framing_and_cuts(
    name: str, data: st.DataObject
) -> None:
    decode = _decoder(name)
    parts = data.draw(sse_bytes(data.draw(chunk_lists(), label="chunks")), label="parts")
    assert decode(parts) == decode_reference(parts), f"cut into {parts!r}"


def test_every_documented_deviation_names_a_wire_rule_with_a_case() -> None:
    ruled = {case.rule for case in CASES}
    for name, deviations in KNOWN_DEVIATIONS.items():
        assert set(deviations) <= ruled, f"{name}: {sorted(set(deviations) - ruled)}"
