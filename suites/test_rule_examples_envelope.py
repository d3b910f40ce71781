"""Rule examples: the envelope (ENV-*)."""

from refold.checks import Check
from refold.marks import rule

from ._streams import choice, completion, delta, stream


@rule("ENV-ID")
def test_the_id_is_the_first_non_blank_chunk_id(check: Check) -> None:
    chunks = stream(
        {"id": "", **delta(role="assistant", content="a")},
        {"id": "chatcmpl-x", **delta(content="b")},
        {"id": "chatcmpl-later", **delta(finish_reason="stop")},
    )
    check.folds_to(chunks, completion(choice(content="ab", finish_reason="stop")))
