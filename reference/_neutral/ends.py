"""How the frames of a stream end, call by call: the outcome a faithful adapter must give.

The dialect folds decide what each frame does to the calls; these trackers read the
calls after each frame and tell where the frames stop admitting a completed turn:
arguments that are not an object at a call's boundary (EV-ARGS-INVALID), a call no
ToolCallStarted can announce (no id or name, or an id already used: EV-CALL-STARTED,
EV-IDS-SINGLE-USE, outcome `unsupported`), a call changed after it completed
(EV-NO-DELTA-AFTER-COMPLETED: EV-ARGS-DELTA would need a delta it forbids, outcome
`inconsistent_tool_arguments`). Each `StreamEnd` names the rule charged when an adapter
gives another outcome.

Decision (Chat calls opened after choice 0's last finish reason, chat-fold split family
8): the frames are not truncated, since choice 0 has a finish reason (EV-TRUNCATED's own
test); such calls complete at `[DONE]` or at the end of the body, before Completed, so
their arguments are judged there (see `_chat`, where the reference applies it).

Decision (EV-FOLD-AGREES vs EV-TEXT-CONSERVE and EV-FRAME-ORDER, for Anthropic blocks that
arrive out of index order, or Chat calls completed at different finish frames): the fold
lists text blocks and calls by index, but TextDelta and ToolCallCompleted events follow
the frames (no look-ahead), and T is their fold (EV-TEXT-CONSERVE, PERSIST-PORTABLE), so
no adapter can reorder them. "The fold's public text" and "the fold's calls" are read in
the order the frames give them: text in the order it arrived (`TextArrival`), calls in the
order they reached their boundary (the `order` of the trackers). On every stream whose
blocks come in index order (all Anthropic sends, every lossless family) the two readings
are one.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._arguments import parse_complete
from .._json import JSONObject

__all__ = ["StreamEnd", "arguments_value"]


@dataclass(frozen=True)
class StreamEnd:
    """How the frames end: the outcome they call for and the frame that decides it.

    `kind` is `completed` or an error kind of the protocol (`truncated`, `provider_error`,
    `invalid_tool_arguments`, `unsupported`, `inconsistent_tool_arguments`); `frame` is
    the deciding frame (None: the end of the body); frames before `cover` must each
    produce an event (EV-FRAME-COVER); `rule` is the rule charged for another outcome
    (None: the kind's own, `_frames._KIND_RULES`)."""

    kind: str
    frame: int | None
    cover: int
    bad_call: str | None = None
    rule: str | None = None


def arguments_value(text: str) -> JSONObject | None:
    """The object that joined argument text stands for: `""` is `{}` (EV-ARGS-EMPTY-OBJECT),
    otherwise the complete object (chat-fold: JSON whitespace around it allowed), or None.

    Only `""` is `{}`: arguments of JSON whitespace alone do not parse, so they are
    EV-ARGS-INVALID ("unparseable -> error", §4.1 and §4.3), in both dialects (see
    `_anthropic` for the Anthropic fold's own "empty")."""
    if text == "":
        return {}
    return parse_complete(text)
