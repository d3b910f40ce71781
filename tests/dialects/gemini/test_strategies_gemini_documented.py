"""Documented draws are of the documented shape: with `documented=True` every response,
and with family 1 alone every chunk, validates the `GenerateContentResponse` schema below,
written from the spec's output grammar and the API reference it cites ([API], [PART]:
exactly one data field per part; [VTX]); no unknown key, part kind or finish reason."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from jsonschema import Draft202012Validator

from refold.strategies.gemini import (
    BLOCK_REASONS,
    DOCUMENTED_FINISH_REASONS,
    FEATURES,
    HARM_CATEGORIES,
    responses,
    round_trips,
)

_SLOW = settings(deadline=None)
_COUNT = {"type": "integer", "minimum": 0}
_STRING = {"type": "string"}
_SIGNATURE = {"type": "string", "pattern": "^[A-Za-z0-9+/]+={0,2}$"}


def _object(required: list[str], **properties: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "required": required,
        "properties": properties,
        "additionalProperties": False,
    }


_RATINGS = {
    "type": "array",
    "items": _object(
        ["category", "probability"],
        category={"enum": list(HARM_CATEGORIES)},
        probability={"enum": ["NEGLIGIBLE", "LOW", "MEDIUM", "HIGH"]},
        blocked={"type": "boolean"},
    ),
}
_PARTS = [
    _object(["text"], text=_STRING, thought={"const": True}, thoughtSignature=_SIGNATURE),
    _object(
        ["functionCall"],
        functionCall=_object(["name"], name=_STRING, args={"type": "object"}, id=_STRING),
        thoughtSignature=_SIGNATURE,
    ),
    _object(
        ["executableCode"],
        executableCode=_object(["language", "code"], language={"const": "PYTHON"}, code=_STRING),
    ),
    _object(
        ["codeExecutionResult"],
        codeExecutionResult=_object(
            ["outcome"],
            outcome={"enum": ["OUTCOME_OK", "OUTCOME_FAILED", "OUTCOME_DEADLINE_EXCEEDED"]},
            output=_STRING,
        ),
    ),
    _object(
        ["inlineData"],
        inlineData=_object(
            ["mimeType", "data"],
            mimeType=_STRING,
            data={"type": "string", "pattern": "^[A-Za-z0-9+/]*={0,2}$"},
        ),
        thoughtSignature=_SIGNATURE,
    ),
    _object(
        ["fileData"],
        fileData=_object(["fileUri"], mimeType=_STRING, fileUri=_STRING),
        thoughtSignature=_SIGNATURE,
    ),
]
_CANDIDATE = _object(
    [],
    content=_object(
        ["parts"], role={"const": "model"}, parts={"type": "array", "items": {"oneOf": _PARTS}}
    ),
    finishReason={"enum": list(DOCUMENTED_FINISH_REASONS)},
    index=_COUNT,
    safetyRatings=_RATINGS,
    citationMetadata=_object(
        ["citationSources"],
        citationSources={
            "type": "array",
            "items": _object([], startIndex=_COUNT, endIndex=_COUNT, uri=_STRING, license=_STRING),
        },
    ),
    groundingMetadata=_object(
        [],
        webSearchQueries={"type": "array", "items": _STRING},
        groundingChunks={
            "type": "array",
            "items": _object(["web"], web=_object([], uri=_STRING, title=_STRING)),
        },
        searchEntryPoint=_object([], renderedContent=_STRING),
    ),
    avgLogprobs={"type": "number"},
    finishMessage=_STRING,
    tokenCount=_COUNT,
)
RESPONSE_SCHEMA = _object(
    [],
    candidates={"type": "array", "items": _CANDIDATE},
    promptFeedback=_object([], blockReason={"enum": list(BLOCK_REASONS)}, safetyRatings=_RATINGS),
    usageMetadata=_object(
        [],
        promptTokenCount=_COUNT,
        candidatesTokenCount=_COUNT,
        totalTokenCount=_COUNT,
        thoughtsTokenCount=_COUNT,
        cachedContentTokenCount=_COUNT,
    ),
    modelVersion=_STRING,
    responseId=_STRING,
    createTime={"type": "string", "format": "date-time"},
)
"""`GenerateContentResponse` as the Gemini API and Vertex document it, restricted to
the fields the spec names (a closed shape: an undocumented key fails)."""

_VALIDATOR = Draft202012Validator(RESPONSE_SCHEMA)


def _one_rating_per_category(value: dict[str, Any]) -> None:
    for candidate in value.get("candidates", []):
        categories = [r["category"] for r in candidate.get("safetyRatings", [])]
        assert len(categories) == len(set(categories))  # "at most one rating per category"


@given(responses(documented=True))
@_SLOW
def test_a_documented_response_validates_the_documented_shape(response: dict[str, Any]) -> None:
    _VALIDATOR.validate(response)
    _one_rating_per_category(response)
    if "candidates" not in response:  # GM-CAND-NONE: only a blocked prompt has none
        assert response["promptFeedback"]["blockReason"] in BLOCK_REASONS


@given(round_trips(features=frozenset(FEATURES), families={1}))
@_SLOW
def test_every_chunk_of_googles_own_shape_validates_the_documented_shape(
    case: tuple[dict[str, Any], list[dict[str, Any]]],
) -> None:
    response, chunks = case
    _VALIDATOR.validate(response)
    for chunk in chunks:
        _VALIDATOR.validate(chunk)
        _one_rating_per_category(chunk)


def test_the_schema_refuses_what_documented_draws_leave_out() -> None:
    part = {"text": "a", "partMetadata": {}}
    unknown = {"candidates": [{"content": {"parts": [part]}, "finishReason": "STOP"}]}
    assert not _VALIDATOR.is_valid(unknown)
    assert not _VALIDATOR.is_valid({"candidates": [{"finishReason": "CONTINUATION"}]})
    assert not _VALIDATOR.is_valid({"futureField": 1})
