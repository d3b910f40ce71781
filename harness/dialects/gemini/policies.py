"""The fold policies of the `gemini-generate-content` dialect: each the reference fold
(`refold.reference.gemini.fold`) with one change a real library makes.

A policy about reading chunks rewrites the stream before the reference folds it: the
chunks (`chunks_rewritten`) or each part a candidate's content sends (`parts_rewritten`).
A policy about the result rewrites the folded value after: each candidate
(`candidates_rewritten`), its parts, or the usage. `._policy_rewrites` says which chunks,
entries and parts count as read: those the reference reads.
"""

from __future__ import annotations

from collections.abc import Callable

from refold.reference import JSON, JSONObject, non_blank
from refold.reference._json import copy_json
from refold.reference.gemini import fold

from ...policies import Policy
from ._policy_rewrites import (
    LastPart,
    candidates_rewritten,
    chunks_rewritten,
    is_answer_run,
    is_run,
    parts_rewritten,
    read_chunks,
)

__all__ = ["GEMINI_POLICIES"]

_PART_FIELDS = frozenset(
    {
        "text",
        "thought",
        "thoughtSignature",
        "inlineData",
        "fileData",
        "functionCall",
        "functionResponse",
        "executableCode",
        "codeExecutionResult",
        "videoMetadata",
    }
)
"""The fields of google-genai 2.34.0's pydantic `Part`; any other key is dropped parsing."""


def _number(value: JSON) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _keeps_highest_usage(chunks: list[JSON]) -> JSONObject:
    """Usage merged per key, each count the highest any chunk sent: running totals turned
    into deltas floored at zero and summed back (a count that falls or is omitted stays)."""
    folded = fold(chunks)
    merged: JSONObject | None = None
    for chunk in read_chunks(chunks):
        usage = chunk.get("usageMetadata")
        if isinstance(usage, dict):
            merged = dict(merged or {})
            for key, value in usage.items():
                earlier = merged.get(key)
                if _number(value) and _number(earlier):
                    value = max(earlier, value)
                merged[key] = copy_json(value)
    if merged is not None:
        folded["usageMetadata"] = merged
    return folded


def _first_entry_as_candidate_zero(chunk: JSONObject) -> JSONObject:
    """`candidates[0]` only, read as candidate 0 whatever its index (a null first entry
    hides the entries after it)."""
    candidates = chunk.get("candidates")
    if not isinstance(candidates, list):
        return chunk
    first = candidates[0] if candidates else None
    return {**chunk, "candidates": [{**first, "index": 0}] if isinstance(first, dict) else []}


def _joined(run: JSONObject, part: JSONObject, signature: Callable[[str, str], str]) -> None:
    """`part`'s text appended to `run`'s; their signatures combined by `signature`."""
    run["text"] += part["text"]
    earlier, later = run.get("thoughtSignature"), part.get("thoughtSignature")
    if later is not None:
        run["thoughtSignature"] = later if earlier is None else signature(earlier, later)


def _signed_runs_take_more(signature: Callable[[str, str], str]) -> Callable[[list[JSON]], None]:
    """A signed run still takes the fragments of its kind: the runs the reference closed
    on a signature join the next run of their kind, right after them."""

    def rewrite(parts: list[JSON]) -> None:
        kept: list[JSON] = []
        for part in parts:
            last = kept[-1] if kept else None
            if (
                isinstance(last, dict)
                and isinstance(part, dict)
                and is_run(last)
                and is_run(part)
                and last.get("thought") == part.get("thought")
            ):
                _joined(last, part, signature)
            else:
                kept.append(part)
        parts[:] = kept

    return rewrite


def _text_joins_across_calls(parts: list[JSON]) -> None:
    """A function call does not close the answer run before it: an answer run after calls
    joins the unsigned answer run before them, so its text moves ahead of the calls."""
    kept: list[JSON] = []
    previous: JSON = None  # the last part kept that is not a call
    for part in parts:
        if (
            isinstance(part, dict)
            and isinstance(previous, dict)
            and is_answer_run(part)
            and is_answer_run(previous)
            and "thoughtSignature" not in previous
        ):
            _joined(previous, part, lambda _, later: later)
            continue
        kept.append(part)
        if not (isinstance(part, dict) and "functionCall" in part):
            previous = part
    parts[:] = kept


def _in_parts(
    rewrite: Callable[[list[JSON]], None],
) -> Callable[[JSONObject, list[JSONObject]], None]:
    """A rewrite of a folded candidate's parts, as a rewrite of the candidate."""

    def candidate_rewritten(candidate: JSONObject, entries: list[JSONObject]) -> None:
        content = candidate.get("content")
        if isinstance(content, dict) and isinstance(content.get("parts"), list):
            rewrite(content["parts"])

    return candidate_rewritten


def _drops_lone_signature(part: JSON, last: LastPart) -> JSON | None:
    """An empty answer text part, signed or not, is dropped unless the candidate's last
    part is an answer run: a signature after thoughts, a call or an image has nowhere to
    go."""
    if is_answer_run(part) and isinstance(part, dict) and part["text"] == "":
        return part if is_answer_run(last()) else None
    return part


def _concatenates_finish_reasons(candidate: JSONObject, entries: list[JSONObject]) -> None:
    """A finish reason sent again is appended to the folded one (`"STOPSTOP"`)."""
    reasons = [e["finishReason"] for e in entries if non_blank(e.get("finishReason"))]
    if reasons:
        candidate["finishReason"] = "".join(reasons)


def _appends_safety_ratings(candidate: JSONObject, entries: list[JSONObject]) -> None:
    """Every entry's safety ratings appended, never merged by category."""
    sent = [entry.get("safetyRatings") for entry in entries]
    ratings = [r for s in sent if isinstance(s, list) for r in s if isinstance(r, dict)]
    if ratings:
        candidate["safetyRatings"] = copy_json(ratings)


def _grounding_from_last_entry(candidate: JSONObject, entries: list[JSONObject]) -> None:
    """Grounding is whatever the candidate's latest entry sent, whole; absence included."""
    grounding = entries[-1].get("groundingMetadata")
    if isinstance(grounding, dict):
        candidate["groundingMetadata"] = copy_json(grounding)
    else:
        candidate.pop("groundingMetadata", None)


def _reads_known_part_fields(part: JSON, last: LastPart) -> JSON | None:
    """A part is read through a fixed list of fields: other keys are dropped, and a part
    left with none folds to nothing (a text part stripped of one becomes plain text)."""
    if isinstance(part, dict):
        return {key: value for key, value in part.items() if key in _PART_FIELDS}
    return part


def _drops_file_data(part: JSON, last: LastPart) -> JSON | None:
    """A `fileData` part is not read."""
    return None if isinstance(part, dict) and "fileData" in part else part


def _keeps_call_fragments(chunks: list[JSON]) -> JSONObject:
    """`partialArgs` and `willContinue` are not read: every functionCall part is kept as
    sent, the reference folding it as a part of no kind it knows (under a key no part of
    the stream has), so streamed fragments are never assembled."""
    keys = {key for chunk in chunks for part in _parts_sent(chunk) for key in part}
    hidden = "refold:kept whole"
    while hidden in keys:
        hidden += "'"

    def hide(part: JSON, last: LastPart) -> JSON | None:
        if isinstance(part, dict) and isinstance(part.get("functionCall"), dict):
            return {hidden: part}
        return part

    folded = parts_rewritten(hide)(chunks)
    for candidate in folded.get("candidates", []):
        content = candidate.get("content")
        if isinstance(content, dict) and isinstance(content.get("parts"), list):
            content["parts"] = [
                p[hidden] if isinstance(p, dict) and hidden in p else p for p in content["parts"]
            ]
    return folded


def _parts_sent(chunk: JSON) -> list[JSONObject]:
    """Every object part of every object entry of a chunk."""
    candidates = chunk.get("candidates") if isinstance(chunk, dict) else None
    found: list[JSONObject] = []
    for entry in candidates if isinstance(candidates, list) else []:
        content = entry.get("content") if isinstance(entry, dict) else None
        parts = content.get("parts") if isinstance(content, dict) else None
        found += [p for p in (parts if isinstance(parts, list) else []) if isinstance(p, dict)]
    return found


_LANGCHAIN = ("langchain-google-genai 4.4.3", "langchain-core 1.8.3")
_AI_SDK = "@ai-sdk/google 3.0.141"
_GENAI = "google-genai 2.34.0"
GEMINI_POLICIES: tuple[Policy, ...] = (
    Policy(
        "keeps the highest usage count per key",
        ("GM-USAGE-LAST",),
        _LANGCHAIN,
        _keeps_highest_usage,
        "gemini_keeps_highest_usage",
    ),
    Policy(
        "reads the first candidate entry as candidate 0",
        ("GM-CAND-INDEX", "GM-CAND-ORDER", "GM-LIFE-TRUNCATED", "GM-ROB-NULL-ENTRIES"),
        (_AI_SDK, "langchain-google-genai 4.4.3", "pydantic-ai 2.68.0", _GENAI),
        chunks_rewritten(_first_entry_as_candidate_zero),
        "gemini_first_entry_is_candidate_zero",
    ),
    Policy(
        "a function call does not close the text run before it",
        ("GM-TEXT-JOIN", "GM-SIGNATURE"),
        (_AI_SDK,),
        candidates_rewritten(_in_parts(_text_joins_across_calls)),
        "gemini_text_joins_across_calls",
    ),
    Policy(
        "a signed run takes more text and concatenates signatures",
        ("GM-TEXT-JOIN", "GM-SIGNATURE"),
        _LANGCHAIN,
        candidates_rewritten(_in_parts(_signed_runs_take_more(lambda a, b: a + b))),
        "gemini_concatenates_signatures",
    ),
    Policy(
        "a signed run takes more text and keeps the last signature",
        ("GM-TEXT-JOIN", "GM-SIGNATURE"),
        (_AI_SDK,),
        candidates_rewritten(_in_parts(_signed_runs_take_more(lambda _, b: b))),
        "gemini_overwrites_signatures",
    ),
    Policy(
        "drops an empty signed text part unless an answer run is open",
        ("GM-SIGNATURE",),
        (_AI_SDK,),
        parts_rewritten(_drops_lone_signature),
        "gemini_drops_lone_signature",
    ),
    Policy(
        "concatenates repeated finish reasons",
        ("GM-FINISH",),
        _LANGCHAIN,
        candidates_rewritten(_concatenates_finish_reasons),
        "gemini_concatenates_finish_reason",
    ),
    Policy(
        "appends safety ratings chunk after chunk",
        ("GM-SAFETY",),
        _LANGCHAIN,
        candidates_rewritten(_appends_safety_ratings),
        "gemini_appends_safety_ratings",
    ),
    Policy(
        "takes grounding from the candidate's last chunk",
        ("GM-GROUNDING",),
        ("@ai-sdk/google before vercel/ai#13123", "litellm (BerriAI/litellm#10237)"),
        candidates_rewritten(_grounding_from_last_entry),
        "gemini_grounding_from_last_chunk",
    ),
    Policy(
        "reads parts through a fixed list of fields",
        ("GM-TEXT-JOIN", "GM-PART-OTHER", "GM-UNKNOWN-KEYS"),
        (_GENAI,),
        parts_rewritten(_reads_known_part_fields),
        "gemini_drops_unknown_parts",
    ),
    Policy(
        "keeps streamed call fragments as separate calls",
        ("GM-CALL-STREAMED", "GM-CALL-PARTIAL-ARGS"),
        ("langchain-google-genai 4.4.3", "pydantic-ai 2.68.0", _GENAI),
        _keeps_call_fragments,
        "gemini_keeps_argument_fragments",
    ),
    Policy(
        "drops fileData parts",
        ("GM-INLINE",),
        (_AI_SDK,),
        parts_rewritten(_drops_file_data),
        "gemini_drops_file_data",
    ),
)
"""The Gemini policies, one per broken Gemini accumulator of `examples/broken/`."""
