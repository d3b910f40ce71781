"""The shape of a provider-events stream is its source dialect's shape of its frames
(verdicts.md §1): `{"begin": SOURCE}` is the protocol's item, never a departure, and the
source dialect's `shapes` (looked up when asked) decides the rest. A test `StreamShapes`
stands for the source dialects' real ones, registered by other parts of issue 24.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from types import MappingProxyType

import pytest

from refold.dialects import DIALECTS
from refold.dialects.provider_events import PROVIDER_EVENTS, begin
from refold.dialects.provider_events._shapes import SourceShapes
from refold.reference import JSON
from refold.reference.events import DIALECTS as ADAPTED
from refold.run.checks import ConformanceFailure
from refold.verdicts.shapes import Departure, GrammarLine, Shapes, StreamShapes, Violation

CHAT = "openai-chat"
_SCHEMA = {"type": "object", "required": ["choices"], "properties": {"choices": {"type": "array"}}}


def _ends_with_done(items: Sequence[JSON]) -> list[Violation]:
    return (
        []
        if items and items[-1] == "[DONE]"
        else [Violation(max(len(items) - 1, 0), "", "grammar: a body ends with [DONE]")]
    )


def _null_choices(items: Sequence[JSON]) -> list[int]:
    return [
        i
        for i, item in enumerate(items)
        if isinstance(item, dict)
        and isinstance(item.get("choices"), list)
        and None in item["choices"]
    ]


def _without_done(items: Sequence[JSON]) -> list[int]:
    return [] if items and items[-1] == "[DONE]" else [max(len(items) - 1, 0)]


TEST_SHAPES = StreamShapes(
    schema={"if": {"type": "object"}, "then": _SCHEMA, "else": {"const": "[DONE]"}},
    grammar=(
        GrammarLine(
            "a body ends with [DONE]", "https://example.invalid/chat#streaming", _ends_with_done
        ),
    ),
    departures={
        "T-NO-DONE": Departure(
            "T-NO-DONE",
            "observed",
            "a body without [DONE]",
            ("A gateway: https://example.invalid/issue/1",),
        ),
        "T-NULL-CHOICE": Departure("T-NULL-CHOICE", "synthetic", "a null choices entry"),
    },
    detectors={"T-NO-DONE": _without_done, "T-NULL-CHOICE": _null_choices},
)
"""A chat `StreamShapes` for the test: a schema, two registered departures."""

CHUNK = {"id": "c", "choices": [{"index": 0, "delta": {"content": "Hi"}}]}


@pytest.fixture
def chat_with_shapes(monkeypatch: pytest.MonkeyPatch) -> StreamShapes:
    """openai-chat registered with `TEST_SHAPES`, as the registry is read when asked."""
    replaced = dict(DIALECTS)
    replaced[CHAT] = dataclasses.replace(DIALECTS[CHAT], shapes=TEST_SHAPES)
    monkeypatch.setattr("refold.dialects.DIALECTS", MappingProxyType(replaced))
    return TEST_SHAPES


def test_provider_events_registers_shapes_that_delegate_to_the_source() -> None:
    assert isinstance(PROVIDER_EVENTS.shapes, SourceShapes)
    shapes: Shapes = PROVIDER_EVENTS.shapes  # the Protocol Dialect.shapes is typed with
    # the shapes of every dialect the reference adapts to events, each a registered one
    assert set(PROVIDER_EVENTS.shapes.sources) == set(ADAPTED) <= set(DIALECTS)
    assert len(ADAPTED) >= 4
    assert shapes is PROVIDER_EVENTS.shapes


def test_a_documented_source_stream_is_a_documented_events_stream(
    chat_with_shapes: StreamShapes,
) -> None:
    shape = PROVIDER_EVENTS.shapes.of(begin(CHAT, [CHUNK, "[DONE]"]))  # type: ignore[union-attr]
    assert shape == chat_with_shapes.of([CHUNK, "[DONE]"])
    assert shape.shape == "documented"


def test_the_source_dialects_departures_name_the_events_streams(
    chat_with_shapes: StreamShapes,
) -> None:
    observed = PROVIDER_EVENTS.shapes.of(begin(CHAT, [CHUNK]))  # type: ignore[union-attr]
    assert (observed.shape, observed.departures) == ("observed", ("T-NO-DONE",))
    frames = [{"id": "c", "choices": [None]}, "[DONE]"]
    synthetic = PROVIDER_EVENTS.shapes.of(begin(CHAT, frames))  # type: ignore[union-attr]
    assert (synthetic.shape, synthetic.departures) == ("synthetic", ("T-NULL-CHOICE",))


def test_an_unregistered_violation_is_numbered_in_the_stream_as_written(
    chat_with_shapes: StreamShapes,
) -> None:
    shape = PROVIDER_EVENTS.shapes.of(begin(CHAT, [CHUNK, {"id": "c"}, "[DONE]"]))  # type: ignore[union-attr]
    assert shape.shape == "synthetic"
    assert [v.item for v in shape.unregistered] == [2]  # frame 1 is item 2 after `begin`
    assert chat_with_shapes.of([CHUNK, {"id": "c"}, "[DONE]"]).unregistered[0].item == 1


def test_the_departures_are_the_source_dialects(chat_with_shapes: StreamShapes) -> None:
    from refold.dialects import DIALECTS

    union: dict[str, object] = {}
    for source in ADAPTED:
        known = DIALECTS[source].shapes
        union.update(known.departures if known is not None else {})
    assert dict(chat_with_shapes.departures).items() <= union.items()
    assert dict(PROVIDER_EVENTS.shapes.departures) == union  # type: ignore[union-attr]


def test_a_failure_of_an_events_rule_has_the_shape_of_its_stream(
    chat_with_shapes: StreamShapes,
) -> None:
    failure = ConformanceFailure(("EV-TEXT",), "s", chunks=begin(CHAT, [CHUNK]))
    assert failure.stream_shape == chat_with_shapes.of([CHUNK])


def test_a_source_telling_no_shapes_or_no_source_reads_synthetic() -> None:
    lookup = SourceShapes((CHAT,), lookup=lambda source: None)
    untold = lookup.of(begin(CHAT, [CHUNK]))
    assert untold.shape == "synthetic" and "tells no stream shapes" in untold.describe()
    nameless = lookup.of([CHUNK, "[DONE]"])
    assert nameless.shape == "synthetic" and nameless.unregistered[0].item == 0
    assert lookup.departures == {}


def test_chats_done_sentinel_ends_a_documented_events_stream_and_is_no_chunk() -> None:
    """The frame "[DONE]" is where OpenAI's `data: [DONE]` arrived: documented framing,
    not a chunk that is no object (CHAT-NOT-OBJECT read every Chat-sourced events stream
    synthetic); anywhere else, and in a chat stream of chunks, it is still a departure."""
    from pathlib import Path

    from refold.capture.corpus import load_corpus

    [case] = [
        c
        for c in load_corpus(Path(__file__).resolve().parents[3] / "examples" / "corpus")
        if c.name == "openai-chat-chunks"
    ]
    chunks = list(case.items)
    shapes = PROVIDER_EVENTS.shapes
    assert shapes is not None
    assert shapes.of([{"begin": CHAT}, *chunks, "[DONE]"]).shape == "documented"
    inside = shapes.of([{"begin": CHAT}, chunks[0], "[DONE]", *chunks[1:]])
    assert "CHAT-NOT-OBJECT" in inside.departures
    chat_shapes = DIALECTS[CHAT].shapes
    assert chat_shapes is not None
    assert "CHAT-NOT-OBJECT" in chat_shapes.of([*chunks, "[DONE]"]).departures
