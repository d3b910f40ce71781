"""The one scrubber and the size caps of `refold.reference`: what refold keeps of a value
is scrubbed, bounded with a visible marker, and written as JSON without bare NaN."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.reference import (
    NOT_KEPT,
    REDACTED,
    bound,
    cut_text,
    json_text,
    persistable,
    scrub,
    scrub_at,
    scrub_text,
)

_KEYS = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=8)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=30)
)
JSONS = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=20,
)
CREDENTIALS = st.sampled_from(
    [
        "sk-proj-4bCdEfGhIjKlMnOpQrStUv",
        "AKIA2BCDEFGHIJKLMNOP",
        "ghp_4bcdefghijklmnopqrstuvwxyz01",
        "xoxp-12345-abcdefghij",
        "Bearer abc.def.ghi12345",
        "eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl",
    ]
)


def _strict(text: str) -> Any:
    def refuse(token: str) -> None:
        raise AssertionError(f"bare {token} in a JSON file")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(
    "key",
    [
        "api_key",
        "apiKey",
        "api-key",
        "x-api-key",
        "X-Api-Key",
        "Authorization",
        "password",
        "secret",
        "client_secret",
        "session_token",
        "access_token",
        "refresh_token",
        "cookie",
        "Set-Cookie",
        "token",
    ],
)
def test_every_spelling_of_a_credential_name_is_redacted(key: str) -> None:
    assert scrub({"a": [{key: "value"}]}) == {"a": [{key: REDACTED}]}


def test_counts_and_logprob_tokens_are_not_credentials() -> None:
    value = {
        "usage": {"prompt_tokens": 1, "completion_tokens_details": {"reasoning_tokens": 2}},
        "choices": [
            {
                "logprobs": {
                    "content": [
                        {"token": "Hi", "logprob": -0.1, "top_logprobs": [{"token": "Hey"}]}
                    ]
                }
            }
        ],
    }
    assert scrub(value) == value


@pytest.mark.parametrize("key", ["opaque", "payload", "Opaque"])
def test_opaque_and_payload_values_are_dropped_at_any_depth(key: str) -> None:
    value = {"choices": [{"message": {"x": [{key: {"frame": "in memory"}}]}}]}
    assert scrub(value) == {"choices": [{"message": {"x": [{key: NOT_KEPT}]}}]}


def test_a_value_at_a_pointer_is_scrubbed_as_it_would_be_in_place() -> None:
    assert scrub_at("/choices/0/message/opaque/frame", "f") == NOT_KEPT
    assert scrub_at("/headers/x-api-key", "k") == REDACTED
    assert scrub_at("/choices/0/logprobs/content/0/token", "Hi") == "Hi"
    assert scrub_at("/token", "t") == REDACTED
    assert scrub_at("/content", "key sk-proj-4bCdEfGhIjKlMnOpQrStUv") == f"key {REDACTED}"


@given(value=JSONS, credential=CREDENTIALS, path=st.lists(_KEYS, max_size=3))
def test_a_credential_planted_anywhere_is_not_kept(
    value: Any, credential: str, path: list[str]
) -> None:
    planted: Any = f"see {credential} here"
    for key in path:
        planted = {key: planted}
    text = json_text([value, planted, {credential: 1}])
    assert credential not in text
    assert credential.split()[-1] not in text


@given(value=JSONS)
def test_persisting_twice_changes_nothing_more(value: Any) -> None:
    once = persistable(value)
    assert persistable(once) == once


@given(value=JSONS)
def test_a_json_file_never_holds_a_bare_nan_or_infinity(value: Any) -> None:
    _strict(json_text(value))


def test_non_finite_numbers_are_written_as_their_names() -> None:
    assert _strict(json_text([math.nan, math.inf, -math.inf, 1.5])) == [
        "NaN",
        "Infinity",
        "-Infinity",
        1.5,
    ]


def test_a_long_string_keeps_its_head_and_says_how_much_was_cut() -> None:
    text = "é" * 100_000  # 200 000 bytes of UTF-8
    kept = cut_text(text, 1000)
    assert kept == "é" * 500 + "… (199000 bytes cut)"
    assert cut_text(kept, 1000) == kept


def test_long_lists_objects_and_deep_nesting_are_cut_visibly() -> None:
    assert bound(list(range(5000)), items=10) == [*range(10), "… (4990 entries cut)"]
    members = bound({str(n): n for n in range(50)}, items=10)
    assert len(members) == 11 and members["…"] == "(40 members cut)"
    deep: Any = "bottom"
    for _ in range(100):
        deep = [deep]
    cut = bound(deep, depth=5)
    for _ in range(5):
        cut = cut[0]
    assert cut == "… (1 entries cut, nested deeper than 5 levels)"


def test_a_value_of_many_strings_is_bounded_in_total() -> None:
    kept = json.dumps(persistable(["x" * 60_000] * 1000), ensure_ascii=False)
    assert len(kept) < 1.2 * 1024 * 1024  # of 60 MB
    assert "… (60000 bytes cut)" in kept


def test_a_hundred_megabyte_string_is_kept_as_its_first_64_kilobytes() -> None:
    kept = persistable({"content": "sk-proj-4bCdEfGhIjKlMnOpQrStUv " + "y" * 100_000_000})
    assert kept["content"].startswith(f"{REDACTED} yyy")
    assert kept["content"].endswith(" bytes cut)") and len(kept["content"]) < 66_000


def test_text_keeps_what_only_looks_like_a_credential_name() -> None:
    text = "at /password: expected 'a', received 'b'; risk-management-framework; token 3"
    assert scrub_text(text) == text


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "assert {'opaque': {'raw': \"x}\", 'n': [1, {2: 3}]}, 'id': 1} == {}",
            "assert {'opaque': '(present, not kept)', 'id': 1} == {}",
        ),
        ('{"payload":"a\\"b","k":1}', '{"payload":"(present, not kept)","k":1}'),
        ('cut short "opaque": {"frame": [1, 2', 'cut short "opaque": "(present, not kept)"'),
    ],
)
def test_an_opaque_member_quoted_inside_text_is_not_kept(text: str, kept: str) -> None:
    assert scrub_text(text) == kept
    assert scrub_text(kept) == kept


def test_a_document_keeps_all_its_entries() -> None:
    mutants = {f"m{n}": {"status": "killed"} for n in range(5000)}
    assert _strict(json_text({"mutants": mutants}))["mutants"] == mutants


def test_the_harness_and_the_reports_share_one_scrubber() -> None:
    import refold.records.replay
    import refold.reports

    assert refold.records.replay.scrub is refold.reports.scrub is scrub
    assert refold.reports.scrub_text is scrub_text
