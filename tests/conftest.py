"""How the project's tests are spread over pytest-xdist workers (and one unused plugin
kept out of the pytest processes they start, below).

Several modules compute an expensive module-scoped fixture once for all their tests: the
suite-strength modules run whole suites against every broken example, others run one
suite subprocess and read its results in many tests. Under xdist's default `load`
scheduling each worker that receives one of those tests computes the fixture again, so
`pytest -n 2` ran every whole-suite run twice, four at a time on two cores.

So, when `-n` chose `load` (an explicit `--dist` is left alone), the tests of a module
that defines a module-scoped fixture go to one worker, as one unit of work, and every
other test is its own unit, as under `load`. Units are handed out largest first, so the
long modules start early instead of ending the run. (xdist's own `loadgroup` would do
this with marks, but pytest 9.2 ignores the node-id suffix it relies on.)
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

_TESTS = Path(__file__).resolve().parent

# langsmith, installed with langchain for the SDK targets, registers a pytest plugin that
# imports its client on every pytest start: about a second of CPU in each of the hundreds
# of pytest processes these tests start (`refold check`, `pytest --target=...`), four in
# ten of tests/test_replay.py's time. No test uses it; the processes inherit the block.
os.environ["PYTEST_ADDOPTS"] = " ".join(
    part for part in (os.environ.get("PYTEST_ADDOPTS", ""), "-p no:langsmith_plugin") if part
)


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config, "workerinput", None) is not None:
        return  # a worker runs what the controller's scheduler sends it
    if getattr(config.option, "dist", "no") == "load" and not _dist_given(config):
        config.pluginmanager.register(_ModuleUnits(), "refold-module-units")


def _dist_given(config: pytest.Config) -> bool:
    return any(arg.startswith(("--dist", "-d")) for arg in config.invocation_params.args)


@cache
def _modules_with_module_fixtures() -> frozenset[str]:
    """The test files (names) that define a module-scoped fixture."""
    return frozenset(
        path.name
        for path in _TESTS.glob("test_*.py")
        if 'scope="module"' in path.read_text(encoding="utf-8")
    )


class _ModuleUnits:
    """Provides xdist's scheduler (a hook that exists only where xdist is installed)."""

    @staticmethod
    def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
        from xdist.scheduler import LoadScopeScheduling

        class Scheduling(LoadScopeScheduling):  # type: ignore[misc]
            def _split_scope(self, nodeid: str) -> str:
                module = nodeid.split("::", 1)[0]
                return (
                    module
                    if Path(module).name in _modules_with_module_fixtures()
                    and Path(module).parent.name == _TESTS.name
                    else nodeid
                )

        return Scheduling(config, log)
