"""Feature `sse`, for a dialect whose wire rules are about the items a fold is given
(`Dialect.sse_layer` "items"): the target's own decoder of `text/event-stream` bytes
hands the fold every item's data, in arrival order, whatever the framing, the `event:`
names and the cuts.

The decoder checked is the target's (`check.decoded`); its items must equal the
reference's (`Dialect.decode_sse`) for the same byte pieces, which are the items the
bytes were written from. The bytes, what they are written from and the rules each test
checks are the run's dialect's (its suite kit's `SSE`, `refold.suites._kits`): frames
named by their `type` or unnamed, with comments, mixed line ends, JSON over several
`data:` lines, and cut at any byte (inside a UTF-8 character and between CR and LF
included); frames a decoder may be tempted to filter or raise on, inserted anywhere. A
target that does not claim `sse` skips them.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.run.checks import Check

from ._kits import Framing, parametrize_from
from ._sse_items import decodes_like_the_reference


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    parametrize_from(metafunc, "SSE")


def _decoded_as_sent(check: Check, framing: Framing, data: st.DataObject) -> None:
    __tracebackhide__ = True
    if "sse" not in check.target.features:
        pytest.skip(
            f"target {check.target.name} does not claim feature sse, which this "
            f"test needs to send bytes to its decoder"
        )
    decodes_like_the_reference(check, framing(check.target.features, data))


@given(data=st.data())
def test_frames_decode_to_their_data_with_or_without_event_lines(
    check: Check, framed: Framing, data: st.DataObject
) -> None:
    _decoded_as_sent(check, framed, data)


@given(data=st.data())
def test_frames_a_decoder_may_filter_are_passed_to_the_fold(
    check: Check, passed_through: Framing, data: st.DataObject
) -> None:
    _decoded_as_sent(check, passed_through, data)
