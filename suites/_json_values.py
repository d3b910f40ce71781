"""Strategies of arbitrary JSON values and of chunk-shaped objects with fields of the wrong
JSON type, for the robustness suite (suite-private).

`chunks_with_wrong_types()` draws a pair: a chunk whose fields are each absent, of the
right type or of a wrong type, and the same chunk with every wrong-typed field removed.
ROB-WRONG-TYPE says the two fold alike. Only fields whose wrong type the spec reads as
absent are made wrong: the entries of `annotations`, logprobs lists, `usage` and
`reasoning_details` are kept verbatim by the fold, so they are drawn whole by
`json_objects()` in the never-raises test instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

from hypothesis import strategies as st

from refold.reference import JSON, JSONObject

__all__ = [
    "SCALARS_FOR_EVENTS",
    "WRONG_FOR_EVENTS",
    "chunks_with_wrong_types",
    "insert_junk_entries",
    "json_objects",
    "json_values",
    "non_objects",
]

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-2, 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4)
)
_CHUNK_KEYS = st.sampled_from(
    [
        "id",
        "object",
        "created",
        "model",
        "choices",
        "usage",
        "error",
        "provider",
        "delta",
        "index",
        "tool_calls",
        "finish_reason",
    ]
)


def json_values(*, max_leaves: int = 8) -> st.SearchStrategy[JSON]:
    """Any JSON value: null, booleans, numbers, strings, arrays and objects, nested."""
    return st.recursive(
        _SCALARS,
        lambda children: (
            st.lists(children, max_size=3)
            | st.dictionaries(_CHUNK_KEYS | st.text(max_size=4), children, max_size=3)
        ),
        max_leaves=max_leaves,
    )


def json_objects() -> st.SearchStrategy[JSONObject]:
    """Any JSON object, its keys often those of a chunk so its values reach the fold."""
    return st.dictionaries(_CHUNK_KEYS | st.text(max_size=4), json_values(), max_size=5)


def non_objects() -> st.SearchStrategy[JSON]:
    """JSON values that are not objects: arrays, strings, numbers, booleans and null."""
    return _SCALARS | st.lists(json_values(max_leaves=3), max_size=3)


# What a field must hold. A nested shape is a dict of field shapes; ("list", shape) is a
# list of entries of that shape.
Shape: TypeAlias = Any
_RIGHT: dict[str, st.SearchStrategy[JSON]] = {
    "string": st.sampled_from(["a", "b", "", " ", "stop", "error", "call_a", "f"]),
    "integer": st.sampled_from([0, 1, 2, 1.0, -1]),
    "object": st.fixed_dictionaries({"prompt_tokens": st.integers(0, 9)}),
}
_WRONG: dict[str, st.SearchStrategy[JSON]] = {
    "string": st.none()
    | st.booleans()
    | st.integers()
    | st.lists(_SCALARS, max_size=2)
    | st.dictionaries(st.text(max_size=2), _SCALARS, max_size=2),
    "integer": st.none()
    | st.booleans()
    | st.text(max_size=3)
    | st.just([1])
    | st.just({"i": 1})
    | st.floats(0.1, 0.9),
    "object": _SCALARS | st.lists(_SCALARS, max_size=2),
    "list": _SCALARS | st.dictionaries(st.text(max_size=2), _SCALARS, max_size=2),
}
_FUNCTION = {"name": "string", "arguments": "string"}
_TOOL_FRAGMENT = {"index": "integer", "id": "string", "type": "string", "function": _FUNCTION}
_DELTA = {
    "role": "string",
    "content": "string",
    "refusal": "string",
    "reasoning": "string",
    "reasoning_content": "string",
    "tool_calls": ("list", _TOOL_FRAGMENT),
}
_LOGPROBS: Shape = {"content": ("list", {}), "refusal": ("list", {})}  # entries kept verbatim
_CHOICE = {
    "index": "integer",
    "finish_reason": "string",
    "native_finish_reason": "string",
    "delta": _DELTA,
    "logprobs": _LOGPROBS,
}
CHUNK_SHAPE: Shape = {
    "id": "string",
    "object": "string",
    "created": "integer",
    "model": "string",
    "provider": "string",
    "system_fingerprint": "string",
    "service_tier": "string",
    "usage": "object",
    "choices": ("list", _CHOICE),
}
"""The fields of a chunk the fold reads, each with the JSON type it must have."""


def _kind(shape: Shape) -> str:
    if isinstance(shape, dict):
        return "object"
    if isinstance(shape, tuple):
        return "list"
    return str(shape)


@st.composite
def _field(draw: st.DrawFn, shape: Shape) -> tuple[JSON, JSON | None, bool]:
    """(value, value with wrong types removed, whether the value itself is wrong-typed)."""
    if draw(st.integers(0, 3)) == 0:
        wrong = draw(_WRONG[_kind(shape)])
        return wrong, None, True
    if isinstance(shape, dict):
        return (*draw(_object(shape)), False)
    if isinstance(shape, tuple):
        entries = draw(st.lists(_object(shape[1]), max_size=2))
        return [e for e, _ in entries], [c for _, c in entries], False
    value = draw(_RIGHT[shape])
    return value, value, False


@st.composite
def _object(draw: st.DrawFn, shape: dict[str, Shape]) -> tuple[JSONObject, JSONObject]:
    if not shape:
        return {}, {}
    keys = draw(st.lists(st.sampled_from(sorted(shape)), unique=True, max_size=len(shape)))
    value: JSONObject = {}
    cleaned: JSONObject = {}
    for key in keys:
        field, field_cleaned, wrong = draw(_field(shape[key]))
        value[key] = field
        if not wrong:
            cleaned[key] = field_cleaned
    return value, cleaned


def chunks_with_wrong_types() -> st.SearchStrategy[tuple[JSONObject, JSONObject]]:
    """Pairs (chunk, the chunk without its wrong-typed fields)."""
    return _object(CHUNK_SHAPE)


_JUNK = st.sampled_from([None, 0, 1.5, "x", "", True, [], [None]])
_ENTRY_LISTS = frozenset(
    {"choices", "tool_calls", "annotations", "reasoning_details", "content", "refusal"}
)
"""Keys whose list value is a list of entries (ROB-NULL-ENTRIES); `content` and `refusal`
hold entry lists only under `logprobs`, elsewhere they are strings and left alone."""


def insert_junk_entries(draw: Callable[[st.SearchStrategy[Any]], Any], value: JSON) -> JSON:
    """`value` with null and non-object entries inserted into its entry lists, drawn with
    `draw` (a composite's `draw` or `st.data()`'s `.draw`)."""
    if isinstance(value, dict):
        result: JSONObject = {}
        for key, item in value.items():
            item = insert_junk_entries(draw, item)
            if key in _ENTRY_LISTS and isinstance(item, list):
                for _ in range(draw(st.integers(0, 2))):
                    item.insert(draw(st.integers(0, len(item))), draw(_JUNK))
            result[key] = item
        return result
    if isinstance(value, list):
        return [insert_junk_entries(draw, item) for item in value]
    return value


SCALARS_FOR_EVENTS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=3)
)
WRONG_FOR_EVENTS: dict[str, st.SearchStrategy[JSON]] = {
    "object": (
        st.none()
        | st.booleans()
        | st.integers()
        | st.text(max_size=3)
        | st.lists(SCALARS_FOR_EVENTS, max_size=2)
    ),
    "string": (
        st.none()
        | st.booleans()
        | st.integers()
        | st.lists(SCALARS_FOR_EVENTS, max_size=2)
        | st.dictionaries(st.text(max_size=2), SCALARS_FOR_EVENTS, max_size=2)
    ),
}
"""For the dialects whose items are events (their `_wrong_types`): values of a JSON type
other than an object's or a string's (null included: a null field is absent too), of
`SCALARS_FOR_EVENTS` where they hold scalars."""
