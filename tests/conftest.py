"""How the project's tests are found and spread over pytest-xdist workers (and one
unused plugin kept out of the pytest processes they start, below).

The tests are grouped by area: `core/` (the shared kernel of the reference, the reports,
architecture and packaging), `harness/<room>/` (one folder per room of the harness) and
`dialects/<name>/` (one folder per dialect; a test about every dialect sits in
`dialects/` itself). Folders are not packages: pytest imports each test module by its
base name with its folder first on `sys.path` (the default `prepend` import mode), so
base names stay unique across folders, and a helper module (`_*.py`) used by one folder's
tests sits in that folder. The helpers several folders use sit here, in `tests/`, which
this file puts on `sys.path` (below) for every module to import them by name.

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
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

_TESTS = Path(__file__).resolve().parent
if str(_TESTS) not in sys.path:
    sys.path.insert(0, str(_TESTS))  # the shared helpers: `from _suite_runs import ...`

# langsmith, installed with langchain for the SDK targets, registers a pytest plugin that
# imports its client on every pytest start: about a second of CPU in each of the hundreds
# of pytest processes these tests start (`refold check`, `pytest --target=...`), four in
# ten of tests/harness/records/test_replay.py's time. No test uses it; the processes
# inherit the block.
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
def _modules_with_module_fixtures() -> frozenset[Path]:
    """The test files (resolved paths, in every folder) that define a module-scoped fixture."""
    return frozenset(
        path
        for path in _TESTS.rglob("test_*.py")
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
                    if (config.rootpath / module).resolve() in _modules_with_module_fixtures()
                    else nodeid
                )

        return Scheduling(config, log)
