"""A small shape classifier for the chat dialect, for the tests of where a failure is
found (the real vendored ones are the dialects' own): a chunk with `x_gateway` carries a
registered observed departure, one with `x_bogus` a synthetic one, and any other chunk is
documented. `shaped()` registers it on the chat dialect for a block; `CONFTEST` does so
for a pytest run in a subprocess."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path

from refold.dialects import DIALECTS
from refold.reference import JSON
from refold.verdicts.shapes import Departure, StreamShapes

_SCHEMA = {
    "type": "object",
    "not": {"anyOf": [{"required": ["x_gateway"]}, {"required": ["x_bogus"]}]},
}


def _with(key: str) -> object:
    def detect(items: Sequence[JSON]) -> list[int]:
        return [i for i, item in enumerate(items) if isinstance(item, dict) and key in item]

    return detect


SHAPES = StreamShapes(
    schema=_SCHEMA,
    grammar=(),
    departures={
        "T-GATEWAY": Departure(
            "T-GATEWAY",
            "observed",
            "a chunk with `x_gateway`",
            ("A gateway: https://example.invalid/capture",),
        ),
        "T-BOGUS": Departure("T-BOGUS", "synthetic", "a chunk with `x_bogus`"),
    },
    detectors={"T-GATEWAY": _with("x_gateway"), "T-BOGUS": _with("x_bogus")},  # type: ignore[dict-item]
)


def register() -> None:
    """Give the chat dialect these shapes (a frozen dataclass: set as its __init__ does)."""
    object.__setattr__(DIALECTS["openai-chat"], "shapes", SHAPES)


@contextlib.contextmanager
def shaped(shapes: StreamShapes | None = SHAPES) -> Iterator[None]:
    """The chat dialect tells these shapes inside the block (None: it tells none)."""
    chat = DIALECTS["openai-chat"]
    before = chat.shapes
    object.__setattr__(chat, "shapes", shapes)
    try:
        yield
    finally:
        object.__setattr__(chat, "shapes", before)


CONFTEST = f"""
import sys
sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
from _shaped_dialect import register


def pytest_configure(config):
    register()
"""
"""A conftest.py that registers the shapes in a pytest run (every xdist worker too)."""
