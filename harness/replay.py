"""Replay files: one JSON file per conformance failure, enough to re-run exactly that case.

When a test fails with a `ConformanceFailure` (for a property, the minimal example after
shrinking), the plugin writes `<rule>-<hash>.json` into the replay folder:

    {"refold_replay": 1, "refold_version", "target", "test": {"module", "name"},
     "rules", "summary", "chunks", "expected", "received", "differences",
     "target_error", "hypothesis": {"version", "reproduce_failure", "seed", "profile",
     "shrunk"}}

`pytest --replay FILE` (or `refold replay FILE`) selects the recorded test and re-runs
the case: when the failure compared a fold with an expected response, it folds the
recorded chunks and compares them with the recorded expected response, whatever
Hypothesis would draw today; otherwise it re-runs the test itself with the recorded
`@reproduce_failure` blob or seed (without shrinking when the failure was recorded
unshrunk, see `refold.search`).

Nothing persisted may carry a credential or a provider's in-memory frame: `scrub` drops
`opaque` keys, replaces the values of credential-named keys and any string that looks
like an API key or a bearer token. (A key named exactly `token` is kept: logprobs
entries use it for the sampled text.)
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from refold import __version__
from refold.reference import ABSENT, JSON

from .bounded import bounded_json
from .checks import ConformanceFailure
from .errors import UsageError

__all__ = ["REPLAY_FORMAT", "decode_failure", "encode_failure", "failure_record", "read_replay",
           "reproduce_blob", "scrub", "write_replay"]

REPLAY_FORMAT = 1
SCRUBBED = "[scrubbed]"
_CREDENTIAL_KEY = re.compile(
    r"api[_-]?key|authorization|secret|password|passwd|credential|cookie|"
    r"(^|[_-])(access|refresh|auth|id|bearer|session|api)[_-]?token$|^x-api-", re.IGNORECASE)
_CREDENTIAL_VALUE = re.compile(
    r"\bsk-[A-Za-z0-9_\-]{16,}|\bBearer\s+[A-Za-z0-9._~+/=\-]{8,}|\bBasic\s+[A-Za-z0-9+/=]{8,}")
_PROVIDER_FRAME_KEYS = frozenset({"opaque"})
_REPRODUCE = re.compile(r"@reproduce_failure\('([^']+)', (b'[^']*'|b\"[^\"]*\")\)")


def scrub(value: JSON) -> JSON:
    """A copy of `value` without credentials or provider frames."""
    if isinstance(value, dict):
        return {key: SCRUBBED if _CREDENTIAL_KEY.search(key) else scrub(item)
                for key, item in value.items() if key not in _PROVIDER_FRAME_KEYS}
    if isinstance(value, list | tuple):
        return [scrub(item) for item in value]
    if isinstance(value, str):
        return _CREDENTIAL_VALUE.sub(SCRUBBED, value)
    return value


def failure_record(failure: ConformanceFailure) -> dict[str, Any]:
    """The failure as the results report carries it (scrubbed, plain JSON)."""
    first = failure.differences[0].pointer if failure.differences else None
    record: dict[str, Any] = scrub({
        "message": str(failure),
        "chunks": failure.chunks,
        "expected": failure.expected,
        "received": failure.received,
        "pointer": first,
    })
    return record


def encode_failure(failure: ConformanceFailure) -> str:
    """The failure record as a test report carries it: one bounded, plain JSON string.

    Under pytest-xdist the report crosses from a worker through execnet, which cannot
    serialise every value a record may hold (see `refold.bounded`).
    """
    return bounded_json(failure_record(failure))


def decode_failure(value: object) -> dict[str, Any] | None:
    """The record `encode_failure` wrote, or None when `value` is not one."""
    if not isinstance(value, str):
        return None
    try:
        record = json.loads(value)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def reproduce_blob(exc: BaseException) -> tuple[str, bytes] | None:
    """The `@reproduce_failure` version and blob Hypothesis noted on the failure, if any."""
    for note in getattr(exc, "__notes__", ()):
        match = _REPRODUCE.search(note)
        if match:
            return match.group(1), ast.literal_eval(match.group(2))
    return None


def write_replay(directory: Path, failure: ConformanceFailure, *, target: str,
                 test: dict[str, str], hypothesis: dict[str, Any]) -> Path:
    """Write the failure's replay file into `directory`; return its path."""
    content = scrub({
        "refold_replay": REPLAY_FORMAT,
        "refold_version": __version__,
        "target": target,
        "test": test,
        "rules": list(failure.rules),
        "summary": failure.summary,
        "chunks": failure.chunks,
        "expected": failure.expected,
        "received": failure.received,
        "differences": [_difference(d.pointer, d.expected, d.received)
                        for d in failure.differences],
        "target_error": failure.target_error,
        "hypothesis": hypothesis,
    })
    text = json.dumps(content, indent=1, ensure_ascii=False, default=repr) + "\n"
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    rule = failure.rules[0] if failure.rules else "no-rule"
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
    try:
        content = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"replay file {path}: cannot read it: {exc}") from exc
    except ValueError as exc:
        raise UsageError(f"replay file {path} is not JSON: {exc}") from exc
    if not isinstance(content, dict) or content.get("refold_replay") != REPLAY_FORMAT:
        raise UsageError(f"{path} is not a refold replay file (format {REPLAY_FORMAT}): "
                         f'expected an object with "refold_replay": {REPLAY_FORMAT}')
    test = content.get("test")
    if not (isinstance(test, dict) and isinstance(test.get("module"), str)
            and isinstance(test.get("name"), str)):
        raise UsageError(f"replay file {path}: `test` is {test!r}, expected "
                         f'{{"module": ..., "name": ...}}')
    return content


def blob_of(content: dict[str, Any]) -> tuple[str, bytes] | None:
    """The recorded `@reproduce_failure` arguments, decoded."""
    recorded = (content.get("hypothesis") or {}).get("reproduce_failure")
    if not (isinstance(recorded, list) and len(recorded) == 2):
        return None
    return str(recorded[0]), ast.literal_eval(recorded[1])
