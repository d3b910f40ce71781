"""The provider-neutral events contract (refold.reference.events): events.md in code.

Sans-IO and standard library only. `RULES` is the registry of every `EV-*` and `PERSIST-*`
rule; `check_events` returns every violation of them in one adapter's output.

    >>> from refold.reference.events import check_events
    >>> frames = [{"id": "c1", "model": "m", "choices": [{"index": 0,
    ...            "delta": {"content": "Hi"}, "finish_reason": "stop"}]}, "[DONE]"]
    >>> turn = {"provider": "p", "model": "m", "response_id": "c1", "output_text": "Hi",
    ...         "tool_calls": [], "stop_reason": "end_turn", "opaque": None,
    ...         "usage": dict.fromkeys(["input_tokens", "output_tokens",
    ...                                 "cached_input_tokens", "reasoning_tokens"])}
    >>> events = [{"type": "TextDelta", "delta": "Hi", "opaque": frames[0]},
    ...           {"type": "Completed", "turn": turn}]
    >>> check_events("openai-chat", frames, events, "completed")
    []
"""

from ._checker import CHECKED_RULES, CHECKS, UNCHECKED, check_events
from ._rules import FEATURES, RULES, SECTIONS, rule, rules_of
from ._violation import Violation

__all__ = ["CHECKED_RULES", "CHECKS", "FEATURES", "RULES", "SECTIONS", "UNCHECKED",
           "Violation", "check_events", "rule", "rules_of"]
