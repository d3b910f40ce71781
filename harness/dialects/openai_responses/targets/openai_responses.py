"""Target `openai-responses`: openai-python's whole Responses streaming path,
`client.responses.stream(...).get_final_response()`, offline.

Dialect `openai-responses`. The events are written as the SSE bytes OpenAI sends (one frame
each, named by the data's `type`: `refold.dialects.openai_responses.targets._wire.sse_frames`) and
served
by an `httpx2.MockTransport` (openai-python's HTTP library, an httpx fork) to an `OpenAI`
client with a dummy key; no request leaves the process. So everything the SDK does between
the socket and the user runs unmodified: its `SSEDecoder`, the checks of `Stream.__stream__`
(a data object with a truthy top-level `error` raises `APIError`), the lenient construction
of each event into the `ResponseStreamEvent` union, and `ResponseStream`, whose
`ResponseStreamState.handle_event` / `accumulate_event` keep the snapshot and, on
`response.completed`, build `_completed_response` with `parse_response`.

The result is `get_final_response()`, what the SDK's documentation tells users to call: the
terminal `response.completed` object (its `output` recovered from the `output_item.done`
items only when the terminal's `output` is absent or null). Where the SDK raises (a
`RuntimeError` of the state's identity and ordering checks, "Didn't receive a
`response.completed` event." after `response.incomplete` or `response.failed`, an
`AssertionError` of `handle_event`), the target raises too: that is what a user of
`.stream()` sees, and the failure is charged to the rule under test (or, by ablation, to the
departure that made the SDK raise).

The `ParsedResponse` is dumped with `to_dict(mode="json", exclude_unset=True)`: the fields
that were set, by wire name, unknown keys kept (the SDK's models allow extra keys). The SDK's
additions, `parsed` on each `output_text` part and `parsed_arguments` on each function call
(structured-output parsing; `None` without a `text_format` or strict input tools, which the
target never passes), are dropped; `output_text`, the SDK's
convenience property, is not a field and never appears. Nothing else is changed.

Not `lifecycle`: `get_final_response()` is a whole-stream read, and `ResponseStream` has no
finished state to read before the end (the running snapshot is private to the state). The
`sse` decoder is the SDK's own (`decode_responses`), the one this path reads the bytes with.
"""

from __future__ import annotations

from typing import Any

from refold.reference import JSON, JSONObject
from refold.targets.sdk._requires import quiet, require
from refold.targets.sdk.offline_reproducer import offline_reproducer
from refold.targets.sdk.results import without_keys

from ._wire import SDK, decode_responses, serving

__all__ = [
    "FEATURES",
    "REPRODUCER",
    "REQUEST",
    "fold",
    "in_spec_shape",
    "refold_target",
    "sdk_version",
]

_openai = require("openai", extra="openai")

FEATURES = frozenset(
    {"text", "tool_calls", "refusal", "reasoning", "annotations", "usage", "robustness", "sse"}
)
"""Everything a `Response` can hold, and `sse` for the SDK's decoder. Not `lifecycle` (see
the module docstring)."""

REQUEST: dict[str, Any] = {"model": "gpt-refold-offline", "input": "refold"}
"""The request the offline client sends (nobody reads it)."""

_SDK_ADDITIONS = ("parsed", "parsed_arguments")


def sdk_version() -> str:
    """The installed openai-python version."""
    return str(_openai.__version__)


def fold(events: list[JSON]) -> JSONObject:
    """Serve `events` as SSE to `client.responses.stream()`; its final response."""
    return in_spec_shape(SDK.read(serving(events), _final_response))


def _final_response(client: Any) -> Any:
    with client.responses.stream(**REQUEST) as stream:
        return stream.get_final_response()


def in_spec_shape(response: Any) -> JSONObject:
    """An SDK `Response` (or `ParsedResponse`) as the spec's Response: its fields that were
    set, as JSON, by wire name, less the SDK's `parsed`/`parsed_arguments` additions."""
    with quiet():
        dumped: JSONObject = response.to_dict(mode="json", exclude_unset=True)
    shaped: JSONObject = without_keys(dumped, _SDK_ADDITIONS)
    return shaped


refold_target = {
    "name": "openai-responses",
    "dialect": "openai-responses",
    "fold": fold,
    "features": FEATURES,
    "sse": decode_responses,
    "description": f"openai-python {sdk_version()}: responses.stream().get_final_response() "
    f"over an in-memory transport (refold.dialects.openai_responses.targets.openai_responses)",
}
"""The declaration `--target openai-responses` loads."""

REPRODUCER = offline_reproducer(
    "client.responses.stream",
    ('model="gpt-offline", input="hi"',),
    library="openai-python",
    client="openai.OpenAI",
    base_url="http://sdk.invalid/v1",
    frame=r'f"data: {json.dumps(event)}\n\n"',
    final="get_final_response",
)
"""The program an upstream report gives the SDK's maintainers (`{stream}`: the stream, a
list literal of one JSON text per event, `refold.targets.sdk.reproducers`): what `fold`
does, without refold."""
