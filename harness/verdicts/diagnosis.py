"""Why a target failed: the known fold policies that reproduce its output.

A failure says what differs; a diagnosis says which known variation of the reference
fold the target applies, in a maintainer's words. Once per failed test, after Hypothesis
has shrunk it (`refold.run.plugin`, beside crash and difference ablation), the failing stream
is folded with every policy of the target's dialect (`Dialect.policies`,
`refold.policies`), and a policy *matches* when

* the target folded the stream and the policy's fold equals the target's under the
  dialect's canonical comparison, within the target's stated projection, at every place
  the failed test's rules judge (`Dialect.rules_at`): a library that departs in two ways
  on one stream (langchain sums usage and also drops the chunk id) is named for the
  departure each rule's tests see, and the other is the other rule's failure; or
* the target raised at item k (the shortest prefix of the stream that raises, as
  `refold.verdicts.crashes` located it) and the policy raises at the same item (its own raise:
  `PolicyRaised`, not the reference refusing the stream); a raise not located (in
  `response()`) matches a policy raising anywhere in the stream.

A policy whose outcome on the stream is the reference's explains nothing there and never
matches. The cost is bounded: one fold per policy and one of the reference, plus, for a
policy that raises, one fold per prefix until the shortest raising one; no call on the
target. No match is "no known policy"; a dialect without a catalogue (an events
adapter's, whose failures are rule violations, not one folded value) and a failure that compared no
fold of the stream (a lifecycle read, a decoder) are not diagnosed (None).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from refold.reference import JSON, Difference, JSONObject, PolicyRecord

from ..dialects import Dialect
from ..policies import Policy, PolicyRaised
from ..run.checks import ConformanceFailure
from ..run.projection import projected_differences
from ..targets import Target
from .crashes import Crash

__all__ = ["Outcome", "Raised", "diagnose", "diagnosis_of", "outcome_of", "records"]

Compare = Callable[[JSON, JSON], list[Difference]]


@dataclass(frozen=True)
class Raised:
    """A fold that raised at item `at` (1-based; None: not located)."""

    at: int | None


Outcome = JSONObject | Raised
"""What folding a stream gave: the folded value, or where it raised."""

_REFUSED = object()
"""A policy fold that failed otherwise than by its own raise: it cannot fold the stream."""


def outcome_of(policy: Policy, items: Sequence[JSON]) -> Outcome | object:
    """The policy's outcome on `items`: its fold, or the shortest prefix it raises on."""
    try:
        return policy.fold(copy.deepcopy(list(items)))
    except PolicyRaised:
        pass
    except Exception:  # the reference refusing the stream, which no policy changes
        return _REFUSED
    for length in range(1, len(items) + 1):
        try:
            policy.fold(copy.deepcopy(list(items[:length])))
        except PolicyRaised:
            return Raised(length)
        except Exception:
            continue
    return Raised(None)


def diagnose(
    dialect: Dialect, items: Sequence[JSON], received: Outcome, compare: Compare | None = None
) -> list[Policy]:
    """The policies of `dialect` whose outcome on `items` is `received`, the target's
    (`compare`: the canonical comparison, expected first; by default the dialect's)."""
    compare = compare or dialect.differences
    try:
        reference: Outcome | object = dialect.fold(copy.deepcopy(list(items)))
    except Exception:
        reference = _REFUSED
    found = []
    for policy in dialect.policies:
        outcome = outcome_of(policy, items)
        if outcome is _REFUSED or _same(outcome, reference, compare):
            continue
        if isinstance(received, Raised):
            if isinstance(outcome, Raised) and received.at in (None, outcome.at):
                found.append(policy)
        elif isinstance(outcome, dict):
            read = policy.reads(received) if policy.reads else received
            if not compare(outcome, read):
                found.append(policy)
    return found


def _same(outcome: object, reference: object, compare: Compare) -> bool:
    if isinstance(outcome, dict) and isinstance(reference, dict):
        return not compare(reference, outcome)
    return False


def records(policies: Sequence[Policy]) -> list[PolicyRecord]:
    """The policies as records carry them: name and libraries."""
    return [{"name": p.name, "libraries": list(p.libraries)} for p in policies]


def diagnosis_of(failure: ConformanceFailure, target: Target) -> list[PolicyRecord] | None:
    """The diagnosis of a failed test's failure, or None when it is not diagnosed: the
    dialect has no catalogue, or the failure compared no fold of its stream and is no
    located raise of one."""
    dialect = failure.dialect
    if not dialect.policies or failure.chunks is None:
        return None
    received = _received(failure)
    if received is None:
        return None

    judged = frozenset(failure.rules)

    def compare(expected: JSON, folded: JSON) -> list[Difference]:
        return [
            found
            for found in projected_differences(dialect, target.projection, expected, folded)
            if dialect.rules_at(found.pointer) & judged
        ]

    return records(diagnose(dialect, failure.chunks, received, compare))


def _received(failure: ConformanceFailure) -> Outcome | None:
    if failure.crash is not None:
        return _raised(failure.crash)
    if failure.compared_fold and isinstance(failure.received, dict):
        return failure.received
    return None


def _raised(crash: Crash) -> Raised | None:
    if crash.signature.split(":")[0] not in ("raised", "crashed"):
        return None  # a timeout or a bad reply is no raise of a fold
    operation = crash.operation.split("(")[0]
    if operation in ("fold", "add"):
        return Raised(crash.at_chunk)
    return Raised(None) if operation == "response" else None
