"""Replay files: one JSON file per failed rule, enough to re-run exactly its failure.

When a rule fails, its verdict rests on one `ConformanceFailure` (for a property, the
minimal example after shrinking); the plugin writes its `<rule>-<hash>.json` into the
replay folder:

    {"refold_replay": 1, "refold_version", "dialect", "target",
     "test": {"module", "name"}, "rules", "summary", "chunks", "expected", "received",
     "differences", "target_error", "case", "hypothesis": {"version", "reproduce_failure", "seed",
     "profile", "shrunk", "ceiling"?}}

`pytest --replay FILE --target X` (or `refold replay FILE --target X`) selects the
recorded test and re-runs the case. When the failure compared a fold with an expected
response (`"case": "fold"`), it folds the recorded chunks and compares them with the
recorded expected response, whatever Hypothesis would draw today; otherwise
(`"case": "test"`) it re-runs the test itself with the recorded `@reproduce_failure`
blob or seed, applied to the test when it is a `@given` test and to the state machine it
runs when it is not (Hypothesis reads the blob from the machine class), without
shrinking when the failure was recorded unshrunk, and under the shape ceiling it was found
under (`"ceiling"`: "documented" or "observed"; see `refold.run.search`).

A run writes one replay file per failed rule, at its end: the replay of the failure the
rule's verdict rests on (`refold.verdicts.found_on.rule_verdict`), so two rules resting on one
failure share its file.

`dialect` names the dialect of the recorded rules (`recorded_dialect`); a file written
before dialects has none and is `refold.reference.UNNAMED_DIALECT`'s. The chunks are the
stream's items whatever the dialect calls them (`"chunks"` holds an Anthropic run's events too).

A replay file is data: it travels in bug reports, so on its own it never starts a
process or imports a file. Its recorded target is used only when it is one of refold's
built-in names (`reference`, `openai`, ...); any other target must be given again with
`--target`, and the refusal shows the recorded one (`recorded_target`).

Nothing persisted may carry a credential or a provider's in-memory frame, and nothing a
target answers is kept whole: the failure is recorded through `persistable`
(`refold.reference`: one scrubber for every persisted document, then the size caps), and
its message is rendered from that scrubbed, bounded copy (`refold.records.failures`, whose
names this module re-exports).
"""

from __future__ import annotations

import ast
import base64
import binascii
import contextlib
import hashlib
import json
import re
import shlex
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from refold import __version__
from refold.reference import (
    ABSENT,
    JSON,
    REDACTED,
    cut_text,
    escape_controls,
    persistable,
    scrub,
)

from ..dialects import DEFAULT_DIALECT, DIALECTS, Dialect, dialect_of_rule
from ..errors import UsageError
from ..run.checks import ConformanceFailure
from ..targets import BUILTIN_TARGETS
from .bounded import json_document, read_regular_file
from .failures import (
    decode_failure,
    decode_failures,
    encode_failure,
    encode_failures,
    failure_record,
    kept,
)
from .redaction import redact

__all__ = [
    "REPLAY_FORMAT",
    "SCRUBBED",
    "decode_failure",
    "decode_failures",
    "encode_failure",
    "encode_failures",
    "failure_record",
    "kept",
    "read_replay",
    "recorded_dialect",
    "recorded_target",
    "replay_content",
    "replays_fold",
    "reproduce_blob",
    "reproducing",
    "scrub",
    "write_replay",
    "write_replay_content",
]

REPLAY_FORMAT = 1
SCRUBBED = REDACTED
"""What a credential is replaced with (`refold.reference.REDACTED`)."""
_REPRODUCE = re.compile(r"@reproduce_failure\('([^']+)', (b'[^']*'|b\"[^\"]*\")\)")

MAX_REPLAY_BYTES = 16 * 1024 * 1024
"""The largest replay file read: refold writes bounded records (a few hundred kB at most)."""

MAX_BLOB_BYTES = 256 * 1024
"""The longest `reproduce_failure` blob read, as text (a shrunk failure's is a few kB)."""

MAX_BLOB_CHOICE_BYTES = 4 * 1024 * 1024
"""The most a blob may decompress to (Hypothesis's own cap on a test case's choices is far
below it); a blob past it is refused before Hypothesis inflates it whole."""


def reproduce_blob(
    exc: BaseException, failure: BaseException | None = None
) -> tuple[str, bytes] | None:
    """The `@reproduce_failure` version and blob Hypothesis noted on the failure, if any:
    on `failure` (one of the failures `exc` holds) or, when it carries none, on the
    nearest exception holding it."""
    for holder in _path_to(exc, failure) if failure is not None else [exc]:
        for note in getattr(holder, "__notes__", ()):
            match = _REPRODUCE.search(note)
            if match:
                return match.group(1), ast.literal_eval(match.group(2))
    return None


def _path_to(exc: BaseException, failure: BaseException) -> list[BaseException]:
    """`failure`, then each exception group holding it up to `exc` ([] if none does)."""
    if exc is failure:
        return [exc]
    for inner in exc.exceptions if isinstance(exc, BaseExceptionGroup) else ():
        found = _path_to(inner, failure)
        if found:
            return [*found, exc]
    return []


def write_replay(
    directory: Path,
    failure: ConformanceFailure,
    *,
    target: str,
    test: dict[str, str],
    hypothesis: dict[str, Any],
    dialect: Dialect | None = None,
) -> Path:
    """Write the failure's replay file into `directory`; return its path.

    `dialect` is the run's; by default, that of the failure's rules (ids are unique
    across dialects), else the default dialect."""
    return write_replay_content(
        directory,
        replay_content(failure, target=target, test=test, hypothesis=hypothesis, dialect=dialect),
    )


def replay_content(
    failure: ConformanceFailure,
    *,
    target: str,
    test: dict[str, str],
    hypothesis: dict[str, Any],
    dialect: Dialect | None = None,
) -> dict[str, Any]:
    """What the failure's replay file holds (scrubbed, bounded, plain JSON): made where
    the failure happened (an xdist worker), written where the run's verdicts are known."""
    failure = kept(failure)
    owner = dialect or next(
        (found for found in map(dialect_of_rule, failure.rules) if found), DIALECTS[DEFAULT_DIALECT]
    )
    content: dict[str, Any] = persistable(
        redact(
            {
                "refold_replay": REPLAY_FORMAT,
                "refold_version": __version__,
                "dialect": owner.name,
                "target": target,
                "test": test,
                "rules": list(failure.rules),
                "summary": failure.summary,
                "chunks": failure.chunks,
                "expected": failure.expected,
                "received": failure.received,
                "differences": [
                    _difference(d.pointer, d.expected, d.received) for d in failure.differences
                ],
                "target_error": failure.target_error,
                **({} if failure.diagnosis is None else {"diagnosis": failure.diagnosis}),
                "case": "fold" if failure.compared_fold else "test",
            }
        )
    )
    # Drawn by Hypothesis, not the target; a long blob must survive whole to replay.
    content["hypothesis"] = hypothesis
    return content


def write_replay_content(directory: Path, content: dict[str, Any]) -> Path:
    """Write a replay file's content into `directory`, named after its first rule and
    its digest (the same content, the same file); return its path."""
    # JSON escapes C0; DEL and C1 (a terminal obeys U+009B) as JSON escapes too.
    text = (
        escape_controls(json.dumps(content, indent=1, ensure_ascii=False, allow_nan=False)) + "\n"
    )
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    rules = content.get("rules")
    rule = str(rules[0]) if isinstance(rules, list) and rules else "no-rule"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{rule}-{digest}.json"
    path.write_text(text, encoding="utf-8")
    return path


def _difference(pointer: str, expected: JSON, received: JSON) -> dict[str, JSON]:
    entry: dict[str, JSON] = {"pointer": pointer}
    if expected is not ABSENT:
        entry["expected"] = expected
    if received is not ABSENT:
        entry["received"] = received
    return entry


def read_replay(path: str | Path) -> dict[str, Any]:
    """Read and check a replay file.

    Raises:
        UsageError: the file is missing, not JSON, or not a refold replay file.
    """
    data = read_regular_file(path, limit=MAX_REPLAY_BYTES, what="replay file")
    content = json_document(
        data, where=f"replay file {path}", expected="a replay file as refold writes it"
    )
    if not isinstance(content, dict) or content.get("refold_replay") != REPLAY_FORMAT:
        raise UsageError(
            f"{path} is not a refold replay file (format {REPLAY_FORMAT}): "
            f'expected an object with "refold_replay": {REPLAY_FORMAT}'
        )
    test = content.get("test")
    if not (
        isinstance(test, dict)
        and isinstance(test.get("module"), str)
        and isinstance(test.get("name"), str)
    ):
        raise UsageError(
            f'replay file {path}: `test` is {test!r}, expected {{"module": ..., "name": ...}}'
        )
    _check_blob(path, content)
    return content


def _check_blob(path: str | Path, content: dict[str, Any]) -> None:
    """The recorded `@reproduce_failure` arguments parse, so the replay can use them."""
    hypothesis = content.get("hypothesis")
    recorded = hypothesis.get("reproduce_failure") if isinstance(hypothesis, dict) else None
    if recorded is None:
        return
    where = (
        f"replay file {path}: hypothesis.reproduce_failure is {cut_text(json.dumps(recorded), 200)}"
    )
    if not (
        isinstance(recorded, list)
        and len(recorded) == 2
        and all(isinstance(part, str) for part in recorded)
    ):
        raise UsageError(
            f"{where}; expected null or [version, blob], the two arguments "
            f"Hypothesis prints as @reproduce_failure('6.x.y', b'...')"
        )
    try:
        blob = ast.literal_eval(recorded[1])
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        blob = None
    if not isinstance(blob, bytes):
        raise UsageError(
            f"{where}; its blob is not a bytes literal, expected b'...' as Hypothesis prints it"
        )
    _check_blob_size(where, blob)
    try:
        from hypothesis.core import decode_failure
    except ImportError:  # another Hypothesis: it checks the blob itself when it runs
        return
    try:
        decode_failure(blob)
    except Exception as exc:
        raise UsageError(
            f"{where}; Hypothesis cannot decode the blob ({exc}), so the file was damaged or edited"
        ) from exc


def _check_blob_size(where: str, blob: bytes) -> None:
    """Refuse a blob whose choices would take more than `MAX_BLOB_CHOICE_BYTES` once
    decompressed, before Hypothesis decompresses it whole (a zlib bomb costs gigabytes)."""
    if len(blob) > MAX_BLOB_BYTES:
        raise UsageError(
            f"{where}; its blob is {len(blob)} bytes, more than the "
            f"{MAX_BLOB_BYTES} a recorded failure's blob may be"
        )
    try:
        decoded = base64.b64decode(blob, validate=False)
    except (ValueError, binascii.Error) as exc:
        raise UsageError(f"{where}; its blob is not base64 ({exc})") from exc
    if decoded[:1] != b"\1":
        return
    inflate = zlib.decompressobj()
    try:
        inflate.decompress(decoded[1:], MAX_BLOB_CHOICE_BYTES)
    except zlib.error as exc:
        raise UsageError(f"{where}; its blob is not valid zlib data ({exc})") from exc
    if inflate.unconsumed_tail:
        raise UsageError(
            f"{where}; its blob decompresses to more than "
            f"{MAX_BLOB_CHOICE_BYTES} bytes of choices, more than any recorded "
            f"failure takes: refused unread (a damaged or hostile file)"
        )


def blob_of(content: dict[str, Any]) -> tuple[str, bytes] | None:
    """The recorded `@reproduce_failure` arguments, decoded."""
    recorded = (content.get("hypothesis") or {}).get("reproduce_failure")
    if not (isinstance(recorded, list) and len(recorded) == 2):
        return None
    return str(recorded[0]), ast.literal_eval(recorded[1])


def replays_fold(content: dict[str, Any]) -> bool:
    """Whether the case is re-run by refolding its chunks (else by re-running the test).

    Files written before `case` was recorded refold when they hold an expected response
    and no blob: a blob re-runs the test exactly, a state machine's included.
    """
    case = content.get("case")
    if case is not None:
        return bool(case == "fold")
    return isinstance(content.get("expected"), dict) and blob_of(content) is None


@contextlib.contextmanager
def reproducing(function: Callable[..., Any], content: dict[str, Any]) -> Iterator[None]:
    """Run `function` with the recorded `@reproduce_failure` blob (or seed) applied.

    A `@given` test reads them from itself; a test that runs a state machine reads
    them from the machine class (`run_state_machine_as_test` copies them from there),
    so for the one test a replay runs they are set on every machine, then removed.
    """
    from hypothesis import is_hypothesis_test
    from hypothesis.stateful import RuleBasedStateMachine

    blob = blob_of(content)
    seed = (content.get("hypothesis") or {}).get("seed")
    attribute, value = (
        ("_hypothesis_internal_use_reproduce_failure", blob)
        if blob
        else ("_hypothesis_internal_use_seed", seed)
    )
    holder: Any = function if is_hypothesis_test(function) else RuleBasedStateMachine
    if value is None:
        yield
        return
    setattr(holder, attribute, value)
    try:
        yield
    finally:
        if holder is RuleBasedStateMachine:
            delattr(holder, attribute)


def recorded_dialect(path: str | Path, content: dict[str, Any]) -> Dialect:
    """The dialect a replay file records (`refold.reference.UNNAMED_DIALECT` for a file
    written before dialects existed).

    Raises:
        UsageError: it names no dialect refold checks; the message lists those it does.
    """
    name = content.get("dialect", DEFAULT_DIALECT)
    if isinstance(name, str) and name in DIALECTS:
        return DIALECTS[name]
    raise UsageError(
        f"replay file {path} records the dialect {cut_text(repr(name), 80)}, which refold "
        f"does not check; expected one of {', '.join(DIALECTS)} (or no `dialect` key, for "
        f"a file written before dialects: {DEFAULT_DIALECT})"
    )


def recorded_target(path: str | Path, content: dict[str, Any], *, command: str) -> str:
    """The replay's recorded target if it runs no foreign code, else a usage error.

    `command` is how the user re-runs the file (`refold replay FILE`), for the message.

    Raises:
        UsageError: the target is not a built-in name: it is shown with the command
            that runs it, and never loaded from the file alone.
    """
    target = content.get("target")
    if isinstance(target, str) and target in BUILTIN_TARGETS:
        return target
    shown = target if isinstance(target, str) else repr(target)
    where = ""
    if isinstance(target, str) and _missing_relative_path(target):
        where = (
            f" It is a relative path that does not exist from {Path.cwd()}: the "
            f"replay was made in another folder, so give the path from here."
        )
    raise UsageError(
        f"replay file {path} records the target {shown}, which is not a built-in target; "
        f"a replay file is data from elsewhere and never starts a process or imports a file "
        f"on its own.{where} To run it, pass the target again: "
        f"{command} --target {shlex.quote(shown)}"
    )


def _missing_relative_path(target: str) -> bool:
    if target.startswith(("exec:", "http://", "https://")):
        return False
    looks_like_path = "/" in target or target.endswith(".py")
    return looks_like_path and not Path(target).is_absolute() and not Path(target).exists()
