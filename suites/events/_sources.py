"""The source dialects the events suites feed, as pytest parameters."""

from __future__ import annotations

import pytest

from refold.reference.events import DIALECTS

SOURCES = ("openai-chat", "openai-responses", "anthropic-messages")
"""The source dialects events.md §4 maps, which the hand-written rule examples are
written in (`_frames`, `_responses_frames`)."""

SOURCE_PARAMS = [pytest.param(source, id=source) for source in SOURCES]

DRAWN_SOURCES: tuple[str, ...] = DIALECTS
"""Every source dialect the reference adapter normalises (`refold.reference.events.
DIALECTS`): the properties over drawn streams feed each. A source outside `SOURCES`
(Gemini, gemini-fold.md "Provider-neutral events", sends every call whole, so the §2 rule
examples built of argument fragments are not written in it) has its mapping's examples of
its own."""

DRAWN_SOURCE_PARAMS = [pytest.param(source, id=source) for source in DRAWN_SOURCES]
