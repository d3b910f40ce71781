"""What a target is sent, from the features it claims: each dialect's one table, read
the same way.

A drawn result or stream may only contain what the target claims: a kind of content, a
departure from the provider's own shape (split family 1) or a kind of damage whose rules
belong to a feature the target does not claim would charge a failure to rules it is not
judged on. Each dialect writes its table (shape → the features a target must claim, all
of them, to be sent it) and reads it through a `Claims`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from hypothesis.errors import InvalidArgument

__all__ = ["LIFECYCLE", "ROBUSTNESS", "TEXT", "Claims"]

TEXT = frozenset({"text"})
"""The claim every target makes (`Claims.check_features` refuses a set without it)."""
ROBUSTNESS = frozenset({"robustness"})
LIFECYCLE = frozenset({"lifecycle"})
"""The two other features of every dialect's vocabulary, as the claims table rows need them."""

_FAMILY = "family "


class Claims:
    """One dialect's table of shapes and the features each needs, over its vocabulary."""

    __slots__ = ("_families", "_features", "_shapes")

    def __init__(self, shapes: Mapping[str, frozenset[str]], features: Collection[str]) -> None:
        self._shapes = shapes
        self._features = tuple(features)
        self._families = sorted(
            int(name.removeprefix(_FAMILY)) for name in shapes if name.startswith(_FAMILY)
        )

    @property
    def features(self) -> frozenset[str]:
        """The whole vocabulary: what a target claims by default."""
        return frozenset(self._features)

    def allows(self, shape: str, features: Collection[str]) -> bool:
        """True when a target claiming `features` is judged on streams with `shape`."""
        try:
            needed = self._shapes[shape]
        except KeyError:
            raise InvalidArgument(f"shape={shape!r} is not one of {sorted(self._shapes)}") from None
        return needed <= set(features)

    def families_for(self, features: Collection[str]) -> frozenset[int]:
        """The lossless split families (the table's `family N` rows) a target claiming
        `features` is judged on."""
        return frozenset(f for f in self._families if self.allows(f"{_FAMILY}{f}", features))

    def check_features(self, features: Collection[str]) -> None:
        """Refuse a feature set outside the vocabulary, or one without `text`."""
        unknown = sorted(set(features) - set(self._features))
        if unknown:
            raise InvalidArgument(
                f"features={unknown!r} are not in the vocabulary {self._features}"
            )
        if "text" not in features:
            raise InvalidArgument(f"features={sorted(features)!r} must include 'text'")
