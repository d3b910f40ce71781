"""The documented order of `chat.completion.chunk` streams, as data (verdicts.md §1).

Each line says one rule as OpenAI's API reference words it, cites the page, and finds
the chunks that break it. Only what the pages say: they show, but do not state, that the
first delta of a choice carries `role` and that tool-call indexes count from 0, so a
stream without them breaks no line here (a dense index from 0 is still what a registered
departure, Q3, is measured against).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence

from refold.reference import JSON, non_blank
from refold.verdicts.shapes import GrammarLine, Violation

from ._chunk_walk import entries, index_of

__all__ = ["GRAMMAR"]

_CHUNK_OBJECT = (
    "https://platform.openai.com/docs/api-reference/chat-streaming/streaming "
    "(The chat completion chunk object)"
)
_STREAM_OPTIONS = (
    "https://platform.openai.com/docs/api-reference/chat/create "
    "(Request body: stream_options.include_usage)"
)


def _same_as_first(key: str) -> Callable[[Sequence[JSON]], Iterable[Violation]]:
    def check(chunks: Sequence[JSON]) -> Iterator[Violation]:
        objects = [(n, c) for n, c in enumerate(chunks) if isinstance(c, dict) and key in c]
        values = [json.dumps(chunk[key], sort_keys=True) for _, chunk in objects]
        # the odd ones out differ from the value most chunks carry (a real one, not an
        # Azure prompt-filter chunk's "" or 0, where as many chunks carry each, nor an id
        # of the wrong type: with ids null, " ", 42 and "chatcmpl-x" the stream's id is
        # "chatcmpl-x", and the others are the departures CHAT-WRONG-TYPE and CHAT-BLANK)
        real = [v for v, (_, c) in zip(values, objects, strict=True) if _real(key, c[key])]
        usual = max(real or values, key=values.count) if values else None
        for (number, _), value in zip(objects, values, strict=True):
            if value != usual:
                yield Violation(number, f"/{key}", f"{key} differs from the other chunks'")

    return check


def _real(key: str, value: JSON) -> bool:
    """A value the key can hold: a non-blank string for an id, a positive integer for
    `created` (the schema's types)."""
    if key != "created":
        return non_blank(value) is not None
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _empty_choices_last(chunks: Sequence[JSON]) -> Iterator[Violation]:
    for number, chunk in enumerate(chunks[:-1]):
        if isinstance(chunk, dict) and chunk.get("choices") == []:
            yield Violation(number, "/choices", "choices is empty before the last chunk")


def _usage_last(chunks: Sequence[JSON]) -> Iterator[Violation]:
    for number, chunk in enumerate(chunks[:-1]):
        if isinstance(chunk, dict) and chunk.get("usage") is not None:
            yield Violation(number, "/usage", "usage is not null before the last chunk")


def _usage_chunk_has_no_choices(chunks: Sequence[JSON]) -> Iterator[Violation]:
    for number, chunk in enumerate(chunks):
        if (
            isinstance(chunk, dict)
            and chunk.get("usage") is not None
            and chunk.get("choices") != []
        ):
            yield Violation(number, "/choices", "the usage chunk's choices is not empty")


def _nothing_after_finish(chunks: Sequence[JSON]) -> Iterator[Violation]:
    finished: set[int] = set()
    for number, chunk in enumerate(chunks):
        for position, entry in enumerate(entries(chunk)):
            choice = index_of(entry.get("index")) or 0
            if choice in finished:
                yield Violation(
                    number,
                    f"/choices/{position}",
                    f"choice {choice} continues after its finish_reason",
                )
            if entry.get("finish_reason") is not None:
                finished.add(choice)


GRAMMAR: tuple[GrammarLine, ...] = (
    GrammarLine("id: Each chunk has the same ID.", _CHUNK_OBJECT, _same_as_first("id")),
    GrammarLine(
        "created: Each chunk has the same timestamp.", _CHUNK_OBJECT, _same_as_first("created")
    ),
    GrammarLine(
        "choices: Can also be empty for the last chunk if you set "
        'stream_options: {"include_usage": true}.',
        _CHUNK_OBJECT,
        _empty_choices_last,
    ),
    GrammarLine(
        "usage: When present, it contains a null value except for the last chunk "
        "which contains the token usage statistics for the entire request.",
        _CHUNK_OBJECT,
        _usage_last,
    ),
    GrammarLine(
        "include_usage: an additional chunk will be streamed before the data: "
        "[DONE] message. The usage field on this chunk shows the token usage "
        "statistics for the entire request, and the choices field will always be "
        "an empty array.",
        _STREAM_OPTIONS,
        _usage_chunk_has_no_choices,
    ),
    GrammarLine(
        "finish_reason: The reason the model stopped generating tokens (so nothing "
        "of the choice follows the chunk that carries it).",
        _CHUNK_OBJECT,
        _nothing_after_finish,
    ),
)
"""The documented grammar of a chat stream, one line per rule the pages state."""
