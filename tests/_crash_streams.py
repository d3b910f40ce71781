"""A target that crashes on sparse tool indexes, and a stream that makes it crash
(shared by the crash tests and the blocked-rule tests)."""

from __future__ import annotations

from refold.reference import JSON

SPARSE_CRASH = '''
from refold.reference.chat import fold as reference_fold


def fold(chunks):
    """The reference, but a tool index must be the next free one (as openai-python's
    list-backed snapshot needs): a sparse or non-zero-based index raises IndexError."""
    calls = {}
    for chunk in chunks:
        for entry in chunk.get("choices") or []:
            for fragment in ((entry or {}).get("delta") or {}).get("tool_calls") or []:
                seen = calls.setdefault((entry or {}).get("index", 0), [])
                index = fragment.get("index")
                if index not in seen:
                    if index != len(seen):
                        raise IndexError("list index out of range")
                    seen.append(index)
    return reference_fold(chunks)


refold_target = {"name": "sparse_crash", "fold": fold,
                 "features": ["text", "choices", "tool_calls", "robustness"]}
'''

_ENVELOPE = {"id": "chatcmpl-x", "object": "chat.completion.chunk", "created": 1, "model": "m"}


def chunk(*entries: JSON, **fields: JSON) -> JSON:
    return {**_ENVELOPE, "choices": list(entries), **fields}


def tool_chunk(index: int, **delta: JSON) -> JSON:
    return chunk({"index": 0, "delta": {"tool_calls": [{"index": index, **delta}]}})


SPARSE: list[JSON] = [
    chunk({"index": 0, "delta": {"role": "assistant", "content": "Let me check."}}),
    tool_chunk(1, id="call_1", type="function", function={"name": "f", "arguments": ""}),
    tool_chunk(1, function={"arguments": "{}"}),
    chunk({"index": 0, "delta": {}, "finish_reason": "tool_calls"}),
]
"""TOOL-INDEX's departure: the only call is on index 1."""
