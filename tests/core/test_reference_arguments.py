"""The complete-arguments check: the incremental scanner agrees with parsing from scratch."""

import json
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from refold.reference import parse_complete
from refold.reference._arguments import Arguments

_JSONISH = st.text(alphabet='{}[]"\\:, \t\n\ra1.e-', max_size=8)
_OBJECTS = st.dictionaries(
    st.text(max_size=4),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=4),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
        ),
        max_leaves=6,
    ),
    max_size=3,
)


def _fragments_of(text: str, cuts: list[int]) -> list[str]:
    bounds = [0, *sorted({c % (len(text) + 1) for c in cuts}), len(text)]
    return [text[a:b] for a, b in pairwise(bounds)]


def _agrees_after_every_fragment(fragments: list[str], *, read_text_between: bool) -> None:
    arguments = Arguments()
    for count, fragment in enumerate(fragments, 1):
        arguments.append(fragment)
        if read_text_between:
            assert arguments.text == "".join(fragments[:count])
        assert arguments.complete_value() == parse_complete("".join(fragments[:count]))
    assert arguments.text == "".join(fragments)


@given(st.lists(_JSONISH, max_size=8), st.booleans())
def test_scanner_agrees_with_parsing_the_whole_text_on_json_like_noise(
    fragments: list[str], read_text_between: bool
) -> None:
    _agrees_after_every_fragment(fragments, read_text_between=read_text_between)


@given(_OBJECTS, st.lists(st.integers(0, 200), max_size=6), _JSONISH, st.booleans())
def test_scanner_agrees_with_parsing_on_split_objects_and_trailing_text(
    value: dict[str, object], cuts: list[int], tail: str, read_text_between: bool
) -> None:
    text = json.dumps(value, indent=1 if cuts else None) + tail
    _agrees_after_every_fragment(_fragments_of(text, cuts), read_text_between=read_text_between)


def test_an_escaped_quote_split_from_its_backslash_stays_inside_the_string() -> None:
    arguments = Arguments()
    for fragment in ['{"a":"\\', '"}', '"}']:
        arguments.append(fragment)
    assert arguments.complete_value() == {"a": '"}'}


def test_nothing_after_a_closed_object_but_whitespace_keeps_it_complete() -> None:
    arguments = Arguments()
    for fragment in ["{}", " \n"]:
        arguments.append(fragment)
    assert arguments.complete_value() == {}
    arguments.append("x")
    assert arguments.complete_value() is None


def test_a_balanced_but_invalid_object_is_never_complete() -> None:
    arguments = Arguments()
    arguments.append('{"a" 1}')
    assert arguments.complete_value() is None
    arguments.append(" ")
    assert arguments.complete_value() is None


def test_only_an_object_is_complete_arguments() -> None:
    assert parse_complete('{"a": [1]}') == {"a": [1]}
    assert parse_complete(" \t{}\r\n") == {}
    for text in ['"1"', "123", "[]", "null", "", "   ", "{", "{}}", "{}{}", "\u00a0{}"]:
        assert parse_complete(text) is None, text


def test_nan_and_infinity_are_not_json() -> None:
    assert parse_complete('{"a": NaN}') is None
    assert parse_complete('{"a": -Infinity}') is None


def test_nesting_beyond_the_decoder_limit_is_not_complete_rather_than_an_error() -> None:
    depth = 100_000
    assert parse_complete('{"a":' * depth + "1" + "}" * depth) is None


def test_empty_fragments_leave_the_arguments_empty() -> None:
    arguments = Arguments()
    arguments.append("")
    assert arguments.empty and arguments.text == ""
    arguments.append("{")
    assert not arguments.empty
