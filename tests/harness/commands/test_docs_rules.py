"""docs/rules.md is generated from the registry.

Kept apart from tests/dialects/openai_chat/test_reference_rules.py: the mutation run copies the
test_reference_* files into its scratch dir, where docs/ does not exist.
"""

from pathlib import Path

from refold.commands.rules import render_markdown


def test_docs_rules_md_is_generated_from_the_registry() -> None:
    page = Path(__file__).resolve().parents[3] / "docs" / "rules.md"
    assert page.read_text(encoding="utf-8") == render_markdown(), (
        "docs/rules.md is stale: run `refold rules --markdown > docs/rules.md`"
    )
