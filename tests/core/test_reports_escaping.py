"""Every string that came from a stream is escaped in every report, and nothing
persisted carries credentials or `opaque` provider frames."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from refold.reports import (
    NOT_KEPT,
    REDACTED,
    render_html,
    render_junit,
    render_markdown,
    scrub,
    write_all,
)

SCRIPT = "<script>alert('x')</script>"


def results_with(content: str, **failure: Any) -> dict[str, Any]:
    chunk = {"id": "c", "choices": [{"index": 0, "delta": {"content": content}}]}
    return {
        "refold_version": "0.1.0",
        "target": {"name": f"t{SCRIPT}", "description": SCRIPT, "features": ["text"]},
        "versions": {"python": "3.11"},
        "started": "2026-11-30T00:00:00+00:00",
        "duration_seconds": 1.0,
        "hypothesis_profile": "ci",
        "rules": {
            "TEXT-JOIN": {
                "feature": "text",
                "statement": "content joins",
                "status": "failed",
                "tests": 1,
                "reason": None,
                "failure": {
                    "message": f"TEXT-JOIN: content differs: {content}",
                    "chunks": [chunk],
                    "expected": {"content": content},
                    "received": {"content": None},
                    "pointer": "/choices/0",
                    **failure,
                },
            },
            "ENV-ID": {
                "feature": "text",
                "statement": "id",
                "status": "skipped",
                "tests": 1,
                "reason": f"skipped because {SCRIPT}",
                "failure": None,
            },
        },
        "totals": {"failed": 1, "skipped": 1},
    }


def test_a_script_completion_renders_as_text_in_the_html_page() -> None:
    page = render_html(results_with(SCRIPT))
    assert "<script" not in page.lower()
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page


def test_a_script_completion_is_character_data_in_junit_xml() -> None:
    document = render_junit(results_with(SCRIPT))
    assert "<script" not in document
    failure = ET.fromstring(document).find("./testsuite/testcase[@name='TEXT-JOIN']/failure")
    assert failure is not None and failure.text is not None
    assert SCRIPT in failure.text and SCRIPT in failure.attrib["message"]


def test_control_characters_from_a_stream_keep_junit_xml_well_formed() -> None:
    document = render_junit(results_with("a\x00b\x1bc"))
    failure = ET.fromstring(document).find(".//failure")
    assert failure is not None and failure.text is not None
    # The console's and JSON's form (`\u001b`), as the chunks and expected show it too.
    assert "a\\u0000b\\u001bc" in failure.text


def test_the_markdown_summary_cannot_inject_html_or_break_its_table() -> None:
    summary = render_markdown(results_with(f"{SCRIPT} | **bold**\nnext"))
    assert "<script" not in summary
    assert "&lt;script&gt;" in summary
    assert "\\| \\*\\*bold\\*\\*" in summary
    assert all("\n" not in line for line in summary.splitlines())


def test_opaque_frames_and_credentials_are_never_persisted(tmp_path: Path) -> None:
    results = results_with(
        "hi",
        chunks=[
            {
                "opaque": {"raw": "frame"},
                "Authorization": "Bearer abcdefghijklmnopqrstuvwxyz",
                "content": "key sk-proj-ABCDEFGHIJKLMNOPQRSTUV1234 inside",
                "prompt_tokens": 3,
                "token": "Hello",
            }
        ],
    )
    written = write_all(results, tmp_path)
    for path in written:
        text = path.read_text(encoding="utf-8")
        assert "frame" not in text, path.name
        assert "abcdefghijklmnopqrstuvwxyz" not in text, path.name
        assert "sk-proj-ABCDEF" not in text, path.name
    saved = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    chunk = saved["rules"]["TEXT-JOIN"]["failure"]["chunks"][0]
    assert chunk == {
        "opaque": NOT_KEPT,
        "Authorization": REDACTED,
        "content": f"key {REDACTED} inside",
        "prompt_tokens": 3,
        "token": REDACTED,
    }


def test_scrub_keeps_token_counts_and_logprob_tokens() -> None:
    usage = {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}
    logprob = {"token": "sk", "logprob": -0.1, "bytes": [115, 107]}
    assert scrub({"usage": usage, "logprobs": [logprob]}) == {"usage": usage, "logprobs": [logprob]}
