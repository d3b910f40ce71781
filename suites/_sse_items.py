"""What the item-layer SSE suites share (`test_sse_items.py`, a dialect's own wire tests):
frames inserted into a stream, and the target's decoder compared with the reference's.

For a dialect whose wire rules are about the items a fold is given (`Dialect.sse_layer`
"items"); the chat dialect's WHATWG wire rules are checked by its own suite.
"""

from __future__ import annotations

import copy

from hypothesis import note
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject, json_equal
from refold.run.checks import Check

__all__ = ["decodes_like_the_reference", "with_inserted"]


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
