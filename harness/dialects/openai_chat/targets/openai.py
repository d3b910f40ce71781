"""Target `openai`: openai-python's `ChatCompletionStreamState`, the fold behind `.stream()`.

Each chunk is built the way the SDK's own `Stream` builds it (`construct_type` into
`ChatCompletionChunk`, lenient, no validation) and handed to `handle_chunk`, whose events are
consumed as `.stream()` consumes them. The result is `current_completion_snapshot`, not
`get_final_completion()`, which refuses to return a completion whose finish reason is
`length` or `content_filter`. The snapshot is dumped with only the fields that were set;
the SDK's own additions `parsed` and `parsed_arguments` (structured-output parsing, not part
of a `chat.completion`) are dropped, and so is the `index` each snapshot tool call keeps
(streaming bookkeeping a non-streaming response does not carry; so TOOL-OUTPUT's "no index"
clause is not judged for this target). Nothing else is changed.

The target's `sse` decoder is openai-python's own `SSEDecoder` (`decode_openai`), the one
its `Stream` reads a response with, so the `sse` suite checks the SDK's wire layer too.
"""

from __future__ import annotations

from typing import Any

from refold.reference import JSON, JSONObject
from refold.reference.chat import FEATURES as _SPEC_FEATURES
from refold.targets.sdk._requires import quiet, require
from refold.targets.sdk.decoders import decode_openai
from refold.targets.sdk.results import without_keys

__all__ = ["FEATURES", "REPRODUCER", "fold", "in_spec_shape", "refold_target", "sdk_version"]

_openai = require("openai", extra="openai")
from openai._models import construct_type  # noqa: E402
from openai.lib.streaming.chat import ChatCompletionStreamState  # noqa: E402
from openai.types.chat import ChatCompletionChunk  # noqa: E402

FEATURES = frozenset(_SPEC_FEATURES) - {"empty_arguments", "lifecycle", "events"}
"""What the snapshot can represent, and `sse` for the SDK's decoder. Not `empty_arguments`: a
`chat.completion` from the state has no finished moment at which `""` could become `"{}"`,
and the SDK never does it; not `lifecycle` or `events`, interfaces the state does not offer."""

_SDK_ADDITIONS = ("parsed", "parsed_arguments")


def sdk_version() -> str:
    """The installed openai-python version."""
    return str(_openai.__version__)


def fold(chunks: list[JSON]) -> JSONObject:
    """Fold `chunks` through a fresh `ChatCompletionStreamState`."""
    with quiet():
        state: ChatCompletionStreamState[Any] = ChatCompletionStreamState()
        for chunk in chunks:
            built = construct_type(type_=ChatCompletionChunk, value=chunk)
            list(state.handle_chunk(built))  # type: ignore[arg-type]
        snapshot: dict[str, Any] = state.current_completion_snapshot.to_dict()
    return in_spec_shape(snapshot)


def in_spec_shape(snapshot: dict[str, Any]) -> JSONObject:
    """Map an openai-python completion dict (`to_dict()` of a snapshot or of a
    `ChatCompletion`) to the spec's shape: tool calls lose their streaming `index`, and
    the SDK's `parsed`/`parsed_arguments` additions are dropped. Mutates `snapshot`."""
    for choice in snapshot.get("choices") or []:
        message = choice.get("message") if isinstance(choice, dict) else None
        calls = message.get("tool_calls") if isinstance(message, dict) else None
        for call in calls if isinstance(calls, list) else []:
            if isinstance(call, dict):
                # The streaming position a snapshot call keeps; a chat.completion has none.
                call.pop("index", None)
    dropped: JSONObject = without_keys(snapshot, _SDK_ADDITIONS)
    return dropped


refold_target = {
    "name": "openai",
    "fold": fold,
    "features": FEATURES,
    "sse": decode_openai,
    "description": f"openai-python {sdk_version()}: ChatCompletionStreamState "
    f"(refold.dialects.openai_chat.targets.openai)",
}
"""The declaration `--target openai` loads."""

REPRODUCER = '''"""Feeds a stream of chunks to openai-python's ChatCompletionStreamState (the fold
behind `client.chat.completions.stream()`) and prints the completion it builds."""
import json

from openai._models import construct_type
from openai.lib.streaming.chat import ChatCompletionStreamState
from openai.types.chat import ChatCompletionChunk

CHUNKS = [json.loads(item) for item in {stream}]

state = ChatCompletionStreamState()
for chunk in CHUNKS:
    list(state.handle_chunk(construct_type(type_=ChatCompletionChunk, value=chunk)))
print(json.dumps(state.current_completion_snapshot.to_dict(), indent=2))
'''
"""The program an upstream report gives the SDK's maintainers (`{stream}`: the stream, a
list literal of one JSON text per chunk, `refold.targets.sdk.reproducers`): the fold `fold`
runs, without refold."""
