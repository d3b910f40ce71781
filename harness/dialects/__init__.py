"""The dialects refold checks, by name (`--dialect NAME`, a target's `dialect`).

    >>> from refold.dialects import dialect
    >>> dialect("anthropic-messages").result
    'Message'

A dialect is registered here once; everything else looks it up. This is the one module
that lists dialects: the built-in ones, then any a distribution adds through the entry
point group `refold.dialects` (each entry a `Dialect`). Rule ids are unique across
dialects (the Anthropic ones are `AM-` prefixed, the Responses ones `RS-`), so a
rule id alone names its dialect (`dialect_of_rule`), which is how a test is known to
belong to one.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import entry_points
from types import MappingProxyType

from refold.reference import Rule

from ..errors import UsageError
from ._dialect import Ablation, AdapterKind, Charging, Dialect, NodeTarget
from .anthropic_messages import ANTHROPIC_MESSAGES
from .gemini import GEMINI
from .openai_chat import OPENAI_CHAT
from .openai_responses import OPENAI_RESPONSES
from .provider_events import PROVIDER_EVENTS

__all__ = [
    "DEFAULT_DIALECT",
    "DIALECTS",
    "ENTRY_POINT_GROUP",
    "EVERY_RULE",
    "Ablation",
    "AdapterKind",
    "Charging",
    "Dialect",
    "NodeTarget",
    "dialect",
    "dialect_of_rule",
]

DEFAULT_DIALECT = OPENAI_CHAT.name
"""The dialect of a run that names none and whose target declares none."""


def _registry(*dialects: Dialect) -> Mapping[str, Dialect]:
    owners: dict[str, str] = {}
    names = [one.name for one in dialects]
    if len(set(names)) != len(names):
        raise UsageError(f"two dialects are registered under one name: {names}")
    for one in dialects:
        for rule_id in one.rules:
            if rule_id in owners:
                raise UsageError(f"rule {rule_id} is in {owners[rule_id]} and {one.name}")
            owners[rule_id] = one.name
    return MappingProxyType({one.name: one for one in dialects})


ENTRY_POINT_GROUP = "refold.dialects"
"""The entry point group through which a distribution registers a dialect of its own."""


def _installed_dialects() -> tuple[Dialect, ...]:
    found: list[Dialect] = []
    for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        value = entry.load()
        if not isinstance(value, Dialect):
            raise UsageError(
                f"entry point {entry.name!r} of group {ENTRY_POINT_GROUP!r} ({entry.value}) "
                f"is a {type(value).__name__}, expected a refold.dialects.Dialect"
            )
        found.append(value)
    return tuple(found)


DIALECTS: Mapping[str, Dialect] = _registry(
    OPENAI_CHAT,
    ANTHROPIC_MESSAGES,
    PROVIDER_EVENTS,
    OPENAI_RESPONSES,
    GEMINI,
    *_installed_dialects(),
)
"""Every dialect by name: the built-in ones in the order they were added, then the
installed ones (entry point group `refold.dialects`) by entry point name."""

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
