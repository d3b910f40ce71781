"""Every case of the starter corpus (examples/corpus/, the providers' documentation streams)
gets a stream shape, with its departures named (verdicts.md §1: every stream refold loads
from a corpus gets its shape).

Most are `documented`. Four of the pages' own streams are not, each for a reason pinned
below: the streaming page's thinking stream carries no usage (as the Anthropic shape tests
say, AQ4), its web search stream is abridged (blocks left out, a stop for block 17), the
function-calling guide's stream is an excerpt of the events (no sequence numbers, no
response.created, no terminal event), and Google's cookbook stream is gemini-pro's (a
finish reason on every chunk).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from refold.capture.corpus import Case, load_corpus
from refold.verdicts.shapes import StreamShape

STARTER = Path(__file__).resolve().parents[3] / "examples" / "corpus"
CASES = {case.name: case for case in load_corpus(STARTER)}

EXPECTED: dict[str, tuple[str, tuple[str, ...]]] = {
    "anthropic-error": ("documented", ()),
    "anthropic-text": ("documented", ()),
    "anthropic-tool-use": ("documented", ()),
    "openai-chat-chunks": ("documented", ()),
    # gemini-pro (2024) says finishReason STOP on every chunk, its text going on
    "gemini-text": ("observed", ("GMD-FINISH-EVERY-CHUNK",)),
    # no usage anywhere and a thinking block started without its signature, as
    # tests/dialects/anthropic_messages/test_anthropic_stream_shapes.py says of the page's stream
    "anthropic-thinking": ("observed", ("AQ4", "AMD-THINKING-UNSIGNED-START")),
    # the page leaves blocks out: index 3 is never stopped, a content_block_stop names
    # block 17, and usage.server_tool_use does not validate against the SDK's type
    "anthropic-web-search": (
        "synthetic",
        ("AMD-WRONG-TYPE", "AMD-BLOCK-OUTSIDE", "AMD-BLOCK-UNSTOPPED"),
    ),
    # the guide shows the call's events only: no sequence_number, no response.created,
    # no terminal event, and arguments.done without name
    "openai-responses-function-call": (
        "synthetic",
        ("RQ12", "RS-RESUMED", "RS-DOC-ARGS-NAME", "RS-SYN-CUT"),
    ),
}
"""Each case's shape and departures, in registry order."""


def _shape(case: Case) -> StreamShape:
    shapes = case.dialect.shapes
    assert shapes is not None, f"{case.name}: dialect {case.dialect.name} tells no shapes"
    return shapes.of(case.items)


def test_the_table_names_every_case_of_the_starter_corpus() -> None:
    assert set(CASES) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_case_gets_its_shape_with_every_departure_registered(name: str) -> None:
    shape = _shape(CASES[name])
    assert shape.unregistered == (), shape.describe()
    assert (shape.shape, shape.departures) == EXPECTED[name], shape.describe()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_case_names_the_documentation_page_it_comes_from(name: str) -> None:
    # the shape is told of the provider's own documentation stream
    url = str(CASES[name].provenance.get("url", ""))
    assert url.startswith(
        (
            "https://docs.claude.com/",
            "https://platform.openai.com/docs/",
            "https://github.com/google-gemini/cookbook/",
        )
    ), url
