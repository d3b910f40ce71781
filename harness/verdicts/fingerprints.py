"""Fingerprints: what failed, stably enough that a baseline can tell a known defect from a new one.

A rule is a coarse key: a new, different defect inside a rule that already fails would
pass a gate that only knows the rule. So each failure of a rule in a test is recorded as

    Fingerprint(test="test_tool_calls::test_names_join", kind="differs",
                pointers=("/choices/*/message/tool_calls/*/function/name",))

* `test`: the test's module and name (`module::name`, parameters kept, no example data);
* `kind`: `differs` (the response differs from the expected one), the target's failure
  (`raised`, `timeout`, `crashed`, `not-an-object`, `mutated-input`, `protocol`),
  `asserted` (a property failed without a difference), or the exception's class name
  for a failure that is not a `ConformanceFailure` (`AssertionError` in the sse suite);
* `pointers`: the JSON pointers that differ and are evidence against the rule, list
  indexes replaced by `*`, sorted, each once: which choice or call shrinking lands on
  varies, the field does not.

Pointers that only another rule explains are left out of a rule's fingerprint: a gate
run masks those differences (`refold.run.checks`), so its fingerprint could not contain them.
Fingerprints cross xdist as plain JSON (`as_json`); the recorded ones are in the
baseline (`refold.gate.baseline`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import TargetError
from ..run.checks import ConformanceFailure, implicated_by, leaf_errors

__all__ = ["Fingerprint", "fingerprints_of", "normalise_pointer", "test_id"]

_INDEX = re.compile(r"/\d+(?=/|$)")


@dataclass(frozen=True, order=True)
class Fingerprint:
    """One way a rule fails in one test."""

    test: str
    kind: str
    pointers: tuple[str, ...] = ()

    def __str__(self) -> str:
        where = f" at {', '.join(self.pointers)}" if self.pointers else ""
        return f"{self.test} {self.kind}{where}"

    def as_json(self) -> dict[str, Any]:
        """The fingerprint as a plain JSON object."""
        return {"test": self.test, "kind": self.kind, "pointers": list(self.pointers)}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Fingerprint:
        """The fingerprint `as_json` wrote."""
        return cls(
            str(value["test"]),
            str(value["kind"]),
            tuple(str(p) for p in value.get("pointers") or ()),
        )


def normalise_pointer(pointer: str) -> str:
    """`pointer` with every list index replaced by `*`."""
    return _INDEX.sub("/*", pointer)


def test_id(module: str, nodeid: str) -> str:
    """`module::name` of a test: its module's last name and the node id after the file,
    the same wherever the suite was collected from (the path part of a node id is
    relative to a rootdir that depends on the command line)."""
    return f"{module.rpartition('.')[2]}::{nodeid.partition('::')[2]}"


def fingerprints_of(exc: BaseException, *, test: str, rules: Sequence[str]) -> list[dict[str, Any]]:
    """The fingerprints of a failed test, one per (failure, rule of the test it implicates).

    Each is `Fingerprint.as_json()` plus `"rule"`. Only the test's own rules get one: a
    failure the test charges to another rule is that rule's new failure whatever its
    fingerprint, and is masked when that rule is a known failure.
    """
    found: dict[tuple[str, Fingerprint], None] = {}
    for failure in leaf_errors(exc):
        if isinstance(failure, ConformanceFailure):
            for rule_id in failure.implicated:
                if rule_id in rules:
                    found[rule_id, _of_conformance(failure, rule_id, test)] = None
        else:
            for rule_id in rules:
                found[rule_id, Fingerprint(test, type(failure).__name__)] = None
    return [{"rule": rule_id, **fingerprint.as_json()} for rule_id, fingerprint in found]


def _of_conformance(failure: ConformanceFailure, rule_id: str, test: str) -> Fingerprint:
    pointers = sorted(
        {
            normalise_pointer(d.pointer)
            for d in failure.differences
            if rule_id in implicated_by(d.pointer, failure.rules)
        }
    )
    cause = failure.__cause__
    if failure.target_error is not None:
        kind = cause.kind if isinstance(cause, TargetError) else "target-error"
    else:
        kind = "differs" if failure.differences else "asserted"
    return Fingerprint(test, kind, tuple(pointers))
