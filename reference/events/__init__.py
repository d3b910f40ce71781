"""Provider-neutral events (refold.reference.events): events.md in code.

Sans-IO and standard library only. The reference adapters: `Adapter(dialect)` normalises
one provider stream frame by frame (`frame`, `end`, `persisted`), `normalize` runs a whole
one, `fold_turn` folds events into their ProviderTurn and `strip` removes what a runtime
must not persist (§3). The checker: `RULES` is the registry of every `EV-*` and
`PERSIST-*` rule, and `check_events` returns every violation of them in one adapter's
output.

    >>> from refold.reference.events import check_events, normalize
    >>> frames = [
    ...     {"id": "c1", "model": "m", "choices": [{"index": 0, "delta": {"content": "Hi"}}]},
    ...     {"id": "c1", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ...     "[DONE]",
    ... ]
    >>> result = normalize("openai-chat", frames)
    >>> [event["type"] for event in result["events"]], result["outcome"]
    (['TextDelta', 'Opaque', 'Completed'], {'outcome': 'completed'})
    >>> check_events("openai-chat", frames, result["events"], result["outcome"])
    []
"""

from .._neutral.turn import NoTurnError, fold_turn
from ._adapters import DIALECTS, Adapter, UnknownDialectError, normalize
from ._compare import differences
from ._rules import FEATURES, RULES, SECTIONS
from ._strip import strip
from .checker import (
    CHECKED_RULES,
    CHECKS,
    EMITTED_CHECKS,
    UNCHECKED,
    Violation,
    check_events,
    differing_events,
    differing_outcome,
    missing_at_raise,
    unchecked,
)

__all__ = [
    "CHECKED_RULES",
    "CHECKS",
    "DIALECTS",
    "EMITTED_CHECKS",
    "FEATURES",
    "RULES",
    "SECTIONS",
    "UNCHECKED",
    "Adapter",
    "NoTurnError",
    "UnknownDialectError",
    "Violation",
    "check_events",
    "differences",
    "differing_events",
    "differing_outcome",
    "fold_turn",
    "missing_at_raise",
    "normalize",
    "strip",
    "unchecked",
]
