"""A failure shows its stream as one JSON object per line, whatever the strings hold:
line and paragraph separators (U+2028, U+2029) and NEL (U+0085) are line breaks to
`str.splitlines`, editors and terminals, so they are shown escaped."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from refold.run.checks import ConformanceFailure, format_chunks

_SEPARATORS = "\u2028\u2029\x85"


def test_line_separators_in_a_string_do_not_split_the_chunk_lines() -> None:
    chunks = [
        {"choices": [{"index": 0, "delta": {"content": f"a{_SEPARATORS}b"}}]},
        {"id": "x\u2028"},
    ]
    text = format_chunks(chunks)
    assert not any(s in text for s in _SEPARATORS)
    assert [json.loads(line) for line in text.splitlines()] == chunks


@given(st.lists(st.dictionaries(st.text(), st.text()), min_size=1, max_size=4))
def test_every_chunk_is_exactly_one_line_that_parses_back(chunks: list[dict[str, str]]) -> None:
    lines = format_chunks(chunks).splitlines()
    assert [json.loads(line) for line in lines] == chunks


def test_a_failure_message_lists_one_line_per_chunk() -> None:
    chunks = [{"id": "a\u2029b"}, {"id": "c"}]
    message = str(ConformanceFailure(("ENV-ID",), "differs", chunks=chunks))
    shown = message.splitlines()[
        message.splitlines().index("chunks (2, one JSON object per line):") + 1 :
    ]
    assert [json.loads(line) for line in shown] == chunks
