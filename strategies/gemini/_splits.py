"""Lossless chunk splits of a known response: `fold(chunk_splits(r)) == r`.

Each candidate's parts become fragments (text runs cut, Vertex calls streamed, the rest
whole), the fragments are grouped into candidate entries (one per chunk), the candidate's
metadata is spread over its entries, the candidates' entries are laid out over chunks, and
every chunk gets the envelope (identity, usage, prompt feedback). Family 1, Google's own
shape, is the base; each other family adds the departures the spec names.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping
from typing import NamedTuple

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from refold.reference import JSON, JSONObject

from .._text import BOOLEANS, below, cut, pieces_of

__all__ = ["SPLIT_FAMILIES", "Family", "chunk_splits"]


class Family(NamedTuple):
    """One lossless split family: what it does, its class (`verdicts.md` §1), its source."""

    summary: str
    shape: str
    source: str


SPLIT_FAMILIES: Mapping[int, Family] = {
    1: Family(
        "Google's own shape: one part per chunk, identity and createTime on every chunk, "
        "promptFeedback on the first, finishReason and final usage on the last, running "
        "usage (never above the final counts) on earlier chunks",
        "documented",
        "[API] streamGenerateContent; [VTX] prompt_feedback first chunk; R3, R4, R9",
    ),
    2: Family(
        "text runs cut at any code point (favouring astral characters and escapes), empty "
        "fragments anywhere, a signature on the last fragment or on its own empty part",
        "observed",
        "GMD-EMPTY-TEXT, GMD-SIGNATURE-SPLIT: Gemini 3 finish chunks, Code Assist, R4, R5",
    ),
    3: Family(
        "parts grouped freely, several per chunk (parallel calls, code and its result)",
        "documented",
        "[API] Content.parts; parallel function calls [SIG], R6",
    ),
    4: Family(
        "a call without id streamed as Vertex fragments: opening with willContinue, one "
        "partialArgs piece per leaf (strings cut, willContinue per piece), keep-alives, "
        "ended by {} or a last piece without willContinue",
        "documented",
        "GMD-STREAMED-ARGS: [VTX] streamFunctionCallArguments, PartialArg; R6",
    ),
    5: Family(
        "candidate metadata spread: safetyRatings prefixes on earlier chunks, grounding keys "
        "early (an earlier value maybe before the final one), or resent on later chunks "
        "(the accumulated value so far, then the final value again), citations new-only or "
        "resent accumulated, other candidate keys on any chunk",
        "observed",
        "GMD-GROUNDING-EARLY (vercel/ai PR #13123), GMD-GROUNDING-RESENT (langchainjs PR "
        '#11456: "Gemini resends the accumulated metadata"), Gemini 1.x full ratings per '
        "chunk, R8",
    ),
    6: Family(
        "several candidates interleaved in any order, any subset per chunk, index omitted "
        "for candidate 0",
        "observed",
        "GMD-VERTEX-NO-INDEX (Vertex on every chunk, R3); candidateCount [API]",
    ),
    7: Family(
        "noise: {'text': ''} parts where they change nothing, chunks with only identity, "
        "usage chunks with only trafficType, a usage-only chunk after the finish chunk",
        "observed",
        "GMD-EMPTY-TEXT (R4), GMD-VERTEX-USAGE-TRAFFIC (R3, R9), GMD-TRAILING-USAGE "
        "(laravel/ai PR #912, R7)",
    ),
    8: Family(
        "usage going down: earlier running counts above the final ones",
        "observed",
        "GMD-USAGE-DOWN: Gemini image models, thoughtsTokenCount 244 -> 167, R9",
    ),
}
"""The lossless split families, by number, with their shape class and provenance."""

_PLAIN = frozenset({"text", "thought", "thoughtSignature"})
_CANDIDATE_OWN = frozenset({"content", "finishReason", "index"})
_METADATA = ("safetyRatings", "citationMetadata", "groundingMetadata")
_EMPTY_TEXT: JSONObject = {"text": ""}


def _is_plain(part: JSONObject) -> bool:
    return isinstance(part.get("text"), str) and part.keys() <= _PLAIN


def _awkward(text: str) -> list[int]:
    """Cut points beside characters outside ASCII or that JSON escapes."""
    return [i for i in range(1, len(text)) if not text[i].isascii() or text[i] in '"\\\n\r\t\x00']


@st.composite
def _text_fragments(draw: st.DrawFn, part: JSONObject) -> list[JSONObject]:
    text: str = part["text"]
    kind: JSONObject = {"thought": True} if part.get("thought") is True else {}
    pieces = pieces_of(text, cut(draw, len(text), favour=_awkward(text)))
    fragments: list[JSONObject] = [{"text": piece, **kind} for piece in pieces]
    signature = part.get("thoughtSignature")
    if signature is not None:
        if draw(BOOLEANS):  # GMD-SIGNATURE-SPLIT: on its own empty part after the text
            fragments.append({"text": "", **kind, "thoughtSignature": signature})
        else:
            fragments[-1]["thoughtSignature"] = signature
    return fragments


def _segment(key: str) -> str | None:
    if '"' not in key:
        return f'["{key}"]'
    if "'" not in key:
        return f"['{key}']"
    return None


def _leaves(value: JSON, path: str) -> list[tuple[str, JSON]] | None:
    """The (jsonPath, scalar) leaves of call arguments, or None when a piece cannot
    carry them (an empty object or array, a name with both quote characters)."""
    if isinstance(value, dict | list):
        if not value:
            return None
        found: list[tuple[str, JSON]] = []
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            step = _segment(key) if isinstance(key, str) else f"[{key}]"
            below_ = None if step is None else _leaves(item, path + step)
            if below_ is None:
                return None
            found += below_
        return found
    return [(path, value)]


def _pieces(draw: st.DrawFn, path: str, value: JSON) -> list[JSONObject]:
    if isinstance(value, str):
        strings = pieces_of(value, cut(draw, len(value), max_cuts=3))
        pieces: list[JSONObject] = [
            {"jsonPath": path, "stringValue": s, "willContinue": True} for s in strings
        ]
        del pieces[-1]["willContinue"]
        return pieces
    if isinstance(value, bool):
        return [{"jsonPath": path, "boolValue": value}]
    if isinstance(value, int | float):
        return [{"jsonPath": path, "numberValue": value}]
    return [{"jsonPath": path, "nullValue": "NULL_VALUE"}]


def _streamable(part: JSONObject) -> list[tuple[str, JSON]] | None:
    call = part["functionCall"]
    if "id" in call or not call.keys() <= {"name", "args"}:
        return None  # Vertex v1 calls carry no id (GM-CALL-ID)
    if not part.keys() <= {"functionCall", "thoughtSignature"}:
        return None
    args = call.get("args", {})
    if not isinstance(args, dict):
        return None
    return [] if not args else _leaves(args, "$")


@st.composite
def _streamed_call(
    draw: st.DrawFn, part: JSONObject, leaves: list[tuple[str, JSON]]
) -> list[JSONObject]:
    """GM-CALL-STREAMED, GM-CALL-PARTIAL-ARGS: the call as Vertex streams it."""
    fragments: list[JSONObject] = [
        {"functionCall": {"name": part["functionCall"]["name"], "willContinue": True}}
    ]
    for path, value in leaves:
        for piece in _pieces(draw, path, value):
            fragments.append({"functionCall": {"partialArgs": [piece], "willContinue": True}})
            if draw(BOOLEANS) and draw(BOOLEANS):  # a keep-alive
                fragments.append({"functionCall": {"willContinue": True}})
    if len(fragments) > 1 and draw(BOOLEANS):
        del fragments[-1]["functionCall"]["willContinue"]  # a last piece ends it
    else:
        fragments.append({"functionCall": {}})
    if "thoughtSignature" in part:
        fragments[draw(below(len(fragments)))]["thoughtSignature"] = part["thoughtSignature"]
    return fragments


@st.composite
def _fragments(draw: st.DrawFn, parts: list[JSONObject], families: set[int]) -> list[JSONObject]:
    fragments: list[JSONObject] = []
    for part in parts:
        leaves = _streamable(part) if "functionCall" in part and 4 in families else None
        if _is_plain(part) and 2 in families:
            fragments += draw(_text_fragments(part))
        elif leaves is not None and draw(BOOLEANS):
            event("split: a streamed call")
            fragments += draw(_streamed_call(part, leaves))
        else:
            fragments.append(copy.deepcopy(part))
    if 7 in families and draw(BOOLEANS):  # GMD-EMPTY-TEXT: changes nothing anywhere
        for _ in range(draw(st.integers(1, 2))):
            fragments.insert(draw(below(len(fragments) + 1)), dict(_EMPTY_TEXT))
    return fragments


def _groups(
    draw: st.DrawFn, fragments: list[JSONObject], families: set[int]
) -> list[list[JSONObject]]:
    if not fragments:
        return [[]]
    if 3 in families and draw(BOOLEANS):
        return [list(g) for g in pieces_of(fragments, cut(draw, len(fragments)))]
    return [[fragment] for fragment in fragments]


def _spread_ratings(draw: st.DrawFn, entries: list[JSONObject], ratings: JSON) -> None:
    """Earlier entries carry earlier ratings of a prefix of the categories (GM-SAFETY)."""
    assert isinstance(ratings, list)
    for entry in entries[:-1]:
        if draw(BOOLEANS):
            prefix = copy.deepcopy(ratings[: draw(st.integers(1, len(ratings)))])
            for rating in prefix:
                rating["probability"] = "NEGLIGIBLE"
            entry["safetyRatings"] = prefix


def _spread_citations(draw: st.DrawFn, entries: list[JSONObject], metadata: JSON) -> None:
    """Citations arrive in order, new-only or resent accumulated (GM-CITATIONS)."""
    assert isinstance(metadata, dict)
    sources = metadata["citationSources"]
    places = sorted(
        draw(st.lists(below(len(entries)), min_size=len(sources), max_size=len(sources)))
    )
    for number, (source, place) in enumerate(zip(sources, places, strict=True)):
        carried = entries[place].setdefault("citationMetadata", {"citationSources": []})
        if draw(BOOLEANS):  # resent accumulated
            carried["citationSources"] = copy.deepcopy(sources[: number + 1])
        else:
            carried["citationSources"].append(copy.deepcopy(source))


def _earlier(value: JSON) -> JSON:
    """An earlier value of the same type: a shorter list or string, another number."""
    if isinstance(value, list | str):
        return copy.deepcopy(value[: len(value) // 2])
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value - 1
    return copy.deepcopy(value)


def _spread_keys(
    draw: st.DrawFn, entries: list[JSONObject], into: str | None, keys: JSONObject
) -> None:
    """Each key's final value on one entry, earlier entries maybe another value, later
    ones none (GM-CAND-KEYS, GM-GROUNDING: last non-null per key)."""
    for key, value in keys.items():
        place = draw(below(len(entries)))
        for number in range(place + 1):
            entry = entries[number]
            if number < place and not draw(BOOLEANS):
                continue
            target = entry if into is None else entry.setdefault(into, {})
            target[key] = copy.deepcopy(value) if number == place else _earlier(value)


def _accumulated(value: JSON, size: int) -> JSON:
    """The accumulated value of a key after its first `size` items: a prefix of a list or
    string; any other value is sent whole."""
    if isinstance(value, list | str):
        return copy.deepcopy(value[:size])
    return copy.deepcopy(value)


def _resend_keys(draw: st.DrawFn, entries: list[JSONObject], into: str, keys: JSONObject) -> None:
    """GMD-GROUNDING-RESENT: each key sent on the entries from a first one to a last one
    (mostly the finish entry), maybe skipping some between: the accumulated value so far
    (growing) until its final value arrives, the final value from then on, so the last
    entry with the key has its final value (GM-GROUNDING: per-key last non-null). Later
    entries send the key no more."""
    for key, value in keys.items():
        last = len(entries) - 1 - draw(below(len(entries)))
        first = draw(below(last + 1))
        place = draw(st.integers(first, last))  # where the final value first arrives
        whole = len(value) if isinstance(value, list | str) else 0
        size = 0
        for number in range(first, last + 1):
            if number not in (first, place, last) and draw(BOOLEANS):
                continue
            if number < place:
                size = draw(st.integers(max(size, min(1, whole)), whole))
                sent = _accumulated(value, size)
            else:
                sent = copy.deepcopy(value)
            entries[number].setdefault(into, {})[key] = sent
        if first < last:
            event("split: grounding resent")


@st.composite
def _entries(draw: st.DrawFn, candidate: JSONObject, families: set[int]) -> list[JSONObject]:
    """One candidate's entries, one per chunk, in order."""
    content = candidate.get("content")
    entries: list[JSONObject] = []
    if content is None:
        entries.append({})
    else:
        fragments = draw(_fragments(content.get("parts", []), families))
        for group in _groups(draw, fragments, families):
            entries.append({"content": {"role": content.get("role", "model"), "parts": group}})
        extra = {k: v for k, v in content.items() if k not in ("role", "parts")}
        entries[-1]["content"].update(copy.deepcopy(extra))
    entries[-1]["finishReason"] = candidate["finishReason"]
    spread = 5 in families
    for key in _METADATA:
        if key not in candidate:
            continue
        if spread and key == "safetyRatings":
            _spread_ratings(draw, entries, candidate[key])
        elif spread and key == "citationMetadata" and draw(BOOLEANS):
            _spread_citations(draw, entries, candidate[key])
            continue
        elif spread and key == "groundingMetadata" and draw(BOOLEANS):
            if draw(BOOLEANS):
                _resend_keys(draw, entries, key, candidate[key])
            else:
                _spread_keys(draw, entries, key, candidate[key])
            continue
        entries[-1][key] = copy.deepcopy(candidate[key])
    others = {k: v for k, v in candidate.items() if k not in _CANDIDATE_OWN and k not in _METADATA}
    if spread and draw(BOOLEANS):
        _spread_keys(draw, entries, None, others)
    else:
        entries[-1].update(copy.deepcopy(others))
    return entries


@st.composite
def _layout(
    draw: st.DrawFn, per_candidate: list[list[JSONObject]], families: set[int]
) -> list[list[JSONObject]]:
    """Lay the candidates' entries out over chunks: in step (family 1) or interleaved."""
    for index, entries in enumerate(per_candidate):
        for entry in entries:
            entry["index"] = index
    if 6 not in families:
        depth = max(len(entries) for entries in per_candidate)
        return [
            [entries[step] for entries in per_candidate if step < len(entries)]
            for step in range(depth)
        ]
    if draw(BOOLEANS):  # Vertex: index omitted (proto3 omits 0)
        for entry in per_candidate[0]:
            del entry["index"]
    queues = [list(entries) for entries in per_candidate]
    chunks: list[list[JSONObject]] = []
    while any(queues):
        waiting = [n for n, queue in enumerate(queues) if queue]
        chosen = draw(st.permutations(waiting))[: draw(st.integers(1, len(waiting)))]
        chunks.append([queues[n].pop(0) for n in chosen])
    return chunks


def _counts_up_to(final: JSONObject) -> st.SearchStrategy[JSONObject]:
    return st.fixed_dictionaries(
        {key: st.integers(0, value) for key, value in final.items() if isinstance(value, int)}
    )


def _counts_above(final: JSONObject) -> st.SearchStrategy[JSONObject]:
    return st.fixed_dictionaries(
        {
            key: st.integers(value, value + 300)
            for key, value in final.items()
            if isinstance(value, int)
        }
    )


def _early_usages(final: JSONObject, families: set[int]) -> st.SearchStrategy[JSONObject]:
    kinds = [_counts_up_to(final)]
    if 7 in families:
        kinds.append(st.just({"trafficType": "ON_DEMAND"}))  # GMD-VERTEX-USAGE-TRAFFIC
    if 8 in families:
        kinds.append(_counts_above(final))  # GMD-USAGE-DOWN
    return st.one_of(kinds)


@st.composite
def chunk_splits(
    draw: st.DrawFn,
    response: JSONObject,
    *,
    families: Collection[int] = frozenset(SPLIT_FAMILIES),
    late_chunks: bool = True,
) -> list[JSONObject]:
    """Draw a chunk stream whose fold is exactly `response` (canonical comparison).

    `response` is a value drawn by `responses()`. Family 1, Google's own shape, is the
    base; each other family in `families` adds its departures (`SPLIT_FAMILIES`).
    `late_chunks` lets family 7 send the final usage on a chunk after the finish chunk
    (GM-LIFE-AFTER-FINISH: pass False for a target that does not claim `lifecycle`).
    """
    chosen = set(families)
    unknown = chosen - set(SPLIT_FAMILIES)
    if unknown:
        raise InvalidArgument(f"families={sorted(unknown)!r} are not in {sorted(SPLIT_FAMILIES)}")
    candidates = response.get("candidates")
    layout: list[list[JSONObject]] = [[]]
    if isinstance(candidates, list) and candidates:
        per_candidate = [draw(_entries(candidate, chosen)) for candidate in candidates]
        layout = draw(_layout(per_candidate, chosen))
    chunks: list[JSONObject] = [
        {"candidates": entries} if entries or candidates is not None else {} for entries in layout
    ]
    if 7 in chosen and draw(BOOLEANS):  # a chunk with only identity
        chunks.insert(draw(below(len(chunks) + 1)), {})
    snapshots = {
        key: value
        for key, value in response.items()
        if key not in ("candidates", "usageMetadata", "promptFeedback")
    }
    for chunk in chunks:
        chunk.update(copy.deepcopy(snapshots))
    if "promptFeedback" in response:
        chunks[0]["promptFeedback"] = copy.deepcopy(response["promptFeedback"])
    usage = response.get("usageMetadata")
    if isinstance(usage, dict):
        for chunk in chunks[:-1]:
            if draw(BOOLEANS):
                chunk["usageMetadata"] = draw(_early_usages(usage, chosen))
        if 7 in chosen and late_chunks and draw(BOOLEANS):  # GMD-TRAILING-USAGE
            trailing = {key: copy.deepcopy(value) for key, value in snapshots.items()}
            chunks.append(trailing)
        chunks[-1]["usageMetadata"] = copy.deepcopy(usage)
    return chunks
