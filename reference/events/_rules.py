"""The events rules registry: every `EV-*` and `PERSIST-*` id of events.md, in its order.

Same form as the dialect registries (`refold.reference.chat.RULES`,
`refold.reference.anthropic.RULES`): ids are the stable keys suites, reports and baselines
use. Every rule belongs to feature `events` (§2, §3, §4.1), except EV-TURN-OPAQUE, checked
only when an adapter claims `events.turn_opaque`. §4.2 (OpenAI Responses) and §4.3
(Anthropic) state no ids of their own: their rows are decided by §2 rules.
"""

from __future__ import annotations

from .._rules import Rule

__all__ = ["FEATURES", "RULES", "SECTIONS"]

FEATURES: tuple[str, ...] = ("events", "events.turn_opaque")
"""The contract's feature vocabulary: the events themselves, and the lossless turn opaque."""

_E = "events"

_TABLE: tuple[tuple[str, str, str], ...] = (
    # §2 Event grammar and fold
    (
        "EV-GRAMMAR",
        _E,
        "Every event has exactly the fields of its variant, of the JSON types "
        "of §1; no other `type` values.",
    ),
    (
        "EV-COMPLETED-LAST",
        _E,
        "A stream with outcome `completed` has exactly one Completed, and it is the last event.",
    ),
    ("EV-NO-COMPLETED-ON-ERROR", _E, "A stream with outcome `error` has no Completed."),
    (
        "EV-FRAME-ORDER",
        _E,
        "Events are emitted in frame order, with no look-ahead (exception: EV-ARGS-BUFFER).",
    ),
    (
        "EV-OPAQUE-FRAME",
        _E,
        "Every `opaque` and every Opaque `payload` is JSON-equal to the "
        "whole frame that produced it.",
    ),
    (
        "EV-FRAME-COVER",
        _E,
        "Every frame except `[DONE]`, up to the frame that ended the "
        "stream, is the opaque/payload of at least one event.",
    ),
    ("EV-OPAQUE-FALLBACK", _E, "A frame that produces no other event produces one Opaque."),
    (
        "EV-OPAQUE-TYPE",
        _E,
        "Opaque.event_type is the SSE event name, `message` when there was "
        "none: every Chat Opaque reads `message`; Responses and Anthropic events use their "
        "`type`.",
    ),
    ("EV-TEXT", _E, "Each non-empty public text fragment becomes one TextDelta, verbatim."),
    ("EV-NO-EMPTY-DELTA", _E, "No TextDelta or ToolCallArgumentsDelta has an empty `delta`."),
    ("EV-TEXT-CONSERVE", _E, "T.output_text is the concatenation of every TextDelta.delta."),
    ("EV-REASONING-OPAQUE", _E, "Reasoning never becomes TextDelta or output_text."),
    ("EV-REFUSAL-OPAQUE", _E, "Refusal text becomes Opaque, never TextDelta."),
    (
        "EV-CALL-STARTED",
        _E,
        "ToolCallStarted is emitted once a call's id and name are known, "
        "before any of its deltas and its completion.",
    ),
    (
        "EV-IDS-SINGLE-USE",
        _E,
        "A call id is started at most once and completed at most once per turn.",
    ),
    (
        "EV-CALL-ROUTE",
        _E,
        "Argument fragments reach the call the dialect's correlation key "
        "names; ToolCall ids are the ids a tool result must reference.",
    ),
    (
        "EV-ARGS-DELTA",
        _E,
        "Each non-empty argument fragment the dialect fold appends becomes "
        "one ToolCallArgumentsDelta.",
    ),
    (
        "EV-ARGS-BUFFER",
        _E,
        "Fragments that arrive before the call's id is known are held and "
        "released, in order, right after its ToolCallStarted, each with its own frame as opaque.",
    ),
    (
        "EV-ARGS-CONSERVE",
        _E,
        'For each call, its deltas joined and parsed (`""` -> `{}`) '
        "equal ToolCallCompleted.call.arguments.",
    ),
    ("EV-ARGS-OPTIONAL", _E, "A call may complete with no delta."),
    ("EV-ARGS-PARSED", _E, "ToolCallCompleted.call.arguments is the parsed JSON object."),
    (
        "EV-ARGS-EMPTY-OBJECT",
        _E,
        'A call whose arguments are `""` at its completion boundary completes with `{}`.',
    ),
    (
        "EV-ARGS-INVALID",
        _E,
        "Arguments that do not parse as an object at the boundary give no "
        "ToolCallCompleted and the outcome `error` (`invalid_tool_arguments`).",
    ),
    ("EV-CALL-IDENTITY", _E, "call.id and call.name equal those of its ToolCallStarted."),
    (
        "EV-STARTED-COMPLETED",
        _E,
        "With outcome `completed`, every started call has completed before Completed.",
    ),
    (
        "EV-TURN-CALLS",
        _E,
        "T.tool_calls is exactly the completed calls, each once, in the "
        "order of their ToolCallStarted.",
    ),
    ("EV-NO-DELTA-AFTER-COMPLETED", _E, "No delta for a call after its completion."),
    ("EV-HOSTED-OPAQUE", _E, "Provider-hosted tool activity is Opaque, never ToolCall*."),
    (
        "EV-USAGE",
        _E,
        "Each reported usage object becomes one Usage holding the whole "
        "normalised snapshot; `usage: null` emits nothing.",
    ),
    ("EV-USAGE-LAST", _E, "T.usage equals the last Usage's usage."),
    ("EV-USAGE-UNREPORTED", _E, "With no Usage, T.usage has all four counters `null`."),
    ("EV-USAGE-MONOTONE", _E, "Across Usage events, a reported `output_tokens` never decreases."),
    (
        "EV-STOP-MAP",
        _E,
        "T.stop_reason comes from the provider's terminal data through the "
        "tables of §4; an unmapped value is `other`.",
    ),
    ("EV-STOP-TOOL", _E, "With T.tool_calls non-empty, a mapped `end_turn` is `tool_use`."),
    (
        "EV-TURN-FIELDS",
        _E,
        "T.provider is the adapter's identifier, T.model the model the "
        "provider reported, T.response_id the provider's response id.",
    ),
    ("EV-TURN-OPAQUE", "events.turn_opaque", "T.opaque is the dialect fold of all frames."),
    (
        "EV-FOLD-AGREES",
        _E,
        "output_text and T.tool_calls (arguments parsed) never contradict "
        "the dialect fold of the same frames.",
    ),
    (
        "EV-TRUNCATED",
        _E,
        "A stream that ends without the dialect's terminal has outcome `error` (`truncated`).",
    ),
    (
        "EV-ERROR-FRAME",
        _E,
        "A provider error frame produces one Opaque for that frame (plus "
        "any Usage it carries, Responses `response.failed`) and the outcome `error` "
        "(`provider_error`).",
    ),
    ("EV-NOTHING-AFTER-ERROR", _E, "No event follows the error frame's events."),
    ("EV-UNKNOWN", _E, "Unknown frame types and keys never raise; they produce Opaque."),
    (
        "EV-DETERMINISM",
        _E,
        "The same frames give the same events; re-splitting fragments "
        "changes the number of deltas, never strip(T).",
    ),
    (
        "EV-CHOICE0",
        _E,
        "Only choice 0 of a Chat stream is normalised; an adapter may refuse "
        "`n > 1` streams (`unsupported`).",
    ),
    # §3 Persistence
    (
        "PERSIST-STRIP",
        _E,
        "What the runtime persists has no `opaque`, `payload` or `response_id` key at any depth.",
    ),
    (
        "PERSIST-CANARY",
        _E,
        "No string planted in a frame outside the portable fields appears "
        "in the persisted bytes, escaped or not.",
    ),
    (
        "PERSIST-RESPONSE-ID",
        _E,
        "The raw response id is not persisted: removed, or replaced "
        "by a value that does not contain it.",
    ),
    ("PERSIST-PORTABLE", _E, "strip loses no portable field: folding strip(E) gives strip(T)."),
    ("PERSIST-IDEMPOTENT", _E, "strip(strip(x)) == strip(x)."),
    (
        "PERSIST-NO-SEMANTICS",
        _E,
        "Replacing every `opaque`/`payload` by `null` before the fold leaves strip(T) unchanged.",
    ),
    # §4.1 OpenAI Chat Completions
    (
        "EV-CHAT-COMPLETE-AT-FINISH",
        _E,
        "A Chat call completes at the frame that gives choice 0 its finish reason, never earlier.",
    ),
    (
        "EV-CHAT-DONE",
        _E,
        "Completed is emitted on `[DONE]` when choice 0 has a finish reason, "
        "after the usage chunk that precedes `[DONE]`.",
    ),
    (
        "EV-CHAT-EOF",
        _E,
        "A body that ends after choice 0's finish reason without `[DONE]` "
        "emits Completed at the end of the body.",
    ),
)

RULES: dict[str, Rule] = {row[0]: Rule(*row) for row in _TABLE}
"""Every EV and PERSIST rule of events.md by id, in the spec's order (§2, §3, §4.1)."""

SECTIONS: dict[str, str] = {
    rule_id: "§3"
    if rule_id.startswith("PERSIST-")
    else "§4.1"
    if rule_id.startswith("EV-CHAT-")
    else "§2"
    for rule_id in RULES
}
"""The section of events.md stating each rule."""
