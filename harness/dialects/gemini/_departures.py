"""The registered departures of a Gemini stream from its documented shape
(docs/spec/gemini-fold.md, "Stream shapes"; research/gemini-fold.md Rn).

`observed` ones name who sends them and where that is shown (the sources of the split
families 2 and 5-8 in `refold.strategies.gemini`); `synthetic` ones are the damage the
strategies draw that no provider is known to send. Each has one detector. The streamed
call fragments (GMD-STREAMED-ARGS) are documented by Vertex, and a call without `args`
(the spec's GMD-NO-ARGS-CALL) is too (`FunctionCall.args` is "Optional" in the API
reference, and the strategies' documented responses draw it): neither is a departure.
Nor is the spec's GMD-SECOND-SIGNATURE: a signed run takes no
further fragment (GM-SIGNATURE), so a signed fragment after one starts a new run, which a
documented response holds too; the stream alone cannot tell the two apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from refold.reference import JSON
from refold.verdicts.departure_kinds import observed, synthetic
from refold.verdicts.shapes import Departure
from refold.verdicts.wire_shapes import FrameKind

from . import _detectors as found

__all__ = ["DEPARTURES", "DETECTORS", "WIRE"]

_Detector = Callable[[Sequence[JSON]], Iterable[int]]


_REGISTRY: tuple[tuple[Departure, _Detector], ...] = (
    (
        observed(
            "GMD-VERTEX-NO-INDEX",
            "candidates without `index`",
            "Vertex AI on every chunk (proto3 omits 0): research/gemini-fold.md R3",
        ),
        found.no_index,
    ),
    (
        observed(
            "GMD-VERTEX-USAGE-TRAFFIC",
            "early chunks with `usageMetadata: {trafficType}` only",
            "Vertex AI: research/gemini-fold.md R3, R9",
        ),
        found.traffic_only_usage,
    ),
    (
        observed(
            "GMD-EMPTY-TEXT",
            '`{"text": ""}` parts, alone or with a `thoughtSignature`',
            "Gemini API and Vertex finish chunks (Gemini 2.5/3): research/gemini-fold.md R4, R5",
        ),
        found.empty_text,
    ),
    (
        observed(
            "GMD-SIGNATURE-SPLIT",
            "a signature on a part of its own after the text it signs",
            "Gemini 3 text answers; Code Assist's empty thought part: research/gemini-fold.md R5",
        ),
        found.signature_split,
    ),
    (
        observed(
            "GMD-USAGE-DOWN",
            "an earlier usage count above the last one",
            "Gemini image models, thoughtsTokenCount 244 -> 167: research/gemini-fold.md R9",
        ),
        found.usage_down,
    ),
    (
        observed(
            "GMD-TRAILING-USAGE",
            "a usage-only chunk without candidates after the finish chunk",
            "laravel/ai PR #912; research/gemini-fold.md R7",
        ),
        found.trailing_usage,
    ),
    (
        observed(
            "GMD-GROUNDING-EARLY",
            "`groundingMetadata` on an early chunk and not on the finish chunk",
            "gemini-3.1-flash-image-preview, vercel/ai PR #13123: research/gemini-fold.md R8",
        ),
        found.early_grounding,
    ),
    (
        observed(
            "GMD-GROUNDING-RESENT",
            "`groundingMetadata` keys sent again on a later chunk",
            'langchainjs PR #11456: "Later chunks win, since Gemini resends the accumulated '
            'metadata": research/gemini-fold.md R8',
        ),
        found.grounding_resent,
    ),
    (
        observed(
            "GMD-METADATA-EARLY",
            "safety ratings, citations or other candidate keys on chunks before the finish",
            "Gemini 1.x full safetyRatings on every chunk: research/gemini-fold.md R8 "
            "(split family 5's source)",
        ),
        found.early_metadata,
    ),
    (
        observed(
            "GMD-FINISH-EVERY-CHUNK",
            "the finish reason on every chunk of a candidate, its text going on after the first",
            "gemini-pro on the Gemini API, 2024: every chunk of the REST streaming quickstart's "
            "output says finishReason STOP (google-gemini/cookbook "
            "quickstarts/rest/Streaming_REST.ipynb at 053bfa4f; the starter corpus's "
            "gemini-text)",
        ),
        found.finish_every_chunk,
    ),
    (
        observed(
            "GMD-ERROR-CHUNK",
            'an `{"error": …}` chunk mid-stream with HTTP 200',
            "Vertex AI (litellm `_check_streaming_error`): research/gemini-fold.md R1",
        ),
        found.error_chunk,
    ),
    (
        synthetic("GMD-WRONG-TYPE", "a field of the wrong JSON type or a blank value"),
        found.wrong_type,
    ),
    (synthetic("GMD-NOT-OBJECT", "a chunk that is not a JSON object"), found.not_object),
    (synthetic("GMD-NULL-ENTRY", "a null or non-object entry in a list"), found.null_entry),
    (
        synthetic("GMD-UNKNOWN-PART", "a part with a key no page of Google's names"),
        found.unknown_part,
    ),
    (synthetic("GMD-INDEX-GAP", "candidate indexes with gaps"), found.index_gap),
    (
        synthetic("GMD-AFTER-FINISH-CONTENT", "parts for a candidate after its finish chunk"),
        found.content_after_finish,
    ),
    (synthetic("GMD-AFTER-ERROR", "chunks after an error chunk"), found.after_error),
    (synthetic("GMD-CUT", "the stream ends before every candidate finished"), found.cut),
    (
        synthetic("GMD-ARGS-MISMATCH", "streamed pieces with unreadable paths"),
        found.args_mismatch,
    ),
)

_CRLF = observed(
    "GMD-WIRE-CRLF",
    "`alt=sse` lines ended by CR LF",
    'Gemini API: RightNow-AI/openfang PR #723 ("Gemini returns \\r\\n\\r\\n"), and '
    "@google/genai's `processStreamResponse` splits frames on `\\r\\n\\r\\n` as well as "
    "`\\n\\n` (@google/genai 2.32.0, `dist/node/index.cjs`)",
)
_FRAMING = synthetic(
    "GMD-WIRE-FRAMING",
    "framing the docs never show: SSE comments, event names, other fields, JSON over "
    "several `data:` lines, bare CR or mixed line ends, empty or non-JSON data, a BOM; "
    "an array body with empty elements",
)
_WIRE_DEPARTURES = (_CRLF, _FRAMING)

WIRE: Mapping[FrameKind, str] = {
    "crlf": _CRLF.id,
    **dict.fromkeys(("unnamed", "empty", "misnamed", "framing", "not-json"), _FRAMING.id),
}
"""The departure of each kind of framing departure (`refold.verdicts.wire_shapes`, read
by `framing.wire_departures`: unnamed SSE frames, or the array body)."""

DEPARTURES: Mapping[str, Departure] = {
    **{d.id: d for d, _ in _REGISTRY},
    **{d.id: d for d in _WIRE_DEPARTURES},
}
"""Every registered departure, by id, in the order they are shown (those of the bytes
last: they have no detector of chunks)."""
DETECTORS: Mapping[str, _Detector] = {d.id: detect for d, detect in _REGISTRY}
"""A detector per departure id."""
