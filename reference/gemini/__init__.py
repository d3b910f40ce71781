"""The reference fold of Gemini `streamGenerateContent` streams (refold.reference.gemini).

Sans-IO and standard library only: plain JSON values in, a new plain JSON value out.
Every rule of the gemini-fold spec is implemented here and named (`GM-*`) where it is
applied; `RULES` lists them all, and `differences` is the dialect's canonical comparison
(proto3 defaults and nulls removed, call arguments kept whole). `SSEStreamDecoder` and
`ArrayStreamDecoder` are the wire layer (feature `sse`): the `alt=sse` framing and the
JSON-array framing, bytes in, chunk objects out. `rules_at` says which rules a
difference at a pointer is evidence against.

    >>> from refold.reference.gemini import fold
    >>> response = fold([
    ...     {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hel"}]}}],
    ...      "modelVersion": "gemini-x", "usageMetadata": {"promptTokenCount": 3}},
    ...     {"candidates": [{"content": {"role": "model", "parts": [{"text": "lo"}]},
    ...                      "finishReason": "STOP"}],
    ...      "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2}},
    ... ])
    >>> response["candidates"][0]["content"]["parts"], response["usageMetadata"]
    ([{'text': 'Hello'}], {'promptTokenCount': 3, 'candidatesTokenCount': 2})
"""

from .._compare import ABSENT, Difference
from .._rules import Rule
from ._accumulator import Accumulator, fold
from ._attribution import OUTSIDE_THE_SHAPE, POINTERLESS, rules_at
from ._calls import parse_path
from ._compare import canonical, differences
from ._errors import ChunkDataError, GeminiChunkTypeError, NoResponseError
from ._rules import FEATURES, RULES
from ._sse import ArrayStreamDecoder, SSEStreamDecoder, decode_array, decode_sse

__all__ = [
    "ABSENT",
    "FEATURES",
    "OUTSIDE_THE_SHAPE",
    "POINTERLESS",
    "RULES",
    "Accumulator",
    "ArrayStreamDecoder",
    "ChunkDataError",
    "Difference",
    "GeminiChunkTypeError",
    "NoResponseError",
    "Rule",
    "SSEStreamDecoder",
    "canonical",
    "decode_array",
    "decode_sse",
    "differences",
    "fold",
    "parse_path",
    "rules_at",
]
