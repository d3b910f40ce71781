"""A whole content list or content part of a reasoning item lost is RS-REASONING-TEXT's,
as a whole refusal part lost is RS-REFUSAL's: the rules owning those places include the
rule of the part type they hold (the harness narrows a failure to it when it is raised,
`refold.dialects.openai_responses._charging`)."""

from __future__ import annotations

import pytest

from refold.dialects.openai_responses.attribution import rules_at


@pytest.mark.parametrize("pointer", ["/output/0/content", "/output/0/content/1"])
def test_a_reasoning_items_content_and_parts_are_owned_by_reasoning_text(pointer: str) -> None:
    assert "RS-REASONING-TEXT" in rules_at(pointer)


@pytest.mark.parametrize("pointer", ["/output/0/content", "/output/0/content/1"])
def test_a_messages_content_and_parts_are_owned_by_refusal(pointer: str) -> None:
    assert "RS-REFUSAL" in rules_at(pointer)
