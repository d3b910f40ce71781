"""A target that declares itself: `refold_target` names its factory, name and features."""

from __future__ import annotations

from refold.reference.chat import Accumulator

refold_target = {
    "name": "declared-example",
    "factory": Accumulator,
    "features": ["text", "choices", "tool_calls", "usage", "lifecycle"],
}
