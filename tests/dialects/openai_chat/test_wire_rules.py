"""The wire rules (feature `sse`): a registry apart from the spec's, marks and reports that
know it, and `refold check` reporting the target's own decoder by wire rule."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from refold.errors import UsageError
from refold.reference import JSONObject
from refold.reference.chat import ALL_RULES, RULES, SSE_RULES, SSE_RULES_SOURCE, lookup_any_rule
from refold.run.locations import suites_dir
from refold.run.marks import rule
from refold.suites.openai_chat._sse_cases import CASES, PROPERTY_RULES
from refold.targets import RemoteTarget

REFOLD = [sys.executable, "-m", "refold.cli"]


def test_wire_rules_are_all_of_feature_sse_and_share_no_id_with_the_spec() -> None:
    assert len(SSE_RULES) == 16
    assert all(r.feature == "sse" and r.id == key for key, r in SSE_RULES.items())
    assert not SSE_RULES.keys() & RULES.keys()
    assert len(RULES) == 49  # the spec's registry is untouched


def test_all_rules_lists_the_spec_then_the_wire_rules() -> None:
    assert list(ALL_RULES) == [*RULES, *SSE_RULES]
    assert lookup_any_rule("SSE-BOM") is SSE_RULES["SSE-BOM"]
    assert lookup_any_rule("TOOL-NAME") is RULES["TOOL-NAME"]
    with pytest.raises(KeyError, match=r"'SSE-NOPE'.*49 rules and the wire registry 16"):
        lookup_any_rule("SSE-NOPE")


def test_every_wire_rule_has_exactly_one_example_case() -> None:
    assert sorted(c.rule for c in CASES) == sorted(SSE_RULES)
    assert set(PROPERTY_RULES) <= SSE_RULES.keys()


def test_the_rule_mark_takes_a_wire_rule_and_records_its_feature() -> None:
    mark = rule("SSE-BOM", "TEXT-JOIN").mark
    assert mark.args == ("SSE-BOM", "TEXT-JOIN")
    assert mark.kwargs["features"] == ("sse", "text")


def test_the_wire_rules_page_section_says_it_is_not_the_spec() -> None:
    done = subprocess.run(
        [*REFOLD, "rules", "--dialect", "openai-chat", "--feature", "sse"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    dialect, blank, heading, *rows = done.stdout.splitlines()
    assert dialect.startswith("openai-chat: ") and not blank
    assert SSE_RULES_SOURCE in heading and "not part of chat-fold.md" in heading
    assert [row.split()[0] for row in rows] == list(SSE_RULES)


class _HelloOnly:
    """A transport whose target says hello claiming `sse`."""

    where = "fake://decoderless"

    def request(self, message: JSONObject) -> JSONObject:
        return {"ok": True, "protocol": 2, "operations": ["fold"], "features": ["text", "sse"]}

    def generation(self) -> int:
        return 0

    def close(self) -> None:
        """Nothing to release."""


def test_a_remote_target_claiming_sse_is_refused_since_it_exposes_no_decoder() -> None:
    with pytest.raises(UsageError, match=r"target fake:x claims \['sse'\].*exec: and http://"):
        RemoteTarget(_HelloOnly(), spec="fake:x", features=None)


def _check_sse(tmp_path: Path, target: str) -> tuple[dict[str, str], dict[str, object]]:
    """Run `refold check` on the installed sse suite; the table rows and results JSON."""
    done = subprocess.run(
        [
            *REFOLD,
            "check",
            "--target",
            target,
            "--profile",
            "dev",
            "--report-dir",
            "out",
            "--",
            str(suites_dir() / "openai_chat" / "test_sse.py"),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    rows = {
        line.split()[0]: line.split()[1]
        for line in done.stdout.splitlines()
        if line.startswith("  SSE-")
    }
    assert "wire rules:" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
    results = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    return rows, {"returncode": done.returncode, **results}


def test_check_of_the_reference_passes_every_wire_rule_with_its_decoder(tmp_path: Path) -> None:
    rows, results = _check_sse(tmp_path, "reference")
    assert results["returncode"] == 0
    assert rows == dict.fromkeys(SSE_RULES, "passed")
    rules = results["rules"]
    assert isinstance(rules, dict)
    assert {r["registry"] for k, r in rules.items() if k in SSE_RULES} == {"wire"}
    assert {rules[k]["status"] for k in RULES} == {"not run"}
    junit = (tmp_path / "out" / "junit.xml").read_text(encoding="utf-8")
    assert "not part of chat-fold.md" in junit
    assert "not part of chat-fold.md" in (tmp_path / "out" / "report.html").read_text()


def test_check_of_openai_shows_its_decoders_documented_deviations_as_xfailed(
    tmp_path: Path,
) -> None:
    if importlib.util.find_spec("openai") is None:
        pytest.skip("install refold[openai] to check the openai target")
    rows, results = _check_sse(tmp_path, "openai")
    assert results["returncode"] == 0
    xfailed = {
        "SSE-BOM",
        "SSE-EVENT-NO-DATA",
        "SSE-ID-BLANK-LINE",
        "SSE-RETRY-DIGITS",
        "SSE-RETRY-ONLY",
        "SSE-INVALID-UTF8",
    }
    assert {k for k, status in rows.items() if status == "xfailed"} == xfailed
    assert {k for k, status in rows.items() if status == "passed"} == SSE_RULES.keys() - xfailed


def test_a_decoder_failure_is_charged_to_its_wire_rule_and_to_no_spec_rule(
    tmp_path: Path,
) -> None:
    # A second BOM in front of the stream: harmless unless the stream starts with one.
    (tmp_path / "bom_blind.py").write_text(
        textwrap.dedent("""
        from refold.reference.chat import fold
        from refold.targets.sdk.decoders import decode_reference

        def decode(parts):
            return decode_reference([b"\\xef\\xbb\\xbf", *parts])

        refold_target = {"name": "bom-blind", "fold": fold, "sse": decode}
    """),
        encoding="utf-8",
    )
    rows, results = _check_sse(tmp_path, str(tmp_path / "bom_blind.py"))
    assert results["returncode"] == 1
    assert {k for k, status in rows.items() if status == "failed"} == {"SSE-BOM"}
    rules = results["rules"]
    assert isinstance(rules, dict)
    assert "SSE-BOM" in rules["SSE-BOM"]["failure"]["message"]
    assert not [k for k in RULES if rules[k]["status"] == "failed"]
