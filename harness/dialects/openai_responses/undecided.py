"""Where a Responses stream gives a rule nothing to decide: `undecided_at` names the owners
of a pointer whose value the stream shows they do not decide, so a difference there is not
evidence against them (`Dialect.undecided_at`; verdicts.md §2: a failure is charged to a
rule only where its evidence points at that rule's places).

The pointer table charges every content part to RS-REFUSAL and RS-REASONING-TEXT, since a
part's type says which of them joined it; but a stream with no refusal at all (no
`response.refusal.*` event, no `refusal` part anywhere) gives RS-REFUSAL nothing to
decide, and one with no reasoning text gives RS-REASONING-TEXT nothing.

Plain JSON in; nothing is mutated.
"""

from __future__ import annotations

import json
import re

from refold.reference import JSON

__all__ = ["undecided_at"]

_CONTENT = re.compile(r"/output/\d+/content(/.*)?")

_SIGNS: dict[str, str] = {
    "RS-REFUSAL": "refusal",  # response.refusal.* events, `refusal` parts and their key
    "RS-REASONING-TEXT": "reasoning_text",  # response.reasoning_text.* events and parts
}
"""A rule whose only subject is one kind of part, and the word every event or part of that
kind carries: a stream whose JSON text never holds the word has none of them."""


def undecided_at(stream: list[JSON], pointer: str, received: object = None) -> frozenset[str]:
    """The rules owning `pointer` that `stream` does not decide: at an item's content,
    those of the `_SIGNS` whose kind of part the stream never mentions (a word found
    anywhere, in a text even, keeps the rule: never undecided by mistake). `received` is
    not read: a part the stream has no sign of is no evidence against either rule."""
    if not _CONTENT.fullmatch(pointer):
        return frozenset()
    text = json.dumps(stream, ensure_ascii=False)
    return frozenset(rule for rule, word in _SIGNS.items() if word not in text)
