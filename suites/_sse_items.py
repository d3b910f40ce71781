"""What the item-layer SSE suites share (`test_sse_items.py`, a dialect's own wire tests):
frames inserted into a stream, the target's decoder compared with the reference's, and a
frame whose data is not JSON refused.

For a dialect whose wire rules are about the items a fold is given (`Dialect.sse_layer`
"items"); a dialect whose wire rules are the WHATWG decoder's is checked by its own suite.
"""

from __future__ import annotations

import copy

from hypothesis import note
from hypothesis import strategies as st

from refold.errors import TargetError
from refold.reference import JSON, JSONObject, json_equal
from refold.run.checks import Check

__all__ = ["decodes_like_the_reference", "refuses_data_that_is_not_json", "with_inserted"]


def with_inserted(
    data: st.DataObject, items: list[JSON], extra: tuple[JSONObject, ...]
) -> list[JSON]:
    """`items` with one to three of `extra` inserted anywhere (first and last included)."""
    changed = list(items)
    for item in data.draw(
        st.lists(st.sampled_from(extra), min_size=1, max_size=3), label="inserted"
    ):
        changed.insert(data.draw(st.integers(0, len(changed))), copy.deepcopy(item))
    return changed


def decodes_like_the_reference(check: Check, parts: list[bytes]) -> None:
    """Fail unless the target's decoder gives the items the reference's gives."""
    __tracebackhide__ = True
    expected = check.dialect.decode_sse(parts)
    received = check.decoded(parts)
    if not json_equal(expected, received):
        note(f"cut into {parts!r}")
        raise check.fail(
            f"the target's decoder gave {len(received)} {check.dialect.item}(s) for "
            f"{len(parts)} byte piece(s), the reference's decoder {len(expected)} (the "
            f"pieces: see the note)",
            events=expected,
            expected=expected,
            received=received,
        )


def refuses_data_that_is_not_json(check: Check, parts: list[bytes], data: str) -> None:
    """Fail unless the target refuses the frame of `parts` whose data (`data`) is not JSON:
    its decoder raises, or hands the data on to a fold that refuses it."""
    __tracebackhide__ = True
    decoded = check.decoded_raw(parts)
    if isinstance(decoded, TargetError):
        if decoded.kind == "raised":
            return  # the decoder refused it
        raise check.fail(
            f"the target's SSE decoder failed ({decoded.kind}) instead of "
            f"refusing data that is not JSON",
            target_error=str(decoded),
        )
    handed_on = [item for item in decoded if not isinstance(item, dict)]
    if not handed_on:
        raise check.fail(
            f"the decoder neither refused the frame whose data is not JSON "
            f"({data!r}) nor handed it to the fold: it gave out only event "
            f"objects",
            events=decoded,
        )
    for item in handed_on:
        check.refuses(item)  # the fold refuses what the decoder handed on
