"""The HTML report renders in a real browser: headless Chromium takes a screenshot of a
page with every section, and the page must paint (docs/mutation.md, "Look at it").

Skipped when Chromium is not installed (Debian: `apt-get install chromium`).
"""

from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from test_reports_escaping import results_with
from test_reports_formats import MUTATION

from refold.reports import record_history, write_all

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WIDTH, HEIGHT = 1200, 1600


def screenshot(page: Path, png: Path, profile: Path) -> None:
    """Render `page` with headless Chromium into `png` (the documented command)."""
    assert CHROMIUM is not None
    subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            f"--screenshot={png}",
            f"--window-size={WIDTH},{HEIGHT}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_the_html_report_paints_a_full_page_in_headless_chromium(tmp_path: Path) -> None:
    history = tmp_path / "history"
    for day, score in ((1, 88.0), (2, 93.5)):
        record_history(
            {"started": f"2026-11-0{day}T00:00:00", "failed_rules": 3 - day, "score": score},
            history,
        )
    write_all(
        results_with("<script>alert(1)</script>"),
        tmp_path / "out",
        mutation=MUTATION,
        history=history,
    )
    png = tmp_path / "report.png"
    screenshot(tmp_path / "out" / "report.html", png, tmp_path / "chromium-profile")
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (WIDTH, HEIGHT)
    # A blank page compresses to a few kilobytes; text, tables and the plot do not.
    assert len(data) > 30_000, f"screenshot is {len(data)} bytes: did the page paint?"
