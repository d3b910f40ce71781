"""A refold run's console is compact by default (issue 24, "what people read"): one block
per failed rule (the rule, where it failed and what it costs, its message without
tracebacks, its minimal stream, the `refold replay` command), then the table and the
headline; pytest's traceback per failed test only with `-v`. Both `refold check` and
`pytest --target` print it."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "core"))  # test_reports_verdicts
from test_console_escaping import HOSTILE, _raw_controls
from test_reports_verdicts import VERDICTS, verdict_results

from refold.commands.check import pytest_arguments
from refold.records.results import RuleOutcome, RuleResults
from refold.reference.chat import RULES
from refold.run.console_summary import render_failed_rules, render_headline
from refold.run.table import render_rule_table

ROOT = Path(__file__).resolve().parents[3]
SUM_USAGE = ROOT / "examples" / "broken" / "sum_usage.py"
REFOLD = [sys.executable, "-m", "refold.cli"]
ONE_RULE = ["--rules", "USAGE-LAST", "--profile", "dev"]
NAIVE = '''
def fold(chunks):
    """The first chunk's fields only."""
    return dict(chunks[0]) if chunks and isinstance(chunks[0], dict) else {}
'''


def _blocks(text: str) -> list[str]:
    return [block for block in text.split("\n\n") if block]


def _block(document: dict[str, Any], rule_id: str = "TEXT-JOIN") -> str:
    blocks = _blocks(render_failed_rules(document, target="t", color=False))
    return next(block for block in blocks if block.startswith(f"{rule_id} "))


def test_each_failed_rule_gets_one_block_with_its_verdict_stream_and_replay_command() -> None:
    document = verdict_results()
    for rule_id in VERDICTS:
        document["rules"][rule_id]["failure"]["replay_file"] = f"refold-replays/{rule_id}.json"
    blocks = _blocks(render_failed_rules(document, target="my fold.py", color=False))
    assert [block.split(" ", 1)[0] for block in blocks] == [
        rule_id for rule_id in RULES if rule_id in VERDICTS
    ]
    for block in blocks:
        rule_id = block.split(" ", 1)[0]
        found_on, impact, _ = VERDICTS[rule_id]
        heading = block.splitlines()[0]
        assert heading.startswith(f"{rule_id} ({RULES[rule_id].feature}) · {found_on} · {impact}")
        assert f'      {{"id":"{rule_id}"}}' in block.splitlines()  # the minimal stream
        assert f"replay: refold replay refold-replays/{rule_id}.json --target 'my fold.py'" in block


def test_a_rule_sharing_an_earlier_rules_failure_points_at_its_block() -> None:
    document = verdict_results()
    shared = document["rules"]["TEXT-JOIN"]["failure"]
    document["rules"]["USAGE-LAST"]["failure"] = dict(shared)
    blocks = _blocks(render_failed_rules(document, target="t", color=False))
    usage = next(block for block in blocks if block.startswith("USAGE-LAST"))
    assert usage.splitlines()[1:] == ["    the same failure as TEXT-JOIN, above"]


def _with_message(message: str, chunks: list[Any]) -> dict[str, Any]:
    document = verdict_results()
    document["rules"]["TEXT-JOIN"]["failure"].update(message=message, chunks=chunks)
    return document


def test_a_block_leaves_the_targets_traceback_to_the_reports_and_keeps_what_it_raised() -> None:
    message = "\n".join(
        [
            "TEXT-JOIN (text): the target failed (raised)",
            "  openai: fold(chunks) raised KeyError: 'index'",
            "  Traceback (most recent call last):",
            '    File "/site-packages/refold/targets/worker.py", line 3, in serve',
            "      fold(chunks)",
            "  IndexError: list index out of range",
            "  ",
            "  During handling of the above exception, another exception occurred:",
            "  Traceback (most recent call last):",
            '    File "/site-packages/openai/_deltas.py", line 55, in accumulate_delta',
            "  KeyError: 'index'",
            "chunks (1, one JSON object per line):",
            '  {"id":"c"}',
        ]
    )
    document = _with_message(message, [{"id": "c"}])
    block = _block(document)
    assert "File " not in block and "IndexError" not in block
    assert "raised KeyError: 'index'" in block
    assert '      {"id":"c"}' in block.splitlines()


def test_a_long_minimal_stream_is_cut_to_its_first_items_with_a_count_of_the_rest() -> None:
    chunks = [{"n": n} for n in range(40)]
    message = "TEXT-JOIN (text): differs\nchunks (40, one JSON object per line):\n" + "\n".join(
        f'  {{"n":{n}}}' for n in range(40)
    )
    block = _block(_with_message(message, chunks))
    shown = [line for line in block.splitlines() if line.startswith('      {"n":')]
    assert shown == [f'      {{"n":{n}}}' for n in range(12)]
    assert "… 28 more" in block


def test_a_record_whose_message_lacks_its_stream_shows_the_stream_from_the_record() -> None:
    block = _block(verdict_results())
    assert block.splitlines()[1:3] == [
        "    TEXT-JOIN (text): differs",
        "    chunks (1, one JSON object per line):",
    ]


def test_blocks_and_headline_show_a_targets_control_characters_escaped() -> None:
    document = _with_message(f"TEXT-JOIN (text): {HOSTILE}", [{"content": HOSTILE}])
    document["target"]["name"] = HOSTILE
    shown = render_failed_rules(document, target=HOSTILE, color=False) + render_headline(document)
    assert _raw_controls(shown) == []
    assert "\\u001b]0;pwned" in shown


def test_a_document_written_before_shapes_gets_blocks_without_a_verdict() -> None:
    from test_reports_verdicts import before_shapes

    assert _block(before_shapes()).splitlines()[0] == "TEXT-JOIN (text)"


def test_the_table_row_of_a_failed_rule_names_its_recorded_shape_and_impact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import refold.records.report

    results = RuleResults()
    results.by_rule["TEXT-JOIN"] = outcome = RuleOutcome()
    outcome.mark_failed("TEXT-JOIN (text): differs")
    # failed with no failure recorded: nothing shows it on a documented stream
    assert "failed    0 tests · synthetic: TEXT-JOIN (text): differs" in _row(results, "TEXT-JOIN")
    build = refold.records.report.build_report

    def with_verdicts(*args: Any, **kwargs: Any) -> dict[str, Any]:
        report = build(*args, **kwargs)
        report["rules"]["TEXT-JOIN"].update(found_on="documented", impact="loss")
        return report

    monkeypatch.setattr(refold.records.report, "build_report", with_verdicts)
    assert "failed    0 tests · documented · loss: TEXT-JOIN (text): differs" in _row(
        results, "TEXT-JOIN"
    )


def _row(results: RuleResults, rule_id: str) -> str:
    table = render_rule_table(results, color=False)
    return next(line for line in table.splitlines() if line.startswith(f"  {rule_id} "))


def _check_arguments(*given: str, verbose: bool | None = None) -> list[str]:
    args = argparse.Namespace(
        target="t.py",
        features=None,
        target_timeout=None,
        profile=None,
        replay_dir=None,
        verbose=verbose,
        pytest_args=list(given),
    )
    return pytest_arguments(args)


def test_refold_check_runs_pytest_quietly_unless_asked_for_its_detail() -> None:
    assert "-q" in _check_arguments()
    assert "-q" not in _check_arguments("-v") and "-v" in _check_arguments("-v")
    assert "-q" not in _check_arguments("--verbose")
    assert "-q" not in _check_arguments(verbose=True) and "-v" in _check_arguments(verbose=True)


def _run(command: list[str], cwd: Path) -> str:
    done = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-2000:]
    return done.stdout


@pytest.mark.parametrize("form", ["refold check", "pytest --target"])
def test_a_failing_run_prints_its_rules_blocks_before_the_table_and_no_traceback(
    tmp_path: Path, form: str
) -> None:
    command = (
        [*REFOLD, "check", "--target", str(SUM_USAGE), *ONE_RULE]
        if form == "refold check"
        else [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            f"--target={SUM_USAGE}",
            "--rules=USAGE-LAST",
            "--hypothesis-profile=dev",
        ]
    )
    out = _run(command, tmp_path)
    assert "FAILURES" not in out and "Traceback" not in out and "FAILED " not in out
    blocks, table = out.index("refold: failed rules"), out.index("refold: results by feature")
    assert blocks < table
    block = out[blocks:table]
    assert re.search(r"^USAGE-LAST \(usage\)", block, re.M)
    # a table row is found by its indented id: no block line looks like one
    assert not [line for line in block.splitlines() if line.startswith("  USAGE-LAST ")]
    assert '"usage":{"prompt_tokens":5' in block  # the minimal stream
    replay = re.search(r"replay: refold replay (refold-replays/\S+\.json) --target ", block)
    assert replay and (tmp_path / replay.group(1)).is_file()
    assert "sum_usage: 1 rule fails" in out[table:]  # the headline, after the table


@pytest.mark.parametrize("verbose", [["-v"], ["--", "-v"]])
def test_v_gives_pytests_full_failure_output_back(tmp_path: Path, verbose: list[str]) -> None:
    out = _run([*REFOLD, "check", "--target", str(SUM_USAGE), *ONE_RULE, *verbose], tmp_path)
    assert "= FAILURES =" in out and "refold.run.checks.ConformanceFailure: USAGE-LAST" in out
    assert "refold: failed rules" not in out
    assert "refold: results by feature and rule" in out


def test_pytest_v_gives_the_full_failure_output_back(tmp_path: Path) -> None:
    out = _run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-v",
            f"--target={SUM_USAGE}",
            "--rules=USAGE-LAST",
            "--hypothesis-profile=dev",
        ],
        tmp_path,
    )
    assert "= FAILURES =" in out and "refold: failed rules" not in out


def test_a_naive_folds_console_is_a_block_per_failed_rule_and_the_table(tmp_path: Path) -> None:
    (tmp_path / "naive.py").write_text(NAIVE, encoding="utf-8")
    out = _run([*REFOLD, "check", "--target", "naive.py", "--replay-dir", ""], tmp_path)
    lines = out.splitlines()
    table = lines.index(next(line for line in lines if "refold: results by feature" in line))
    failed = [line for line in lines[table:] if re.match(r"^  \S+ +failed ", line)]
    assert not [line for line in lines[:table] if re.match(r"^  \S+ +failed ", line)]
    assert failed, out[-3000:]
    # Today's console printed 6,427 lines for it: a traceback and sections per failed test.
    blocks = lines[:table]
    assert len(blocks) <= 30 * len(failed), f"{len(blocks)} lines before the table"
    assert "FAILURES" not in out and "Traceback" not in out


def test_a_failed_test_that_checks_no_rule_is_still_named_with_its_message(tmp_path: Path) -> None:
    (tmp_path / "test_mine.py").write_text(
        "def test_mine():\n    assert 1 + 1 == 3, 'my own check'\n", encoding="utf-8"
    )
    out = _run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--target=reference",
            "test_mine.py",
        ],
        tmp_path,
    )
    assert "FAILED test_mine.py::test_mine - AssertionError: my own check" in out
    assert "Traceback" not in out
