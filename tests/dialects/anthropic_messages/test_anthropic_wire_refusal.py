"""A frame whose data is not JSON is refused (AM-ROB-NOT-OBJECT), by the target's decoder or
by its fold of what the decoder handed on: the wire example holds a decoder that skips the
frame or turns it into an event, passes one that hands the data on to a fold that refuses
it, and skips for a target without `sse`. `check.decoded_raw` returns a decoder's error."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from refold.errors import TargetError
from refold.reference import JSON, anthropic
from refold.run.checks import Check, ConformanceFailure
from refold.suites.anthropic import test_anthropic_rule_examples_sse as examples
from refold.suites.anthropic._events import frame
from refold.targets.python import from_object

_BAD = examples._NOT_JSON[0]


def _data(part: bytes) -> str:
    return part.decode().split("data: ", 1)[1].strip()


def _lenient(on_bad: Callable[[str], list[JSON]]) -> Callable[[Iterable[bytes]], list[JSON]]:
    """A decoder of one frame per piece that answers `on_bad(data)` for data not JSON."""

    def decode(parts: Iterable[bytes]) -> list[JSON]:
        decoded: list[JSON] = []
        for part in parts:
            try:
                decoded += anthropic.decode_stream([part])
            except anthropic.EventDataError:
                decoded += on_bad(_data(part))
        return decoded

    return decode


def _check(sse: Callable[[Iterable[bytes]], list[JSON]] | None) -> Check:
    features = set(anthropic.FEATURES) - ({"sse"} if sse is None else set())
    declaration = {
        "name": "wire",
        "dialect": "anthropic-messages",
        "factory": anthropic.Accumulator,
        "features": sorted(features),
    }
    check = Check(from_object({**declaration, **({"sse": sse} if sse else {})}, name="wire"))
    check.rules = ("AM-ROB-NOT-OBJECT",)
    return check


@pytest.mark.parametrize(
    "on_bad", [lambda data: [], lambda data: [{"type": "error"}]], ids=["skips", "makes-an-event"]
)
def test_a_decoder_that_does_not_refuse_data_that_is_not_json_fails_its_rule(
    on_bad: Callable[[str], list[JSON]],
) -> None:
    with pytest.raises(ConformanceFailure, match="neither refused") as failed:
        examples.test_a_frame_whose_data_is_not_json_is_refused(_check(_lenient(on_bad)), _BAD)
    assert failed.value.implicated == ("AM-ROB-NOT-OBJECT",)


def test_a_decoder_may_hand_the_data_on_to_a_fold_that_refuses_it() -> None:
    check = _check(_lenient(lambda data: [data]))
    examples.test_a_frame_whose_data_is_not_json_is_refused(check, _BAD)


def test_the_example_skips_for_a_target_without_a_decoder() -> None:
    with pytest.raises(pytest.skip.Exception, match="sse"):
        examples.test_a_frame_whose_data_is_not_json_is_refused(_check(None), _BAD)


def test_decoded_raw_returns_an_in_process_decoders_exception_that_decoded_fails_on() -> None:
    check = _check(anthropic.decode_stream)
    parts = [frame(_BAD, event="ping")]
    error = check.decoded_raw(parts)
    assert isinstance(error, TargetError) and error.kind == "raised"
    assert str(error).startswith("EventDataError: line 1: event data is not JSON")
    with pytest.raises(ConformanceFailure, match=r"SSE decoder failed \(raised\)"):
        check.decoded(parts)
