"""Which dialect a file of the installed suites belongs to (`refold.run.locations`): the
folder of a dialect's suites, and inside it a folder named as another dialect's suites,
which holds that dialect's suites written in this one's streams (the provider-neutral
events mapping examples, each with its source dialect)."""

from __future__ import annotations

from refold.dialects import DIALECTS
from refold.run.locations import hosts_suites_of, suites_dialect, suites_dir

EVENTS = DIALECTS["provider-events"]
GEMINI = DIALECTS["gemini-generate-content"]


def test_a_dialects_suites_are_its_own_and_the_top_level_modules_are_no_dialects() -> None:
    root = suites_dir()
    assert suites_dialect(root / "gemini") is GEMINI
    assert suites_dialect(root / "gemini" / "test_gemini_rule_examples_parts.py") is GEMINI
    assert suites_dialect(root / "events" / "test_events_round_trip.py") is EVENTS
    assert suites_dialect(root / "test_round_trip.py") is None
    assert suites_dialect(root / "_kits.py") is None
    assert suites_dialect(root / "gemini" / "__init__.py") is None


def test_a_folder_named_as_another_dialects_suites_is_that_dialects() -> None:
    root = suites_dir()
    mapping = root / "gemini" / "events"
    assert suites_dialect(mapping) is EVENTS
    assert suites_dialect(mapping / "test_events_rule_examples_gemini_mapping.py") is EVENTS
    # so a provider-events run looks inside the Gemini suites, and a Gemini run does not
    # look inside the events suites (they hold no Gemini suites)
    assert hosts_suites_of(root / "gemini", EVENTS)
    assert not hosts_suites_of(root / "events", GEMINI)


def test_every_source_dialect_keeps_its_mapping_examples_with_its_own_suites() -> None:
    root = suites_dir()
    hosts = sorted(d.suites for d in DIALECTS.values() if hosts_suites_of(root / d.suites, EVENTS))
    assert hosts == ["anthropic", "gemini", "openai_chat", "responses"]
    assert not list((root / EVENTS.suites).glob("test_*_mapping.py"))
