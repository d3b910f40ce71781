"""The source dialects the events suites feed, as pytest parameters."""

from __future__ import annotations

import pytest

SOURCES = ("openai-chat", "openai-responses", "anthropic-messages")
"""Every source dialect events.md §4 maps (`refold.reference.events.DIALECTS`)."""

SOURCE_PARAMS = [pytest.param(source, id=source) for source in SOURCES]
