"""A run that ends before every selected test reported is not a verdict.

An interrupt (a target raising KeyboardInterrupt in `--in-process` mode, Ctrl-C), an
internal error, `-x`, or anything that stops the session early leaves selected tests
without a result. The table then shows what ran, this plugin adds a line saying how many
tests never reported, and a run that would have exited 0 exits 2 (interrupted) instead,
so a gate on the exit status cannot pass a target that never answered.
"""

from __future__ import annotations

from typing import Any

import pytest

from .marks import rules_of_item

__all__ = ["CompletionWatch"]


class CompletionWatch:
    """Counts the selected tests and those that reported a result (registered by the plugin
    in a run that is not an xdist worker's: the controller judges the whole run)."""

    def __init__(self) -> None:
        self.selected: int | None = None
        self._watched: set[str] = set()
        self.reported: set[str] = set()
        self.message: str | None = None

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        config = session.config
        if config.pluginmanager.has_plugin("dsession") or config.option.collectonly:
            return  # xdist's controller collects nothing itself; it reports lost workers
        # Only conformance tests (marked with rules): the plugin is inert elsewhere.
        self._watched = {item.nodeid for item in session.items if rules_of_item(item)}
        self.selected = len(self._watched) or None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.nodeid in self._watched and (
                report.when == "call" or (report.when == "setup" and not report.passed)):
            self.reported.add(report.nodeid)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.selected is None or len(self.reported) >= self.selected:
            return
        if exitstatus == pytest.ExitCode.USAGE_ERROR:
            return  # the run was refused (its message says why), not cut short
        missing = self.selected - len(self.reported)
        self.message = (f"refold: the run ended before every selected test reported: "
                        f"{len(self.reported)} of {self.selected} reported, {missing} never "
                        f"ran to a result (pytest exit status {int(exitstatus)}); the "
                        f"results above are incomplete")
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.INTERRUPTED

    @pytest.hookimpl(trylast=True)  # after the table
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.message is not None:
            terminalreporter.write_line(self.message, red=True, bold=True)
