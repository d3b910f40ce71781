"""What the Gemini Node.js target tests share (not a test module): one target process over
exec:, spoken to without a registered dialect, and the chunks the tests build.

The tests compare each target's fold with the reference fold under the dialect's canonical
comparison; `gaps` lists the differences as (pointer, expected, received).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from refold.reference import JSON, JSONObject
from refold.reference.gemini import differences, fold
from refold.targets.exec import ExecTransport
from refold.targets.sdk import nodejs


class Refused(Exception):
    """The target answered a fold with an error: its SDK raised."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind


class NodeTarget:
    """One Node.js target process over exec:, spoken to without a registered dialect."""

    def __init__(self, name: str) -> None:
        self._transport = ExecTransport.from_command(nodejs.node_command(name), timeout=120)
        self.hello = self._transport.request({"op": "hello", "protocol": 2})

    def _ok(self, message: JSONObject) -> JSONObject:
        reply = self._transport.request(message)
        if not reply.get("ok"):
            error = reply["error"]
            assert isinstance(error, dict)
            raise Refused(str(error["type"]), str(error["message"]))
        return reply

    def fold(self, chunks: list[Any]) -> JSONObject:
        """The SDK's fold of `chunks`, mapped to a GenerateContentResponse."""
        response = self._ok({"op": "fold", "events": chunks})["response"]
        assert isinstance(response, dict)
        return response

    def lifecycle(self, chunks: list[Any]) -> tuple[JSON, JSON, JSON]:
        """Add `chunks` one by one to a new accumulator: (response, finished, error)."""
        handle = self._ok({"op": "new"})["id"]
        for item in chunks:
            self._ok({"op": "add", "id": handle, "event": item})
        return (
            self._ok({"op": "response", "id": handle})["response"],
            self._ok({"op": "finished", "id": handle})["finished"],
            self._ok({"op": "error", "id": handle})["error"],
        )

    def close(self) -> None:
        self._transport.close()


def started(name: str) -> Iterator[NodeTarget]:
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
