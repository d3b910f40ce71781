"""What the Gemini Node.js target tests share (not a test module): a target loaded as
`refold check` loads it, and the chunks the tests build.

The tests compare each target's fold with the reference fold under the dialect's canonical
comparison; `gaps` lists the differences as (pointer, expected, received).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from refold.errors import TargetError
from refold.reference import JSON, JSONObject
from refold.reference.gemini import differences, fold
from refold.targets import load_target
from refold.targets.sdk import nodejs


class Refused(Exception):
    """The target answered with an error: its SDK raised (`kind`: the JavaScript error's
    name)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


_RAISED = re.compile(r" raised (\S+): ")


class NodeTarget:
    """One Node.js target loaded by its built-in name, as `refold check --target` loads it
    (one `exec:` process under the harness's confinement), its SDK's raise as `Refused`."""

    def __init__(self, name: str) -> None:
        self.target = load_target(name)

    def _refused(self, error: TargetError) -> Refused:
        found = _RAISED.search(str(error))
        assert error.kind == "raised" and found is not None, str(error)
        return Refused(found.group(1), str(error))

    def fold(self, chunks: list[Any]) -> JSONObject:
        """The SDK's fold of `chunks`, mapped to a GenerateContentResponse."""
        try:
            return self.target.fold(chunks)
        except TargetError as error:
            raise self._refused(error) from None

    def lifecycle(self, chunks: list[Any]) -> tuple[JSON, JSON, JSON]:
        """Add `chunks` one by one to a new accumulator: (response, finished, error)."""
        try:
            accumulator = self.target.accumulator()
            for item in chunks:
                accumulator.add(item)
            return accumulator.response(), accumulator.finished(), accumulator.error()
        except TargetError as error:
            raise self._refused(error) from None

    def close(self) -> None:
        self.target.close()


def started(name: str) -> Iterator[NodeTarget]:
    """The target `name` for a module's tests; skipped only when `node` is absent."""
    if shutil.which("node") is None:
        pytest.skip(f"needs node and the pinned npm packages: {nodejs.install_command()}")
    target = NodeTarget(name)
    yield target
    target.close()


def chunk(*parts: JSON, **candidate: JSON) -> JSONObject:
    """One chunk whose one candidate (index 0) holds `parts`."""
    return {"candidates": [{"content": {"role": "model", "parts": list(parts)}, **candidate}]}


def gaps(target: NodeTarget, chunks: list[Any]) -> list[tuple[str, JSON, JSON]]:
    """Where the target's fold differs from the reference's: (pointer, expected, received),
    an absent value shown as None."""
    found = differences(fold(chunks), target.fold(chunks))
    return [(d.pointer, _shown(d.expected), _shown(d.received)) for d in found]


def _shown(value: object) -> JSON:
    return value if isinstance(value, (dict, list, str, int, float, bool)) else None


def parts(response: JSONObject) -> JSON:
    return response["candidates"][0]["content"].get("parts")


PLAIN = [chunk({"text": "Hel"}), chunk({"text": "lo"}, finishReason="STOP")]
STOP: dict[str, JSON] = {"finishReason": "STOP"}
STREAMED_CALL = [
    chunk({"functionCall": {"name": "getWeather", "id": "c1", "willContinue": True}}),
    chunk(
        {
            "functionCall": {
                "partialArgs": [
                    {"jsonPath": "$.location", "stringValue": "Bos", "willContinue": True}
                ],
                "willContinue": True,
            }
        }
    ),
    chunk(
        {
            "functionCall": {
                "partialArgs": [{"jsonPath": "$.location", "stringValue": "ton"}],
                "willContinue": True,
            }
        }
    ),
    chunk({"functionCall": {}}, **STOP),
]
BLOCKED = [
    {
        "promptFeedback": {"blockReason": "SAFETY"},
        "usageMetadata": {"promptTokenCount": 5, "totalTokenCount": 5},
        "modelVersion": "gemini-x",
        "responseId": "r1",
    }
]


DRAWN = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
