"""The documented grammar of a Gemini `streamGenerateContent` stream, as data.

Only what Google's pages say: each chunk is a whole `GenerateContentResponse`; a candidate
has stopped when it carries a `finishReason` ("If empty, the model has not stopped
generating tokens"), so at most one chunk finishes it and nothing follows for it, and every
candidate of a finished stream has one; `index` is the candidate's index in the list of
candidates; `promptFeedback` comes on the first chunk. Which keys a chunk holds is the
vendored schema's business.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from refold.reference import JSON
from refold.verdicts.shapes import GrammarLine, Violation

from ._chunks import entries, index_of, parts_of

__all__ = ["API", "GRAMMAR", "VERTEX"]

API = "https://ai.google.dev/api/generate-content"
VERTEX = "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/GenerateContentResponse"


def _whole_responses(items: Sequence[JSON]) -> Iterator[Violation]:
    for number, item in enumerate(items):
        if not isinstance(item, dict) or "error" in item:
            yield Violation(number, "", "not a GenerateContentResponse")


def _finished_once(items: Sequence[JSON]) -> Iterator[Violation]:
    finished: set[int] = set()
    for number, entry in entries(items):
        index = index_of(entry)
        if index in finished and (parts_of(entry) or "finishReason" in entry):
            yield Violation(number, "/candidates", f"candidate {index} after its finishReason")
        if entry.get("finishReason") is not None:
            finished.add(index)


def _every_candidate_finishes(items: Sequence[JSON]) -> Iterator[Violation]:
    seen: dict[int, int] = {}
    finished: set[int] = set()
    for number, entry in entries(items):
        index = index_of(entry)
        seen[index] = number
        if entry.get("finishReason") is not None:
            finished.add(index)
    for index, number in seen.items():
        if index not in finished:
            yield Violation(number, "/candidates", f"candidate {index} never finishes")


def _indexes_listed(items: Sequence[JSON]) -> Iterator[Violation]:
    indexes = {index_of(entry) for _, entry in entries(items)}
    if indexes and indexes != set(range(len(indexes))):
        for number, entry in entries(items):
            index = index_of(entry)
            if index >= len(indexes):
                yield Violation(number, "/candidates", f"candidate index {index} outside the list")


def _feedback_first(items: Sequence[JSON]) -> Iterator[Violation]:
    for number, item in enumerate(items):
        if number > 0 and isinstance(item, dict) and "promptFeedback" in item:
            yield Violation(number, "/promptFeedback", "promptFeedback after the first chunk")


GRAMMAR: tuple[GrammarLine, ...] = (
    GrammarLine(
        "streamGenerateContent returns a stream of GenerateContentResponse instances",
        f"{API}#method:-models.streamgeneratecontent",
        _whole_responses,
    ),
    GrammarLine(
        "finishReason: the reason why the model stopped generating tokens; if empty, the "
        "model has not stopped generating tokens",
        f"{API}#candidate",
        _finished_once,
    ),
    GrammarLine(
        "finishReason: if empty, the model has not stopped generating tokens",
        f"{API}#candidate",
        _every_candidate_finishes,
    ),
    GrammarLine(
        "index: index of the candidate in the list of response candidates",
        f"{API}#candidate",
        _indexes_listed,
    ),
    GrammarLine(
        "prompt_feedback: only populated in the first response of a stream",
        f"{VERTEX} (promptFeedback)",
        _feedback_first,
    ),
)
"""Each line Google states about the order of a stream's chunks, with its page."""
