"""Known final OpenAI `Response` objects: the expected side of every round trip.

A drawn response is what the non-streamed call returns, so `event_splits` can always
reproduce it: every item is finished, item ids are unique (RS-ROUTE routes by them), the
status is terminal, and only what the claimed features cover is drawn (`SHAPES`). Values
shrink toward a completed response with no output item and no optional key.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

from .._text import BOOLEANS, argument_texts, identities, json_objects, texts
from ._claims import FEATURES, allows, check_features

__all__ = ["HOSTED_TYPES", "STATUSES", "responses"]

STATUSES: tuple[str, ...] = ("completed", "incomplete", "failed")
"""The terminal statuses, simplest first."""

HOSTED_TYPES: tuple[str, ...] = (
    "web_search_call",
    "file_search_call",
    "code_interpreter_call",
    "image_generation_call",
    "mcp_call",
)
"""Hosted-tool item types, kept as sent (RS-HOSTED-ITEMS)."""

_counts = st.integers(0, 20_000)
_small = st.integers(0, 500)
_ITEM_STATUSES = {
    "completed": ["completed"],
    "incomplete": ["completed", "incomplete"],
    "failed": ["completed", "incomplete"],
}


def _annotations() -> st.SearchStrategy[JSONObject]:
    url = st.fixed_dictionaries(
        {
            "type": st.just("url_citation"),
            "start_index": _small,
            "end_index": _small,
            "url": identities("https://e.com/"),
            "title": texts(max_size=6),
        }
    )
    file = st.fixed_dictionaries(
        {
            "type": st.just("file_citation"),
            "file_id": identities("file-"),
            "filename": identities("f"),
            "index": _small,
        }
    )
    path = st.fixed_dictionaries(
        {"type": st.just("file_path"), "file_id": identities("file-"), "index": _small}
    )
    return st.one_of(url, file, path)


def _logprobs() -> st.SearchStrategy[JSONObject]:
    top = st.fixed_dictionaries(
        {
            "token": texts(max_size=3),
            "logprob": st.floats(-20, 0),
            "bytes": st.lists(st.integers(0, 255), max_size=3),
        }
    )
    return st.fixed_dictionaries(
        {
            "token": texts(max_size=3),
            "logprob": st.floats(-20, 0),
            "bytes": st.lists(st.integers(0, 255), max_size=3),
            "top_logprobs": st.lists(top, max_size=2),
        }
    )


def _text_parts(features: Collection[str]) -> st.SearchStrategy[JSONObject]:
    notes = (
        st.lists(_annotations(), max_size=3) if allows("annotations", features) else st.builds(list)
    )  # a new list per draw: later steps may append to it
    return st.fixed_dictionaries(
        {
            "type": st.just("output_text"),
            "text": texts(),
            "annotations": notes,
            "logprobs": st.lists(_logprobs(), max_size=2),
        }
    )


def _parts(features: Collection[str]) -> st.SearchStrategy[JSONObject]:
    kinds = [_text_parts(features)]
    if allows("refusal parts", features):
        kinds.append(st.fixed_dictionaries({"type": st.just("refusal"), "refusal": texts()}))
    return st.one_of(kinds)


def _messages(features: Collection[str], status: str) -> st.SearchStrategy[JSONObject]:
    return st.fixed_dictionaries(
        {
            "type": st.just("message"),
            "id": identities("msg_"),
            "status": st.sampled_from(_ITEM_STATUSES[status]),
            "role": st.just("assistant"),
            "content": st.lists(_parts(features), max_size=3),
        }
    )


def _cut_off(text: str, keep: int) -> str:
    return text[: max(0, min(keep, len(text) - 1))]


def _arguments() -> st.SearchStrategy[str]:
    """Any arguments a model sends: `""`, a JSON object, cut-off JSON, any text."""
    cut_off = st.builds(_cut_off, argument_texts(), st.integers(0, 40))
    return st.one_of(st.just(""), argument_texts(), cut_off, texts())


def _calls(status: str, *, bare: bool) -> st.SearchStrategy[JSONObject]:
    """A function call; with `bare`, with or without `id` (RQ10: the schema's item
    events all name their item, so a call without one is not OpenAI's shape)."""
    ids = {"id": identities("fc_")}
    return st.fixed_dictionaries(
        {
            "type": st.just("function_call"),
            "call_id": identities("call_"),
            "name": identities("get_"),
            "arguments": _arguments(),
            "status": st.sampled_from(_ITEM_STATUSES[status]),
            **({} if bare else ids),
        },
        optional=ids if bare else {},
    )


def _reasoning(status: str) -> st.SearchStrategy[JSONObject]:
    summary = st.fixed_dictionaries({"type": st.just("summary_text"), "text": texts()})
    content = st.fixed_dictionaries({"type": st.just("reasoning_text"), "text": texts()})
    return st.fixed_dictionaries(
        {
            "type": st.just("reasoning"),
            "id": identities("rs_"),
            "summary": st.lists(summary, max_size=2),
        },
        optional={
            "content": st.lists(content, min_size=1, max_size=2),
            "encrypted_content": identities("gAAA"),
            "status": st.sampled_from(_ITEM_STATUSES[status]),
        },
    )


def _hosted() -> st.SearchStrategy[JSONObject]:
    done = st.just("completed")
    web = st.fixed_dictionaries(
        {
            "type": st.just("web_search_call"),
            "id": identities("ws_"),
            "status": done,
            "action": st.fixed_dictionaries(
                {"type": st.just("search"), "query": texts(max_size=6)}
            ),
        }
    )
    files = st.fixed_dictionaries(
        {
            "type": st.just("file_search_call"),
            "id": identities("fs_"),
            "status": done,
            "queries": st.lists(texts(max_size=6), max_size=2),
            "results": st.none(),
        }
    )
    code = st.fixed_dictionaries(
        {
            "type": st.just("code_interpreter_call"),
            "id": identities("ci_"),
            "status": done,
            "code": texts(),
            "container_id": identities("cntr_"),
            "outputs": st.lists(
                st.fixed_dictionaries({"type": st.just("logs"), "logs": texts(max_size=6)}),
                max_size=1,
            ),
        }
    )
    image = st.fixed_dictionaries(
        {
            "type": st.just("image_generation_call"),
            "id": identities("ig_"),
            "status": done,
            "result": identities("iVBORw0KGgo"),
        }
    )
    mcp = st.fixed_dictionaries(
        {
            "type": st.just("mcp_call"),
            "id": identities("mcp_"),
            "server_label": identities("srv"),
            "name": identities("tool_"),
            "arguments": argument_texts(),
            "output": texts(max_size=6),
        },
        optional={"error": st.none(), "status": done},
    )
    return st.one_of(web, files, code, image, mcp)


@cache  # built once per claim and status: building it per draw doubled a suite's cost
def _items(
    features: frozenset[str], status: str, *, bare_calls: bool
) -> st.SearchStrategy[JSONObject]:
    kinds = [_messages(features, status)]
    if allows("function_call items", features):
        kinds.append(_calls(status, bare=bare_calls))
    if allows("reasoning items", features):
        kinds.append(_reasoning(status))
    if allows("hosted-tool items", features):
        kinds.append(_hosted())
    return st.one_of(kinds)


def _usages() -> st.SearchStrategy[JSONObject]:
    @st.composite
    def usage(draw: st.DrawFn) -> JSONObject:
        given, produced = draw(_counts), draw(_counts)
        cached = draw(st.integers(0, given))
        inputs: JSONObject = {
            "cached_tokens": cached,
            "cache_write_tokens": draw(st.integers(0, given - cached)),
        }
        return {
            "input_tokens": given,
            "input_tokens_details": inputs,
            "output_tokens": produced,
            "output_tokens_details": {"reasoning_tokens": draw(st.integers(0, produced))},
            "total_tokens": given + produced,
        }

    return usage()


_REQUIRED_KEYS: dict[str, st.SearchStrategy[JSON]] = {
    "parallel_tool_calls": BOOLEANS,
    "temperature": st.sampled_from([1.0, 0.0, 0.7]),
    "top_p": st.sampled_from([1.0, 0.9]),
    "metadata": st.builds(dict),
    "instructions": st.none() | texts(max_size=6),
    "tool_choice": st.sampled_from(["auto", "none", "required"]),
    "tools": st.builds(list),
}
"""The keys OpenAI's Response schema requires beside the ones drawn on their own (the
request's echo): every drawn response has them, as the API sends them."""

_EXTRA_KEYS: dict[str, st.SearchStrategy[JSON]] = {
    "service_tier": st.sampled_from(["default", "auto", "flex", "priority"]),
    "text": st.builds(lambda: {"format": {"type": "text"}, "verbosity": "medium"}),
    "store": BOOLEANS,
    "previous_response_id": st.none(),
    "x_vendor": json_objects(max_size=2),
}


def _outcome(draw: st.DrawFn, status: str) -> JSONObject:
    """`incomplete_details` and `error` as the status needs them (null else: the schema
    requires both keys)."""
    outcome: JSONObject = {"incomplete_details": None, "error": None}
    if status == "incomplete":
        reason = draw(st.sampled_from(["max_output_tokens", "content_filter"]))
        outcome["incomplete_details"] = {"reason": reason}
    elif status == "failed":
        outcome["error"] = {
            "code": draw(
                st.sampled_from(["server_error", "rate_limit_exceeded", "invalid_prompt"])
            ),
            "message": draw(texts(max_size=8)),
        }
    return outcome


def _unique(items: list[JSONObject], key: str) -> list[JSONObject]:
    """`items` with each value of `key` made unique by suffixing its item's position."""
    seen: set[JSON] = set()
    for position, item in enumerate(items):
        while key in item and item[key] in seen:
            item[key] = f"{item[key]}{position}"
        seen.add(item.get(key))
    return items


def _unique_ids(items: list[JSONObject], *, shared_call_ids: bool) -> list[JSONObject]:
    """Item ids made unique (routing by id needs it), and call ids unless `shared_call_ids`
    (the API reference calls `call_id` "the unique ID of the function tool call")."""
    return _unique(items, "id") if shared_call_ids else _unique(_unique(items, "id"), "call_id")


@st.composite
def responses(
    draw: st.DrawFn,
    *,
    features: Collection[str] = frozenset(FEATURES),
    max_items: int = 4,
    bare_calls: bool = False,
    shared_call_ids: bool = False,
) -> JSONObject:
    """Draw a final OpenAI `Response` holding only what `features` claim.

    Items: `message` with `output_text` parts (`logprobs`; `annotations` under
    `annotations`) and `refusal` parts (`refusal`), hosted-tool items (`web_search_call`,
    `file_search_call`, `code_interpreter_call`, `image_generation_call`, `mcp_call`),
    `function_call` with any arguments, with or without `id` (`tool_calls`), `reasoning`
    with summary, content text and `encrypted_content` (`reasoning`). Status `completed`,
    `incomplete` (with `incomplete_details`) or `failed` (with `error`); `usage` with
    cached and reasoning tokens under `usage`; every key OpenAI's Response schema requires
    (`tools`, `instructions`, `metadata`, `temperature`, `top_p`, ...) and extra
    top-level keys (`service_tier`, ...). Every part holds `logprobs`, every usage its
    details, and every function call an `id` unless `bare_calls` (RQ10, split family 5):
    a response of the plain family validates against the vendored schema. Calls share a
    `call_id` only with `shared_call_ids` (split family 5, `RS-SYN-SHARED-CALL-ID`).
    """
    check_features(features)
    status = draw(st.sampled_from(STATUSES))
    items = draw(
        st.lists(_items(frozenset(features), status, bare_calls=bare_calls), max_size=max_items)
    )
    response: JSONObject = {
        "id": draw(identities("resp_")),
        "object": "response",
        "created_at": draw(st.integers(1_700_000_000, 1_800_000_000)),
        "status": status,
        "model": draw(st.sampled_from(["gpt-5", "gpt-4.1-mini", "o4-mini"])),
        "output": _unique_ids(items, shared_call_ids=shared_call_ids),
        **_outcome(draw, status),
        **draw(st.fixed_dictionaries(_REQUIRED_KEYS)),
    }
    if allows("usage", features) and draw(BOOLEANS):
        response["usage"] = draw(_usages())
    extras = draw(st.fixed_dictionaries({}, optional=_EXTRA_KEYS))
    response.update(extras)
    return response
