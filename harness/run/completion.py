"""A run that ends before every selected test reported, or that judged nothing, is not a
verdict.

An interrupt (a target raising KeyboardInterrupt in `--in-process` mode, Ctrl-C), an
internal error, `-x`, or anything that stops the session early leaves selected tests
without a result. The table then shows what ran, this plugin adds a line saying how many
tests never reported, and a run that would have exited 0 exits 2 (interrupted) instead,
so a gate on the exit status cannot pass a target that never answered.

A run in which every selected test was skipped or not judged (the target claims no
feature they check, its projection leaves their rules unjudged, the baseline skips them,
every case of a corpus was skipped) judged no rule: it exits 5 (`NOTHING_JUDGED`, pytest's
"no tests ran") with a line saying so, never 0.
"""

from __future__ import annotations

from typing import Any

import pytest

from ..records.results import recorded_property
from .marks import rules_of_item

__all__ = ["NOTHING_JUDGED", "CompletionWatch"]

NOTHING_JUDGED = pytest.ExitCode.NO_TESTS_COLLECTED
"""The exit status of a run whose selected tests were all skipped or not judged."""


class CompletionWatch:
    """Counts the selected tests, those that reported a result and those that judged their
    rules (registered by the plugin in a run that is not an xdist worker's: the controller
    judges the whole run)."""

    def __init__(self) -> None:
        self.selected: int | None = None
        self._watched: set[str] = set()
        self.reported: set[str] = set()
        self.ran: set[str] = set()
        """Conformance tests that reported a result (on the xdist controller too)."""
        self.judged: set[str] = set()
        """Those that passed, failed or failed as expected: each judged its rules."""
        self.message: str | None = None

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        config = session.config
        if config.pluginmanager.has_plugin("dsession") or config.option.collectonly:
            return  # xdist's controller collects nothing itself; it reports lost workers
        # Only conformance tests (marked with rules): the plugin is inert elsewhere.
        self._watched = {item.nodeid for item in session.items if rules_of_item(item)}
        self.selected = len(self._watched) or None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        result = report.when == "call" or (report.when == "setup" and not report.passed)
        if result and report.nodeid in self._watched:
            self.reported.add(report.nodeid)
        if result and recorded_property(report, "rules"):
            self.ran.add(report.nodeid)
            if not report.skipped or hasattr(report, "wasxfail"):
                self.judged.add(report.nodeid)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if exitstatus == pytest.ExitCode.USAGE_ERROR:
            return  # the run was refused (its message says why)
        if self.selected is None or len(self.reported) >= self.selected:
            self._nothing_judged(session)
            return
        missing = self.selected - len(self.reported)
        self.message = (
            f"refold: the run ended before every selected test reported: "
            f"{len(self.reported)} of {self.selected} reported, {missing} never "
            f"ran to a result (pytest exit status {int(exitstatus)}); the "
            f"results above are incomplete"
        )
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.INTERRUPTED

    def _nothing_judged(self, session: pytest.Session) -> None:
        if self.judged or not self.ran:
            return
        self.message = (
            f"refold: no rule was judged: every one of the {len(self.ran)} "
            f"selected tests was skipped or not judged (see the reasons above), "
            f"so this run is no verdict on the target; exit status "
            f"{int(NOTHING_JUDGED)}"
        )
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = NOTHING_JUDGED

    @pytest.hookimpl(trylast=True)  # after the table
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.message is not None:
            terminalreporter.write_line(self.message, red=True, bold=True)
