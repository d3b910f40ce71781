"""mutmut's spinner output becomes a few progress lines, however the pipe splits it."""

from __future__ import annotations

import io

from refold.mutation._progress import ProgressRelay

OUTPUT = (
    "⠋ Generating mutants\r⠙ Generating mutants\r    done in 12ms\n"
    "⠋ Running stats\r⠙ Running stats\n"
    "🎉 pkg.x_f__mutmut_1\n🙁 pkg.x_f__mutmut_2\n⏰ pkg.x_g__mutmut_1\n"
    "🎉 pkg.x_g__mutmut_2\n⠋ 4/4  🎉 2 🫥 0  ⏰ 1  🤔 0  🙁 1  🔇 0\r"
)


def test_verdicts_are_tallied_and_phases_printed_once_whatever_the_read_size() -> None:
    for size in (1, 3, 7, 64, len(OUTPUT)):
        out = io.StringIO()
        relay = ProgressRelay(out, lambda: 4, every=3600.0)
        for start in range(0, len(OUTPUT), size):
            relay.feed(OUTPUT[start : start + size])
        relay.finish()
        assert relay.tally == {"killed": 2, "survived": 1, "timeout": 1}, size
        lines = out.getvalue().splitlines()
        assert lines[:2] == ["mutmut: Generating mutants", "mutmut: Running stats"], size
        assert lines[-1] == "mutants checked: 4/4 (2 killed, 1 survived, 1 timeout)", size
        assert list(relay.tail) == ["done in 12ms"], size


def test_mutmuts_live_status_line_is_reported_while_mutants_run() -> None:
    out = io.StringIO()
    relay = ProgressRelay(out, lambda: 66, every=0.0)
    relay.feed("⠋ Running mutation testing\r⠙ 12/66  🎉 10 🫥 0  ⏰ 1  🤔 0  🙁 1  🔇 0\r")
    assert out.getvalue().splitlines() == [
        "mutmut: Running mutation testing",
        "mutants checked: 12/66 (10 killed, 1 survived, 1 timeout)",
    ]
