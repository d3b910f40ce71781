"""A pytest plugin (`-p refold.mutation._rulemap`) for the run before mutation: it
records each test's rule ids and which tests fail on the unmutated target.

The file named by the `REFOLD_RULE_MAP` environment variable receives
`{"rules": {node id: [rule id, ...]}, "failed": [node id, ...]}`; node ids are
relative to the work dir, as in mutmut's `mutmut-stats.json`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

__all__ = ["ENVIRONMENT_VARIABLE"]

ENVIRONMENT_VARIABLE = "REFOLD_RULE_MAP"

_rules: dict[str, list[str]] = {}
_failed: list[str] = []


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        rule_ids = [str(r) for mark in item.iter_markers("rule") for r in mark.args]
        _rules[item.nodeid] = list(dict.fromkeys(rule_ids))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.failed and report.nodeid not in _failed:
        _failed.append(report.nodeid)


def pytest_sessionfinish() -> None:
    destination = os.environ.get(ENVIRONMENT_VARIABLE)
    if destination:
        Path(destination).write_text(
            json.dumps({"rules": _rules, "failed": _failed}), encoding="utf-8"
        )
