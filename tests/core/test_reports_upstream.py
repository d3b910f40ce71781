"""`refold report --upstream`: one ready-to-file bug report per rule that fails on
documented streams, none for a rule failing only on departing streams, every part a
maintainer needs present, nothing secret, every string escaped."""

from __future__ import annotations

import ast
import copy
import json
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from refold.cli import main
from refold.reports import stream_literal, upstream_reports, write_upstream
from refold.targets.sdk.reproducers import reproducer_of

SCRIPT = "<script>alert('x')</script>"
CANARY = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4"
DOCS = "https://platform.openai.com/docs/api-reference/chat/streaming"
TEMPLATE = "import json\nCHUNKS = [json.loads(item) for item in {stream}]\nprint(CHUNKS)\n"
STREAM = [
    {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [
            {"index": 0, "delta": {"role": "assistant", "content": "Hi"}, "finish_reason": None}
        ],
    },
    {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [],
        "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3},
    },
]


def _failed(
    statement: str,
    *,
    found_on: str | None,
    impact: str | None = "corruption",
    departures: list[str] | None = None,
    chunks: list[Any] | None = None,
) -> dict[str, Any]:
    failure: dict[str, Any] = {
        "message": f"{statement}: differs",
        "chunks": chunks or STREAM,
        "expected": {"usage": {"total_tokens": 3}},
        "received": {"usage": {"total_tokens": 6}},
        "pointer": "/usage/total_tokens",
        "replay_file": "/runs/x/replays/USAGE-LAST-1.json",
    }
    rule: dict[str, Any] = {
        "feature": "usage",
        "registry": "spec",
        "statement": statement,
        "status": "failed",
        "tests": 1,
        "reason": None,
        "failure": failure,
        "blocked_by": [],
        "fingerprints": [],
        "verdict": None,
    }
    if found_on is not None:
        failure.update(shape=found_on, departures=departures or [], impact=impact)
        rule.update(found_on=found_on, departures=departures or [])
        if impact is not None:
            rule["impact"] = impact
    return rule


def results(**rules: dict[str, Any]) -> dict[str, Any]:
    """A results document of target `sdk` (with a reproducer template) holding `rules`."""
    return {
        "refold_version": "0.9.0",
        "target": {
            "name": "sdk",
            "description": "sdk-python 1.2.3: StreamState",
            "features": ["usage"],
            "reproducer": TEMPLATE,
        },
        "versions": {"python": "3.11.9", "platform": "Linux-6", "refold": "0.9.0"},
        "started": "2026-12-04T00:00:00+00:00",
        "duration_seconds": 1.0,
        "hypothesis_profile": "ci",
        "settings": None,
        "dialect": {
            "name": "openai-chat",
            "title": "OpenAI Chat Completions",
            "spec": "chat-fold.md",
            "item": "chunk",
            "features": ["usage"],
            "extra_rules_note": None,
            "docs": DOCS,
        },
        "rules": rules,
        "totals": {"failed": len(rules)},
    }


def _outside_fences(report: str) -> str:
    """The report's text outside its fenced code blocks (where Markdown renders)."""
    kept: list[str] = []
    fence: str | None = None
    for line in report.splitlines():
        opening = re.match(r"(`{3,})", line)
        if fence is None and opening:
            fence = opening.group(1)
        elif fence is not None and line == fence:
            fence = None
        elif fence is None:
            kept.append(line)
    return "\n".join(kept)


def _fenced_blocks(report: str) -> list[str]:
    """The contents of the report's fenced code blocks, each closed by its own fence."""
    blocks: list[str] = []
    body: list[str] = []
    fence: str | None = None
    for line in report.splitlines():
        opening = re.match(r"(`{3,})", line)
        if fence is None and opening:
            fence, body = opening.group(1), []
        elif fence is not None and line == fence:
            blocks.append("\n".join(body))
            fence = None
        elif fence is not None:
            body.append(line)
    assert fence is None, "a fence was left open"
    return blocks


def test_one_report_per_rule_failing_on_documented_streams_and_none_for_departing_only() -> None:
    found = upstream_reports(
        results(
            **{
                "USAGE-LAST": _failed("usage is the last", found_on="documented"),
                "ENV-ID": _failed("id is the first", found_on="documented", impact="loss"),
                "TEXT-JOIN": _failed(
                    "text joins",
                    found_on="observed",
                    departures=["chat.usage-chunk-without-choices"],
                ),
                "CHOICE-KEY": _failed("choices by index", found_on="synthetic"),
            }
        )
    )
    assert sorted(found.reports) == ["sdk-ENV-ID.md", "sdk-USAGE-LAST.md"]
    assert sorted(found.departing_only) == ["CHOICE-KEY", "TEXT-JOIN"]
    assert found.summary() == (
        "2 rules fail on documented streams: 2 reports; 2 rules fail "
        "only on departing streams: not filed."
    )


def test_every_part_a_maintainer_needs_is_in_the_report() -> None:
    found = upstream_reports(
        results(USAGE_LAST=_failed("Usage is the last chunk's", found_on="documented"))
    )
    report = found.reports["sdk-USAGE_LAST.md"]
    outside = _outside_fences(report)
    for part in (
        "sdk",
        "sdk\\-python 1\\.2\\.3: StreamState",
        "3\\.11\\.9",
        "refold 0\\.9\\.0",
        "USAGE\\_LAST",
        "Usage is the last chunk's",
        "`docs/spec/chat-fold.md`",
        f"<{DOCS}>",
        "**corruption**: a value",
        "none: the stream is as the provider documents it",
    ):
        assert part in outside, part
    blocks = _fenced_blocks(report)
    assert json.loads(blocks[1]) == {"usage": {"total_tokens": 3}}
    assert json.loads(blocks[2]) == {"usage": {"total_tokens": 6}}
    assert blocks[3] == "refold replay /runs/x/replays/USAGE-LAST-1.json --target sdk"


def test_the_snippet_is_the_template_with_the_stream_in_its_placeholder() -> None:
    report = upstream_reports(results(R=_failed("r", found_on="documented"))).reports["sdk-R.md"]
    program = _fenced_blocks(report)[0]
    assert "{stream}" not in program
    head, literal = program.split("for item in ", 1)
    assert head == "import json\nCHUNKS = [json.loads(item) "
    assert "```python\nimport json\n" in report
    items = ast.literal_eval(literal.rsplit("]", 1)[0])
    assert [json.loads(item) for item in items] == STREAM


def test_the_snippet_runs_and_prints_the_stream_it_was_given(tmp_path: Path) -> None:
    report = upstream_reports(results(R=_failed("r", found_on="documented"))).reports["sdk-R.md"]
    (tmp_path / "repro.py").write_text(_fenced_blocks(report)[0], encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(tmp_path / "repro.py")], capture_output=True, text=True, check=True
    )
    assert ast.literal_eval(run.stdout.strip()) == STREAM


def test_a_target_without_a_template_gets_the_stream_as_json_lines() -> None:
    document = results(R=_failed("r", found_on="documented"))
    del document["target"]["reproducer"]
    report = upstream_reports(document).reports["sdk-R.md"]
    blocks = _fenced_blocks(report)
    assert [json.loads(line) for line in blocks[0].splitlines()] == STREAM
    assert "one JSON value a line, in order" in _outside_fences(report)
    # A user target's name is no --target value: the replay file names what it ran.
    assert blocks[-1] == "refold replay /runs/x/replays/USAGE-LAST-1.json"


def test_stream_text_cannot_close_its_fence_nor_render_markup() -> None:
    chunk = {"id": "c1", "choices": [{"index": 0, "delta": {"content": f"```` {SCRIPT}"}}]}
    document = results(R=_failed("r", found_on="documented", chunks=[chunk]))
    document["rules"]["R"]["failure"]["received"] = {"content": f"``````\n# {SCRIPT}"}
    document["target"]["description"] = f"sdk \x1b[31mred\x07 {SCRIPT}"
    report = upstream_reports(document).reports["sdk-R.md"]
    blocks = _fenced_blocks(report)
    assert SCRIPT in blocks[0] and "````" in blocks[0]
    assert json.loads(blocks[2]) == {"content": f"``````\n# {SCRIPT}"}
    outside = _outside_fences(report)
    assert "<script" not in outside and "&lt;script&gt;" in outside
    assert "\x1b" not in report and "\x07" not in report


def test_a_credential_in_the_stream_is_not_in_the_written_report(tmp_path: Path) -> None:
    chunk = {"id": "c1", "choices": [{"index": 0, "delta": {"content": f"key {CANARY}"}}]}
    document = results(R=_failed("r", found_on="documented", chunks=[chunk]))
    document["rules"]["R"]["failure"]["received"] = {"api_key": "plain-secret-value"}
    written, _ = write_upstream(copy.deepcopy(document), tmp_path)
    text = written[0].read_text(encoding="utf-8")
    assert CANARY not in text and "plain-secret-value" not in text
    assert "A1b2C3d4E5f6G7h8I9j0K1l2M3n4" not in text


def test_a_results_file_written_before_shapes_gives_no_report_and_says_why() -> None:
    found = upstream_reports(results(R=_failed("r", found_on=None)))
    assert found.reports == {}
    assert "1 failed rule (R) carry no `found_on`" in found.summary()
    assert "written before stream shapes" in found.summary()


def test_refold_report_upstream_writes_the_reports_and_prints_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "results.json"
    source.write_text(
        json.dumps(
            results(R=_failed("r", found_on="documented"), S=_failed("s", found_on="observed"))
        ),
        "utf-8",
    )
    assert main(["report", "--upstream", str(source), "--out", str(tmp_path / "up")]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed == [
        str(tmp_path / "up" / "sdk-R.md"),
        "1 rule fails on documented streams: 1 report; 1 rule fails only on "
        "departing streams: not filed.",
    ]


def test_upstream_with_matrix_is_a_one_paragraph_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "results.json"
    source.write_text(json.dumps(results()), "utf-8")
    assert main(["report", "--upstream", str(source), "--matrix", str(source)]) == 4
    message = capsys.readouterr().err
    assert "--upstream" in message and "--matrix" in message and "Traceback" not in message


@pytest.mark.parametrize(
    "name", ["openai", "anthropic", "openai-responses", "litellm", "anthropic-stream"]
)
def test_a_built_in_sdk_snippet_prints_the_sdks_wrong_result(name: str, tmp_path: Path) -> None:
    """Each template feeds the stream to the SDK as its target does: run on a failing stream
    of the committed run of that SDK, it prints the value the SDK got wrong there."""
    failure = _committed_failure(name)
    template = reproducer_of(name)
    assert template is not None
    (tmp_path / "repro.py").write_text(
        template.replace("{stream}", stream_literal(failure["chunks"])), "utf-8"
    )
    printed, again = (
        _at(
            json.loads(
                subprocess.run(
                    [sys.executable, str(tmp_path / "repro.py")],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            ),
            failure["pointer"],
        )
        for _ in range(2)
    )
    # A value the SDK makes afresh on every run (litellm invents a chat id for each
    # stream: ENV-ID) cannot be the recorded one; it is wrong the same way, though.
    if printed == again:
        assert printed == _at(failure["received"], failure["pointer"])
    assert printed != _at(failure["expected"], failure["pointer"])
    assert again != _at(failure["expected"], failure["pointer"])


def _committed_failure(name: str) -> dict[str, Any]:
    """The first failure of the committed run of target `name` that compared values."""
    runs = Path(__file__).parents[2] / "reports" / "conformance"
    for path in sorted(runs.glob("*/results.json")):
        document = json.loads(path.read_text("utf-8"))
        if document["target"]["name"] != name:
            continue
        for rule in document["rules"].values():
            failure = rule.get("failure") or {}
            if failure.get("pointer") and failure.get("chunks"):
                return dict(failure)
    raise AssertionError(f"no committed run of {name} with a failure that compared values")


def _at(value: Any, pointer: str) -> Any:
    for key in pointer.split("/")[1:]:
        if isinstance(value, list):
            value = value[int(key)] if int(key) < len(value) else "(absent)"
        else:
            value = value.get(key, "(absent)") if isinstance(value, dict) else "(absent)"
    return value


BROKEN = Path(__file__).parents[2] / "examples" / "broken" / "anthropic_merges_text_blocks.py"


def test_a_real_run_files_exactly_its_rules_failing_on_documented_streams(tmp_path: Path) -> None:
    """`refold check` of a broken example, then `refold report --upstream` of its results:
    a report for each rule found on documented streams, the others counted as not filed.
    Then the same document with the rule's verdict marked documented (what a dialect
    that tells shapes writes for a documented stream) gives its report, with the run's
    own stream and replay file."""
    check = subprocess.run(
        [
            sys.executable,
            "-m",
            "refold.cli",
            "check",
            "--target",
            str(BROKEN),
            "--rules",
            "AM-TEXT-JOIN",
            "--report-dir",
            str(tmp_path / "run"),
            "--",
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert check.returncode == 1, check.stdout[-2000:] + check.stderr[-2000:]
    document = json.loads((tmp_path / "run" / "results.json").read_text("utf-8"))
    failed = {
        rule_id: rule for rule_id, rule in document["rules"].items() if rule["status"] == "failed"
    }
    assert failed, "the broken example failed no rule"
    documented = sorted(r for r, rule in failed.items() if rule["found_on"] == "documented")
    found = upstream_reports(document)
    assert sorted(found.reports) == [f"anthropic_merges_text_blocks-{r}.md" for r in documented]
    assert sorted(found.departing_only) == sorted(set(failed) - set(documented))

    rule_id = sorted(failed)[0]
    rule = document["rules"][rule_id]
    rule["found_on"], rule["departures"] = "documented", []
    report = upstream_reports(document).reports[f"anthropic_merges_text_blocks-{rule_id}.md"]
    blocks = _fenced_blocks(report)
    assert [json.loads(line) for line in blocks[0].splitlines()] == rule["failure"]["chunks"]
    assert (tmp_path / rule["failure"]["replay_file"]).is_file()
    assert blocks[-1] == f"refold replay {rule['failure']['replay_file']}"
    assert "<https://docs.claude.com/en/docs/build-with-claude/streaming>" in report


def _built_in_like(name: str) -> Any:
    class _Target:
        description = f"{name} under test"
        features: frozenset[str] = frozenset()
        projection = None

    target = _Target()
    target.name = name  # type: ignore[attr-defined]
    return target


@pytest.mark.parametrize(
    "name",
    [
        "openai",
        "anthropic",
        "openai-responses",
        "litellm",
        "anthropic-stream",
        "langchain",
        "anthropic-ts",
        "openai-node-responses",
    ],
)
def test_the_results_record_a_built_in_targets_reproducer(name: str) -> None:
    from refold.dialects import DIALECTS
    from refold.records.report import build_report
    from refold.records.results import RuleResults

    report = build_report(
        RuleResults(),
        target=_built_in_like(name),
        started=datetime(2026, 12, 4),
        duration_seconds=0.0,
        hypothesis_profile="dev",
        dialect=DIALECTS["openai-chat"],
    )
    template = report["target"]["reproducer"]
    assert template == reproducer_of(name) and template.count("{stream}") == 1


def test_a_user_target_records_no_reproducer() -> None:
    from refold.dialects import DIALECTS
    from refold.records.report import build_report
    from refold.records.results import RuleResults

    report = build_report(
        RuleResults(),
        target=_built_in_like("my_fold"),
        started=datetime(2026, 12, 4),
        duration_seconds=0.0,
        hypothesis_profile="dev",
        dialect=DIALECTS["openai-chat"],
    )
    assert "reproducer" not in report["target"]


@pytest.mark.parametrize(
    ("dialect", "host"),
    [
        ("openai-chat", "https://platform.openai.com/docs/api-reference/chat/streaming"),
        ("anthropic-messages", "https://docs.claude.com/en/docs/build-with-claude/streaming"),
        ("openai-responses", "https://platform.openai.com/docs/api-reference/responses-streaming"),
        ("provider-events", ""),
    ],
)
def test_each_dialect_record_carries_its_providers_streaming_page(dialect: str, host: str) -> None:
    from refold.dialects import DIALECTS
    from refold.records.report import dialect_record_of

    assert dialect_record_of(DIALECTS[dialect])["docs"] == host


def test_every_built_in_target_has_a_template_or_none_and_never_raises() -> None:
    """A report of any built-in target asks for its template: a Node.js target without one
    (ai-sdk-anthropic) gets None, not an import of its `exec:` command line."""
    from refold.targets import BUILTIN_TARGETS

    templates = {name: reproducer_of(name) for name in BUILTIN_TARGETS}
    assert templates["ai-sdk-anthropic"] is None and templates["reference"] is None
    assert all(t is None or "{stream}" in t for t in templates.values())


def test_a_wire_rules_report_gives_the_framed_bytes_not_the_fold_program() -> None:
    """A rule of feature `sse` fails in the SDK's decoder: feeding its events to the
    accumulation (the fold template) would show another failure, or none."""
    events = [{"type": "error", "error": {"type": "overloaded_error", "message": "O"}}]
    rule = _failed("error frames reach the fold", found_on="documented", chunks=events)
    rule["feature"] = "sse"
    report = upstream_reports(results(**{"AM-SSE-EMPTY": rule})).reports["sdk-AM-SSE-EMPTY.md"]
    blocks = _fenced_blocks(report)
    assert blocks[0] == (
        'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"O"}}'
    )
    assert not any("json.loads(item)" in block for block in blocks)
    assert "decoder" in _outside_fences(report)
