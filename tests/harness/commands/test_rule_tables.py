"""The rule tables follow the run's dialect: the terminal table lists its rules by its
features, `refold rules` lists one dialect or each in a section of its own, and
docs/rules.md lists every dialect's rules."""

from __future__ import annotations

import re

import pytest

from refold.cli import main
from refold.commands.rules import render_markdown
from refold.dialects import DIALECTS, dialect
from refold.records.results import RuleOutcome, RuleResults
from refold.reference.anthropic import FEATURES as AM_FEATURES
from refold.reference.anthropic import RULES as AM_RULES
from refold.reference.chat import RULES, SSE_RULES, SSE_RULES_NOTE
from refold.reference.events import RULES as EV_RULES
from refold.reference.gemini import RULES as GM_RULES
from refold.reference.responses import RULES as RS_RULES
from refold.run.table import render_rule_table

_ROW = re.compile(r"^  (\S+)\s+(failed|xfailed|blocked|passed|skipped|not run)\b")


def _rows(table: str) -> list[str]:
    return [match.group(1) for line in table.splitlines() if (match := _ROW.match(line))]


def _anthropic_results() -> RuleResults:
    results = RuleResults()
    results.by_rule["AM-LIFE-FINISHED"] = outcome = RuleOutcome()
    outcome.add("failed", message="finished too early")
    return results


def test_the_terminal_table_of_an_anthropic_run_lists_its_rules_by_its_features() -> None:
    table = render_rule_table(
        _anthropic_results(), color=False, dialect=dialect("anthropic-messages")
    )
    assert _rows(table) == [r for f in AM_FEATURES for r, v in AM_RULES.items() if v.feature == f]
    headings = [line for line in table.splitlines() if line and not line.startswith(" ")]
    assert headings[:-1] == [
        f for f in AM_FEATURES if any(v.feature == f for v in AM_RULES.values())
    ]
    assert headings[-1] == "rules: 1 failed, 44 not run"
    assert "wire rules" not in table and SSE_RULES_NOTE not in table


def test_the_table_reads_the_dialect_from_the_results_when_not_given() -> None:
    results = _anthropic_results()
    assert render_rule_table(results, color=False) == render_rule_table(
        results, color=False, dialect=dialect("anthropic-messages")
    )


def test_the_chat_table_keeps_its_wire_rules_in_a_group_of_their_own() -> None:
    results = RuleResults()
    results.by_rule["TEXT-JOIN"] = outcome = RuleOutcome()
    outcome.add("passed")
    table = render_rule_table(results, color=False)
    assert table == render_rule_table(results, color=False, dialect=dialect("openai-chat"))
    assert _rows(table) == [
        r for f in dialect("openai-chat").features for r, v in RULES.items() if v.feature == f
    ] + list(SSE_RULES)
    assert f"sse ({SSE_RULES_NOTE})" in table.splitlines()
    assert f"rules: 1 passed, {len(RULES) - 1} not run" in table
    assert f"wire rules: {len(SSE_RULES)} not run" in table


def _listed(out: str) -> list[str]:
    return [
        line.split()[0]
        for line in out.splitlines()
        if line
        and not line.startswith(("#", " "))
        and line.split()[0] in {r for d in DIALECTS.values() for r in d.rules}
    ]


def test_refold_rules_of_the_anthropic_dialect_lists_its_45_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "--dialect", "anthropic-messages"]) == 0
    out = capsys.readouterr().out
    assert _listed(out) == list(AM_RULES) and len(AM_RULES) == 45
    assert "Anthropic Messages" in out and "anthropic-fold.md" in out
    assert "ENV-ID" not in out


def test_refold_rules_of_the_responses_dialect_lists_its_42_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "--dialect", "openai-responses"]) == 0
    out = capsys.readouterr().out
    assert _listed(out) == list(RS_RULES) and len(RS_RULES) == 42
    assert "OpenAI Responses" in out and "responses-fold.md" in out
    assert "AM-PING" not in out and "ENV-ID" not in out


def test_refold_rules_lists_every_dialect_in_a_section_with_the_wire_rules_labelled(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    # every registered dialect's rules, in the registry's order (chat's own, then its wire
    # rules), each dialect's section after the one before
    assert _listed(out) == [rule for d in DIALECTS.values() for rule in d.rules]
    assert _listed(out)[: len(RULES) + len(SSE_RULES)] == [*RULES, *SSE_RULES]
    lines = out.splitlines()
    sections = [lines.index(f"{d.name}: {d.title} ({d.spec})") for d in DIALECTS.values()]
    assert sections == sorted(sections) and len(sections) == len(DIALECTS) >= 5
    wire = lines.index(f"sse ({SSE_RULES_NOTE})")
    assert sections[0] < wire < sections[1]


def test_refold_rules_narrows_to_a_feature_of_the_dialects_listed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "--feature", "thinking"]) == 0
    out = capsys.readouterr().out
    assert _listed(out) == [
        r for rules in (AM_RULES, GM_RULES) for r, v in rules.items() if v.feature == "thinking"
    ]
    assert main(["rules", "--dialect", "openai-chat", "--feature", "thinking"]) == 4
    assert "unknown feature 'thinking'" in capsys.readouterr().err


def test_refold_rules_refuses_an_unknown_dialect(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--dialect", "gemini"]) == 4
    err = capsys.readouterr().err
    assert "gemini" in err and "openai-chat, anthropic-messages" in err


def test_docs_rules_lists_every_rule_of_every_dialect_once() -> None:
    page = render_markdown()
    # a rule's row, not a registered departure's (`| `Q1` | observed | ...`)
    listed = re.findall(r"^\| `([^`]+)` \| (?!observed \||synthetic \|)", page, flags=re.MULTILINE)
    every = [*RULES, *SSE_RULES, *AM_RULES, *EV_RULES, *RS_RULES, *GM_RULES]
    assert sorted(listed) == sorted(every)  # each once
    assert listed.index("SSE-BOM") < listed.index("AM-TEXT-JOIN")  # a dialect at a time
    for one in DIALECTS.values():
        assert f"# {one.title} (`{one.name}`)" in page and one.spec in page
