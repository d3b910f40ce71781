"""Hypothesis properties of the Gemini fold: lossless splits, purity, totality, wire framing.

The round trip draws a response in the fold's normal form (no two parts that GM-TEXT-JOIN
would join, no empty unsigned text), streams it the ways the spec's lossless split families
allow, and checks the fold gives it back under the canonical comparison.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from refold.reference.gemini import Accumulator, decode_array, decode_sse, differences, fold

RULES_CHECKED: dict[str, tuple[str, ...]] = {
    "test_every_split_of_a_response_folds_back_to_it": (
        "GM-TEXT-JOIN",
        "GM-TEXT-EMPTY",
        "GM-THOUGHT-APART",
        "GM-SIGNATURE",
        "GM-CALL-WHOLE",
        "GM-CODE",
        "GM-INLINE",
        "GM-CAND-INDEX",
        "GM-CAND-ORDER",
        "GM-SAFETY",
        "GM-CITATIONS",
        "GM-GROUNDING",
        "GM-USAGE-LAST",
        "GM-ENV-ID",
        "GM-FINISH",
    ),
    "test_streamed_arguments_fold_back_to_the_arguments": (
        "GM-CALL-STREAMED",
        "GM-CALL-PARTIAL-ARGS",
    ),
    "test_the_fold_is_total_pure_and_incremental": (
        "GM-ROB-WRONG-TYPE",
        "GM-LIFE-SNAPSHOT",
    ),
    "test_wire_bytes_split_anywhere_decode_to_the_chunks": ("GM-WIRE-SSE", "GM-WIRE-ARRAY"),
}

SETTINGS = settings(max_examples=100, deadline=None, database=None)
_TEXT = st.text(max_size=12)
_NAME = st.text(alphabet="abcdefgh_", min_size=1, max_size=6)
_SCALAR = st.none() | st.booleans() | st.integers(-5, 5) | _TEXT
_JSON = st.recursive(
    _SCALAR, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_NAME, inner, max_size=3)
)


@st.composite
def _part(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["text", "thought", "call", "code", "inline"]))
    signature = draw(st.none() | st.text(alphabet="ABCDEF=", min_size=1, max_size=5))
    if kind in ("text", "thought"):
        part: dict[str, Any] = {"text": draw(_TEXT if signature else _TEXT.filter(bool))}
        if kind == "thought":
            part["thought"] = True
    elif kind == "call":
        call = {"name": draw(_NAME), "args": draw(st.dictionaries(_NAME, _JSON, max_size=3))}
        part = {
            "functionCall": {**call, **draw(st.just({}) | st.builds(lambda i: {"id": i}, _NAME))}
        }
    elif kind == "code":
        part = {"executableCode": {"language": "PYTHON", "code": draw(_TEXT)}}
    else:
        part = {"inlineData": {"mimeType": "audio/pcm", "data": draw(_TEXT)}}
    return {**part, "thoughtSignature": signature} if signature else part


def _normal(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Drop each text part that GM-TEXT-JOIN would join onto the one before it."""
    kept: list[dict[str, Any]] = []
    for part in parts:
        last = kept[-1] if kept else {}
        joins = "text" in part and "text" in last and "thoughtSignature" not in last
        if not (joins and last.get("thought") == part.get("thought")):
            kept.append(part)
    return kept


@st.composite
def _fragments(draw: st.DrawFn, part: dict[str, Any]) -> list[dict[str, Any]]:
    """One part as the fragments a stream may carry (text split, signature apart)."""
    empty = draw(st.lists(st.just({"text": ""}), max_size=1))
    if "text" not in part:
        return [*empty, part]
    text, flag = part["text"], {"thought": True} if part.get("thought") else {}
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=3)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    fragments = [{"text": piece, **flag} for piece in pieces]
    if "thoughtSignature" in part:
        apart = draw(st.booleans())
        last = {"text": "", **flag} if apart else fragments.pop()
        fragments.append({**last, "thoughtSignature": part["thoughtSignature"]})
    return [*empty, *fragments]


@st.composite
def _candidate(draw: st.DrawFn, index: int) -> dict[str, Any]:
    parts = _normal(draw(st.lists(_part(), max_size=5)))
    categories = draw(st.lists(_NAME, unique=True, max_size=3))
    grounding = draw(st.dictionaries(_NAME, _JSON.filter(lambda v: v is not None)))
    sources = st.lists(st.fixed_dictionaries({"uri": _NAME}), unique_by=lambda c: c["uri"])
    citations = draw(sources.filter(bool) | st.just([]))
    candidate: dict[str, Any] = {
        "content": {"role": "model", "parts": parts},
        "finishReason": draw(st.sampled_from(["STOP", "MAX_TOKENS", "NEW_REASON"])),
        "index": index,
        "safetyRatings": [{"category": c, "probability": draw(_NAME)} for c in categories],
        "tokenCount": draw(st.integers(0, 9)),
        "groundingMetadata": grounding,
        "citationMetadata": {"citationSources": citations},
    }
    for key, value in (("groundingMetadata", grounding), ("citationMetadata", citations)):
        if not value:
            del candidate[key]  # an empty object is not absent; none was streamed
    return candidate


@st.composite
def _response_and_chunks(draw: st.DrawFn) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    indexes = sorted(draw(st.sets(st.integers(0, 4), min_size=1, max_size=3)))
    candidates = [draw(_candidate(index)) for index in indexes]
    usage = {
        "promptTokenCount": draw(st.integers(0, 9)),
        "totalTokenCount": draw(st.integers(0, 99)),
    }
    response = {
        "candidates": candidates,
        "usageMetadata": usage,
        "modelVersion": "gemini-x",
        "responseId": draw(_NAME),
    }
    streams = [_candidate_stream(draw, c) for c in candidates]
    count = max(len(s) for s in streams)
    chunks = []
    for position in range(count):
        entries = [s[position] for s in streams if position < len(s)]
        chunk: dict[str, Any] = {
            "candidates": draw(st.permutations(entries)),
            "modelVersion": "gemini-x",
            "responseId": response["responseId"],
        }
        if position == count - 1:
            chunk["usageMetadata"] = usage
        elif draw(st.booleans()):
            chunk["usageMetadata"] = {
                "totalTokenCount": draw(st.integers(0, 999)),
                "trafficType": "ON_DEMAND",
            }
        chunks.append(chunk)
    if draw(st.booleans()):
        chunks.append({"usageMetadata": usage})  # a trailing usage-only chunk
    return response, chunks


def _ascending(draw: st.DrawFn, count: int, size: int) -> list[int]:
    """`count` chunk positions below `size`, in arrival order (first appearances keep order)."""
    return sorted(draw(st.lists(st.integers(0, size - 1), min_size=count, max_size=count)))


def _candidate_stream(draw: st.DrawFn, candidate: dict[str, Any]) -> list[dict[str, Any]]:
    fragments = [f for part in candidate["content"]["parts"] for f in draw(_fragments(part))]
    groups = draw(st.integers(1, 4))
    cuts = sorted(
        draw(st.lists(st.integers(0, len(fragments)), min_size=groups - 1, max_size=groups - 1))
    )
    bounds = list(zip([0, *cuts], [*cuts, len(fragments)], strict=True))
    index = {} if candidate["index"] == 0 and draw(st.booleans()) else {"index": candidate["index"]}
    entries = [{**index, "content": {"role": "model", "parts": fragments[a:b]}} for a, b in bounds]
    ratings = candidate["safetyRatings"]
    for position, rating in zip(_ascending(draw, len(ratings), len(entries)), ratings, strict=True):
        entries[position].setdefault("safetyRatings", []).append(rating)
    sources = candidate.get("citationMetadata", {}).get("citationSources", [])
    for count, position in enumerate(_ascending(draw, len(sources), len(entries)), start=1):
        resent = sources[:count] if draw(st.booleans()) else [sources[count - 1]]
        metadata = entries[position].setdefault("citationMetadata", {"citationSources": []})
        metadata["citationSources"].extend(resent)
    for key, value in candidate.get("groundingMetadata", {}).items():
        draw(st.sampled_from(entries)).setdefault("groundingMetadata", {})[key] = value
    entries[-1].update(finishReason=candidate["finishReason"], tokenCount=candidate["tokenCount"])
    return entries


@SETTINGS
@given(_response_and_chunks())
def test_every_split_of_a_response_folds_back_to_it(drawn: tuple[Any, list[Any]]) -> None:
    response, chunks = drawn
    assert differences(response, fold(chunks)) == []


def _leaves(value: Any, path: str) -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [leaf for key, item in value.items() for leaf in _leaves(item, f"{path}.{key}")]
    if isinstance(value, list):
        return [leaf for i, item in enumerate(value) for leaf in _leaves(item, f"{path}[{i}]")]
    return [(path, value)]


_ARGS = st.dictionaries(
    _NAME,
    st.recursive(
        _SCALAR,
        lambda inner: (
            st.lists(inner, min_size=1, max_size=3)
            | st.dictionaries(_NAME, inner, min_size=1, max_size=3)
        ),
    ),
    min_size=1,
    max_size=3,
)


@SETTINGS
@given(_ARGS, st.data())
def test_streamed_arguments_fold_back_to_the_arguments(
    args: dict[str, Any], data: st.DataObject
) -> None:
    fragments: list[dict[str, Any]] = [{"functionCall": {"name": "f", "willContinue": True}}]
    for path, value in _leaves(args, "$"):
        if isinstance(value, str):
            cuts = sorted(data.draw(st.lists(st.integers(0, len(value)), max_size=2)))
            pieces = [value[a:b] for a, b in zip([0, *cuts], [*cuts, len(value)], strict=True)]
            typed = [({"stringValue": p}, i < len(pieces) - 1) for i, p in enumerate(pieces)]
        elif value is None:
            typed = [({"nullValue": "NULL_VALUE"}, False)]
        else:
            typed = [({"boolValue" if isinstance(value, bool) else "numberValue": value}, False)]
        for piece, more in typed:
            entry = {"jsonPath": path, **piece, **({"willContinue": True} if more else {})}
            fragments.append({"functionCall": {"partialArgs": [entry], "willContinue": True}})
    fragments.append({"functionCall": {}})
    chunks = [{"candidates": [{"content": {"parts": [f]}}]} for f in fragments]
    parts = fold(chunks)["candidates"][0]["content"]["parts"]
    assert parts == [{"functionCall": {"name": "f", "args": args}}]


_KEYS = st.sampled_from(
    ["candidates", "content", "parts", "text", "thought", "thoughtSignature", "functionCall",
     "partialArgs", "jsonPath", "stringValue", "willContinue", "name", "index", "finishReason",
     "safetyRatings", "category", "citationMetadata", "citations", "groundingMetadata",
     "usageMetadata", "promptFeedback", "blockReason", "error", "modelVersion", "x"]
)  # fmt: skip
_WILD = st.recursive(
    _SCALAR | st.sampled_from(["$.a", "$.a[0]", True]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=25,
)


@SETTINGS
@given(st.lists(st.dictionaries(_KEYS, _WILD, max_size=4), max_size=5))
def test_the_fold_is_total_pure_and_incremental(chunks: list[dict[str, Any]]) -> None:
    sent = copy.deepcopy(chunks)
    accumulator = Accumulator()
    for position, chunk in enumerate(chunks):
        accumulator.add(chunk)
        response = accumulator.response()
        assert json.loads(json.dumps(response)) == response
        assert response == fold(chunks[: position + 1])
        assert accumulator.finished in (True, False)
    assert chunks == sent


@SETTINGS
@given(st.lists(st.dictionaries(_NAME, _JSON, max_size=3), max_size=4), st.data())
def test_wire_bytes_split_anywhere_decode_to_the_chunks(
    chunks: list[Any], data: st.DataObject
) -> None:
    sse = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks)
    indent = data.draw(st.none() | st.integers(0, 2))
    array = json.dumps(chunks, indent=indent, ensure_ascii=data.draw(st.booleans())).encode()
    for body, decode in ((sse, decode_sse), (array, decode_array)):
        cuts = sorted(data.draw(st.lists(st.integers(0, len(body)), max_size=4)))
        pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
        assert decode(pieces) == chunks
