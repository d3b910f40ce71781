"""Targets: the implementations under test, behind one small interface.

Every target, whatever its language, offers the suites the same two operations:
`fold(chunks)` for a whole list, and `accumulator()` for the incremental interface
(`add`, `response`, `finished`, `mark_done`) when it has one. A target also says which
features of the spec's closed vocabulary it claims.

`load_target(spec)` turns a `--target` value into a Target:

    reference               the built-in reference fold (the default)
    NAME                    a target registered in the `refold.targets` entry-point group
    mypkg, mypkg.sub        an importable module
    mypkg:attribute         one attribute of a module
    path/to/file.py         a Python file
    exec:COMMAND            a process speaking the JSON-lines protocol (docs/protocol.md)
    http://host:port/path   a service speaking the same protocol over HTTP
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from refold.reference import FEATURES, JSON, JSONObject

from .errors import UsageError

__all__ = [
    "ALL_FOLD_FEATURES",
    "Target",
    "TargetAccumulator",
    "check_features",
]

_NOT_FOLD_FEATURES = frozenset({"lifecycle", "sse", "events"})
ALL_FOLD_FEATURES = frozenset(FEATURES) - _NOT_FOLD_FEATURES
"""What a fold-only target is checked on when it declares nothing."""


@runtime_checkable
class TargetAccumulator(Protocol):
    """One incremental fold inside a target."""

    def add(self, chunk: JSON) -> None: ...
    def response(self) -> JSONObject: ...
    def finished(self) -> bool: ...
    def mark_done(self) -> None: ...


class Target(Protocol):
    """An implementation under test, as the suites see it."""

    name: str
    features: frozenset[str]
    description: str

    def fold(self, chunks: list[JSON]) -> JSONObject:
        """Fold a whole list of chunks; raise TargetError if the target misbehaves."""
        ...

    def accumulator(self) -> TargetAccumulator:
        """Start an incremental fold (only for targets claiming `lifecycle`)."""
        ...

    def close(self) -> None:
        """Release what the target holds (processes, connections)."""
        ...


def check_features(
    claimed: Iterable[str], *, supported: frozenset[str], origin: str
) -> frozenset[str]:
    """Validate a feature claim against the vocabulary and the target's interface.

    Raises:
        UsageError: a feature is not in the spec's vocabulary, `text` is missing, or the
            target's interface cannot support a claimed feature.
    """
    features = frozenset(claimed)
    unknown = sorted(features - set(FEATURES))
    if unknown:
        raise UsageError(
            f"{origin} claims unknown features {unknown}; "
            f"the vocabulary is: {', '.join(FEATURES)}"
        )
    if "text" not in features:
        raise UsageError(f"{origin} does not claim `text`, which every target must support")
    unsupported = sorted(features - supported)
    if unsupported:
        raise UsageError(
            f"{origin} claims {unsupported}, which its interface cannot support "
            f"(a fold-only target cannot claim `lifecycle`: it needs add/response/"
            f"finished/mark_done)"
        )
    return features
