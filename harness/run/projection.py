"""A target's stated projection: the places of its fold that are compared, and the rules
that leaves unjudged.

A library that builds something else than the dialect's result (LangChain's `AIMessage`,
litellm's chat `ModelResponse`) is checked by mapping what it builds onto that result. The
mapping never fills some places, and a difference there is the mapping's, not the
library's: so a target may declare, with `projection` (in its `refold_target`, or in the
protocol's `hello` reply), which places of its fold are compared:

    "projection": {"pointers": ["/id", "/output/*/content/*/text", ...],
                   "builds": "an AIMessage: its content blocks, tool calls and usage"}

Each pointer is a JSON pointer (RFC 6901: `/`-separated reference tokens, `~1` for `/` and
`~0` for `~` inside one) in which the token `*` is any one array index or object key; a
pattern covers the subtree at every place it matches. `builds` says, in a sentence, what
the library builds, for the reports. Both folds, the target's and the expected one, are
reduced to the covered places before they are compared (`Projection.reduce`): a key no
pattern reaches is dropped; an array keeps its positions up to the last one a pattern
reaches (any other position before it is null), so a missing or extra item still differs.

A rule is *judged* when some place its dialect's attribution (`Dialect.rules_at`) charges
to it is compared, at a pattern, above one (a missing item differs at `/output/1`) or
under one; the dialect's pointer-less rules (about reading any event) are judged on what
is compared. The others are *not judged* (`unjudged_rules`): their tests are skipped,
and the results give them the status "not judged", never "passed" (a crash another test
meets and ablation charges to one still fails it: a raise is evidence whatever is
compared). The places a dialect's
attribution names are listed as `Dialect.places`, a pointer per row of its table; a
dialect that lists none (the events contract) takes no projection.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import NoReturn

from refold.reference import JSON, Difference

from ..dialects import Dialect
from ..errors import UsageError, preview

__all__ = [
    "ANY",
    "Projection",
    "check_accepted",
    "check_places",
    "judged_rules",
    "not_judged_reason",
    "projected_differences",
    "projection_of",
    "unjudged_rules",
]

ANY = "*"
"""The pattern token that stands for any one array index or object key."""

_KEYS = frozenset({"pointers", "builds"})
_EXAMPLE = (
    '{"pointers": ["/id", "/output/*/content/*/text"], '
    '"builds": "an AIMessage: its text, tool calls and usage"}'
)


@dataclass(frozen=True)
class Projection:
    """The places of a target's fold that are compared, and what the library builds."""

    pointers: tuple[str, ...]
    """The patterns, as declared."""
    builds: str
    """What the library builds instead of the dialect's result, in a sentence."""

    @property
    def patterns(self) -> tuple[tuple[str, ...], ...]:
        """Each pattern as its decoded tokens (`*` is `ANY`)."""
        return tuple(_tokens(pointer) for pointer in self.pointers)

    def covers(self, pointer: str) -> bool:
        """Whether the place at `pointer` (a plain JSON pointer) is compared: it is at or
        under a pattern."""
        tokens = _tokens(pointer)
        return any(_matches(p, tokens[: len(p)]) for p in self.patterns)

    def reaches(self, pointer: str) -> bool:
        """Whether a difference at `pointer` can show once the folds are reduced: the
        place is compared, or a compared place lies under it."""
        tokens = _tokens(pointer)
        return any(_matches(p[: len(tokens)], tokens[: len(p)]) for p in self.patterns)

    def reduce(self, value: JSON) -> JSON:
        """`value` with only the places the patterns cover (see the module docstring)."""
        return _reduce(value, self.patterns)

    def describe(self) -> str:
        """The projection in a line: what the library builds, and what is compared."""
        return f"{self.builds.rstrip('.')}; compared: {', '.join(self.pointers)}"

    def record(self) -> dict[str, JSON]:
        """The declaration as JSON (the protocol's `hello`, the results' target)."""
        return {"pointers": list(self.pointers), "builds": self.builds}


def projection_of(declared: object, *, origin: str) -> Projection | None:
    """The projection a target declares (None: it declares none: it is compared whole).

    Raises:
        UsageError: the declaration is not `{"pointers": [pattern, ...], "builds": text}`
            with every pattern a JSON pointer (a one-paragraph message naming `origin`).
    """
    if declared is None:
        return None
    if not isinstance(declared, dict):
        _refuse(origin, f"a {_kind(declared)} {preview(declared)}")
    unknown = sorted(set(declared) - _KEYS)
    missing = sorted(_KEYS - set(declared))
    if unknown or missing:
        _refuse(
            origin,
            "an object "
            + "; ".join(
                ([f"with unknown keys {', '.join(map(repr, unknown))}"] if unknown else [])
                + ([f"without {', '.join(map(repr, missing))}"] if missing else [])
            ),
        )
    pointers, builds = declared["pointers"], declared["builds"]
    if not isinstance(builds, str) or not builds.strip():
        _refuse(
            origin,
            f"`builds` {preview(builds)}, where a sentence saying what the "
            f"library builds is expected",
        )
    if not isinstance(pointers, list | tuple) or not pointers:
        _refuse(
            origin,
            f"`pointers` {preview(pointers)}, where a non-empty list of JSON "
            f"pointer patterns is expected",
        )
    for number, pointer in enumerate(pointers):
        problem = _malformed(pointer)
        if problem is not None:
            _refuse(origin, f"`pointers[{number}]` {preview(pointer)}: {problem}")
    if len(set(pointers)) != len(pointers):
        _refuse(origin, f"`pointers` {preview(pointers)}, which lists a pattern twice")
    return Projection(tuple(pointers), builds.strip())


def _refuse(origin: str, received: str) -> NoReturn:
    raise UsageError(
        f"{origin} declares a projection that is {received}. Expected an object "
        f"{_EXAMPLE}: `pointers` the JSON pointers (RFC 6901) of the fold that are compared, "
        f"each a place or a pattern in which the token `*` is any one array index or key "
        f'(a pattern covers its subtree; the whole fold, "", is no projection: declare '
        f"none), and `builds` what the library builds, in a sentence (docs/protocol.md, "
        f'"Projection")'
    )


def _malformed(pointer: object) -> str | None:
    """What is wrong with a pattern (None: nothing)."""
    if not isinstance(pointer, str):
        return f"a {_kind(pointer)}, not a string"
    if pointer == "":
        return "the whole fold, which is no projection"
    if not pointer.startswith("/"):
        return "a JSON pointer starts with `/`"
    for token in pointer.split("/")[1:]:
        rest = token.replace("~0", "").replace("~1", "")
        if "~" in rest:
            return f"token {token!r} has a `~` not followed by 0 or 1 (RFC 6901 escapes)"
    return None


def _kind(value: object) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), type(value).__name__
    )


def _tokens(pointer: str) -> tuple[str, ...]:
    if not pointer:
        return ()
    return tuple(token.replace("~1", "/").replace("~0", "~") for token in pointer.split("/")[1:])


def _matches(pattern: Sequence[str], tokens: Sequence[str]) -> bool:
    """Whether `tokens` is the place `pattern` names (of the same length)."""
    return len(pattern) == len(tokens) and all(
        want in (ANY, token) for want, token in zip(pattern, tokens, strict=True)
    )


def _reduce(value: JSON, patterns: Iterable[tuple[str, ...]]) -> JSON:
    remaining = list(patterns)
    if any(not pattern for pattern in remaining):
        return value  # a pattern ends here: its whole subtree is compared
    if isinstance(value, dict):
        kept: dict[str, JSON] = {}
        for key, item in value.items():
            inner = [p[1:] for p in remaining if p[0] in (ANY, key)]
            if inner:
                kept[key] = _reduce(item, inner)
        return kept
    if isinstance(value, list):
        return _reduce_list(value, remaining)
    return value  # a scalar where a pattern goes on: compared as it is, a shape difference


def _reduce_list(value: list[JSON], patterns: list[tuple[str, ...]]) -> list[JSON]:
    reduced: list[JSON] = []
    last = -1
    for index, item in enumerate(value):
        inner = [p[1:] for p in patterns if p[0] in (ANY, str(index))]
        reduced.append(_reduce(item, inner) if inner else None)
        last = index if inner else last
    return reduced[: last + 1]


def projected_differences(
    dialect: Dialect, projection: Projection | None, expected: JSON, received: JSON
) -> list[Difference]:
    """The dialect's canonical differences of two folds within `projection` (all of them
    when None)."""
    if projection is None:
        return dialect.differences(expected, received)
    return dialect.differences(projection.reduce(expected), projection.reduce(received))


@cache
def judged_rules(dialect: Dialect, projection: Projection | None) -> frozenset[str]:
    """The rules of `dialect` a target of `projection` is judged on (every rule when None):
    those owning a place the projection compares or reaches, and the pointer-less ones."""
    if projection is None:
        return frozenset(dialect.rules)
    # A pattern's own place counts too: a place the dialect's table leaves to its
    # default owners (the terminal's keys as sent) is named by no row.
    examples = {_example(pattern) for pattern in projection.patterns}
    places = [
        *dialect.places,
        *examples,
        *(_example(p[:n]) for p in projection.patterns for n in range(1, len(p))),
    ]
    owners = {
        rule for place in places if projection.reaches(place) for rule in dialect.rules_at(place)
    }
    return frozenset((owners | dialect.pointerless) & set(dialect.rules))


def unjudged_rules(dialect: Dialect, projection: Projection | None) -> frozenset[str]:
    """The rules of `dialect` a target of `projection` is not judged on (none when None)."""
    return frozenset(dialect.rules) - judged_rules(dialect, projection)


def not_judged_reason(projection: Projection) -> str:
    """Why a rule the projection leaves unjudged is: the skip reason of its tests."""
    return f"not judged: outside the target's stated projection ({projection.describe()})"


def _example(pattern: tuple[str, ...]) -> str:
    """A place the pattern names: `*` as index 0 (a key pattern of the tables takes any)."""
    return _pointer(tuple("0" if token == ANY else token for token in pattern))


def _pointer(tokens: Sequence[str]) -> str:
    return "".join("/" + token.replace("~", "~0").replace("/", "~1") for token in tokens)


def check_places(dialect: Dialect, projection: Projection | None, *, origin: str) -> None:
    """Refuse a projection in a dialect whose attribution lists no places.

    Raises:
        UsageError: `dialect` has no `places` (its rules could not be told judged or not).
    """
    if projection is not None and not dialect.places:
        raise UsageError(
            f"{origin} declares a projection ({json.dumps(projection.record())})"
            f", but dialect {dialect.name} lists no places of its result, so "
            f"which rules it leaves unjudged cannot be said: declare none"
        )


def check_accepted(
    dialect: Dialect,
    projection: Projection | None,
    features: Iterable[str],
    *,
    origin: str,
    accepted: bool,
) -> None:
    """Refuse a stated projection that leaves rules of a claimed feature not judged, unless
    the user `accepted` it: a target's projection is a proposal, and one that compares
    nothing (`/zzz_nothing`) would otherwise turn every failure into "not judged".

    Raises:
        UsageError: naming the features, how many of their rules go unjudged, and how to
            accept the projection or claim less.
    """
    if projection is None or accepted:
        return
    claimed = set(features)
    unjudged: dict[str, list[str]] = {}
    for rule_id in sorted(unjudged_rules(dialect, projection)):
        feature = dialect.rules[rule_id].feature
        if feature in claimed:
            unjudged.setdefault(feature, []).append(rule_id)
    if not unjudged:
        return
    listed = "; ".join(f"{feature}: {', '.join(rules)}" for feature, rules in unjudged.items())
    count = sum(map(len, unjudged.values()))
    whole = [f for f in dialect.features if f in claimed and f not in unjudged]
    less = (
        f"claim only the features it judges whole (--features {','.join(whole)})"
        if dialect.features[0] in whole
        else "no feature it could claim is judged whole"
    )
    raise UsageError(
        f"{origin} states a projection ({projection.describe()}) that leaves {count} rules "
        f"of features it claims not judged ({listed}). A target's projection is a "
        f"proposal the user accepts: check it with --accept-projection, or record it in the "
        f"baseline (`refold baseline --write`, then --baseline FILE); otherwise {less}"
    )
