"""Chat stream shapes (verdicts.md §1): the plain split family draws documented streams,
Hypothesis's simplest draws are documented, and every other family's streams carry only
registered departures."""

from __future__ import annotations

import json
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from refold.dialects import DIALECTS
from refold.reference import JSONObject
from refold.reference.chat import FEATURES
from refold.strategies.chat import chunk_splits, chunk_streams, completions, round_trips

T = TypeVar("T")

SHAPES = DIALECTS["openai-chat"].shapes
assert SHAPES is not None

# deadline=None below: the first classification compiles the schema's validator, and a
# loaded two-core machine makes one draw's timing say nothing about the code.
_OPENAI_FEATURES = frozenset(FEATURES) - {"reasoning", "reasoning_details", "empty_arguments"}
"""What OpenAI's own streams carry: reasoning fields (OpenRouter's, DeepSeek's:
CHAT-X-REASONING) and calls left without argument text (Q11) are departures by
definition."""


def _documented_completions() -> st.SearchStrategy[JSONObject]:
    # a choice ending in "error" is streamed only with OpenRouter's error chunk (Q18), and
    # `provider` and `native_finish_reason` are OpenRouter's (CHAT-X-PROVIDER)
    return completions(features=_OPENAI_FEATURES).filter(
        lambda c: (
            "provider" not in c
            and all(
                choice["finish_reason"] != "error" and "native_finish_reason" not in choice
                for choice in c["choices"]
            )
        )
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_stream_the_plain_family_draws_is_documented(data: st.DataObject) -> None:
    completion = data.draw(_documented_completions(), label="completion")
    chunks = data.draw(chunk_splits(completion, families={1}), label="chunks")
    shape = SHAPES.of(chunks)
    assert shape.shape == "documented", (shape.describe(), json.dumps(chunks)[:2000])


class _Found(Exception):
    """Raised on every example, so that Hypothesis shrinks to its simplest one."""


def _simplest(strategy: st.SearchStrategy[T]) -> T:
    """What Hypothesis shrinks a failure of a test drawing from `strategy` toward: its
    simplest example (the last one a failing test is called with)."""
    seen: list[T] = []

    @settings(
        database=None,
        max_examples=20,
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def fails(value: T) -> None:
        seen.append(value)
        raise _Found

    with pytest.raises(_Found):
        fails()
    return seen[-1]


@pytest.mark.parametrize("families", [{1}, set(range(1, 9))], ids=["plain", "every-family"])
def test_the_simplest_draws_of_every_family_mix_are_documented(families: set[int]) -> None:
    _, chunks = _simplest(round_trips(families=families))
    assert SHAPES.of(chunks).shape == "documented", SHAPES.of(chunks).describe()


_FAMILY_DEPARTURES: dict[int, frozenset[str]] = {
    2: frozenset({"Q6", "Q8", "Q3"}),
    3: frozenset({"Q2", "Q3", "Q4", "Q14"}),
    4: frozenset({"Q1", "Q2", "Q3", "Q4", "Q14"}),
    5: frozenset({"CHAT-LATE-ID", "Q3", "Q4", "Q14"}),
    6: frozenset({"Q5", "Q6", "Q3", "Q4", "Q14"}),  # a re-send with the id repeats it
    7: frozenset({"Q11", "Q3", "Q4", "Q14"}),
}
"""What each family adds to family 1 (every family but 1 alone may also draw Q3 sparse
indexes, Q4 fragments sharing a delta, Q14 usage on the finish chunk and Q16 choices first
arriving out of order)."""


@pytest.mark.parametrize("family", sorted(_FAMILY_DEPARTURES))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_each_family_carries_only_its_registered_departures(
    family: int, data: st.DataObject
) -> None:
    completion = data.draw(_documented_completions(), label="completion")
    chunks = data.draw(chunk_splits(completion, families={1, family}), label="chunks")
    shape = SHAPES.of(chunks)
    allowed = _FAMILY_DEPARTURES[family] | {"Q3", "Q4", "Q14", "Q16"}
    assert not shape.unregistered, (shape.unregistered, json.dumps(chunks)[:2000])
    assert set(shape.departures) <= allowed, (shape.describe(), json.dumps(chunks)[:2000])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_noise_and_damaged_streams_carry_no_unregistered_departure(data: st.DataObject) -> None:
    chunks = data.draw(chunk_streams(), label="chunks")
    shape = SHAPES.of(chunks)
    assert not shape.unregistered, (shape.unregistered, json.dumps(chunks)[:2000])


def test_two_entries_of_one_choice_in_a_chunk_are_a_synthetic_departure() -> None:
    """Issue 24: openai-python's TEXT-JOIN read `documented` on such a chunk, which the
    API never sends (one entry per choice; the schema cannot say so)."""
    chunk: JSONObject = {
        "id": "chatcmpl-0",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [
            {"index": 0, "delta": {"role": "assistant", "content": "a"}, "finish_reason": None},
            {"index": 0, "delta": {}, "finish_reason": "stop"},
        ],
    }
    shape = SHAPES.of([chunk])
    assert (shape.shape, shape.departures) == ("synthetic", ("CHAT-CHOICE-TWICE",))
    apart = [{**chunk, "choices": [entry]} for entry in chunk["choices"]]  # type: ignore[union-attr]
    assert SHAPES.of(apart).shape == "documented", SHAPES.of(apart).describe()


def test_every_grammar_line_cites_an_openai_api_reference_page_and_its_section() -> None:
    assert SHAPES.grammar
    for line in SHAPES.grammar:
        assert line.source.startswith("https://platform.openai.com/docs/api-reference/"), line
        assert "(" in line.source and line.says, line


def _chunk(content: str, **keys: object) -> JSONObject:
    return {
        "id": "chatcmpl-0",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": None}],
        **keys,
    }


def test_the_streams_id_is_a_string_one_and_ids_of_the_wrong_type_are_theirs_to_name() -> None:
    # the grammar once took the numeric id 42 for the stream's, which left the one real
    # id "chatcmpl-x" an unregistered departure (ENV-ID's rule example)
    chunks = [
        _chunk("a", id=None),
        _chunk("b", id=" \t"),
        _chunk("c", id=42),
        _chunk("d", id="chatcmpl-x"),
    ]
    shape = SHAPES.of(chunks)
    assert (shape.shape, shape.departures, shape.unregistered) == (
        "synthetic",
        ("CHAT-WRONG-TYPE", "CHAT-BLANK"),
        (),
    ), shape.describe()
    # two real ids still differ, as before
    assert SHAPES.of([_chunk("a"), _chunk("b", id="chatcmpl-1")]).departures == (
        "CHAT-LATER-IDENTITY",
    )


@pytest.mark.parametrize("value", ["something.else", "chat.completion", " "])
def test_another_object_is_the_synthetic_departure_chat_object(value: str) -> None:
    shape = SHAPES.of([_chunk("a"), _chunk("b", object=value)])
    assert (shape.shape, shape.departures, shape.unregistered) == (
        "synthetic",
        ("CHAT-OBJECT",),
        (),
    ), shape.describe()


def test_an_empty_object_stays_azures_prompt_filter_chunk() -> None:
    filter_chunk: JSONObject = {
        "id": "",
        "object": "",
        "created": 0,
        "model": "",
        "choices": [],
        "prompt_filter_results": [],
    }
    shape = SHAPES.of([filter_chunk, _chunk("a")])
    assert "CHAT-OBJECT" not in shape.departures and shape.shape == "observed", shape.describe()


def test_a_tool_call_of_another_type_is_the_synthetic_departure_chat_tool_type() -> None:
    call = {
        "index": 0,
        "id": "call_1",
        "type": "custom",
        "function": {"name": "f", "arguments": "{}"},
    }
    chunk = _chunk("")
    chunk["choices"] = [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": None}]
    shape = SHAPES.of([chunk])
    assert (shape.shape, shape.departures, shape.unregistered) == (
        "synthetic",
        ("CHAT-TOOL-TYPE",),
        (),
    ), shape.describe()
    chunk["choices"][0]["delta"]["tool_calls"] = [{**call, "type": "function"}]
    assert SHAPES.of([chunk]).shape == "documented", SHAPES.of([chunk]).describe()


@pytest.mark.parametrize(
    ("delta", "extra", "departure"),
    [
        (
            {"reasoning_details": [{"type": "reasoning.text", "text": "a", "index": 0}]},
            {},
            "CHAT-X-REASONING",
        ),
        ({"reasoning_content": "a"}, {}, "CHAT-X-REASONING"),
        ({"content": "a"}, {"provider": "OpenAI"}, "CHAT-X-PROVIDER"),
    ],
)
def test_fields_only_other_providers_send_make_an_observed_stream(
    delta: JSONObject, extra: JSONObject, departure: str
) -> None:
    """Issue 24: openai-python was reported failing RD-* and PROV-NATIVE-FINISH on
    documented streams, which OpenAI never sends: unknown keys are allowed by the schema,
    but OpenRouter's and DeepSeek's fields make another provider's stream."""
    chunk: JSONObject = {
        "id": "chatcmpl-0",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": "stop"}],
        **extra,
    }
    shape = SHAPES.of([chunk])
    assert (shape.shape, shape.departures) == ("observed", (departure,)), shape.describe()


def test_a_chunk_without_choices_is_the_synthetic_departure_chat_missing_key() -> None:
    # Azure's prompt-filter chunk (Q15) sends `choices: []`; none is known to leave it out
    shape = SHAPES.of([{"created": 0}, _chunk("a")])
    assert (shape.shape, shape.departures, shape.unregistered) == (
        "synthetic",
        ("Q15", "CHAT-MISSING-KEY"),
        (),
    ), shape.describe()


def test_a_choice_entry_without_an_index_is_choice_0_missing_its_key_not_out_of_order() -> None:
    # it read Q16 (choices first arriving out of index order), which made it `observed`
    chunk = _chunk("a")
    chunk["choices"] = [{"delta": {"content": "a"}, "finish_reason": "stop"}]
    shape = SHAPES.of([chunk])
    assert (shape.shape, shape.departures, shape.unregistered) == (
        "synthetic",
        ("CHAT-MISSING-KEY",),
        (),
    ), shape.describe()
