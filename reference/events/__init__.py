"""Provider-neutral events: the reference adapters of events.md (refold.reference.events).

Sans-IO and standard library only: provider frames in, neutral events out, each a new
plain JSON value. `Adapter(dialect)` normalises one stream frame by frame (`frame`,
`end`, `persisted`), `normalize` runs a whole one, `fold_turn` folds events into their
ProviderTurn and `strip` removes what a runtime must not persist (§3).

    >>> from refold.reference.events import normalize
    >>> result = normalize("openai-chat", [
    ...     {"id": "c1", "model": "m", "choices": [{"index": 0, "delta": {"content": "Hi"}}]},
    ...     {"id": "c1", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ...     "[DONE]",
    ... ])
    >>> [event["type"] for event in result["events"]], result["outcome"]
    (['TextDelta', 'Opaque', 'Completed'], {'outcome': 'completed'})
"""

from ._adapters import DIALECTS, Adapter, UnknownDialectError, normalize
from ._strip import strip
from ._turn import NoTurnError, fold_turn

__all__ = ["DIALECTS", "Adapter", "NoTurnError", "UnknownDialectError", "fold_turn",
           "normalize", "strip"]
