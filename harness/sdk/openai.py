"""Target `openai`: openai-python's `ChatCompletionStreamState`, the fold behind `.stream()`.

Each chunk is built the way the SDK's own `Stream` builds it (`construct_type` into
`ChatCompletionChunk`, lenient, no validation) and handed to `handle_chunk`, whose events are
consumed as `.stream()` consumes them. The result is `current_completion_snapshot`, not
`get_final_completion()`, which refuses to return a completion whose finish reason is
`length` or `content_filter`. The snapshot is dumped with only the fields that were set;
the SDK's own additions `parsed` and `parsed_arguments` (structured-output parsing, not part
of a `chat.completion`) are dropped. Nothing else is changed.
"""

from __future__ import annotations

from typing import Any

from refold.reference import JSON, JSONObject

from ._requires import require

__all__ = ["FEATURES", "fold", "refold_target", "sdk_version"]

_openai = require("openai", extra="openai")
from openai._models import construct_type  # noqa: E402
from openai.lib.streaming.chat import ChatCompletionStreamState  # noqa: E402
from openai.types.chat import ChatCompletionChunk  # noqa: E402

FEATURES = frozenset({
    "text", "choices", "tool_calls", "tool_call_repair", "refusal", "reasoning",
    "reasoning_details", "annotations", "logprobs", "usage", "provider_fields", "robustness",
})
"""What the snapshot can represent. Not `empty_arguments`: a `chat.completion` from the
state has no finished moment at which `""` could become `"{}"`, and the SDK never does it."""

_SDK_ADDITIONS = ("parsed", "parsed_arguments")


def sdk_version() -> str:
    """The installed openai-python version."""
    return str(_openai.__version__)


def fold(chunks: list[JSON]) -> JSONObject:
    """Fold `chunks` through a fresh `ChatCompletionStreamState`."""
    state: ChatCompletionStreamState[Any] = ChatCompletionStreamState()
    for chunk in chunks:
        built = construct_type(type_=ChatCompletionChunk, value=chunk)
        list(state.handle_chunk(built))  # type: ignore[arg-type]
    snapshot: dict[str, Any] = state.current_completion_snapshot.to_dict()
    return _without_sdk_additions(snapshot)


def _without_sdk_additions(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _without_sdk_additions(item) for key, item in value.items()
                if key not in _SDK_ADDITIONS}
    if isinstance(value, list):
        return [_without_sdk_additions(item) for item in value]
    return value


refold_target = {"name": "openai", "fold": fold, "features": FEATURES}
"""The declaration `--target openai` loads."""
