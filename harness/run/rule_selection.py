"""`--rules ID,ID`: run only the tests that check at least one of the named rules.

A maintainer fixing one defect re-checks its rules without the rest of the suite, and the
project's suite-strength tests run each broken example on the tests of its own rules. The
tests left out are deselected (pytest's own word, so the gate knows the other rules were
not run and judges none of them stale), and every id is checked against the run's
dialect, so a typo fails at once instead of selecting nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..dialects import EVERY_RULE, Dialect, dialect_of_rule
from ..errors import UsageError

__all__ = ["selected_rules"]


def selected_rules(option: str | None, dialect: Dialect) -> frozenset[str] | None:
    """The rule ids `--rules` names (comma-separated), all of `dialect`; None without it."""
    if option is None:
        return None
    ids = [part.strip() for part in option.split(",") if part.strip()]
    if not ids:
        raise UsageError(
            f"--rules {option!r}: expected one or more rule ids separated by "
            f"commas, such as {_examples(dialect)}"
        )
    unknown = [rule_id for rule_id in ids if rule_id not in EVERY_RULE]
    if unknown:
        raise UsageError(
            f"--rules: no dialect has the rule ids {', '.join(unknown)}; expected "
            f"rule ids of {dialect.name}, such as {_examples(dialect)} "
            f"(`refold rules --dialect {dialect.name}` lists them)"
        )
    foreign = [rule_id for rule_id in ids if dialect_of_rule(rule_id) is not dialect]
    if foreign:
        owners = sorted({str(getattr(dialect_of_rule(r), "name", "?")) for r in foreign})
        raise UsageError(
            f"--rules: {', '.join(foreign)} are rules of {', '.join(owners)}, "
            f"but this run checks {dialect.name}; expected rule ids of "
            f"{dialect.name} (or --dialect {owners[0]})"
        )
    return frozenset(ids)


def _examples(dialect: Dialect) -> str:
    first: Sequence[str] = sorted(dialect.rules)[:2]
    return ",".join(first)
