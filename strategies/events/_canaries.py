"""Canaries: strings planted in provider frames where no portable field reads them.

PERSIST-CANARY: a string planted in an unknown key, a header-like value or a non-portable
field (Chat `system_fingerprint`) must appear nowhere in what the runtime persists. Each
canary is unique in its stream, so a byte scan of the persisted output finds exactly the
ones that leaked.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from hypothesis import strategies as st

from refold.reference import JSON

__all__ = ["CANARY_PREFIX", "planted", "with_canaries"]

CANARY_PREFIX = "CANARY-"

_UNKNOWN_KEY = "x_refold_trace"
"""A key no dialect defines: the frame's unknown member (EV-UNKNOWN keeps it in opaque)."""


def planted(
    frames: Sequence[JSON], at: Sequence[int], *, fingerprint: bool
) -> tuple[list[JSON], list[str]]:
    """`frames` with one canary in an unknown key of each object frame numbered in `at`
    (and, with `fingerprint`, in its `system_fingerprint`); the canaries planted."""
    result = copy.deepcopy(list(frames))
    canaries: list[str] = []
    for number in sorted(set(at)):
        frame = result[number] if 0 <= number < len(result) else None
        if not isinstance(frame, dict):
            continue
        canary = f"{CANARY_PREFIX}{number}-u"
        frame[_UNKNOWN_KEY] = {"note": canary}
        canaries.append(canary)
        if fingerprint:
            frame["system_fingerprint"] = f"{CANARY_PREFIX}{number}-fp"
            canaries.append(frame["system_fingerprint"])
    return result, canaries


@st.composite
def with_canaries(
    draw: st.DrawFn, frames: Sequence[JSON], *, fingerprint: bool = False
) -> tuple[list[JSON], list[str]]:
    """Draw where to plant canaries in `frames` (none shrinks first): (frames, canaries).
    With `fingerprint` (Chat frames), also one in `system_fingerprint`, a field no neutral
    event carries."""
    if not frames:
        return list(frames), []
    at = draw(st.lists(st.integers(0, len(frames) - 1), max_size=3))
    return planted(frames, at, fingerprint=fingerprint)
