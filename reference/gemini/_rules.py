"""The GM rules registry: every rule id of the gemini-fold spec, its feature, its statement.

Same form as the other dialects' registries: ids are the stable keys that suites, reports
and baselines use, `GM-` prefixed so that they never collide with another dialect's ids.
"""

from __future__ import annotations

from .._rules import Rule

__all__ = ["FEATURES", "RULES"]

FEATURES: tuple[str, ...] = (
    "text",
    "candidates",
    "thinking",
    "tool_calls",
    "streamed_arguments",
    "code_execution",
    "media",
    "safety",
    "citations",
    "grounding",
    "usage",
    "robustness",
    "lifecycle",
    "sse",
)
"""The spec's closed feature vocabulary, in the spec's order. `text` is required of every target."""

_TABLE: tuple[tuple[str, str, str], ...] = (
    # Envelope
    (
        "GM-ENV-SNAPSHOT",
        "text",
        "Every top-level key but candidates, usageMetadata, promptFeedback and error takes the "
        "last non-null value any chunk sent, whole; absence or null never erases it.",
    ),
    (
        "GM-ENV-ID",
        "text",
        "modelVersion and responseId take the last non-blank string any chunk sent; a blank one "
        "never erases it.",
    ),
    ("GM-ENV-NO-ERROR", "text", "A chunk's `error` member is never copied into the response."),
    # Candidates
    (
        "GM-CAND-INDEX",
        "text",
        "A candidate entry belongs to the candidate its `index` names; an absent index, or one "
        "that is not a non-negative integer, is 0.",
    ),
    (
        "GM-CAND-ORDER",
        "candidates",
        "Output candidates are sorted by index (gaps closed up), each carries its `index`, and "
        "the parts of different candidates never mix.",
    ),
    (
        "GM-CAND-NONE",
        "text",
        "The response has a `candidates` key only when some chunk carried a candidate object "
        "(a blocked prompt streams none).",
    ),
    (
        "GM-CAND-KEYS",
        "text",
        "Every other candidate key (finishMessage, tokenCount, avgLogprobs, logprobsResult, "
        "urlContextMetadata, continuationToken, unknown keys) takes its last non-null value, "
        "whole.",
    ),
    (
        "GM-FINISH",
        "text",
        "finishReason is the last non-blank value sent for the candidate, verbatim, never mapped.",
    ),
    # Content and parts
    (
        "GM-ROLE",
        "text",
        'content.role is the first non-blank role ("model" when none); `content` exists only when '
        "a chunk carried a content object; its other keys take their last non-null value.",
    ),
    (
        "GM-TEXT-JOIN",
        "text",
        "A plain text part joins the candidate's previous part when that is an unsigned plain "
        "text run of the same kind; otherwise it starts a new part.",
    ),
    (
        "GM-TEXT-EMPTY",
        "text",
        'A plain text part whose text is "" and that has no signature carries nothing and is '
        "dropped.",
    ),
    (
        "GM-THOUGHT-APART",
        "thinking",
        "A thought part (`thought: true`) joins only a thought run and an answer part only an "
        "answer run; the run keeps `thought: true`.",
    ),
    (
        "GM-SIGNATURE",
        "thinking",
        "A thoughtSignature stays on the part it came with; a signed fragment joins a run, puts "
        "its signature on it and closes it; a signed run takes no further fragment.",
    ),
    (
        "GM-CALL-WHOLE",
        "tool_calls",
        "A functionCall part is kept whole, as sent, as its own part in arrival order; it never "
        "joins another part.",
    ),
    (
        "GM-CALL-ID",
        "tool_calls",
        "A functionCall `id` is kept verbatim where the backend sent one; the fold never invents "
        "one.",
    ),
    (
        "GM-CALL-STREAMED",
        "streamed_arguments",
        "A functionCall with willContinue: true opens a streamed call; nameless functionCall "
        "parts continue it; one without willContinue ends it; it folds into one part.",
    ),
    (
        "GM-CALL-PARTIAL-ARGS",
        "streamed_arguments",
        "A streamed call's args are built from its partialArgs at their jsonPath; continued "
        "string values concatenate; partialArgs and willContinue are not kept.",
    ),
    (
        "GM-CODE",
        "code_execution",
        "executableCode and codeExecutionResult parts are kept whole, each its own part, in "
        "arrival order.",
    ),
    (
        "GM-INLINE",
        "media",
        "inlineData and fileData parts are kept whole, each its own part; their data is never "
        "concatenated.",
    ),
    (
        "GM-PART-OTHER",
        "text",
        "Any other part (functionResponse, toolCall, unknown kinds, text parts with extra keys) "
        "is kept as sent, in place; a part with no non-null value is skipped.",
    ),
    # Candidate metadata
    (
        "GM-SAFETY",
        "safety",
        "safetyRatings merge by category: a later rating of a category replaces the earlier one "
        "in place; new categories are appended.",
    ),
    (
        "GM-CITATIONS",
        "citations",
        "citationMetadata's citationSources and citations lists are the union of every chunk's "
        "entries in arrival order, an entry equal to a kept one not repeated.",
    ),
    (
        "GM-GROUNDING",
        "grounding",
        "groundingMetadata merges per key: a later non-null value of a key replaces it whole; a "
        "key a later chunk omits is kept.",
    ),
    (
        "GM-PROMPT-FEEDBACK",
        "safety",
        "promptFeedback is the last promptFeedback object any chunk sent, whole.",
    ),
    # Usage
    (
        "GM-USAGE-LAST",
        "usage",
        "usageMetadata is the last usageMetadata object sent, replaced whole: never summed, "
        "never maxed (it can go down); absent when none arrived.",
    ),
    # Lifecycle
    (
        "GM-LIFE-EMPTY",
        "lifecycle",
        "Reading the response before any chunk was folded raises a documented error.",
    ),
    (
        "GM-LIFE-SNAPSHOT",
        "lifecycle",
        "Every read builds a new response; later chunks never change one handed out, and the "
        "chunks given are never mutated.",
    ),
    (
        "GM-LIFE-FINISHED",
        "lifecycle",
        "Finished once every candidate (at least one) has a finishReason, or promptFeedback has "
        "a blockReason, and no error chunk came.",
    ),
    (
        "GM-LIFE-ERROR",
        "lifecycle",
        "A chunk with a non-null `error` is recorded (readable, never copied), is terminal, and "
        "leaves the partial response readable.",
    ),
    (
        "GM-LIFE-TRUNCATED",
        "lifecycle",
        "A stream that ends before every candidate finished is not finished; the partial "
        "response is readable.",
    ),
    (
        "GM-LIFE-AFTER-FINISH",
        "lifecycle",
        "Chunks after the fold finished are still folded (a trailing usage-only chunk).",
    ),
    # Robustness
    (
        "GM-ROB-NOT-OBJECT",
        "robustness",
        "A chunk that is not a JSON object is refused with an error naming the chunk number, "
        "pointer and what was received; the fold is unchanged.",
    ),
    (
        "GM-ROB-WRONG-TYPE",
        "robustness",
        "A field of the wrong JSON type is treated as absent; the fold never raises on a JSON "
        "object.",
    ),
    (
        "GM-ROB-NULL-ENTRIES",
        "robustness",
        "Null and non-object entries of candidates, parts, safetyRatings, the citation lists "
        "and partialArgs are skipped.",
    ),
    (
        "GM-UNKNOWN-KEYS",
        "robustness",
        "Unknown keys are kept where they arrive: in the response, a candidate, content or a "
        "part; none is dropped or renamed.",
    ),
    # Wire
    (
        "GM-WIRE-SSE",
        "sse",
        "With alt=sse each event's data is one chunk; event names are ignored, empty data is "
        "skipped, there is no terminal sentinel.",
    ),
    (
        "GM-WIRE-ARRAY",
        "sse",
        "Without alt=sse the body is one JSON array; each element is a chunk, handed out once "
        "complete; a bare object body is one chunk.",
    ),
)

RULES: dict[str, Rule] = {row[0]: Rule(*row) for row in _TABLE}
"""Every GM rule of the spec by id, in the spec's order."""
