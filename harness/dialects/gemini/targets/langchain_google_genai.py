"""Target `langchain-google-genai`: `ChatGoogleGenerativeAI.stream()`, its chunks summed as
`AIMessageChunk`, checked on a stated projection of a response.

Dialect `gemini-generate-content`. What runs is LangChain's own streaming call,
`ChatGoogleGenerativeAI.stream()` (`BaseChatModel.stream()` around `_stream`, which turns each
google-genai chunk into a `ChatGenerationChunk` with `_response_to_result(stream=True)`,
`generations[0]` only), with only the HTTP transport replaced: the model's `client` is the
offline google-genai client of `_wire`, so google-genai's SSE reader and pydantic parse are
what `_stream` iterates. The chunks are added with `+` as `.stream()` users add them
(langchain-core's `merge_dicts` / `merge_lists` for content blocks and `response_metadata`).

LangChain builds an `AIMessage`, not a response. The projection, and only that, maps it to
one:

    content blocks, tool calls  -> candidates[0].content: the Content LangChain itself sends
                                   back for the message on the next turn
                                   (`_parse_chat_history`, role "model", its parts dumped by
                                   wire name)
    response_metadata           -> candidates[0].finishReason (`finish_reason`),
                                   .safetyRatings (`safety_ratings`), .groundingMetadata
                                   (`grounding_metadata`), each read back through google-genai's
                                   own type (`SafetyRating`, `GroundingMetadata`) and dumped by
                                   wire name; promptFeedback (`prompt_feedback`, likewise);
                                   modelVersion (`model_name`, when not empty)
    usage_metadata              -> usageMetadata: promptTokenCount = input_tokens,
                                   candidatesTokenCount = output_tokens less
                                   output_token_details.reasoning, totalTokenCount =
                                   total_tokens (the inverse of `_response_to_result`, exact
                                   when no tool-use prompt count is sent)

So the places compared are exactly those (`PROJECTION`, `refold.run.projection`).
`thoughtsTokenCount` and `cachedContentTokenCount` are not compared: LangChain writes them
as 0 when absent and leaves `reasoning` out when 0, so a proto3 zero and an absent count
cannot be told apart after the mapping. Never kept, and so outside the projection:
`responseId` (the message id is LangChain's run id), citations, every other candidate key
(finishMessage, avgLogprobs, unknown keys), unknown response keys; the rules owning only
those places are not judged. Not `lifecycle` (a whole-stream sum) nor `sse` (the decoder is
google-genai's).

The call passes `automatic_continuation=False` (a call option LangChain hands on to
google-genai's `GenerateContentConfig`): with it on, the default, a chunk with `CONTINUATION`
and a `continuationToken` makes google-genai send another request, and one served stream is
one call.

The request names a model that is not Gemini 3 or later (`MODEL`), so `_parse_chat_history`
injects no placeholder signature into function calls that came without one. A stream whose
chunks LangChain sums to nothing raises `ValueError` ("no message chunk").
"""

from __future__ import annotations

import json
from typing import Any

from refold.reference import JSON, JSONObject
from refold.targets.sdk._requires import quiet, require
from refold.targets.sdk.summing import Served, sent_back, summed, versions

from ._wire import offline_client

__all__ = ["FEATURES", "MODEL", "PROJECTION", "fold", "refold_target", "sdk_version"]

require("langchain_google_genai", extra="langchain-google-genai")
import httpx  # noqa: E402
from google.genai import types  # noqa: E402
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage  # noqa: E402
from langchain_google_genai import ChatGoogleGenerativeAI  # noqa: E402
from langchain_google_genai.chat_models import _parse_chat_history  # noqa: E402

from ._wire import serving  # noqa: E402

FEATURES = frozenset(
    {
        "text",
        "candidates",
        "thinking",
        "tool_calls",
        "streamed_arguments",
        "code_execution",
        "media",
        "safety",
        "grounding",
        "usage",
        "robustness",
    }
)
"""What the projection carries; not `citations` (LangChain keeps no citation metadata in
the message it sends back), `lifecycle`, `sse` (see the module docstring)."""

_CANDIDATE = "/candidates/*"
PROJECTION: dict[str, Any] = {
    "pointers": [
        f"{_CANDIDATE}/content",
        f"{_CANDIDATE}/finishReason",
        f"{_CANDIDATE}/safetyRatings",
        f"{_CANDIDATE}/groundingMetadata",
        "/promptFeedback",
        "/modelVersion",
        "/usageMetadata/promptTokenCount",
        "/usageMetadata/candidatesTokenCount",
        "/usageMetadata/totalTokenCount",
    ],
    "builds": "an AIMessage (content blocks, tool calls, response_metadata, usage_metadata), "
    "mapped back to candidate 0 as LangChain sends the message on the next turn",
}
"""The places of the response this target is compared on (the module docstring)."""

MODEL = "gemini-2.5-refold-offline"
"""The model the offline request names: a Gemini 2.5 name (see the module docstring)."""

_SERVED = Served()


def _answer(request: httpx.Request) -> httpx.Response:
    return serving(_SERVED.events)(request)


_CHAT_MODEL = ChatGoogleGenerativeAI(
    model=MODEL, google_api_key="refold-offline-dummy", max_retries=0
)
_CHAT_MODEL.client = offline_client(_answer)


def sdk_version() -> str:
    """The installed langchain-google-genai, langchain-core and google-genai versions."""
    return versions("langchain-google-genai", "langchain-core", "google-genai")


def fold(chunks: list[JSON]) -> JSONObject:
    """Fold `chunks` the way `ChatGoogleGenerativeAI.stream()` and `+` do, projected onto a
    response."""
    with quiet(), _SERVED.serving(chunks):
        stream = _CHAT_MODEL.stream([HumanMessage("refold")], automatic_continuation=False)
        return _response(summed(stream, of=AIMessageChunk))


def _response(total: AIMessageChunk) -> JSONObject:
    metadata = total.response_metadata
    message = sent_back(total, AIMessage, "additional_kwargs")
    _, contents = _parse_chat_history([message], model=MODEL)
    candidate: JSONObject = {"content": _dumped(contents[-1])}
    if "finish_reason" in metadata:
        candidate["finishReason"] = metadata["finish_reason"]
    if metadata.get("safety_ratings"):
        candidate["safetyRatings"] = [
            _dumped(types.SafetyRating.model_validate(rating))
            for rating in metadata["safety_ratings"]
        ]
    if metadata.get("grounding_metadata"):
        grounding = types.GroundingMetadata.model_validate(metadata["grounding_metadata"])
        candidate["groundingMetadata"] = _dumped(grounding)
    response: JSONObject = {"candidates": [candidate]}
    if metadata.get("prompt_feedback"):
        feedback = types.GenerateContentResponsePromptFeedback.model_validate(
            metadata["prompt_feedback"]
        )
        response["promptFeedback"] = _dumped(feedback)
    if metadata.get("model_name"):
        response["modelVersion"] = metadata["model_name"]
    if total.usage_metadata is not None:
        response["usageMetadata"] = _usage(dict(total.usage_metadata))
    return response


def _usage(usage: dict[str, Any]) -> JSONObject:
    reasoning = (usage.get("output_token_details") or {}).get("reasoning", 0)
    return {
        "promptTokenCount": usage.get("input_tokens"),
        "candidatesTokenCount": usage.get("output_tokens", 0) - reasoning,
        "totalTokenCount": usage.get("total_tokens"),
    }


def _dumped(model: Any) -> JSONObject:
    dumped: JSONObject = json.loads(model.model_dump_json(by_alias=True, exclude_none=True))
    return dumped


refold_target = {
    "name": "langchain-google-genai",
    "dialect": "gemini-generate-content",
    "fold": fold,
    "features": FEATURES,
    "projection": PROJECTION,
    "description": f"{sdk_version()}: ChatGoogleGenerativeAI.stream() chunks summed, "
    f"projected onto a response (refold.dialects.gemini.targets.langchain_google_genai)",
}
"""The declaration `--target langchain-google-genai` loads."""
