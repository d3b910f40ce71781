"""Every rule a committed report says an SDK fails on documented streams (verdicts.md §2) is
shown on a documented minimal stream that the SDK really folds wrongly (issue 24, "done
means"): the stream recorded in the report validates against the provider's own
definitions, and fed to the SDK's built-in target again, it fails the rule's check.

A rule of the wire (feature `sse`) is recorded with the events its bytes carried: they are
framed again as the provider documents (`event: <type>`, one `data:` line), which is the
framing a wire failure found on documented bytes had.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from refold.dialects import dialect
from refold.run.checks import Check, ConformanceFailure
from refold.targets import load_target
from refold.verdicts.found_on import shape_of

REPORTS = Path(__file__).resolve().parents[3] / "reports" / "conformance"

SDKS = {
    "openai": "openai",
    "anthropic": "anthropic",
    "anthropic-ts": "anthropic-ts",
    "openai-responses": "openai-responses",
    "openai-node-responses": "openai-node-responses",
}
"""The report directory prefix of each SDK the issue names, and its built-in target."""

_NODE = {"anthropic-ts", "openai-node-responses"}


def _report(prefix: str) -> dict[str, Any]:
    [directory] = [
        p
        for p in REPORTS.iterdir()
        if p.is_dir() and p.name.startswith(prefix) and p.name[len(prefix) + 1 :][:1].isdigit()
    ]
    loaded: dict[str, Any] = json.loads((directory / "results.json").read_text("utf-8"))
    return loaded


def _on_documented(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        rule_id: rule
        for rule_id, rule in results["rules"].items()
        if rule["status"] == "failed" and rule.get("found_on") == "documented"
    }


def _framed(events: list[Any]) -> list[bytes]:
    return [f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events]


def _fails(check: Check, rule: dict[str, Any]) -> bool:
    chunks = rule["failure"]["chunks"]
    try:
        if rule["feature"] == "sse":
            check.decoded(_framed(chunks))
        else:
            check.folds_like_reference(chunks)
    except ConformanceFailure:
        return True
    return False


@pytest.mark.parametrize("prefix", sorted(SDKS))
def test_every_rule_failing_on_documented_streams_fails_again_on_its_documented_stream(
    prefix: str,
) -> None:
    if prefix in _NODE and shutil.which("node") is None:
        pytest.skip("Node.js is not installed: the target runs the SDK under Node.js")
    results = _report(prefix)
    documented = _on_documented(results)
    assert documented or prefix == "openai-node-responses", f"{prefix}: none on documented"
    of = dialect(results["dialect"]["name"])
    target = load_target(SDKS[prefix])
    try:
        for rule_id, rule in documented.items():
            chunks = rule["failure"]["chunks"]
            shape = shape_of(of, chunks)
            assert shape.shape == "documented", f"{prefix} {rule_id}: {shape.describe()}"
            check = Check(target)
            check.rules = (rule_id,)
            assert _fails(check, rule), f"{prefix} {rule_id}: the SDK folds its stream right"
    finally:
        target.close()
