"""Which GM rules a difference is evidence against, from where it is in the response.

The dialect charges with the reference's table (`refold.reference.gemini.rules_at`,
gemini-fold.md "Pointer → rule attribution"), as the chat dialect does with its own: a
JSON pointer of a folded `GenerateContentResponse` is mapped to the rules that decide the
value there, a top-level place the table does not name to `OUTSIDE_THE_SHAPE`, and the
rules about reading a chunk whatever its fields (`POINTERLESS`) own no pointer. What the
harness adds is `PLACES`: a place of every row, which a stated projection is judged
against.
"""

from __future__ import annotations

from refold.reference.gemini import OUTSIDE_THE_SHAPE, POINTERLESS, rules_at

__all__ = ["OUTSIDE_THE_SHAPE", "PLACES", "POINTERLESS", "rules_at"]

PLACES: tuple[str, ...] = (
    "/candidates",
    "/candidates/0",
    "/candidates/0/index",
    "/candidates/0/finishReason",
    "/candidates/0/content",
    "/candidates/0/content/role",
    "/candidates/0/content/parts",
    "/candidates/0/content/parts/0",
    "/candidates/0/content/parts/0/text",
    "/candidates/0/content/parts/0/thought",
    "/candidates/0/content/parts/0/thoughtSignature",
    "/candidates/0/content/parts/0/functionCall/id",
    "/candidates/0/content/parts/0/functionCall/args",
    "/candidates/0/content/parts/0/functionCall/args/city",
    "/candidates/0/content/parts/0/functionCall/willContinue",
    "/candidates/0/content/parts/0/functionCall/partialArgs/0",
    "/candidates/0/content/parts/0/functionCall",
    "/candidates/0/content/parts/0/functionCall/name",
    "/candidates/0/content/parts/0/executableCode",
    "/candidates/0/content/parts/0/codeExecutionResult/output",
    "/candidates/0/content/parts/0/inlineData",
    "/candidates/0/content/parts/0/fileData/fileUri",
    "/candidates/0/content/parts/0/key",
    "/candidates/0/content/key",
    "/candidates/0/safetyRatings",
    "/candidates/0/safetyRatings/0",
    "/candidates/0/citationMetadata",
    "/candidates/0/citationMetadata/citationSources/0",
    "/candidates/0/groundingMetadata",
    "/candidates/0/groundingMetadata/webSearchQueries",
    "/candidates/0/key",
    "/usageMetadata",
    "/usageMetadata/promptTokenCount",
    "/promptFeedback",
    "/promptFeedback/blockReason",
    "/modelVersion",
    "/responseId",
    "/error",
    "/error/code",
    "/key",
)
"""A place of every row of the table (and of each alternative), and `/key`, one it does
not name (`Dialect.places`: what a stated projection is judged against)."""
