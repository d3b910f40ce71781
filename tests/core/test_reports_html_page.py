"""The HTML report reads like the terminal table: rule statements with their code marked up
(escaped), the features in the table's order, each version once, tracebacks of the target
without the harness's frames or machine paths, one block per distinct failure, and the
command that replays it."""

from __future__ import annotations

import html
import re
from typing import Any

from refold.reference.chat import FEATURES
from refold.reports import render_html


def _rule(
    feature: str,
    status: str = "passed",
    statement: str = "a rule",
    failure: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "feature": feature,
        "registry": "spec",
        "statement": statement,
        "status": status,
        "tests": 1,
        "reason": None if failure is None else failure["message"].split("\n")[0],
        "failure": failure,
    }


def _results(rules: dict[str, dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "refold_version": "0.1.0",
        "target": {"name": "t", "description": "t.fold", "features": ["text"]},
        "versions": {"python": "3.11.7", "refold": "0.1.0", "pytest": "9.2.0"},
        "started": "2026-11-30T00:00:00+00:00",
        "duration_seconds": 1.0,
        "hypothesis_profile": "dev",
        "rules": rules,
        "totals": {},
        **extra,
    }


def _failure(message: str, **fields: Any) -> dict[str, Any]:
    return {
        "message": message,
        "chunks": None,
        "expected": None,
        "received": None,
        "pointer": None,
        **fields,
    }


def test_code_in_a_rule_statement_is_marked_up_and_escaped() -> None:
    page = render_html(
        _results(
            {
                "USAGE-LAST": _rule(
                    "usage", statement="`usage` is the last <usage> seen; `a<b>` & more"
                )
            }
        )
    )
    assert (
        "<code>usage</code> is the last &lt;usage&gt; seen; <code>a&lt;b&gt;</code> &amp;" in page
    )
    assert "`" not in page.partition("<body>")[2]


def test_features_are_listed_in_the_order_of_the_terminal_table() -> None:
    page = render_html(
        _results(
            {
                "ENV-OBJECT": _rule("text"),
                "PROV-LAST": _rule("provider_fields"),
                "CHOICE-ORDER": _rule("choices"),
                "USAGE-LAST": _rule("usage"),
            }
        )
    )
    shown = re.findall(r'<tr class="feature"><td colspan="5">([a-z_]+)</td>', page)
    assert (
        shown
        == sorted(shown, key=FEATURES.index)
        == ["text", "choices", "usage", "provider_fields"]
    )


def test_the_refold_version_is_shown_once() -> None:
    page = render_html(_results({"ENV-OBJECT": _rule("text")}))
    assert page.count("0.1.0") == 1 and "refold 0.1.0" in page


_TRACEBACK = """ENV-ID (text): the target failed (raised)
  openai: fold(chunks) raised IndexError: list index out of range
  Traceback (most recent call last):
    File "/work/main/harness/sdk/openai.py", line 56, in fold
      list(state.handle_chunk(built))
           ^^^^^^^^^^^^^^^^^^^^^^^^^
    File "/opt/venv/lib/python3.11/site-packages/refold/python_targets.py", line 130, in _call
      return function()
    File "/tmp/v/site-packages/openai/lib/streaming/_completions.py", line 537, in _events
      tool_call = tool_calls[tool_call_delta.index]
                  ~~~~~~~~~~^^^^^^^^^^^^^^^^^^^^^^^
    File "/home/someone/project/mypkg/fold.py", line 3, in fold
      return chunks[9]
  IndexError: list index out of range"""


def test_a_traceback_shows_the_targets_frames_without_harness_frames_or_machine_paths() -> None:
    page = html.unescape(
        render_html(_results({"ENV-ID": _rule("text", "failed", failure=_failure(_TRACEBACK))}))
    )
    assert 'File "openai/lib/streaming/_completions.py", line 537, in _events' in page
    assert "tool_call = tool_calls[tool_call_delta.index]" in page
    assert 'File "…/mypkg/fold.py", line 3, in fold' in page
    assert "harness/sdk" not in page and "python_targets" not in page
    assert "state.handle_chunk" not in page and "return function()" not in page
    assert "/tmp/v/" not in page and "/home/someone" not in page
    assert "IndexError: list index out of range" in page


def test_identical_failures_are_shown_once_under_all_their_rules() -> None:
    shared = _failure("ENV-ID (text), ENV-MODEL (text): the fold differs", pointer="/id")
    page = render_html(
        _results(
            {
                "ENV-ID": _rule("text", "failed", failure=dict(shared)),
                "ENV-MODEL": _rule("text", "failed", failure=dict(shared)),
                "CHOICE-ROLE": _rule("text", "failed", failure=_failure("CHOICE-ROLE: differs")),
            }
        )
    )
    assert page.count('<div class="failure"') == 2
    assert page.count("the fold differs</pre>") == 1
    for rule_id in ("ENV-ID", "ENV-MODEL", "CHOICE-ROLE"):
        assert f'href="#fail-{rule_id}"' in page and f'id="fail-{rule_id}"' in page


def test_a_failure_shows_the_command_that_replays_it() -> None:
    page = render_html(
        _results(
            {
                "USAGE-LAST": _rule(
                    "usage",
                    "failed",
                    failure=_failure(
                        "USAGE-LAST (usage): differs",
                        replay_file="refold-replays/USAGE-LAST-3c38f3b4.json",
                    ),
                )
            }
        )
    )
    assert "<code>refold replay refold-replays/USAGE-LAST-3c38f3b4.json</code>" in page


def test_a_replay_path_is_quoted_for_the_shell_and_escaped_for_html() -> None:
    page = render_html(
        _results(
            {
                "USAGE-LAST": _rule(
                    "usage", "failed", failure=_failure("differs", replay_file="out dir/<b>.json")
                )
            }
        )
    )
    assert "<code>refold replay &#x27;out dir/&lt;b&gt;.json&#x27;</code>" in page


def test_line_separators_in_the_chunks_do_not_split_their_lines() -> None:
    chunks = [{"id": "a\u2028b"}, {"id": "c\u2029"}]
    page = render_html(
        _results(
            {
                "ENV-ID": _rule(
                    "text", "failed", failure=_failure("ENV-ID (text): differs", chunks=chunks)
                )
            }
        )
    )
    assert "\u2028" not in page and "\u2029" not in page
    assert "{&quot;id&quot;: &quot;a\\u2028b&quot;}\n{&quot;id&quot;: &quot;c\\u2029&quot;}" in page
