"""The dialects refold checks, by name (`--dialect NAME`, a target's `dialect`).

    >>> from refold.dialects import dialect
    >>> dialect("anthropic-messages").result
    'Message'

A dialect is registered here once; everything else looks it up. Rule ids are unique
across dialects (the Anthropic ones are `AM-` prefixed, the Responses ones `RS-`), so a
rule id alone names its dialect (`dialect_of_rule`), which is how a test is known to
belong to one.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from refold.reference import Rule

from ..errors import UsageError
from ._dialect import Ablation, Charging, Dialect
from .anthropic_messages import ANTHROPIC_MESSAGES
from .openai_chat import OPENAI_CHAT
from .openai_responses import OPENAI_RESPONSES
from .provider_events import PROVIDER_EVENTS

__all__ = [
    "DEFAULT_DIALECT",
    "DIALECTS",
    "EVERY_RULE",
    "Ablation",
    "Charging",
    "Dialect",
    "dialect",
    "dialect_of_rule",
]

DEFAULT_DIALECT = OPENAI_CHAT.name
"""The dialect of a run that names none and whose target declares none."""


def _registry(*dialects: Dialect) -> Mapping[str, Dialect]:
    owners: dict[str, str] = {}
    for one in dialects:
        for rule_id in one.rules:
            if rule_id in owners:
                raise AssertionError(f"rule {rule_id} is in {owners[rule_id]} and {one.name}")
            owners[rule_id] = one.name
    return MappingProxyType({one.name: one for one in dialects})


DIALECTS: Mapping[str, Dialect] = _registry(
    OPENAI_CHAT, ANTHROPIC_MESSAGES, PROVIDER_EVENTS, OPENAI_RESPONSES
)
"""Every dialect by name, in the order they were added."""

EVERY_RULE: Mapping[str, Rule] = MappingProxyType(
    {rule_id: rule for one in DIALECTS.values() for rule_id, rule in one.rules.items()}
)
"""Every rule of every dialect by id (ids are unique across dialects)."""

_OWNER: Mapping[str, Dialect] = {rule_id: one for one in DIALECTS.values() for rule_id in one.rules}


def dialect(name: str) -> Dialect:
    """The dialect called `name`.

    Raises:
        UsageError: no dialect has that name; the message lists those that do.
    """
    try:
        return DIALECTS[name]
    except KeyError:
        raise UsageError(
            f"unknown dialect {name!r}; refold checks: {', '.join(DIALECTS)}"
        ) from None


def dialect_of_rule(rule_id: str) -> Dialect | None:
    """The dialect whose registry holds `rule_id`, or None for an unknown id."""
    return _OWNER.get(rule_id)
