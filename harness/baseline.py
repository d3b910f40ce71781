"""Baselines: a vendor's known state of conformance, the release gate (TOML).

    # refold baseline for mypkg
    target = "mypkg"
    features = ["text", "choices", "tool_calls"]

    [expected_failures]            # rule id -> reason; applied as strict xfail
    "TOOL-2-NEW-ID" = "one call per index, issue #12"

    [skips]                        # rule id -> reason; the rule's tests are skipped
    "LIFE-AFTER" = "hangs after [DONE], issue #40"

    [unsupported_features]         # optional: why a feature is not claimed
    logprobs = "not exposed by the SDK"

Expected failures are strict at the level of a rule, the key of the file: the tests of a
listed rule run as xfail, and once no test of that rule fails any more the entry is
stale and the run fails until it is removed. (A rule has several tests, so pytest's
per-test strict xfail would fail a rule whose other tests pass.)
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from refold.reference import ALL_RULES, FEATURES

from .errors import UsageError

__all__ = ["Baseline", "dump_baseline", "load_baseline"]

_TABLES = ("expected_failures", "skips", "unsupported_features")
_KEYS = frozenset({"target", "features", *_TABLES})


@dataclass(frozen=True)
class Baseline:
    """A parsed baseline file."""

    path: str
    target: str | None = None
    features: frozenset[str] | None = None
    expected_failures: dict[str, str] = field(default_factory=dict)
    skips: dict[str, str] = field(default_factory=dict)
    unsupported_features: dict[str, str] = field(default_factory=dict)


def load_baseline(path: str | Path) -> Baseline:
    """Read and validate a baseline; every error names the file and the key.

    Raises:
        UsageError: the file is missing, is not UTF-8 TOML, or names unknown rules or
            features.
    """
    where = str(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"baseline {where}: cannot read it: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(f"baseline {where} is not UTF-8 text: byte 0x{exc.object[exc.start]:02x} "
                         f"at offset {exc.start}; expected a TOML file saved as UTF-8") from exc
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"baseline {where} is not valid TOML: {exc}") from exc
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise UsageError(f"baseline {where}: unknown keys {unknown}; expected {sorted(_KEYS)}")
    tables = {name: _reasons(data.get(name, {}), where, name) for name in _TABLES}
    for name in ("expected_failures", "skips"):
        _known(tables[name], ALL_RULES, where, name, "rule id", "`refold rules` lists them")
    _known(tables["unsupported_features"], dict.fromkeys(FEATURES), where,
           "unsupported_features", "feature", f"the vocabulary is {', '.join(FEATURES)}")
    return Baseline(path=where, target=_target(data, where), features=_features(data, where),
                    **tables)


def _target(data: Mapping[str, Any], where: str) -> str | None:
    target = data.get("target")
    if target is not None and not isinstance(target, str):
        raise UsageError(f"baseline {where}: `target` is {target!r}, expected a string")
    return target


def _features(data: Mapping[str, Any], where: str) -> frozenset[str] | None:
    features = data.get("features")
    if features is None:
        return None
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        raise UsageError(f"baseline {where}: `features` is {features!r}, expected a list of "
                         f"feature names")
    return frozenset(features)


def _reasons(table: Any, where: str, name: str) -> dict[str, str]:
    if not isinstance(table, dict):
        raise UsageError(f"baseline {where}: [{name}] is {table!r}, expected a table")
    for key, reason in table.items():
        if not isinstance(reason, str) or not reason.strip():
            raise UsageError(f"baseline {where}: [{name}] {key!r} = {reason!r}; expected a "
                             f"non-empty reason string")
    return dict(table)


def _known(table: Mapping[str, str], known: Mapping[str, Any], where: str, name: str,
           what: str, hint: str) -> None:
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise UsageError(f"baseline {where}: [{name}] names unknown {what}s {unknown} ({hint})")


def dump_baseline(baseline: Baseline, *, comment: str = "") -> str:
    """Render a baseline as TOML that `load_baseline` reads back to the same values."""
    lines = [f"# {line}".rstrip() for line in comment.splitlines()]
    if baseline.target is not None:
        lines.append(f"target = {_string(baseline.target)}")
    if baseline.features is not None:
        ordered = [f for f in FEATURES if f in baseline.features]
        lines.append("features = [" + ", ".join(_string(f) for f in ordered) + "]")
    for name in _TABLES:
        table: dict[str, str] = getattr(baseline, name)
        if table:
            lines += ["", f"[{name}]"]
            lines += [f"{_string(key)} = {_string(table[key])}" for key in sorted(table)]
    return "\n".join(lines) + "\n"


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f]')


def _string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    def escape(match: re.Match[str]) -> str:
        char = match.group()
        return _ESCAPES.get(char, f"\\u{ord(char):04x}")

    return '"' + _NEEDS_ESCAPE.sub(escape, text) + '"'
