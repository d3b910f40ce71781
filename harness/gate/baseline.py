"""Baselines: a vendor's known state of conformance, the release gate (TOML).

    # refold baseline for mypkg
    dialect = "<name>"             # the dialect it gates (a name refold.dialects lists)
    target = "mypkg"
    features = ["text", "choices", "tool_calls"]

    [settings]                     # how it was written; a check with others says so
    profile = "ci"
    draws = "fixed"
    max_examples = 100
    hypothesis = "6.170.17"
    refold = "0.1.0"

    [expected_failures]            # rule id -> reason; applied as xfail
    "TOOL-2-NEW-ID" = "one call per index, issue #12"

    [fingerprints]                 # rule id -> what fails, per test (refold.verdicts.fingerprints)
    "TOOL-2-NEW-ID" = [
      {test = "test_tool_calls::test_new_id", kind = "differs",
       pointers = ["/choices/*/message/tool_calls"]},   (one line in the file)
    ]

    [skips]                        # rule id -> reason; the rule's tests are skipped
    "LIFE-AFTER" = "hangs after [DONE], issue #40"

    [unsupported_features]         # optional: why a feature is not claimed
    logprobs = "not exposed by the SDK"

    [projection]                   # optional: the projection the target stated, accepted
    pointers = ["/id", "/output/*/content/*/text"]
    builds = "an AIMessage: its text"

The tests of a listed rule run as xfail, and `refold.gate.judge` judges the run against the
file: a failure whose fingerprint the rule does not record is a new failure, a recorded
fingerprint whose test ran without it is stale, and so is an entry whose rule no longer
fails; all of them fail the run. `[settings]` and `[fingerprints]` are optional: a file
without fingerprints for a rule is judged per rule only, as files written before them.
Rule ids and features are those of the file's `dialect`; a file without one was written
before dialects, for `refold.reference.UNNAMED_DIALECT`. A run of another dialect
refuses it (`check_dialect`).

Files written since verdicts (verdicts.md §5) also hold

    fail_on = "synthetic"          # the --fail-on the file was written with

    [verdicts]                     # rule id -> where it failed, what it cost
    "TOOL-1-OPEN" = {found_on = "documented", impact = "loss", departures = []}

    [streams]                      # rule id -> its minimal failing streams (JSON text)
    "TOOL-1-OPEN" = [
      {chunks = "[{...}]", expected = "{...}", shape = "documented", departures = []},
    ]

and an entry is stale only when every stream it records passes when replayed
(`refold.gate.recorded_streams`). A file without these keys still loads, and means what it
meant: no `fail_on` is "synthetic" (every failure counts); an entry without a verdict
has no recorded `found_on`, so no failure of its rule reads as found on a less departing
shape; an entry without streams is judged stale by the run's tests, as before.

`dialect`, `features` and `[projection]` pin the target's claims: a target that states
other ones fails the gate (`refold.gate.judge.claim_differences`).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from refold.reference import IMPACTS, SHAPES, Shape

from ..dialects import DEFAULT_DIALECT, DIALECTS, Dialect
from ..errors import UsageError
from ..verdicts.fingerprints import Fingerprint
from .recorded_streams import STREAMS_PER_ENTRY, EntryVerdict, RecordedStream

__all__ = ["SETTINGS_KEYS", "Baseline", "check_dialect", "dump_baseline", "load_baseline"]

_TABLES = ("expected_failures", "skips", "unsupported_features")
_KEYS = frozenset(
    {
        "dialect",
        "target",
        "features",
        "settings",
        "fingerprints",
        "fail_on",
        "verdicts",
        "streams",
        "projection",
        *_TABLES,
    }
)
SETTINGS_KEYS: dict[str, type] = {
    "profile": str,
    "draws": str,
    "max_examples": int,
    "hypothesis": str,
    "refold": str,
}
"""The keys of `[settings]` and their types: what decides which examples a run draws."""


@dataclass(frozen=True)
class Baseline:
    """A parsed baseline file."""

    path: str
    dialect: str = DEFAULT_DIALECT
    """The dialect the file gates: its rule ids and features are that dialect's."""
    target: str | None = None
    features: frozenset[str] | None = None
    expected_failures: dict[str, str] = field(default_factory=dict)
    skips: dict[str, str] = field(default_factory=dict)
    unsupported_features: dict[str, str] = field(default_factory=dict)
    fingerprints: dict[str, frozenset[Fingerprint]] = field(default_factory=dict)
    settings: dict[str, str | int] = field(default_factory=dict)
    fail_on: Shape | None = None
    """The --fail-on the file was written with (None: written before it, "synthetic")."""
    verdicts: dict[str, EntryVerdict] = field(default_factory=dict)
    """Rule id -> its recorded found_on, impact and departures."""
    streams: dict[str, tuple[RecordedStream, ...]] = field(default_factory=dict)
    """Rule id -> its minimal failing streams, replayed to judge the entry stale."""
    projection: dict[str, Any] | None = None
    """The projection the target stated when the file was written (its `record()`)."""


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
        raise UsageError(
            f"baseline {where} is not UTF-8 text: byte 0x{exc.object[exc.start]:02x} "
            f"at offset {exc.start}; expected a TOML file saved as UTF-8"
        ) from exc
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"baseline {where} is not valid TOML: {exc}") from exc
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise UsageError(f"baseline {where}: unknown keys {unknown}; expected {sorted(_KEYS)}")
    dialect = _dialect(data, where)
    tables = {name: _reasons(data.get(name, {}), where, name) for name in _TABLES}
    for name in ("expected_failures", "skips"):
        _known(
            tables[name],
            dialect.rules,
            where,
            name,
            "rule id",
            f"of dialect {dialect.name}: `refold rules --dialect {dialect.name}` lists them",
        )
    _known(
        tables["unsupported_features"],
        dict.fromkeys(dialect.features),
        where,
        "unsupported_features",
        "feature",
        f"the vocabulary of dialect {dialect.name} is {', '.join(dialect.features)}",
    )
    fingerprints = _fingerprints(data.get("fingerprints", {}), where)
    verdicts = _verdicts(data.get("verdicts", {}), where)
    streams = _streams(data.get("streams", {}), where)
    for name, keyed in (
        ("fingerprints", fingerprints),
        ("verdicts", verdicts),
        ("streams", streams),
    ):
        stray = sorted(set(keyed) - set(tables["expected_failures"]))
        if stray:
            raise UsageError(
                f"baseline {where}: [{name}] lists {stray}, which "
                f"[expected_failures] does not; what [{name}] records belongs "
                f"to an expected failure"
            )
    return Baseline(
        path=where,
        dialect=dialect.name,
        target=_target(data, where),
        features=_features(data, where),
        fingerprints=fingerprints,
        settings=_settings(data.get("settings", {}), where),
        fail_on=_fail_on(data, where),
        verdicts=verdicts,
        streams=streams,
        projection=_projection(data, where),
        **tables,
    )


def _fail_on(data: Mapping[str, Any], where: str) -> Shape | None:
    value = data.get("fail_on")
    if value is not None and value not in SHAPES:
        raise UsageError(
            f"baseline {where}: `fail_on` is {value!r}, expected one of "
            f"{', '.join(SHAPES)} (or no key, for a file written before it: "
            f"every failure counts)"
        )
    return cast(Shape | None, value)


def _verdicts(table: Any, where: str) -> dict[str, EntryVerdict]:
    if not isinstance(table, dict):
        raise UsageError(f"baseline {where}: [verdicts] is {table!r}, expected a table")
    found: dict[str, EntryVerdict] = {}
    for rule_id, entry in table.items():
        if not (
            isinstance(entry, dict)
            and set(entry) <= {"found_on", "impact", "departures"}
            and entry.get("found_on", SHAPES[0]) in SHAPES
            and entry.get("impact", IMPACTS[0]) in IMPACTS
            and _strings(entry.get("departures", []))
        ):
            raise UsageError(
                f"baseline {where}: [verdicts] {rule_id!r} = {entry!r}; expected "
                f'{{found_on = "{"|".join(SHAPES)}", impact = "{"|".join(IMPACTS)}", '
                f'departures = ["id", ...]}}'
            )
        found[rule_id] = EntryVerdict(
            entry.get("found_on"), entry.get("impact"), tuple(entry.get("departures", []))
        )
    return found


def _streams(table: Any, where: str) -> dict[str, tuple[RecordedStream, ...]]:
    if not isinstance(table, dict):
        raise UsageError(f"baseline {where}: [streams] is {table!r}, expected a table")
    found: dict[str, tuple[RecordedStream, ...]] = {}
    for rule_id, entries in table.items():
        if not (
            isinstance(entries, list)
            and len(entries) <= STREAMS_PER_ENTRY
            and all(_is_stream(e) for e in entries)
        ):
            raise UsageError(
                f"baseline {where}: [streams] {rule_id!r} = {entries!r}; expected a list of at "
                f'most {STREAMS_PER_ENTRY} {{chunks = "[JSON]", expected = "JSON", '
                f'shape = "...", departures = [...]}}, each JSON text'
            )
        found[rule_id] = tuple(
            RecordedStream(
                e["chunks"],
                e.get("expected", "null"),
                e.get("shape"),
                tuple(e.get("departures", [])),
            )
            for e in entries
        )
    return found


def _is_stream(entry: Any) -> bool:
    if not (
        isinstance(entry, dict)
        and set(entry) <= {"chunks", "expected", "shape", "departures"}
        and isinstance(entry.get("chunks"), str)
        and isinstance(entry.get("expected", "null"), str)
        and entry.get("shape", SHAPES[0]) in SHAPES
        and _strings(entry.get("departures", []))
    ):
        return False
    try:
        json.loads(entry.get("expected", "null"))  # any JSON value: null for a crash
        return isinstance(json.loads(entry["chunks"]), list)
    except ValueError:
        return False


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def check_dialect(baseline: Baseline, dialect: Dialect) -> None:
    """Refuse a baseline written for another dialect than the run's.

    Raises:
        UsageError: the file gates another dialect; the message names both and how to
            check the file's own.
    """
    if baseline.dialect == dialect.name:
        return
    written = DIALECTS.get(baseline.dialect)
    named = f" ({written.title}, {written.spec})" if written is not None else ""
    raise UsageError(
        f"baseline {baseline.path} gates dialect {baseline.dialect}{named} (its `dialect` "
        f"key; a file without one gates {DEFAULT_DIALECT}), but this run checks "
        f"dialect {dialect.name} ({dialect.title}, {dialect.spec}); a baseline's rule ids "
        f"and features are its dialect's, so it cannot gate another. Check the dialect it "
        f"was written for (--dialect {baseline.dialect}), or record a baseline of "
        f"{dialect.name} with `refold baseline --write FILE`"
    )


def _dialect(data: Mapping[str, Any], where: str) -> Dialect:
    name = data.get("dialect", DEFAULT_DIALECT)
    if not isinstance(name, str) or name not in DIALECTS:
        raise UsageError(
            f"baseline {where}: `dialect` is {name!r}, expected one of "
            f"{', '.join(DIALECTS)} (or no key: {DEFAULT_DIALECT})"
        )
    return DIALECTS[name]


def _settings(table: Any, where: str) -> dict[str, str | int]:
    if not isinstance(table, dict):
        raise UsageError(f"baseline {where}: [settings] is {table!r}, expected a table")
    for key, value in table.items():
        kind = SETTINGS_KEYS.get(key)
        if kind is None:
            raise UsageError(
                f"baseline {where}: [settings] has unknown key {key!r}; expected "
                f"some of {sorted(SETTINGS_KEYS)}"
            )
        if not isinstance(value, kind) or isinstance(value, bool):
            raise UsageError(
                f"baseline {where}: [settings] {key} = {value!r}; expected "
                f"{'an integer' if kind is int else 'a string'}"
            )
    return dict(table)


def _fingerprints(table: Any, where: str) -> dict[str, frozenset[Fingerprint]]:
    if not isinstance(table, dict):
        raise UsageError(f"baseline {where}: [fingerprints] is {table!r}, expected a table")
    found: dict[str, frozenset[Fingerprint]] = {}
    for rule_id, entries in table.items():
        if not isinstance(entries, list) or not all(_is_fingerprint(e) for e in entries):
            raise UsageError(
                f"baseline {where}: [fingerprints] {rule_id!r} = {entries!r}; expected a list "
                f'of {{test = "module::name", kind = "...", pointers = ["/json/pointer"]}}'
            )
        found[rule_id] = frozenset(Fingerprint.from_json(e) for e in entries)
    return found


def _is_fingerprint(entry: Any) -> bool:
    return (
        isinstance(entry, dict)
        and set(entry) <= {"test", "kind", "pointers"}
        and isinstance(entry.get("test"), str)
        and isinstance(entry.get("kind"), str)
        and isinstance(entry.get("pointers", []), list)
        and all(isinstance(p, str) for p in entry.get("pointers", []))
    )


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
        raise UsageError(
            f"baseline {where}: `features` is {features!r}, expected a list of feature names"
        )
    return frozenset(features)


def _projection(data: Mapping[str, Any], where: str) -> dict[str, Any] | None:
    from ..run.projection import projection_of

    found = projection_of(data.get("projection"), origin=f"baseline {where}: [projection]")
    return None if found is None else found.record()


def _reasons(table: Any, where: str, name: str) -> dict[str, str]:
    if not isinstance(table, dict):
        raise UsageError(f"baseline {where}: [{name}] is {table!r}, expected a table")
    for key, reason in table.items():
        if not isinstance(reason, str) or not reason.strip():
            raise UsageError(
                f"baseline {where}: [{name}] {key!r} = {reason!r}; expected a "
                f"non-empty reason string"
            )
    return dict(table)


def _known(
    table: Mapping[str, str], known: Mapping[str, Any], where: str, name: str, what: str, hint: str
) -> None:
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise UsageError(f"baseline {where}: [{name}] names unknown {what}s {unknown} ({hint})")


def dump_baseline(baseline: Baseline, *, comment: str = "") -> str:
    """Render a baseline as TOML that `load_baseline` reads back to the same values."""
    lines = [f"# {line}".rstrip() for line in comment.splitlines()]
    lines.append(f"dialect = {_string(baseline.dialect)}")
    if baseline.fail_on is not None:
        lines.append(f"fail_on = {_string(baseline.fail_on)}")
    if baseline.target is not None:
        lines.append(f"target = {_string(baseline.target)}")
    if baseline.features is not None:
        vocabulary = DIALECTS[baseline.dialect].features if baseline.dialect in DIALECTS else ()
        ordered = [f for f in vocabulary if f in baseline.features]
        ordered += sorted(baseline.features - set(ordered))
        lines.append("features = [" + ", ".join(_string(f) for f in ordered) + "]")
    if baseline.projection is not None:
        pointers = ", ".join(_string(p) for p in baseline.projection["pointers"])
        lines += [
            "",
            "[projection]",
            f"pointers = [{pointers}]",
            f"builds = {_string(baseline.projection['builds'])}",
        ]
    if baseline.settings:
        lines += ["", "[settings]"]
        lines += [
            f"{key} = {_value(baseline.settings[key])}"
            for key in SETTINGS_KEYS
            if key in baseline.settings
        ]
    for name in _TABLES:
        table: dict[str, str] = getattr(baseline, name)
        if table:
            lines += ["", f"[{name}]"]
            lines += [f"{_string(key)} = {_string(table[key])}" for key in sorted(table)]
        if name == "expected_failures" and baseline.fingerprints:
            lines += ["", "[fingerprints]"]
            for rule_id in sorted(baseline.fingerprints):
                lines.append(f"{_string(rule_id)} = [")
                lines += [f"  {_inline(f)}," for f in sorted(baseline.fingerprints[rule_id])]
                lines.append("]")
        if name == "expected_failures":
            lines += _verdict_lines(baseline.verdicts) + _stream_lines(baseline.streams)
    return "\n".join(lines) + "\n"


def _verdict_lines(verdicts: Mapping[str, EntryVerdict]) -> list[str]:
    recorded = {r: v for r, v in verdicts.items() if v != EntryVerdict()}
    if not recorded:
        return []
    lines = ["", "[verdicts]"]
    for rule_id in sorted(recorded):
        verdict = recorded[rule_id]
        fields = [
            f"{key} = {_string(value)}"
            for key, value in (("found_on", verdict.found_on), ("impact", verdict.impact))
            if value
        ]
        fields.append(f"departures = {_strings_list(verdict.departures)}")
        lines.append(f"{_string(rule_id)} = {{{', '.join(fields)}}}")
    return lines


def _stream_lines(streams: Mapping[str, tuple[RecordedStream, ...]]) -> list[str]:
    kept = {rule_id: found for rule_id, found in streams.items() if found}
    if not kept:
        return []
    lines = ["", "[streams]"]
    for rule_id in sorted(kept):
        lines.append(f"{_string(rule_id)} = [")
        for stream in kept[rule_id]:
            fields = [
                f"chunks = {_json_string(stream.chunks)}",
                f"expected = {_json_string(stream.expected)}",
            ]
            if stream.shape is not None:
                fields.append(f"shape = {_string(stream.shape)}")
            fields.append(f"departures = {_strings_list(stream.departures)}")
            lines.append(f"  {{{', '.join(fields)}}},")
        lines.append("]")
    return lines


def _strings_list(values: tuple[str, ...]) -> str:
    return "[" + ", ".join(_string(v) for v in values) + "]"


def _inline(fingerprint: Fingerprint) -> str:
    pointers = ", ".join(_string(p) for p in fingerprint.pointers)
    return (
        f"{{test = {_string(fingerprint.test)}, kind = {_string(fingerprint.kind)}, "
        f"pointers = [{pointers}]}}"
    )


def _value(value: str | int) -> str:
    return str(value) if isinstance(value, int) else _string(value)


_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f]')


_NOT_LITERAL = re.compile(r"['\x00-\x08\x0a-\x1f\x7f]")


def _json_string(text: str) -> str:
    """JSON text as a TOML literal string ('...': its quotes read as they are) when it
    can be one, else as a basic string."""
    return f"'{text}'" if not _NOT_LITERAL.search(text) else _string(text)


def _string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""

    def escape(match: re.Match[str]) -> str:
        char = match.group()
        return _ESCAPES.get(char, f"\\u{ord(char):04x}")

    return '"' + _NEEDS_ESCAPE.sub(escape, text) + '"'
