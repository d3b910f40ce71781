"""What the Gemini SDK target tests share (not a test module): a target's differences from
the reference fold within the projection it declares, the raise of a fold, and the
hand-written streams several findings use."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterator

import pytest
from _gemini_streams import chunk

from refold.reference import JSON, JSONObject
from refold.reference.gemini import differences, rules_at
from refold.reference.gemini import fold as reference
from refold.run.projection import projection_of

Fold = Callable[[list[JSON]], JSONObject]


@pytest.fixture(autouse=True)
def quiet_library_logs() -> Iterator[None]:
    """Mute the libraries' log lines (LangChain logs every candidate-less chunk, litellm
    every unmapped finish reason) while a test runs; import it to use it."""
    logging.disable(logging.WARNING)
    yield
    logging.disable(logging.NOTSET)


def found(fold: Fold, chunks: list[JSON]) -> dict[str, str]:
    """The differences of `fold` from the reference on `chunks`, within the projection its
    target declares (its module's `refold_target`): pointer -> the difference line."""
    declared = sys.modules[fold.__module__].refold_target["projection"]
    projection = projection_of(declared, origin=fold.__module__)
    assert projection is not None
    expected = projection.reduce(reference(chunks))
    received = projection.reduce(fold(chunks))
    return {d.pointer: str(d) for d in differences(expected, received)}


def at(fold: Fold, chunks: list[JSON], pointer: str, received: str, rule: str) -> None:
    """Assert that `fold` differs from the reference at `pointer`, where it has `received`
    (as the difference line shows it), and that `rule` owns that pointer."""
    differing = found(fold, chunks)
    assert pointer in differing, differing
    assert differing[pointer].endswith(f"received {received}"), differing[pointer]
    assert rule in rules_at(pointer), (pointer, rules_at(pointer))


def raises(fold: Fold, chunks: list[JSON]) -> str:
    """The `Type: message` of what `fold` raised (fails if it returned), where the
    reference folds the same chunks."""
    reference(chunks)
    with pytest.raises(Exception) as raised:  # noqa: PT011 (which library error is the finding)
        fold(chunks)
    return f"{type(raised.value).__name__}: {raised.value}"


def with_top(chunk_: JSONObject, **top: JSON) -> JSONObject:
    """`chunk_` with top-level keys added."""
    return {**chunk_, **top}


def usage(prompt: int, candidates: int, total: int, **more: int) -> JSONObject:
    """A `usageMetadata` object."""
    return {
        "promptTokenCount": prompt,
        "candidatesTokenCount": candidates,
        "totalTokenCount": total,
        **more,
    }


HELLO: list[JSON] = [
    with_top(chunk({"text": "Hel"}, index=0), modelVersion="gemini-2.5-flash", responseId="r1"),
    with_top(
        chunk({"text": "lo"}, index=0, finishReason="STOP"),
        modelVersion="gemini-2.5-flash",
        responseId="r1",
        usageMetadata=usage(3, 2, 5),
    ),
]
"""Google's own shape: text in two chunks, finish reason and usage on the last."""

USAGE_DOWN: list[JSON] = [
    with_top(chunk({"text": "a"}), usageMetadata=usage(10, 244, 1471)),
    with_top(chunk({"text": "b"}, finishReason="STOP"), usageMetadata=usage(10, 167, 1394)),
]
"""R9: counts going down between chunks (`thoughtsTokenCount` 244 -> 167 in the capture)."""

TWO_CANDIDATES: list[JSON] = [
    chunk({"text": "A"}, index=0),
    chunk({"text": "B"}, index=1),
    chunk({"text": "C"}, index=0, finishReason="STOP"),
    {"candidates": [{"index": 1, "finishReason": "STOP"}]},
]
"""`candidateCount: 2`: candidate 1's chunks between candidate 0's."""

BLOCKED: list[JSON] = [
    {
        "promptFeedback": {"blockReason": "SAFETY"},
        "usageMetadata": {"promptTokenCount": 5, "totalTokenCount": 5},
        "modelVersion": "gemini-2.5-flash",
    }
]
"""R10: a blocked prompt streams one chunk without candidates."""

STREAMED_CALL: list[JSON] = [
    chunk({"functionCall": {"name": "getWeather", "willContinue": True}}),
    chunk(
        {
            "functionCall": {
                "partialArgs": [{"jsonPath": "$.location", "stringValue": "Boston"}],
                "willContinue": True,
            }
        }
    ),
    chunk({"functionCall": {}}, finishReason="STOP"),
]
"""R6 (Vertex): one call's arguments streamed in fragments, ended by `{"functionCall": {}}`."""

CALL: JSONObject = {"functionCall": {"name": "lookup", "args": {"q": "x"}, "id": "call_1"}}
"""A whole function call with the id the Gemini API sends."""
