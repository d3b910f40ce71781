"""Known final Anthropic `Message` objects: the expected side of every round trip.

A drawn message is what the non-streaming call returns, so `event_splits` can always
reproduce it: every block is complete, `stop_reason` is set, and only what the claimed
features cover is drawn (`SHAPES`). Values shrink toward one short text block, `end_turn`
and no optional key.
"""

from __future__ import annotations

from collections.abc import Collection

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

from .._text import BOOLEANS, identities, json_objects, texts
from ._claims import FEATURES, allows, check_features

__all__ = ["STOP_REASONS", "TOOL_TYPES", "messages"]

STOP_REASONS: tuple[str, ...] = (
    "end_turn",
    "max_tokens",
    "stop_sequence",
    "tool_use",
    "pause_turn",
    "refusal",
    "model_context_window_exceeded",
)
"""Every documented stop reason, simplest first; a final Message always has one."""

TOOL_TYPES = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
"""Block types that `input_json_delta` applies to (AM-DELTA-MATCH)."""

_SERVER_TOOLS = ("web_search", "web_fetch", "code_execution")
_counts = st.integers(0, 20_000)
_unknown_keys = st.sampled_from(["x_vendor", "diagnostics", "x_trace"])
_EMPTY_TEXT: st.SearchStrategy[JSONObject] = st.builds(dict, type=st.just("text"), text=st.just(""))
_any_json = json_objects(max_size=2).map(lambda value: value or None)


def _citations() -> st.SearchStrategy[JSONObject]:
    """Citations of each drawn type with every key the SDK's type requires, and the title
    key the API always sends (`null` when there is none: AMD-CITATION-UNTITLED)."""
    extra = {"x_vendor": _any_json}
    title = texts(max_size=6) | st.none()
    return st.one_of(
        st.fixed_dictionaries(
            {
                "type": st.just("char_location"),
                "cited_text": texts(max_size=6),
                "document_index": _counts,
                "start_char_index": _counts,
                "end_char_index": _counts,
                "document_title": title,
            },
            optional=extra,
        ),
        st.fixed_dictionaries(
            {
                "type": st.just("page_location"),
                "cited_text": texts(max_size=6),
                "document_index": _counts,
                "start_page_number": _counts,
                "end_page_number": _counts,
                "document_title": title,
            },
            optional=extra,
        ),
        st.fixed_dictionaries(
            {
                "type": st.just("web_search_result_location"),
                "cited_text": texts(max_size=6),
                "url": identities("https://e.com/"),
                "encrypted_index": identities("ei"),
                "title": title,
            },
            optional=extra,
        ),
    )


def _text_blocks(features: Collection[str]) -> st.SearchStrategy[JSONObject]:
    optional = {}
    if allows("citations", features):
        optional["citations"] = st.lists(_citations(), min_size=1, max_size=3)
    return st.fixed_dictionaries({"type": st.just("text"), "text": texts()}, optional=optional)


def _tool_blocks(kind: str, names: st.SearchStrategy[str]) -> st.SearchStrategy[JSONObject]:
    prefix = "toolu_" if kind == "tool_use" else "srvtoolu_"
    return st.fixed_dictionaries(
        {"type": st.just(kind), "id": identities(prefix), "name": names, "input": json_objects()},
        optional={"caller": st.just({"type": "direct"})},
    )


def _thinking_blocks() -> st.SearchStrategy[JSONObject]:
    return st.fixed_dictionaries(
        {"type": st.just("thinking"), "thinking": texts(), "signature": identities("sig")}
    )


def _redacted_blocks() -> st.SearchStrategy[JSONObject]:
    return st.fixed_dictionaries({"type": st.just("redacted_thinking"), "data": identities("enc")})


def _result_blocks() -> st.SearchStrategy[JSONObject]:
    """Server tool results and container uploads, each with the content its SDK type
    requires (they arrive complete on content_block_start)."""
    search_result = st.fixed_dictionaries(
        {
            "type": st.just("web_search_result"),
            "url": identities("https://e.com/"),
            "title": texts(max_size=6),
            "encrypted_content": identities("ec"),
        },
        optional={"page_age": st.none() | st.just("2 days ago")},
    )
    tool_use_id = identities("srvtoolu_")
    fetched = st.builds(
        lambda url, data: {
            "type": "web_fetch_result",
            "url": url,
            "content": {
                "type": "document",
                "source": {"type": "text", "media_type": "text/plain", "data": data},
            },
        },
        identities("https://e.com/"),
        texts(max_size=6),
    )
    executed = st.builds(
        lambda out, code: {
            "type": "code_execution_result",
            "stdout": out,
            "stderr": "",
            "return_code": code,
            "content": [],
        },
        texts(max_size=6),
        st.integers(0, 2),
    )
    return st.one_of(
        st.fixed_dictionaries(
            {
                "type": st.just("web_search_tool_result"),
                "tool_use_id": tool_use_id,
                "content": st.lists(search_result, max_size=2),
            }
        ),
        st.fixed_dictionaries(
            {
                "type": st.just("web_fetch_tool_result"),
                "tool_use_id": tool_use_id,
                "content": fetched,
            }
        ),
        st.fixed_dictionaries(
            {
                "type": st.just("code_execution_tool_result"),
                "tool_use_id": tool_use_id,
                "content": executed,
            }
        ),
        st.fixed_dictionaries(
            {"type": st.just("container_upload"), "file_id": identities("file_")}
        ),
    )


def _unknown_blocks() -> st.SearchStrategy[JSONObject]:
    return st.builds(
        lambda kind, rest: {**rest, "type": kind}, identities("x_block_"), json_objects(max_size=2)
    )


def _blocks(features: Collection[str], *, documented: bool) -> st.SearchStrategy[JSONObject]:
    """Blocks of the claimed kinds, simplest first. The empty text block comes first on
    its own: Hypothesis shrinks toward the fewest choices, and a drawn text costs more
    of them than a redacted_thinking's data, so without it failures would shrink to
    redacted_thinking instead of text. Unknown blocks only when the stream need not be
    documented (the SDK's types name no such block: AMD-UNKNOWN-BLOCK)."""
    kinds = [_EMPTY_TEXT, _text_blocks(features)]
    if allows("tool_use blocks", features):
        kinds.append(_tool_blocks("tool_use", identities("get_")))
    if allows("thinking blocks", features):
        kinds += [_thinking_blocks(), _redacted_blocks()]
    if allows("server_tool_use blocks", features):
        kinds += [_tool_blocks("server_tool_use", st.sampled_from(_SERVER_TOOLS)), _result_blocks()]
    if allows("unknown blocks", features) and not documented:
        kinds.append(_unknown_blocks())
    return st.one_of(kinds)


def _usages() -> st.SearchStrategy[JSONObject]:
    return st.fixed_dictionaries(
        {"input_tokens": _counts, "output_tokens": _counts},
        optional={
            "cache_creation_input_tokens": _counts,
            "cache_read_input_tokens": _counts,
            "server_tool_use": st.fixed_dictionaries(
                {"web_search_requests": _counts, "web_fetch_requests": _counts}
            ),
            "cache_creation": st.fixed_dictionaries(
                {"ephemeral_5m_input_tokens": _counts, "ephemeral_1h_input_tokens": _counts}
            ),
            "service_tier": st.sampled_from(["standard", "priority", "batch"]),
            "x_vendor_counter": _counts,
        },
    )


def _stop_details() -> st.SearchStrategy[JSONObject]:
    return st.fixed_dictionaries(
        {"type": st.just("refusal")},
        optional={
            "category": st.sampled_from(["cyber", "bio"]) | st.none(),
            "explanation": texts(max_size=6) | st.none(),
        },
    )


def _containers() -> st.SearchStrategy[JSONObject]:
    return st.fixed_dictionaries(
        {"id": identities("container_"), "expires_at": st.just("2026-12-01T12:00:00Z")}
    )


@st.composite
def messages(
    draw: st.DrawFn,
    *,
    features: Collection[str] = frozenset(FEATURES),
    max_blocks: int = 4,
    documented: bool = False,
) -> JSONObject:
    """Draw a final Anthropic `Message` holding only what `features` claim.

    Blocks: text (with `citations` under `citations`), `tool_use` with any JSON-object
    input (`tool_use`), thinking with signature and `redacted_thinking` (`thinking`),
    `server_tool_use` and server tool results (`server_tools`), unknown block types
    (`robustness`). `stop_details` and `container` need `stop_details`, `usage` needs
    `usage`; unknown top-level keys and every stop reason (with `stop_sequence` for
    `stop_sequence`) are always drawable.

    Every value is one the SDK's types allow, and under `usage` a message has usage
    unless `documented` is False and the draw leaves it out (the docs' thinking example
    streams none: AQ4); its simplest draw has it. `documented` also leaves out unknown
    block types, so that every split of family 1 is a documented stream.
    """
    check_features(features)
    reason = draw(st.sampled_from(STOP_REASONS))
    sequence = draw(texts(min_size=1, max_size=4)) if reason == "stop_sequence" else None
    message: JSONObject = {
        "id": draw(identities("msg_")),
        "type": "message",
        "role": "assistant",
        "model": draw(st.sampled_from(["claude-sonnet-4-5", "claude-opus-4-1"])),
        "content": draw(st.lists(_blocks(features, documented=documented), max_size=max_blocks)),
        "stop_reason": reason,
        "stop_sequence": sequence,
    }
    if allows("usage", features):
        # drawn first and then maybe dropped, so that the simplest draw keeps it: the
        # shrinker prefers fewer choices, and a split of a message with usage draws more
        # than one without, so an absent usage costs a second usage drawn and discarded
        message["usage"] = draw(_usages())
        if not documented and draw(BOOLEANS):
            del message["usage"]
            draw(_usages())
    if allows("stop_details", features):
        if draw(BOOLEANS):
            message["stop_details"] = draw(_stop_details())
        if draw(BOOLEANS):
            message["container"] = draw(_containers())
    if draw(BOOLEANS):
        extra: JSON = draw(_any_json)
        message[draw(_unknown_keys)] = extra
    return message
