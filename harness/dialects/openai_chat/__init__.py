"""The `openai-chat` dialect: OpenAI Chat Completions `chat.completion.chunk` streams.

Its contract is chat-fold.md (`refold.reference`); its wire rules (SSE-*, WHATWG) are a
registry of its own, labelled as not part of the spec; its suites are
`refold.suites.openai_chat` (they were the top-level modules before dialects existed; a
test's id is its module's last name, so the baselines that name them did not change).
"""

from __future__ import annotations

from refold.reference import JSONObject
from refold.reference.chat import (
    ALL_RULES,
    FEATURES,
    POINTERLESS,
    RULES,
    SSE_RULES_NOTE,
    SSE_RULES_SOURCE,
    Accumulator,
    differences,
    fold,
    rules_at,
)
from refold.reference.sse import decode_chunks

from .._dialect import Dialect
from ._shapes import CHAT_SHAPES
from .ablation import ABLATION
from .policies import CHAT_POLICIES
from .serving import ENDPOINT
from .targets import SDK_TARGETS

__all__ = ["OPENAI_CHAT"]

_MESSAGE = "/choices/0/message"
_CALL = f"{_MESSAGE}/tool_calls/0"
_PLACES: tuple[str, ...] = (
    "/id",
    "/object",
    "/created",
    "/model",
    "/error",
    "/error/code",
    "/provider",
    "/system_fingerprint",
    "/service_tier",
    "/usage",
    "/usage/total_tokens",
    "/choices",
    "/choices/0",
    "/choices/0/index",
    "/choices/0/native_finish_reason",
    "/choices/0/finish_reason",
    _MESSAGE,
    f"{_MESSAGE}/role",
    f"{_MESSAGE}/content",
    f"{_MESSAGE}/refusal",
    f"{_MESSAGE}/reasoning",
    f"{_MESSAGE}/reasoning_content",
    f"{_MESSAGE}/annotations",
    f"{_MESSAGE}/annotations/0",
    f"{_MESSAGE}/reasoning_details",
    f"{_MESSAGE}/reasoning_details/0",
    f"{_MESSAGE}/reasoning_details/0/text",
    f"{_MESSAGE}/reasoning_details/0/summary",
    f"{_MESSAGE}/reasoning_details/0/index",
    f"{_MESSAGE}/reasoning_details/0/type",
    f"{_MESSAGE}/reasoning_details/0/key",
    f"{_MESSAGE}/reasoning_details/0/key/0",
    "/choices/0/logprobs",
    "/choices/0/logprobs/content",
    f"{_MESSAGE}/tool_calls",
    _CALL,
    f"{_CALL}/id",
    f"{_CALL}/type",
    f"{_CALL}/index",
    f"{_CALL}/function",
    f"{_CALL}/function/name",
    f"{_CALL}/function/arguments",
    "/key",
)
"""A place of every row of the attribution table (`refold.reference.chat._attribution`, and
of each alternative), and `/key`, one it does not name (`Dialect.places`)."""


def _sniff(item: JSONObject) -> bool:
    """A `chat.completion.chunk` object."""
    return item.get("object") == "chat.completion.chunk"


OPENAI_CHAT = Dialect(
    name="openai-chat",
    title="OpenAI Chat Completions",
    spec="chat-fold.md",
    docs="https://platform.openai.com/docs/api-reference/chat/streaming",
    result="chat.completion",
    item="chunk",
    rules=ALL_RULES,
    spec_rules=frozenset(RULES),
    features=FEATURES,
    fold=fold,
    accumulator=Accumulator,
    differences=differences,
    rules_at=rules_at,
    pointerless=POINTERLESS,
    places=_PLACES,
    lifecycle_reads=("finished",),
    lifecycle_calls=("mark_done",),
    decode_sse=decode_chunks,
    snapshot_rule="LIFE-SNAPSHOT",
    sse_layer="events",
    suites="openai_chat",
    kit="openai_chat._kit",
    endpoint=ENDPOINT,
    extra_rules_explained=(
        f"Not part of chat-fold.md: the spec names the feature `sse` (the wire decoder) but "
        f"states no rules for it. These ids are the `sse` suite's checks of a decoder of "
        f'`text/event-stream` bytes, paraphrasing {SSE_RULES_SOURCE} ("Parsing an event '
        f'stream", "Interpreting an event stream").'
    ),
    sniff=_sniff,
    sniffed="a `chat.completion.chunk` object",
    named_frames=False,
    reference_target="refold.dialects.openai_chat.reference_target:DECLARATION",
    sdk_targets=SDK_TARGETS,
    reference_package="refold.reference.chat",
    mutates_kernel=True,
    reference_tests="**/test_reference_*.py",  # tests/core/ and tests/dialects/openai_chat/
    reference_equivalents="equivalent-mutants.toml",
    not_fold_features=frozenset({"lifecycle", "sse", "events"}),
    extra_rules_note=SSE_RULES_NOTE,
    ablation=ABLATION,
    policies=CHAT_POLICIES,
    shapes=CHAT_SHAPES,
)
"""OpenAI Chat Completions, the first dialect and the default one."""
