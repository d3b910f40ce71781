"""Known `chat.completion` objects: the expected side of every round trip.

A drawn completion is exactly what the spec's fold builds from some lossless stream
(the canonical form of one, nulls left out), so `chunk_splits` can always reproduce it.
Options select the spec's features, so a target that claims fewer gets completions it
can represent: without `refusal` no message carries a refusal, and so on.
"""

from __future__ import annotations

from collections.abc import Collection

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from refold.reference import JSON, JSONObject
from refold.reference.chat import FEATURES

from .._text import BOOLEANS, argument_texts, identities, json_objects, texts

__all__ = ["FINISH_REASONS", "completions", "is_finished"]

FINISH_REASONS: tuple[str | None, ...] = (
    "stop",
    "length",
    "tool_calls",
    "content_filter",
    "function_call",
    "error",
    None,
)
"""Every finish reason a choice can end with; `error` and None leave the fold unfinished."""

_UNFINISHED = (None, "error", "length")
"""Finish reasons after which a cut-off tool call is plausible."""

_FORMATS = ("anthropic-claude-v1", "openai-responses-v1", "google-gemini-v1", "unknown")
_UNKNOWN_DETAIL_TYPES = ("reasoning.redacted", "x-vendor.thought")
_SERVICE_TIERS = ("default", "flex", "priority", "scale", "auto")
_NATIVE_FINISH_REASONS = ("end_turn", "STOP", "max_tokens", "tool_use", "stop_sequence")


def is_finished(completion: JSONObject) -> bool:
    """True when the fold of any stream of `completion` is finished (LIFE-FINISHED):
    a choice exists and every one has a finish reason other than "error"."""
    reasons = [choice.get("finish_reason") for choice in completion["choices"]]
    return bool(reasons) and all(r is not None and r != "error" for r in reasons)


def _check_options(features: Collection[str], max_choices: int, max_tool_calls: int) -> None:
    unknown = sorted(set(features) - set(FEATURES))
    if unknown:
        raise InvalidArgument(f"features={unknown!r} are not in the spec's vocabulary {FEATURES}")
    if "text" not in features:
        raise InvalidArgument(f"features={sorted(features)!r} must include 'text'")
    if max_choices < 1:
        raise InvalidArgument(f"max_choices={max_choices!r} must be at least 1")
    if max_tool_calls < 0:
        raise InvalidArgument(f"max_tool_calls={max_tool_calls!r} must be at least 0")


@st.composite
def completions(
    draw: st.DrawFn,
    *,
    features: Collection[str] = frozenset(FEATURES),
    max_choices: int = 3,
    max_tool_calls: int = 3,
) -> JSONObject:
    """Draw a `chat.completion` using only the given features of the spec.

    `features` is a subset of the spec's vocabulary and must include "text"; several
    choices need "choices", and each message field needs its own feature. A choice
    may be unfinished (finish reason None or "error"), as a cut-off stream leaves it.
    """
    _check_options(features, max_choices, max_tool_calls)
    count = draw(st.integers(1, max_choices)) if "choices" in features else 1
    reasons = [draw(_FINISH_REASONS) for _ in range(count)]
    finished = all(r is not None and r != "error" for r in reasons)
    completion: JSONObject = {
        "id": draw(identities("chatcmpl-")),
        "object": "chat.completion",
        "created": draw(_CREATED),
        "model": draw(_MODELS),
    }
    if "provider_fields" in features:
        completion.update(_provider_fields(draw))
    completion["choices"] = [
        _choice(draw, index, reason, features, finished=finished, max_tool_calls=max_tool_calls)
        for index, reason in enumerate(reasons)
    ]
    if "usage" in features and draw(BOOLEANS):
        completion["usage"] = _usage(draw)
    return completion


_FINISH_REASONS = st.sampled_from(FINISH_REASONS)
_CREATED = st.integers(1, 2**31)
_MODELS = st.sampled_from(["gpt-4o", "m", "openai/gpt-oss-120b"]) | identities("model-")
_OPTIONAL_TEXTS = st.none() | texts(min_size=1)
_PROVIDER_FIELDS = {
    "provider": st.sampled_from(["OpenAI", "Anthropic", "Google"]),
    "system_fingerprint": identities("fp_"),
    "service_tier": st.sampled_from(_SERVICE_TIERS),
}
_MESSAGE_TEXTS = (
    ("refusal", "refusal"),
    ("reasoning", "reasoning"),
    ("reasoning_content", "reasoning"),
)


def _provider_fields(draw: st.DrawFn) -> JSONObject:
    return {key: draw(values) for key, values in _PROVIDER_FIELDS.items() if draw(BOOLEANS)}


def _choice(
    draw: st.DrawFn,
    index: int,
    reason: str | None,
    features: Collection[str],
    *,
    finished: bool,
    max_tool_calls: int,
) -> JSONObject:
    message: JSONObject = {"role": "assistant", "content": draw(_OPTIONAL_TEXTS)}
    for key, feature in _MESSAGE_TEXTS:
        value = draw(_OPTIONAL_TEXTS) if feature in features else None
        if value is not None:
            message[key] = value
    if "reasoning_details" in features:
        details = _reasoning_details(draw, max_size=3)
        if details:
            message["reasoning_details"] = details
    if "tool_calls" in features:
        calls = _tool_calls(
            draw, index, reason, features, finished=finished, max_size=max_tool_calls
        )
        if calls:
            message["tool_calls"] = calls
    if "annotations" in features and draw(BOOLEANS):
        message["annotations"] = draw(_ANNOTATION_LISTS)
    choice: JSONObject = {
        "index": index,
        "message": message,
        "finish_reason": reason,
        "logprobs": None,
    }
    if "logprobs" in features and draw(BOOLEANS):
        choice["logprobs"] = draw(_LOGPROBS)
    if "provider_fields" in features and draw(BOOLEANS):
        choice["native_finish_reason"] = draw(_NATIVE_FINISH)
    return choice


_NATIVE_FINISH = st.sampled_from(_NATIVE_FINISH_REASONS)
_TOOL_NAMES = st.sampled_from(["get_weather", "search", "f"]) | identities("tool_")


def _tool_calls(
    draw: st.DrawFn,
    choice: int,
    reason: str | None,
    features: Collection[str],
    *,
    finished: bool,
    max_size: int,
) -> list[JSONObject]:
    return [
        {
            "id": f"call_{choice}_{position}{draw(identities('_'))}",  # unique per completion
            "type": "function",
            "function": {
                "name": draw(_TOOL_NAMES),
                "arguments": _arguments(draw, reason, features, finished=finished),
            },
        }
        for position in range(draw(st.integers(0, max_size)))
    ]


_ARGUMENT_KINDS = st.sampled_from(["object", "none"])
_UNFINISHED_ARGUMENT_KINDS = st.sampled_from(["object", "none", "cut off"])


def _arguments(
    draw: st.DrawFn, reason: str | None, features: Collection[str], *, finished: bool
) -> str:
    # TOOL-RAW: a call cut off by length stays cut off
    kind = draw(_UNFINISHED_ARGUMENT_KINDS if reason in _UNFINISHED else _ARGUMENT_KINDS)
    if kind == "none":
        # TOOL-EMPTY-ARGS: streamed without arguments, a call reads "{}" once finished
        # and "" until then; a target without `empty_arguments` is sent "{}" literally.
        return "" if "empty_arguments" in features and not finished else "{}"
    text = draw(argument_texts())
    if kind == "object":
        return text
    core = text.rstrip()
    return core[: draw(st.integers(1, max(1, len(core) - 1)))]


@st.composite
def reasoning_details(draw: st.DrawFn, *, max_size: int = 3) -> list[JSONObject]:
    """Reasoning-details segments as the fold outputs them (RD-*): text and summary
    segments with and without index, signatures, encrypted and unknown types."""
    return _reasoning_details(draw, max_size=max_size)


_DETAIL_KINDS = st.sampled_from(
    ["reasoning.text", "reasoning.summary", "reasoning.encrypted", "unknown"]
)
_DETAIL_FIELDS = (
    ("id", identities("rd_")),
    ("format", st.sampled_from(_FORMATS)),
    ("index", st.integers(0, 3)),
)
_UNKNOWN_TYPES = st.sampled_from(_UNKNOWN_DETAIL_TYPES)


def _reasoning_details(draw: st.DrawFn, *, max_size: int) -> list[JSONObject]:
    segments: list[JSONObject] = []
    for _ in range(draw(st.integers(0, max_size))):
        kind = draw(_DETAIL_KINDS)
        segment: JSONObject
        if kind == "reasoning.encrypted":
            segment = {"type": kind, "data": draw(identities("enc:"))}
        elif kind == "unknown":
            segment = {"type": draw(_UNKNOWN_TYPES), "data": draw(json_objects(max_size=2))}
        else:
            joined = "text" if kind == "reasoning.text" else "summary"
            segment = {"type": kind, joined: draw(texts())}
            if kind == "reasoning.text" and draw(BOOLEANS):
                segment["signature"] = draw(identities("sig"))
        for key, values in _DETAIL_FIELDS:
            if draw(BOOLEANS):
                segment[key] = draw(values)
        segments.append(segment)
    return _mergeable(segments)


def _mergeable(segments: list[JSONObject]) -> list[JSONObject]:
    """Make segments the fold can keep apart: one merged segment per (type, index)
    (RD-MERGE), and every index-less one but the last of its type closed by a
    signature (RD-INDEXLESS)."""
    seen: set[tuple[str, int]] = set()
    last_indexless: dict[str, JSONObject] = {}
    for segment in segments:
        kind = segment["type"]
        if kind not in ("reasoning.text", "reasoning.summary"):
            continue
        if "index" in segment:
            if (kind, segment["index"]) not in seen:
                seen.add((kind, segment["index"]))
                continue
            del segment["index"]
        previous = last_indexless.get(kind)
        if previous is not None and "signature" not in previous:
            previous["signature"] = f"sig-closes-{len(last_indexless)}"
        last_indexless[kind] = segment
    return segments


_LOGPROB_VALUES = st.sampled_from([0.0, -9999.0]) | st.floats(-30, 0, allow_nan=False)


def _top_logprob(token: str, logprob: float) -> JSONObject:
    return {"token": token, "logprob": logprob, "bytes": list(token.encode())}


def _logprob_entry(token: str, logprob: float, top: list[JSONObject]) -> JSONObject:
    return {**_top_logprob(token, logprob), "top_logprobs": top}


_LOGPROB_ENTRIES = st.builds(
    _logprob_entry,
    texts(max_size=3),
    _LOGPROB_VALUES,
    st.lists(st.builds(_top_logprob, texts(max_size=3), _LOGPROB_VALUES), max_size=1),
)
_LOGPROBS = st.fixed_dictionaries(
    {
        "content": st.lists(_LOGPROB_ENTRIES, max_size=3),
        # LP-SHAPE: refusal is null when no refusal entry arrived, so never []
        "refusal": st.none() | st.lists(_LOGPROB_ENTRIES, min_size=1, max_size=2),
    }
)


def _citation(url: str, title: str, start: int, length: int) -> JSONObject:
    return {
        "type": "url_citation",
        "url_citation": {
            "url": url,
            "title": title,
            "start_index": start,
            "end_index": start + length,
        },
    }


_ANNOTATION_LISTS = st.lists(
    st.builds(
        _citation,
        identities("https://example.com/"),
        texts(max_size=6),
        st.integers(0, 100),
        st.integers(0, 20),
    ),
    min_size=1,
    max_size=2,
)
_COSTS = st.floats(0, 10, allow_nan=False)
_USAGE_EXTRAS: dict[str, st.SearchStrategy[JSON]] = {
    "prompt_tokens_details": st.fixed_dictionaries(
        {"cached_tokens": st.integers(0, 9)}, optional={"audio_tokens": st.integers(0, 9)}
    ),
    "completion_tokens_details": st.fixed_dictionaries(
        {"reasoning_tokens": st.integers(0, 9)},
        optional={
            "accepted_prediction_tokens": st.integers(0, 9),
            "rejected_prediction_tokens": st.integers(0, 9),
        },
    ),
    "cost": _COSTS,  # OpenRouter
    "is_byok": st.booleans(),  # OpenRouter
    "cost_details": st.fixed_dictionaries({"upstream_inference_cost": _COSTS}),  # OpenRouter
}
_TOKENS = st.integers(0, 10**6)


def _usage(draw: st.DrawFn) -> JSONObject:
    prompt, completion = draw(_TOKENS), draw(_TOKENS)
    usage: JSONObject = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }
    for key, values in _USAGE_EXTRAS.items():
        if draw(BOOLEANS):
            usage[key] = draw(values)
    return usage
