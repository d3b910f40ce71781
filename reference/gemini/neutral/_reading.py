"""What the checker reads of a Gemini `streamGenerateContent` stream (gemini-fold.md,
"Provider-neutral events").

The chunks are folded once by the Gemini reference fold; after each chunk candidate 0's
call parts that the fold holds final (every one but a Vertex streamed call still open,
GM-CALL-STREAMED) are judged once: a name (EV-CALL-STARTED), an id of their own, the
backend's or the positional one (EV-IDS-SINGLE-USE), arguments that are an object
(EV-ARGS-INVALID). The stream ends at the first error chunk (EV-ERROR-FRAME, GM-LIFE-ERROR),
or at the end of the body: completed when the fold is finished (GM-LIFE-FINISHED: no
sentinel, the finish reason is the terminal), truncated otherwise (EV-TRUNCATED). A
streamed call still open then is judged at the end of the body.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..._json import JSON, JSONObject, non_blank, non_negative_int, object_or_none
from ..._neutral.ends import StreamEnd
from ..._neutral.source import Analysis, Source, View, arrived
from .. import Accumulator, GeminiChunkTypeError, NoResponseError, differences

__all__ = ["SOURCE", "GeminiRead", "read_gemini"]

_FILTERS = frozenset(
    {
        "SAFETY",
        "RECITATION",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
        "IMAGE_SAFETY",
        "IMAGE_PROHIBITED_CONTENT",
        "IMAGE_RECITATION",
    }
)
_STOPS = {"STOP": "end_turn", "MAX_TOKENS": "max_tokens"}


@dataclass(frozen=True)
class GeminiRead:
    """A Gemini stream read once: its end, the response, the order calls completed."""

    end: StreamEnd
    folded: JSONObject | None
    order: list[str]
    several: bool


def _candidate_zero(response: JSONObject) -> JSONObject:
    for candidate in response.get("candidates") or []:
        if isinstance(candidate, dict) and candidate.get("index") == 0:
            return candidate
    return {}


def _parts(response: JSONObject) -> list[JSONObject]:
    content = object_or_none(_candidate_zero(response).get("content")) or {}
    return [part for part in content.get("parts") or [] if isinstance(part, dict)]


def _call_id(call: JSONObject, ordinal: int) -> str:
    """The backend's id, else the positional one of a call sent without (Vertex v1)."""
    return non_blank(call.get("id")) or f"gemini-call-{ordinal}"


def _arguments(call: JSONObject) -> JSON:
    args = call.get("args")
    return {} if args is None else args


def gemini_view(response: JSONObject) -> tuple[JSON, JSON, str, list[JSONObject], str]:
    """(model, id, output_text, tool_calls, stop_reason) of a response (EV-FOLD-AGREES,
    EV-TURN-FIELDS, EV-STOP-MAP): candidate 0's text parts that are neither thought nor
    call, its call parts, its finish reason (else a blocked prompt's block reason)."""
    text: list[str] = []
    calls: list[JSONObject] = []
    for part in _parts(response):
        call = part.get("functionCall")
        if isinstance(call, dict):
            calls.append(
                {
                    "id": _call_id(call, len(calls)),
                    "name": call.get("name"),
                    "arguments": _arguments(call),
                }
            )
        elif isinstance(part.get("text"), str) and part.get("thought") is not True:
            text.append(part["text"])
    reason = non_blank(_candidate_zero(response).get("finishReason"))
    if reason is None:
        feedback = object_or_none(response.get("promptFeedback")) or {}
        reason = non_blank(feedback.get("blockReason"))
    stop = _STOPS.get(reason or "") or ("content_filter" if reason in _FILTERS else "other")
    return response.get("modelVersion"), response.get("responseId"), "".join(text), calls, stop


def gemini_output_tokens(frame: JSON) -> int | None:
    """The output tokens a chunk's own usageMetadata reports: candidates and thoughts
    (EV-USAGE-MONOTONE; a fall the chunks make, GMD-USAGE-DOWN, is theirs)."""
    usage = object_or_none(frame.get("usageMetadata")) if isinstance(frame, dict) else None
    counts = [
        non_negative_int((usage or {}).get(key))
        for key in ("candidatesTokenCount", "thoughtsTokenCount")
    ]
    reported = [count for count in counts if count is not None]
    return sum(reported) if reported else None


@dataclass
class _Calls:
    judged: set[int] = field(default_factory=set)
    order: list[str] = field(default_factory=list)

    def judge(
        self, response: JSONObject, open_at: int | None, number: int | None, cover: int
    ) -> StreamEnd | None:
        """Judge every final call part not judged yet, in part order."""
        ordinal = -1
        for at, part in enumerate(_parts(response)):
            call = part.get("functionCall")
            if not isinstance(call, dict):
                continue
            ordinal += 1
            if at in self.judged or at == open_at:
                continue
            self.judged.add(at)
            call_id = _call_id(call, ordinal)
            if non_blank(call.get("name")) is None:
                return StreamEnd("unsupported", number, cover, None, "EV-CALL-STARTED")
            if call_id in self.order:
                return StreamEnd("unsupported", number, cover, call_id, "EV-IDS-SINGLE-USE")
            if not isinstance(_arguments(call), dict):
                return StreamEnd("invalid_tool_arguments", number, cover, call_id)
            self.order.append(call_id)
        return None


def _several(frame: JSONObject) -> bool:
    entries = frame.get("candidates")
    return isinstance(entries, list) and any(
        isinstance(e, dict) and (non_negative_int(e.get("index")) or 0) > 0 for e in entries
    )


def read_gemini(frames: Sequence[JSON]) -> GeminiRead:
    """Fold `frames` with the Gemini reference and read how they end."""
    fold, calls = Accumulator(), _Calls()
    end: StreamEnd | None = None
    several = False
    for number, frame in enumerate(frames):
        try:
            fold.add(frame)
        except GeminiChunkTypeError:
            continue  # GM-ROB-NOT-OBJECT: refused, the fold unchanged
        if fold.error is not None:
            end = StreamEnd("provider_error", number, number + 1)
            break
        assert isinstance(frame, dict)
        several = several or _several(frame)
        end = calls.judge(fold.response(), fold.open_call(0), number, number)
        if end is not None:
            break
    if end is None and fold.finished:
        end = calls.judge(fold.response(), None, None, len(frames)) or StreamEnd(
            "completed", None, len(frames)
        )
    if end is None:
        end = StreamEnd("truncated", None, len(frames))
    try:
        folded: JSONObject | None = fold.response()
    except NoResponseError:
        folded = None  # GM-LIFE-EMPTY: nothing to fold
    return GeminiRead(end, folded, calls.order, several)


def _analyse(frames: Sequence[JSON]) -> Analysis:
    read = read_gemini(frames)
    folded = read.folded
    return Analysis(
        read.end,
        folded,
        arrived(_view(folded) if folded is not None else None, read.order, None),
        several_choices=read.several,
    )


def _view(response: JSONObject) -> View:
    return View(*gemini_view(response))


SOURCE = Source(
    analyse=_analyse,
    view=_view,
    differences=differences,
    output_tokens=gemini_output_tokens,
    typed_frames=False,  # Gemini sends no event names
)
"""How the checker reads a `gemini-generate-content` stream."""
