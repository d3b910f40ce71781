"""No control character that came from a stream or a target reaches a persisted document
raw (issue 25: "report.html holds raw ESC bytes"): report.html, summary.md, junit.xml,
results.json, the matrix and the trend show each C0 control but newline and tab, DEL and
each C1 control (U+0080-U+009F) as its visible JSON escape (`\\u001b`, `\\u009b`), the form
the console uses; results.json keeps it as a JSON escape that reads back as the same
string."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from refold.cli import main
from refold.records.report import write_report
from refold.reference import escape_controls, json_text
from refold.reports import escape_markdown, render_html, render_junit, write_all, write_matrix

HOSTILE = "\x1b[31m\x07\x9b\x00"
"""ESC (a colour), BEL, CSI (C1) and NUL: what a stream or target may say."""
SHOWN = "\\u001b[31m\\u0007\\u009b\\u0000"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""A raw control character in a written file: every C0 control but tab and newline, DEL, C1."""


def hostile_results(text: str = HOSTILE) -> dict[str, Any]:
    """A results document whose every string from a stream or a target holds `text`."""
    chunk = {"id": f"c{text}", "choices": [{"index": 0, "delta": {"content": f"hi{text}"}}]}
    return {
        "refold_version": "0.1.0",
        "target": {
            "name": f"t{text}",
            "description": f"sdk {text} description",
            "features": ["text", f"f{text}"],
        },
        "versions": {"python": "3.11", f"lib{text}": f"1.0{text}"},
        "started": f"2026-11-30T00:00:00+00:00{text}",
        "duration_seconds": 1.0,
        "hypothesis_profile": f"ci{text}",
        "rules": {
            "TEXT-JOIN": {
                "feature": "text",
                "statement": f"content joins{text}",
                "status": "failed",
                "tests": 1,
                "reason": None,
                "found_on": "observed",
                "departures": [f"chat.departure{text}"],
                "failure": {
                    "message": f"TEXT-JOIN: content differs: {text}\nsecond{text}",
                    "chunks": [chunk],
                    "expected": {"content": f"a{text}"},
                    "received": {"content": f"b{text}"},
                    "pointer": f"/choices{text}",
                    "shape": "observed",
                    "departures": [f"chat.departure{text}"],
                    "impact": "loss",
                    "diagnosis": [{"name": f"policy{text}", "libraries": [f"lib{text}"]}],
                    "replay_file": f"replays/TEXT-JOIN{text}.json",
                },
            },
            "ENV-ID": {
                "feature": "text",
                "statement": "id",
                "status": "skipped",
                "tests": 1,
                "reason": f"skipped because {text}\tand\nmore",
                "failure": None,
            },
            f"ROB-X{text}": {
                "feature": f"robustness{text}",
                "statement": f"s{text}",
                "status": "blocked",
                "tests": 0,
                "reason": f"blocked by TEXT-JOIN{text}",
                "failure": None,
            },
            "ENV-MODEL": {
                "feature": "text",
                "statement": "model",
                "status": "not judged",
                "tests": 1,
                "reason": f"not judged: outside {text}",
                "failure": None,
            },
        },
        "totals": {"failed": 1, "skipped": 1, "blocked": 1, "not judged": 1},
    }


def _raw_controls(directory: Path) -> dict[str, list[str]]:
    found = {}
    for path in sorted(directory.rglob("*")):
        if path.is_file():
            raw = RAW.findall(path.read_text(encoding="utf-8"))
            if raw:
                found[path.relative_to(directory).as_posix()] = sorted({hex(ord(c)) for c in raw})
    return found


def _assert_escaped_everywhere(directory: Path, names: tuple[str, ...]) -> None:
    assert _raw_controls(directory) == {}
    for name in names:
        text = (directory / name).read_text(encoding="utf-8")
        # Markdown escapes the `[` of the colour's CSI: `\[31m`.
        assert SHOWN in text.replace("\\[", "["), name


def test_no_control_character_from_a_stream_reaches_any_report_format_raw(tmp_path: Path) -> None:
    write_all(hostile_results(), tmp_path, history=tmp_path / "no-history")
    _assert_escaped_everywhere(tmp_path, ("report.html", "junit.xml", "summary.md", "results.json"))
    # results.json keeps the escape as JSON's: it reads back as the same strings.
    saved = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert saved["target"]["description"] == f"sdk {HOSTILE} description"
    ET.parse(tmp_path / "junit.xml")  # well-formed


def test_no_control_character_from_a_stream_reaches_a_report_written_by_the_cli_raw(
    tmp_path: Path,
) -> None:
    source = tmp_path / "in" / "results.json"
    source.parent.mkdir()
    # As a target's stream leaves it in a hand-edited or old results file: JSON escapes
    # ESC, BEL and NUL, and writes CSI raw.
    source.write_text(json.dumps(hostile_results(), ensure_ascii=False), encoding="utf-8")
    assert "\x9b" in source.read_text(encoding="utf-8")
    out = tmp_path / "out"
    assert main(["report", str(source), "--out", str(out)]) == 0
    _assert_escaped_everywhere(out, ("report.html", "junit.xml", "summary.md", "results.json"))
    matrix = tmp_path / "matrix"
    assert main(["report", "--matrix", str(source), "--out", str(matrix)]) == 0
    _assert_escaped_everywhere(matrix, ("matrix.html", "matrix.md"))


def test_no_control_character_reaches_the_harness_results_json_raw(tmp_path: Path) -> None:
    path = write_report(hostile_results(), tmp_path / "results.json")
    text = path.read_text(encoding="utf-8")
    assert RAW.findall(text) == []
    assert "\\u009b" in text and "\\u001b" in text
    assert json.loads(text)["target"]["description"] == f"sdk {HOSTILE} description"


def test_no_control_character_reaches_the_conformance_matrix_raw(tmp_path: Path) -> None:
    write_matrix([hostile_results()], tmp_path)
    _assert_escaped_everywhere(tmp_path, ("matrix.html", "matrix.md"))


@pytest.mark.parametrize("code", [*range(0x20), 0x7F, *range(0x80, 0xA0)])
def test_every_control_character_is_escaped_in_every_format_but_newline_and_tab_in_text(
    code: int,
) -> None:
    char = chr(code)
    kept = char in "\t\n"
    page = render_html(hostile_results(f"<{char}>"))
    junit = render_junit(hostile_results(f"<{char}>"))
    assert (char in page) == kept and (char in junit.replace("\n", "")) == (char == "\t")
    assert (char in json_text({"s": char})) == (char == "\n")  # the indent's line breaks
    assert char not in escape_markdown(f"a{char}b")
    assert f"\\u{code:04x}" in escape_controls(char, keep="")


def test_newline_and_tab_in_an_html_or_xml_attribute_value_are_escaped() -> None:
    results = hostile_results()
    results["rules"]["ENV-ID"]["reason"] = "line\nbreak\ttab"
    results["rules"]["TEXT\nJOIN"] = results["rules"].pop("TEXT-JOIN")
    page = render_html(results)
    assert 'id="fail-TEXT\\u000aJOIN"' in page and 'href="#fail-TEXT\\u000aJOIN"' in page
    skipped = ET.fromstring(render_junit(results)).find(".//testcase[@name='ENV-ID']/skipped")
    assert skipped is not None
    assert skipped.attrib["message"] == "skipped: line\\u000abreak\\u0009tab"


def test_markdown_shows_a_controls_escape_once_and_keeps_text_on_one_line() -> None:
    shown = escape_markdown("a\x1b[31m\r\n\x85b\x0cc\u2028d x_y")
    assert shown == "a\\u001b\\[31m \\u0085b\\u000cc d x\\_y"
    # A backslash the text itself holds is escaped; the control's escape is not.
    assert escape_markdown("\\u001b\x1b") == "\\\\u001b\\u001b"


def test_no_control_character_reaches_a_replay_file_raw(tmp_path: Path) -> None:
    from refold.records.replay import read_replay, write_replay
    from refold.run.checks import ConformanceFailure

    chunks = [{"id": f"c{HOSTILE}", "choices": []}]
    failure = ConformanceFailure(
        ("ENV-ID",),
        f"differs: {HOSTILE}",
        chunks=chunks,
        expected={"id": f"e{HOSTILE}"},
        received={"id": HOSTILE},
    )
    path = write_replay(
        tmp_path, failure, target=f"t{HOSTILE}", test={"module": "m", "name": "n"}, hypothesis={}
    )
    text = path.read_text(encoding="utf-8")
    assert RAW.findall(text) == [] and "\\u009b" in text
    assert read_replay(path)["chunks"] == chunks  # the same stream, read back


def test_no_control_character_reaches_a_captured_corpus_case_raw(tmp_path: Path) -> None:
    from refold.capture.captures import write_case
    from refold.capture.corpus import Case
    from refold.dialects import DEFAULT_DIALECT, DIALECTS

    items = [{"id": f"c{HOSTILE}\x7f", "choices": [{"index": 0, "delta": {"content": "hi"}}]}]
    case = Case(
        name="hostile",
        dialect=DIALECTS[DEFAULT_DIALECT],
        items=items,
        parts=None,
        outcome="fold",
        expected=None,
        refusal=None,
        provenance={"source": f"capture{HOSTILE}"},
    )
    path = write_case(tmp_path, case)
    text = path.read_text(encoding="utf-8")
    assert RAW.findall(text) == [] and "\\u009b" in text and "\\u007f" in text
    assert json.loads(text)["items"] == items
