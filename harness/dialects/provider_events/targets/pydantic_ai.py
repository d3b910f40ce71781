"""Target `pydantic-ai-events`: pydantic-ai's streamed-response events as provider-neutral
events (events.md, dialect `provider-events`), for its `OpenAIChatModel` (frames of
`openai-chat`), its `OpenAIResponsesModel` (frames of `openai-responses`: the Responses
API path, `POST /v1/responses` through openai's `AsyncOpenAI.responses.create(stream=True)`)
and its `AnthropicModel` (frames of `anthropic-messages`).

Driven offline (`refold.targets.sdk.pydantic_ai_events`, the adapter every pydantic-ai
events target shares; this module names its sources): `pydantic_ai.direct.model_request_stream`, the
streamed request an `Agent` run makes, over the real SDK client (`AsyncOpenAI`,
`AsyncAnthropic`, both on `httpx2`) whose `MockTransport` streams the body frame by
frame. Each frame is written as its SSE bytes (Chat: one `data:` line, `[DONE]` as the
sentinel; Anthropic: `refold.targets.sdk.offline.named_frames`, as Anthropic writes them; Responses:
`event: <type>` and one `data:` line, as OpenAI sends them), fed, and the
library's events are pulled until it asks for more bytes: those events are the frame's,
and each carries that frame, as given, as its `opaque` (no look-ahead, EV-FRAME-ORDER).
What the library yields only once the body has ended is returned by `end()`, carrying
the body's last frame (`"[DONE]"` for a Chat body that sent it): the body's end, not a
frame, produced it.

Mapping (pydantic-ai 2.68.0; each library event gives the events on its right):

    PartStartEvent, TextPart(content)        TextDelta(content) if content is non-empty
    PartDeltaEvent, TextPartDelta            TextDelta(content_delta) if non-empty
    PartStartEvent, ToolCallPart             ToolCallStarted(tool_call_id, tool_name), then
                                             ToolCallArgumentsDelta(args) if args non-empty
    PartDeltaEvent, ToolCallPartDelta        ToolCallArgumentsDelta(args_delta) if non-empty,
                                             id = the id its part started with
    PartEndEvent, ToolCallPart               ToolCallCompleted(tool_call_id, tool_name,
                                             args_as_dict())
    StreamedResponse.usage, once the frame   Usage, if its four counters differ from the
      has been read                          last ones (initially all 0): input_tokens,
                                             output_tokens, cached = cache_read_tokens,
                                             reasoning = details `reasoning_tokens`, else
                                             output_reasoning_tokens
    the stream ended without raising         Completed(turn), turn from `.get()`
    a pydantic-ai error raised               outcome `error`: ModelAPIError (and subclasses)
                                             provider_error, IncompleteToolCall
                                             invalid_tool_arguments, other
                                             UnexpectedModelBehavior truncated (an empty
                                             body; also "cannot apply JSON deltas")
    any other exception                      raised (the library crashed; the harness charges)
    frame with none of the above             Opaque(event_type: Chat "message", Anthropic
                                             the frame's `type`; payload: the frame), first

Responses (OpenAIResponsesModel) go through the same table: its stream handler turns
`output_text.delta` into TextPartDelta, `output_item.added` of a function_call into a
ToolCallPart (tool_call_id = `call_id`), `function_call_arguments.delta` into
ToolCallPartDelta, and ends each part after the body (PartEndEvent, so ToolCallCompleted
is emitted at `end()`); a ToolCallPartDelta of a part never started as a ToolCallPart is
a hosted tool's NativeToolCallPart and dropped. The frame at which the library raises
ModelAPIError (`response.failed`, `error`) gets its Opaque after the Usage it carried.

Not representable, so dropped: ThinkingPart/ThinkingPartDelta, NativeToolCallPart and
NativeToolReturnPart (hosted tools), FinalResultEvent, PartEndEvent of other parts,
`ToolCallPartDelta.tool_name_delta` (a name growing after the start), file and speech
parts. pydantic-ai has no usage event, so a reported usage equal to the last snapshot (a
repeat, or all zeros) emits nothing; its counters are integers that read 0 when nothing
was reported. ProviderTurn: provider `pydantic-ai`; model `model_name`; response_id
`provider_response_id`; output_text the TextParts joined; tool_calls the ToolCallParts
as above; stop_reason from `finish_reason` (stop: end_turn, length: max_tokens,
content_filter, tool_call: tool_use, else other: its vocabulary has no stop_sequence,
pause_turn or refusal, and the adapter adds no reconciliation the library does not
make); usage the response's, as above; opaque the ModelResponse as pydantic-ai dumps it.

Persisted: what a pydantic-ai runtime writes for the turn, its message history (the
request, and the ModelResponse if the stream gave one) as
`ModelMessagesTypeAdapter.dump_json`, parsed back to JSON. What 2.68.0 breaks is pinned
by tests/dialects/provider_events/test_pydantic_ai_events_target.py.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import ClassVar

from refold.reference import JSON
from refold.reference.sse import event_name
from refold.targets.sdk._requires import require
from refold.targets.sdk.pydantic_ai_events import (
    OFFLINE_API_KEY,
    OFFLINE_BASE_URL,
    OFFLINE_MODEL,
    PROVIDER,
    PydanticAISource,
    library_version,
    message_name,
)
from refold.targets.sdk.pydantic_ai_events import PydanticAIEvents as _PydanticAIEvents

require("pydantic_ai", extra="pydantic-ai")
import httpx2  # noqa: E402
from anthropic import AsyncAnthropic  # noqa: E402
from openai import AsyncOpenAI  # noqa: E402
from pydantic_ai.models import Model  # noqa: E402
from pydantic_ai.models.anthropic import AnthropicModel  # noqa: E402
from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel  # noqa: E402
from pydantic_ai.providers.anthropic import AnthropicProvider  # noqa: E402
from pydantic_ai.providers.openai import OpenAIProvider  # noqa: E402

from refold.targets.sdk.offline import named_frames  # noqa: E402  (needs the SDKs' httpx2)

__all__ = ["PROVIDER", "PydanticAIEvents", "refold_target"]

CHAT = "openai-chat"
RESPONSES = "openai-responses"
ANTHROPIC = "anthropic-messages"
_DONE = "[DONE]"


def _openai_provider(transport: httpx2.MockTransport) -> OpenAIProvider:
    client = AsyncOpenAI(
        api_key=OFFLINE_API_KEY,
        base_url=f"{OFFLINE_BASE_URL}/v1",
        max_retries=0,
        http_client=httpx2.AsyncClient(transport=transport),
    )
    return OpenAIProvider(openai_client=client)


def _chat_model(transport: httpx2.MockTransport) -> Model:
    return OpenAIChatModel(OFFLINE_MODEL, provider=_openai_provider(transport))


def _responses_model(transport: httpx2.MockTransport) -> Model:
    """POST /v1/responses, its ResponseStream events."""
    return OpenAIResponsesModel(OFFLINE_MODEL, provider=_openai_provider(transport))


def _anthropic_model(transport: httpx2.MockTransport) -> Model:
    client = AsyncAnthropic(
        api_key=OFFLINE_API_KEY,
        base_url=OFFLINE_BASE_URL,
        max_retries=0,
        http_client=httpx2.AsyncClient(transport=transport),
    )
    return AnthropicModel(OFFLINE_MODEL, provider=AnthropicProvider(anthropic_client=client))


def _type_name(frame: JSON) -> str:
    """The SSE event name an Anthropic or Responses frame is sent with (`named_frames` and
    `_responses_sse` name it by a usable `type`), else "message" (EV-OPAQUE-TYPE)."""
    return event_name(frame) or "message"


def _chat_sse(frame: JSON) -> bytes:
    data = frame if frame == _DONE else json.dumps(frame, ensure_ascii=False)
    return f"data: {data}\n\n".encode()


def _responses_sse(frame: JSON) -> bytes:
    """`event: <type>` as OpenAI sends it, when the type is usable."""
    name = _type_name(frame)
    head = "" if name == "message" else f"event: {name}\n"
    return f"{head}data: {json.dumps(frame, ensure_ascii=False)}\n\n".encode()


def _anthropic_sse(frame: JSON) -> bytes:
    return named_frames([frame])[0]


class PydanticAIEvents(_PydanticAIEvents):
    """The events adapter for Chat, Responses and Anthropic streams."""

    sources: ClassVar[Mapping[str, PydanticAISource]] = {
        CHAT: PydanticAISource(_chat_model, _chat_sse, message_name, sentinel=_DONE),
        RESPONSES: PydanticAISource(
            _responses_model, _responses_sse, _type_name, hosted_deltas=True
        ),
        ANTHROPIC: PydanticAISource(_anthropic_model, _anthropic_sse, _type_name),
    }


refold_target = {
    "name": "pydantic-ai-events",
    "dialect": "provider-events",
    "adapter": PydanticAIEvents,
    "accepts": list(PydanticAIEvents.sources),
    "provider": PROVIDER,
    "features": ["events"],
    "description": f"pydantic-ai {library_version()}: model_request_stream events of "
    f"OpenAIChatModel, OpenAIResponsesModel and AnthropicModel over an "
    f"in-memory transport fed frame by frame "
    f"(refold.dialects.provider_events.targets.pydantic_ai)",
}
"""The declaration `--target pydantic-ai-events` loads."""
