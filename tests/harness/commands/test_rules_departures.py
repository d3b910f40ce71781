"""`refold rules` and docs/rules.md list each dialect's registered departures (issue 24
point 1, verdicts.md §1): id, class, summary and provenance, read from `Dialect.shapes`
whatever the dialect; a dialect that tells no shapes says so in one line. A test
`StreamShapes` stands for the real ones, registered by other parts of issue 24."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

import pytest

from refold.cli import main
from refold.commands.rules import render_markdown
from refold.dialects import DIALECTS
from refold.verdicts.shapes import Departure, StreamShapes

CHAT = "openai-chat"
SHAPES = StreamShapes(
    schema={},
    grammar=(),
    departures={
        "Q4": Departure(
            "Q4",
            "observed",
            "tool-call fragments without `index`",
            ("Some gateway | proxy: https://example.invalid/q4",),
        ),
        "CH-NULL-ENTRY": Departure("CH-NULL-ENTRY", "synthetic", "a `null` choices entry"),
    },
    detectors={},
)


@pytest.fixture
def chat_with_departures(monkeypatch: pytest.MonkeyPatch) -> None:
    replaced = dict(DIALECTS)
    replaced[CHAT] = dataclasses.replace(DIALECTS[CHAT], shapes=SHAPES)
    # one dialect telling no shapes, now that every provider dialect tells them
    replaced["anthropic-messages"] = dataclasses.replace(
        DIALECTS["anthropic-messages"], shapes=None
    )
    monkeypatch.setattr("refold.commands.rules.DIALECTS", MappingProxyType(replaced))


def _section(page: str, dialect: str) -> str:
    start = page.index(f"(`{dialect}`)")
    end = page.find("\n## ", start)
    return page[start : end if end >= 0 else None]


def test_the_page_lists_every_registered_departure_with_class_summary_and_provenance(
    chat_with_departures: None,
) -> None:
    section = _section(render_markdown(), CHAT)
    assert "### Departures from the documented shape" in section
    assert (
        "| `Q4` | observed | tool-call fragments without `index` | "
        "Some gateway \\| proxy: https://example.invalid/q4 |"
    ) in section
    assert "| `CH-NULL-ENTRY` | synthetic | a `null` choices entry | (none: synthetic) |" in section


def test_a_dialect_without_shapes_says_so_in_one_line(chat_with_departures: None) -> None:
    section = _section(render_markdown(), "anthropic-messages")
    told = [line for line in section.splitlines() if "tells no stream shapes" in line]
    assert len(told) == 1 and "| `" not in section.split("### Departures")[1]


def test_refold_rules_prints_the_departures_after_each_dialects_rules(
    chat_with_departures: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    chat = out[out.index("openai-chat:") : out.index("anthropic-messages:")]
    assert "departures from the documented shape (2, verdicts.md §1):" in chat
    assert any(
        line.startswith("Q4") and "observed" in line and "without `index`" in line
        for line in chat.splitlines()
    )
    assert "from: Some gateway | proxy: https://example.invalid/q4" in chat
    assert "anthropic-messages tells no stream shapes" in out


def test_a_feature_listing_shows_no_departures(
    chat_with_departures: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "--feature", "text"]) == 0
    assert "departures" not in capsys.readouterr().out
