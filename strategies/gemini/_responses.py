"""Known final responses: a `GenerateContentResponse` exactly as the reference folds it.

Every drawn response is a fixed point of the fold: no two adjacent text runs of one kind
where the first is unsigned (they would have joined, GM-TEXT-JOIN), no empty unsigned text
run (GM-TEXT-EMPTY), candidates indexed 0..n-1 (GM-CAND-ORDER), one safety rating per
category (GM-SAFETY), no repeated citation (GM-CITATIONS), no null value anywhere the fold
would drop it. Each part of it is gated by the features the target claims (`allows`).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Collection

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

from .._text import BOOLEANS, identities, json_objects, texts
from ._claims import FEATURES, allows, check_features

__all__ = [
    "BLOCK_REASONS",
    "DOCUMENTED_FINISH_REASONS",
    "FINISH_REASONS",
    "HARM_CATEGORIES",
    "responses",
    "usages",
]

DOCUMENTED_FINISH_REASONS = (
    "STOP",
    "MAX_TOKENS",
    "SAFETY",
    "RECITATION",
    "LANGUAGE",
    "OTHER",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "MALFORMED_FUNCTION_CALL",
    "IMAGE_SAFETY",
    "UNEXPECTED_TOOL_CALL",
    "TOO_MANY_TOOL_CALLS",
)
"""`Candidate.finishReason` values the API reference lists, simplest first."""

FINISH_REASONS = (*DOCUMENTED_FINISH_REASONS, "CONTINUATION", "FINISH_REASON_FROM_2027")
"""Every value drawn: the documented ones and values added later (GM-FINISH: verbatim)."""

BLOCK_REASONS = ("SAFETY", "OTHER", "BLOCKLIST", "PROHIBITED_CONTENT", "IMAGE_SAFETY")
"""`PromptFeedback.blockReason` values the API reference lists."""

HARM_CATEGORIES = (
    "HARM_CATEGORY_HARASSMENT",
    "HARM_CATEGORY_HATE_SPEECH",
    "HARM_CATEGORY_SEXUALLY_EXPLICIT",
    "HARM_CATEGORY_DANGEROUS_CONTENT",
    "HARM_CATEGORY_CIVIC_INTEGRITY",
)
PROBABILITIES = ("NEGLIGIBLE", "LOW", "MEDIUM", "HIGH")
MODELS = ("gemini-2.5-flash", "gemini-2.5-pro", "gemini-3-pro-preview")
_OUTCOMES = ("OUTCOME_OK", "OUTCOME_FAILED", "OUTCOME_DEADLINE_EXCEEDED")
_MIME_TYPES = ("image/png", "image/jpeg", "audio/pcm;rate=24000")
_TOOL_NAMES = st.sampled_from(["get_weather", "search", "lookup_order"]) | identities("fn_")
_COUNTS = st.integers(0, 5000)
_SIGNATURES = st.binary(min_size=1, max_size=12).map(lambda b: base64.b64encode(b).decode())
_UNKNOWN_KEYS = identities("futureField")
_UNKNOWN_VALUES: st.SearchStrategy[JSON] = st.one_of(
    texts(min_size=1, max_size=5), st.integers(0, 9), json_objects()
)


def _signed(features: Collection[str]) -> st.SearchStrategy[str | None]:
    return st.none() | _SIGNATURES if allows("thought signatures", features) else st.none()


@st.composite
def _text_parts(draw: st.DrawFn, features: Collection[str]) -> JSONObject:
    signature = draw(_signed(features))
    # a signed run may be empty ({"text": "", "thoughtSignature": S}, GM-SIGNATURE)
    text = draw(texts(min_size=0 if signature is not None else 1, max_size=10))
    part: JSONObject = {"text": text}
    if allows("thought parts", features) and draw(BOOLEANS):
        part["thought"] = True
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


@st.composite
def _call_parts(draw: st.DrawFn, features: Collection[str]) -> JSONObject:
    call: JSONObject = {"name": draw(_TOOL_NAMES)}
    if draw(BOOLEANS):
        call["args"] = draw(json_objects())
    if draw(BOOLEANS):  # GM-CALL-ID: the Gemini API sends ids, Vertex v1 none
        call["id"] = draw(identities(""))
    part: JSONObject = {"functionCall": call}
    signature = draw(_signed(features))
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def _code_parts() -> st.SearchStrategy[JSONObject]:
    code = st.builds(
        lambda text: {"executableCode": {"language": "PYTHON", "code": text}},
        texts(max_size=8),
    )
    result = st.builds(
        lambda outcome, text: {"codeExecutionResult": {"outcome": outcome, "output": text}},
        st.sampled_from(_OUTCOMES),
        texts(max_size=8),
    )
    return code | result


@st.composite
def _media_parts(draw: st.DrawFn, features: Collection[str]) -> JSONObject:
    mime = draw(st.sampled_from(_MIME_TYPES))
    part: JSONObject
    if draw(BOOLEANS):
        part = {"fileData": {"mimeType": mime, "fileUri": draw(identities("gs://bucket/f"))}}
    else:
        data = base64.b64encode(draw(st.binary(max_size=12))).decode()
        part = {"inlineData": {"mimeType": mime, "data": data}}
    signature = draw(_signed(features))
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


@st.composite
def _unknown_parts(draw: st.DrawFn) -> JSONObject:
    value = draw(_UNKNOWN_VALUES)
    if draw(BOOLEANS):  # a text part with an extra key: not plain, kept as sent
        return {"text": draw(texts(max_size=6)), "partMetadata": value}
    return {draw(_UNKNOWN_KEYS): value}


def _parts(features: Collection[str], *, documented: bool) -> st.SearchStrategy[JSONObject]:
    kinds = [_text_parts(features)]
    if allows("function calls", features):
        kinds.append(_call_parts(features))
    if allows("code parts", features):
        kinds.append(_code_parts())
    if allows("media parts", features):
        kinds.append(_media_parts(features))
    if allows("unknown keys", features) and not documented:
        kinds.append(_unknown_parts())
    return st.one_of(kinds)


def _is_run(part: JSONObject) -> bool:
    return isinstance(part.get("text"), str) and part.keys() <= {
        "text",
        "thought",
        "thoughtSignature",
    }


def _as_folded(parts: list[JSONObject]) -> list[JSONObject]:
    """Join a text run into the previous one where the fold would (GM-TEXT-JOIN)."""
    folded: list[JSONObject] = []
    for part in parts:
        last = folded[-1] if folded else None
        if (
            last is not None
            and _is_run(part)
            and _is_run(last)
            and "thoughtSignature" not in last
            and last.get("thought") == part.get("thought")
        ):
            last["text"] = last["text"] + part["text"]
            if "thoughtSignature" in part:
                last["thoughtSignature"] = part["thoughtSignature"]
        else:
            folded.append(dict(part))
    return folded


def _ratings() -> st.SearchStrategy[list[JSONObject]]:
    rating = st.builds(
        lambda category, probability: {"category": category, "probability": probability},
        st.sampled_from(HARM_CATEGORIES),
        st.sampled_from(PROBABILITIES),
    )
    return st.lists(rating, min_size=1, max_size=3, unique_by=lambda r: r["category"])


def _as_json(value: JSONObject) -> str:
    """A key equal for equal JSON values (key order ignored): GM-CITATIONS keeps one."""
    return json.dumps(value, sort_keys=True)


def _citations() -> st.SearchStrategy[JSONObject]:
    source = st.fixed_dictionaries(
        {"startIndex": st.integers(0, 50), "endIndex": st.integers(51, 99)},
        optional={"uri": identities("https://example.com/"), "license": st.just("mit")},
    )
    return st.lists(source, min_size=1, max_size=3, unique_by=_as_json).map(
        lambda sources: {"citationSources": sources}
    )


def _grounding() -> st.SearchStrategy[JSONObject]:
    web = st.builds(
        lambda uri, title: {"web": {"uri": uri, "title": title}},
        identities("https://vertexaisearch.example/"),
        texts(min_size=1, max_size=6),
    )
    return st.fixed_dictionaries(
        {"webSearchQueries": st.lists(texts(min_size=1, max_size=6), min_size=1, max_size=2)},
        optional={
            "groundingChunks": st.lists(web, min_size=1, max_size=2),
            "searchEntryPoint": texts(min_size=1, max_size=8).map(
                lambda html: {"renderedContent": html}
            ),
        },
    )


@st.composite
def _candidates(
    draw: st.DrawFn, index: int, features: Collection[str], *, documented: bool, max_parts: int
) -> JSONObject:
    reasons = DOCUMENTED_FINISH_REASONS if documented else FINISH_REASONS
    reason = draw(st.sampled_from(reasons))
    candidate: JSONObject = {}
    parts = draw(st.lists(_parts(features, documented=documented), max_size=max_parts))
    # the first part is drawn apart so that the simplest candidate has one text part
    first = draw(_text_parts(features))
    content: JSONObject = {"role": "model", "parts": _as_folded([first, *parts])}
    if allows("unknown keys", features) and not documented and draw(BOOLEANS):
        content[draw(_UNKNOWN_KEYS)] = draw(_UNKNOWN_VALUES)
    # drawn first and then maybe dropped, so that leaving it out costs the shrinker a
    # choice more: the simplest candidate has content (GM-ROLE: a SAFETY finish may not)
    if not (reason == "SAFETY" and allows("safety ratings", features) and draw(BOOLEANS)):
        candidate["content"] = content
    candidate["finishReason"] = reason
    candidate["index"] = index
    if allows("safety ratings", features) and draw(BOOLEANS):
        candidate["safetyRatings"] = draw(_ratings())
    if allows("citations", features) and draw(BOOLEANS):
        candidate["citationMetadata"] = draw(_citations())
    if allows("grounding", features) and draw(BOOLEANS):
        candidate["groundingMetadata"] = draw(_grounding())
    if draw(BOOLEANS):
        candidate["avgLogprobs"] = draw(st.floats(-5, 0))
    if draw(BOOLEANS):
        candidate["finishMessage"] = draw(texts(min_size=1, max_size=6))
    if allows("unknown keys", features) and not documented and draw(BOOLEANS):
        candidate[draw(_UNKNOWN_KEYS)] = draw(_UNKNOWN_VALUES)
    return candidate


def usages() -> st.SearchStrategy[JSONObject]:
    """A final `usageMetadata`: running totals as the finish chunk reports them."""
    return st.fixed_dictionaries(
        {
            "promptTokenCount": _COUNTS,
            "candidatesTokenCount": _COUNTS,
            "totalTokenCount": _COUNTS,
        },
        optional={"thoughtsTokenCount": _COUNTS, "cachedContentTokenCount": _COUNTS},
    )


@st.composite
def responses(
    draw: st.DrawFn,
    *,
    features: Collection[str] = frozenset(FEATURES),
    documented: bool = False,
    max_candidates: int = 3,
    max_parts: int = 4,
) -> JSONObject:
    """Draw a final `GenerateContentResponse` holding only what `features` claim.

    Parts: text runs (`text`), thought runs and `thoughtSignature` on text, call and
    media parts (`thinking`), function calls with and without `id` (`tool_calls`),
    `executableCode` / `codeExecutionResult` (`code_execution`), `inlineData` /
    `fileData` (`media`), unknown parts and keys (`robustness`). Candidates: several
    (`candidates`), `safetyRatings` and a blocked prompt without candidates or a `SAFETY`
    finish without content (`safety`), `citationMetadata` (`citations`),
    `groundingMetadata` (`grounding`); `usageMetadata` needs `usage`. `finishReason`s are
    kept verbatim, values added after the docs included unless `documented`, which also
    leaves out every unknown key and part. The simplest draw is one candidate with one
    short text part and `STOP`.
    """
    check_features(features)
    response: JSONObject = {}
    count = 1
    if allows("several candidates", features):
        count = draw(st.integers(1, max(1, max_candidates)))
    response["candidates"] = [
        draw(_candidates(index, features, documented=documented, max_parts=max_parts))
        for index in range(count)
    ]
    if allows("prompt feedback", features) and draw(BOOLEANS):
        response["promptFeedback"] = {"safetyRatings": draw(_ratings())}
    # candidates drawn first and then maybe dropped (the shrinker prefers fewer choices)
    if allows("prompt feedback", features) and draw(BOOLEANS) and draw(BOOLEANS):
        del response["candidates"]  # GM-CAND-NONE: a blocked prompt streams no candidate
        feedback: JSONObject = {"blockReason": draw(st.sampled_from(BLOCK_REASONS))}
        if draw(BOOLEANS):
            feedback["safetyRatings"] = draw(_ratings())
        response["promptFeedback"] = feedback
    if allows("usage", features):
        response["usageMetadata"] = draw(usages())
    response["modelVersion"] = draw(st.sampled_from(MODELS))
    response["responseId"] = draw(identities(""))
    if draw(BOOLEANS):  # Vertex's snapshot key (GM-ENV-SNAPSHOT)
        response["createTime"] = "2026-12-06T21:00:00.000000Z"
    if allows("unknown keys", features) and not documented and draw(BOOLEANS):
        response[draw(_UNKNOWN_KEYS)] = draw(_UNKNOWN_VALUES)
    return response
