"""The event checker: every rule an adapter's output breaks, as a list of violations.

`check_events` is sans-IO and total: plain JSON in (the frames of one stream, the events
an adapter emitted for them, its outcome and what its runtime persists), a list of
`Violation` out, empty when the output keeps every rule checked. It never stops at the
first violation and never raises on any JSON the adapter sent; like LangChain's
`assert_valid_event_stream`, it is usable outside pytest.

`CHECKS` is the one table of checks, in the order of events.md (§2, §3, §4.1): each row
is a rule id and the function named after it. Rules without a row cannot be told from one
stream's output (see `UNCHECKED`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from ..._json import JSON
from ._check_calls import (
    ev_args_conserve,
    ev_args_parsed,
    ev_call_identity,
    ev_call_started,
    ev_completed_last,
    ev_grammar,
    ev_ids_single_use,
    ev_no_completed_on_error,
    ev_no_delta_after_completed,
    ev_no_empty_delta,
    ev_started_completed,
    ev_text_conserve,
    ev_turn_calls,
    ev_usage_last,
    ev_usage_monotone,
    ev_usage_unreported,
)
from ._check_turn import ev_fold_agrees, ev_stop_map, ev_stop_tool, ev_turn_fields, ev_turn_opaque
from ._context import Ops, Stream, check_emitted, make_stream
from ._dialects import DIALECTS
from ._frames import (
    ev_args_invalid,
    ev_chat_complete_at_finish,
    ev_chat_done,
    ev_chat_eof,
    ev_choice0,
    ev_error_frame,
    ev_frame_cover,
    ev_frame_order,
    ev_nothing_after_error,
    ev_opaque_frame,
    ev_opaque_type,
    ev_truncated,
)
from ._persistence import (
    persist_canary,
    persist_idempotent,
    persist_no_semantics,
    persist_portable,
    persist_response_id,
    persist_strip,
)
from ._violation import Violation

__all__ = ["CHECKED_RULES", "CHECKS", "EMITTED_CHECKS", "UNCHECKED", "check_events", "unchecked"]

Check = Callable[[Stream], Iterator[Violation]]

CHECKS: tuple[tuple[str, Check], ...] = (
    ("EV-GRAMMAR", ev_grammar),
    ("EV-COMPLETED-LAST", ev_completed_last),
    ("EV-NO-COMPLETED-ON-ERROR", ev_no_completed_on_error),
    ("EV-FRAME-ORDER", ev_frame_order),
    ("EV-OPAQUE-FRAME", ev_opaque_frame),
    ("EV-FRAME-COVER", ev_frame_cover),
    ("EV-OPAQUE-TYPE", ev_opaque_type),
    ("EV-NO-EMPTY-DELTA", ev_no_empty_delta),
    ("EV-TEXT-CONSERVE", ev_text_conserve),
    ("EV-CALL-STARTED", ev_call_started),
    ("EV-IDS-SINGLE-USE", ev_ids_single_use),
    ("EV-ARGS-CONSERVE", ev_args_conserve),
    ("EV-ARGS-PARSED", ev_args_parsed),
    ("EV-ARGS-INVALID", ev_args_invalid),
    ("EV-CALL-IDENTITY", ev_call_identity),
    ("EV-STARTED-COMPLETED", ev_started_completed),
    ("EV-TURN-CALLS", ev_turn_calls),
    ("EV-NO-DELTA-AFTER-COMPLETED", ev_no_delta_after_completed),
    ("EV-USAGE-LAST", ev_usage_last),
    ("EV-USAGE-UNREPORTED", ev_usage_unreported),
    ("EV-USAGE-MONOTONE", ev_usage_monotone),
    ("EV-STOP-MAP", ev_stop_map),
    ("EV-STOP-TOOL", ev_stop_tool),
    ("EV-TURN-FIELDS", ev_turn_fields),
    ("EV-TURN-OPAQUE", ev_turn_opaque),
    ("EV-FOLD-AGREES", ev_fold_agrees),
    ("EV-TRUNCATED", ev_truncated),
    ("EV-ERROR-FRAME", ev_error_frame),
    ("EV-NOTHING-AFTER-ERROR", ev_nothing_after_error),
    ("EV-CHOICE0", ev_choice0),
    ("PERSIST-STRIP", persist_strip),
    ("PERSIST-CANARY", persist_canary),
    ("PERSIST-RESPONSE-ID", persist_response_id),
    ("PERSIST-PORTABLE", persist_portable),
    ("PERSIST-IDEMPOTENT", persist_idempotent),
    ("PERSIST-NO-SEMANTICS", persist_no_semantics),
    ("EV-CHAT-COMPLETE-AT-FINISH", ev_chat_complete_at_finish),
)
"""Every check, by rule, in the spec's order."""

CHECKED_RULES: frozenset[str] = frozenset(rule_id for rule_id, _ in CHECKS)

EMITTED_CHECKS: tuple[tuple[str, Check], ...] = (
    ("EV-CHAT-DONE", ev_chat_done),
    ("EV-CHAT-EOF", ev_chat_eof),
)
"""The checks that need `emitted` (where each event arrived): run only when it is given."""

UNCHECKED: dict[str, str] = {
    "EV-OPAQUE-FALLBACK": "which frame produced no other event needs the §4 mapping; "
    "EV-FRAME-COVER checks that no frame vanishes",
    "EV-TEXT": "one TextDelta per fragment is a §4 mapping rule (the reference adapter's "
    "differential check); EV-TEXT-CONSERVE checks the text",
    "EV-REASONING-OPAQUE": "needs the §4 mapping; reasoning in TextDelta breaks "
    "EV-TEXT-CONSERVE or EV-FOLD-AGREES",
    "EV-REFUSAL-OPAQUE": "needs the §4 mapping; a refusal TextDelta breaks EV-FOLD-AGREES",
    "EV-CALL-ROUTE": "routing is seen through EV-ARGS-CONSERVE and EV-FOLD-AGREES",
    "EV-ARGS-DELTA": "one delta per appended fragment is a §4 mapping rule",
    "EV-ARGS-BUFFER": "allowed by the frame matching (see _context); the release order "
    "is a §4 mapping rule",
    "EV-ARGS-OPTIONAL": "a permission: EV-ARGS-CONSERVE skips calls with no delta",
    "EV-ARGS-EMPTY-OBJECT": 'checked through EV-FOLD-AGREES (the fold\'s `""` is `{}`)',
    "EV-HOSTED-OPAQUE": "a hosted call as ToolCall* breaks EV-FOLD-AGREES",
    "EV-USAGE": "the normalised snapshot per frame is a §4 mapping rule",
    "EV-UNKNOWN": "a raise is the harness's to see; the Opaque is EV-FRAME-COVER's",
    "EV-DETERMINISM": "needs two runs of the same frames, not one stream's output",
    "EV-CHAT-DONE": "Completed carries no frame, so where it was emitted needs the ack "
    "protocol (checked when `emitted` is given)",
    "EV-CHAT-EOF": "as EV-CHAT-DONE",
}
"""The rules `check_events` does not check without `emitted`, and why; together with
CHECKS, every rule."""


def unchecked(*, emitted: bool = False) -> dict[str, str]:
    """The rules left unchecked, and why, with or without `emitted` given."""
    moved = {rule_id for rule_id, _ in EMITTED_CHECKS} if emitted else set()
    return {rule_id: why for rule_id, why in UNCHECKED.items() if rule_id not in moved}


def check_events(
    dialect: str,
    frames: Sequence[JSON],
    events: Sequence[JSON],
    outcome: JSON,
    persisted: JSON = None,
    *,
    known: JSON = None,
    canaries: Iterable[str] = (),
    provider: str | None = None,
    turn_opaque: bool = False,
    fold: Callable[[list[JSON]], JSON] | None = None,
    strip: Callable[[JSON], JSON] | None = None,
    emitted: Sequence[int] | None = None,
) -> list[Violation]:
    """Return every violation of the events contract in one adapter's output for `frames`.

    Args:
        dialect: `openai-chat` or `anthropic-messages`.
        frames: the input frames, as JSON values (Chat: chunk objects and `"[DONE]"`).
        events: the neutral events the adapter emitted, in order.
        outcome: `"completed"`, `"error"`, or the protocol's outcome message
            (`{"outcome": "error", "error": {"kind": ...}}`).
        persisted: what the adapter's runtime would persist (None: not checked).
        known: the known completion the frames were drawn from; the turn is held to it
            instead of to the reference fold of the frames.
        canaries: strings planted in the frames outside the portable fields.
        provider: the adapter's declared provider identifier (EV-TURN-FIELDS).
        turn_opaque: the adapter claims `events.turn_opaque` (EV-TURN-OPAQUE).
        fold: the adapter's fold of events into a turn (PERSIST-PORTABLE, -NO-SEMANTICS).
        strip: the adapter's strip (PERSIST-PORTABLE, PERSIST-IDEMPOTENT).
        emitted: for each event, the number of the frame whose ack it arrived before
            (`len(frames)` for events emitted at end()), from the ack protocol. With it,
            EV-FRAME-ORDER sees look-ahead and EV-CHAT-DONE, EV-CHAT-EOF are checked
            (`EMITTED_CHECKS`, `unchecked(emitted=True)`).

    Returns:
        The violations in the order of `CHECKS` (the spec's), each check's in event
        order; indexes are 0-based positions in `events` and `frames`.

    Raises:
        ValueError: `dialect` is not one the checker knows, or `emitted` does not give
            one frame number per event in order (the caller's mistakes).
    """
    if dialect not in DIALECTS:
        raise ValueError(
            f"unknown dialect {dialect!r}; the event checker knows {', '.join(DIALECTS)}"
        )
    if emitted is not None:
        check_emitted(emitted, len(frames), len(events))
    stream = make_stream(
        dialect,
        frames,
        events,
        outcome,
        known=known,
        persisted=persisted,
        canaries=list(canaries),
        provider=provider,
        turn_opaque=turn_opaque,
        ops=Ops(fold=fold, strip=strip),
        emitted=emitted,
    )
    found: list[Violation] = []
    for _, check in CHECKS + (EMITTED_CHECKS if emitted is not None else ()):
        found.extend(check(stream))
    return found
