"""Hypothesis strategies shared by every dialect's (refold.strategies).

The kernel of the strategies layer: text, identities and JSON values shaped to shrink
toward small readable streams, and `refold.strategies.wire`'s SSE framing. Each dialect's
strategies are a sub-package: `refold.strategies.chat` (OpenAI Chat Completions),
`.anthropic`, `.responses`, `.events` (provider-neutral events).

    >>> from hypothesis import given
    >>> from refold.strategies import texts
    >>> @given(texts(max_size=3))
    ... def test_text(text): ...
"""

from ._text import argument_texts, json_objects, texts

__all__ = ["argument_texts", "json_objects", "texts"]
