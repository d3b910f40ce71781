"""Single chunks, for driving an incremental fold one `add()` at a time.

A state machine over add / read / mark_done draws each chunk on its own, so the chunks
do not come from a split of a known completion: they are drawn from small alphabets in
which every value exercises a rule and shrinking lands on it. Which values are in the
alphabets follows the target's claim (`allows`): a target that does not claim
`robustness` is never sent `"choices": [null]` or a blank finish reason, one that does
not claim `tool_call_repair` never sees an index-less fragment or a second id on an index.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject
from refold.reference.chat import FEATURES

from ._claims import allows
from ._completions import _check_options

__all__ = ["lifecycle_chunks"]

_ENVELOPE: JSONObject = {
    "id": "chatcmpl-x",
    "object": "chat.completion.chunk",
    "created": 1700000000,
    "model": "m",
}
_ERROR: JSONObject = {"code": "server_error", "message": "Provider disconnected unexpectedly"}
_USAGES = st.builds(
    lambda prompt, completion: {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    },
    st.integers(0, 9),
    st.integers(0, 9),
)


def lifecycle_chunks(
    *, features: Collection[str] = frozenset(FEATURES)
) -> st.SearchStrategy[JSONObject]:
    """One chunk: the envelope, up to two choice entries, maybe usage or an error object,
    using only shapes a target claiming `features` is judged on."""
    _check_options(features, 1, 0)
    return _chunks(frozenset(features))


@cache
def _chunks(features: frozenset[str]) -> st.SearchStrategy[JSONObject]:
    entries: st.SearchStrategy[JSONObject | None] = _entries(features)
    if allows("null entries", features):
        entries = st.none() | entries
    extras: dict[str, st.SearchStrategy[JSON]] = {"error": st.just(_ERROR).map(dict)}
    if allows("usage", features):
        extras["usage"] = st.none() | _USAGES
    return st.builds(
        lambda choices, extra: {**_ENVELOPE, "choices": choices, **extra},
        st.lists(entries, max_size=2),
        st.fixed_dictionaries({}, optional=extras),
    )


def _with_blanks(values: list[JSON], features: frozenset[str]) -> st.SearchStrategy[JSON]:
    blanks: list[JSON] = ["", None] if allows("blank values", features) else []
    return st.sampled_from([*values, *blanks])


def _entries(features: frozenset[str]) -> st.SearchStrategy[JSONObject]:
    delta_fields: dict[str, st.SearchStrategy[JSON]] = {
        "role": _with_blanks(["assistant"], features),
        "content": st.sampled_from(["a", "b c", "", None]),
    }
    if allows("tool calls", features):
        fragments: st.SearchStrategy[JSON] = _fragments(features)
        if allows("null entries", features):
            fragments = st.none() | fragments
        delta_fields["tool_calls"] = st.lists(fragments, max_size=2)
    reasons: list[JSON] = ["stop", "tool_calls", "length", "error", None]
    if allows("blank values", features):
        reasons += ["", " "]
    return st.fixed_dictionaries(
        {"index": st.sampled_from([0, 1] if allows("several choices", features) else [0])},
        optional={
            "delta": st.none() | st.fixed_dictionaries({}, optional=delta_fields),
            "finish_reason": st.sampled_from(reasons),
        },
    )


@st.composite
def _fragments(draw: st.DrawFn, features: frozenset[str]) -> JSONObject:
    """A tool fragment. Without `tool_call_repair` each index has its own id and no
    fragment's arguments are complete on their own (TOOL-2/3/4 never apply); without
    `empty_arguments` every fragment carries some argument text, so no call is left
    without arguments."""
    fragment: JSONObject = {}
    index = draw(st.sampled_from([0, 1]))
    if not allows("index-less fragments", features) or draw(st.booleans()):
        fragment["index"] = index
    ids = ["call_a", "call_b"] if allows("new id on an index", features) else [f"call_{index}"]
    optional: dict[str, st.SearchStrategy[JSON]] = {
        "id": _with_blanks(ids, features),
        "type": _with_blanks(["function"], features),
    }
    fragment.update(draw(st.fixed_dictionaries({}, optional=optional)))
    fragment["function"] = draw(_functions(features))
    return fragment


@cache
def _functions(features: frozenset[str]) -> st.SearchStrategy[JSONObject]:
    arguments: list[JSON] = ["{", '"a": 1', "}"]
    if allows("complete argument fragments", features):
        arguments += ["{}", '{"a": 1}']
    if allows("argument-less calls", features):
        arguments.append("")
    if allows("null arguments", features):
        arguments.append(None)
    names = _with_blanks(["f", "g"], features)
    if allows("argument-less calls", features):
        return st.fixed_dictionaries(
            {}, optional={"name": names, "arguments": st.sampled_from(arguments)}
        )
    return st.fixed_dictionaries(
        {"arguments": st.sampled_from(arguments)}, optional={"name": names}
    )
