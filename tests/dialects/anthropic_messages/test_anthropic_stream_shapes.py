"""The anthropic-messages stream shapes (verdicts.md §1): the vendored schema of the SDK's
event types, the streaming page's grammar, and every registered departure, each found
by its detector on a stream that departs that way alone."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from refold.dialects.anthropic_messages import ANTHROPIC_MESSAGES
from refold.dialects.anthropic_messages import regenerate_schema as regenerate
from refold.verdicts.shapes import StreamShapes

_PAGE = "https://docs.anthropic.com/en/docs/build-with-claude/streaming"


def _shapes() -> StreamShapes:
    shapes = ANTHROPIC_MESSAGES.shapes
    assert shapes is not None
    return shapes


def _start(**changes: Any) -> dict[str, Any]:
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": [],
        "model": "claude-sonnet-4-5",
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 25, "output_tokens": 1},
        **changes,
    }
    return {"type": "message_start", "message": message}


def _block(index: int, block: dict[str, Any], *deltas: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"type": "content_block_start", "index": index, "content_block": block},
        *({"type": "content_block_delta", "index": index, "delta": d} for d in deltas),
        {"type": "content_block_stop", "index": index},
    ]


_DELTA = {
    "type": "message_delta",
    "delta": {"stop_reason": "end_turn", "stop_sequence": None},
    "usage": {"output_tokens": 15},
}
_STOP = {"type": "message_stop"}
_PING = {"type": "ping"}
_ERROR = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
_TEXT = {"type": "text", "text": ""}

BASIC = [_start(), *_block(0, _TEXT, {"type": "text_delta", "text": "Hello"}), _PING, _DELTA, _STOP]
"""The streaming page's basic stream (a ping inside it)."""

THINKING = [
    _start(usage=None),
    *_block(
        0,
        {"type": "thinking", "thinking": ""},
        {"type": "thinking_delta", "thinking": "Let me"},
        {"type": "signature_delta", "signature": "EqQB"},
    ),
    *_block(1, _TEXT, {"type": "text_delta", "text": "27 * 453 = 12231"}),
    {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}},
    _STOP,
]
"""The streaming page's extended-thinking stream: no usage anywhere, no start signature."""
del THINKING[0]["message"]["usage"]

WEB_SEARCH = [
    _start(),
    *_block(0, _TEXT, {"type": "text_delta", "text": "I'll check."}),
    *_block(
        1,
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}},
        {"type": "input_json_delta", "partial_json": ""},
        {"type": "input_json_delta", "partial_json": '{"query": "weather"}'},
    ),
    *_block(2, {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}),
    _DELTA,
    _STOP,
]
"""The streaming page's web search stream: the result block has no delta."""


def _with(stream: list[dict[str, Any]], at: int, change: Any) -> list[dict[str, Any]]:
    changed = copy.deepcopy(stream)
    change(changed[at])
    return changed


DEPARTING: dict[str, list[Any]] = {
    "AQ4": THINKING[:1] + BASIC[1:],
    "AMD-THINKING-UNSIGNED-START": [BASIC[0], *THINKING[1:5], *BASIC[-2:]],
    "AQ24": _with(BASIC, 1, lambda e: e["content_block"].pop("text")),
    "AQ7": [_start(content=[{"type": "text", "text": "Done."}], stop_reason="end_turn"), _STOP],
    "AQ20": [*BASIC[:-1], {"type": "vertex_event", "usage": {"output_tokens": 3}}, _STOP],
    "AQ21": [BASIC[0], *_block(0, {"type": "compaction", "content": "summary"}), *BASIC[-2:]],
    "AQ22": [*BASIC[:-1], {"amazon-bedrock-invocationMetrics": {"inputTokenCount": 3}}, _STOP],
    "AQ25": [
        *BASIC[:2],
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": "{}"},
        },
        *BASIC[2:],
    ],
    "AMD-NOT-OBJECT": [*BASIC[:-1], [1], _STOP],
    "AMD-UNKNOWN-EVENT": [*BASIC[:-1], {"type": "x_future_event"}, _STOP],
    "AMD-UNKNOWN-BLOCK": [BASIC[0], *_block(0, {"type": "x_block"}), *BASIC[-2:]],
    "AMD-UNKNOWN-DELTA": _with(BASIC, 2, lambda e: e["delta"].update(type="x_delta")),
    "AMD-MISSING-KEY": _with(BASIC, 0, lambda e: e["message"].pop("model")),
    "AMD-WRONG-TYPE": _with(BASIC, 2, lambda e: e["delta"].update(text=None)),
    "AMD-BEFORE-START": [BASIC[-2], *BASIC],
    "AMD-PING-BEFORE-START": [_PING, *BASIC],
    "AMD-SECOND-START": [*BASIC[:4], _start(), *BASIC[4:]],
    "AMD-BLOCK-INDEX": [BASIC[0], *_block(1, _TEXT), *BASIC[-2:]],
    "AMD-BLOCK-OUTSIDE": [*BASIC[:4], BASIC[2], *BASIC[4:]],
    "AMD-BLOCK-UNSTOPPED": [*BASIC[:3], *BASIC[4:]],
    "AQ11": [
        BASIC[0],
        *_block(
            0,
            {"type": "thinking", "thinking": "", "signature": ""},
            {"type": "thinking_delta", "thinking": "Hm"},
        ),
        *BASIC[-2:],
    ],
    "AMD-SIGNATURE-NOT-LAST": [
        BASIC[0],
        *_block(
            0,
            {"type": "thinking", "thinking": "", "signature": ""},
            {"type": "signature_delta", "signature": "SigA"},
            {"type": "signature_delta", "signature": "SigB"},
        ),
        *BASIC[-2:],
    ],
    "AMD-LATE-BLOCK": [BASIC[0], _DELTA, *_block(0, _TEXT), _STOP],
    "AMD-NO-MESSAGE-DELTA": [*BASIC[:-2], _STOP],
    "AMD-STOP-REASON-NULL": [*BASIC[:-1], {**_DELTA, "delta": {"stop_reason": None}}, _STOP],
    "AMD-STOP-SEQUENCE-ALONE": [
        *BASIC[:-2],
        {**_DELTA, "delta": {"stop_reason": "end_turn", "stop_sequence": "END"}},
        _STOP,
    ],
    "AMD-AFTER-STOP": [*BASIC, _PING],
    "AMD-AFTER-ERROR": [*BASIC[:3], _ERROR, *BASIC[3:]],
    "AMD-CUT": BASIC[:3],
    "AMD-CITATION-UNTITLED": [
        BASIC[0],
        *_block(
            0,
            _TEXT,
            {
                "type": "citations_delta",
                "citation": {
                    "type": "char_location",
                    "cited_text": "Hi",
                    "document_index": 0,
                    "start_char_index": 0,
                    "end_char_index": 2,
                },
            },
        ),
        *BASIC[-2:],
    ],
    "AQ9": [
        BASIC[0],
        *_block(
            0,
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
            {"type": "input_json_delta", "partial_json": '{"city": "Par'},
        ),
        *BASIC[-2:],
    ],
}
"""A stream departing in each registered way alone (the docs' streams otherwise)."""


@pytest.mark.parametrize(
    "stream",
    [BASIC, WEB_SEARCH, [*BASIC[:3], _ERROR], [_ERROR]],
    ids=["basic", "web-search", "error-mid-stream", "error-only"],
)
def test_the_streaming_pages_streams_are_documented(stream: list[Any]) -> None:
    assert _shapes().violations(stream) == []
    assert _shapes().of(stream).shape == "documented"


def test_the_pages_thinking_stream_is_observed_by_its_two_departures() -> None:
    shape = _shapes().of(THINKING)
    assert shape == ("observed", ("AQ4", "AMD-THINKING-UNSIGNED-START"), ())


def test_every_registered_departure_has_a_departing_example() -> None:
    # the wire's departures are shown on bytes (tests/harness/verdicts/test_wire_shapes.py)
    wire = set((_shapes().wire or {}).values())
    assert set(DEPARTING) == set(_shapes().departures) - wire


@pytest.mark.parametrize("departure", sorted(DEPARTING))
def test_each_departure_alone_is_found_by_its_detector_and_gives_its_class(
    departure: str,
) -> None:
    stream = DEPARTING[departure]
    shape = _shapes().of(stream)
    assert departure in shape.departures, shape.describe()
    assert shape.unregistered == (), shape.describe()
    assert shape.shape == _shapes().departures[departure].shape, shape.describe()


def test_a_typeless_unknown_event_carrying_bedrocks_metrics_key_is_no_bedrock_chunk() -> None:
    # Found by Hypothesis: family 8's noise puts an envelope key on any event, the
    # type-less unknown one too; only the chunk Bedrock sends (that key alone) is AQ22.
    typeless = {"message": {"id": "msg_typeless"}, "amazon-bedrock-invocationMetrics": "req"}
    shape = _shapes().of([*BASIC[:-1], typeless, _STOP])
    assert set(shape.departures) == {"AMD-UNKNOWN-EVENT"}
    bedrock = {"amazon-bedrock-invocationMetrics": {"inputTokenCount": 3}}
    assert set(_shapes().of([*BASIC[:-1], bedrock, _STOP]).departures) == {"AQ22"}


def _signed(*deltas: dict[str, Any]) -> list[Any]:
    thinking = {"type": "thinking", "thinking": "", "signature": ""}
    return [BASIC[0], *_block(0, thinking, *deltas), _PING, *BASIC[-2:]]


_SIG_A = {"type": "signature_delta", "signature": "SigA"}
_SIG_B = {"type": "signature_delta", "signature": "SigB"}
_THOUGHT = {"type": "thinking_delta", "thinking": "Hmm."}


@pytest.mark.parametrize(
    ("stream", "departing"),
    [
        (_signed(_THOUGHT, _SIG_A), []),
        (_signed(_THOUGHT), []),
        (_signed(_SIG_A, _THOUGHT), [2]),
        (_signed(_THOUGHT, _SIG_A, _SIG_B), [3]),
        (_signed(_SIG_A, _SIG_A, _SIG_B), [2, 3]),
    ],
    ids=["one-last", "none", "thinking-after", "two", "three"],
)
def test_a_thinking_blocks_signature_departs_unless_it_is_its_last_delta(
    stream: list[Any], departing: list[int]
) -> None:
    # The page: "a special signature_delta event is sent just before the content_block_stop
    # event"; a ping between them is the page's "anywhere", and a signature with no delta
    # after it, however many pings follow, is still the block's last.
    assert _shapes().detectors["AMD-SIGNATURE-NOT-LAST"](stream) == departing


def test_a_thinking_block_is_unsigned_only_once_it_stops_without_a_signature() -> None:
    # a cut stream never stopped the block: AMD-CUT's, the signature may still have come
    stopped = _signed(_THOUGHT)
    assert _shapes().detectors["AQ11"](stopped) == [3]
    assert _shapes().detectors["AQ11"](stopped[:3]) == []
    assert _shapes().detectors["AQ11"](_signed(_THOUGHT, _SIG_A)) == []


def test_a_signature_delta_sent_to_another_blocks_index_is_that_blocks_business() -> None:
    # a signature_delta at a text block's index is AQ25's (a delta its block does not
    # take); the text deltas after it are no thinking block's
    text = [BASIC[0], *_block(0, _TEXT, _SIG_A, {"type": "text_delta", "text": "x"}), *BASIC[-2:]]
    assert set(_shapes().of(text).departures) == {"AQ25"}


def test_every_observed_departure_names_who_sends_it_and_a_link() -> None:
    for departure in _shapes().departures.values():
        if departure.shape == "observed":
            assert any("http" in p or "anthropic.types" in p for p in departure.provenance)


def test_a_violation_names_the_key_the_sdks_type_requires() -> None:
    stream = DEPARTING["AQ24"]
    assert [str(v) for v in _shapes().violations(stream)] == [
        "item 1 at /content_block: schema: 'text' is a required property"
    ]
    stream = _with(BASIC, 5, lambda e: e["usage"].pop("output_tokens"))
    assert [str(v) for v in _shapes().violations(stream)] == [
        "item 5 at /usage: schema: 'output_tokens' is a required property"
    ]


def test_every_grammar_line_cites_the_streaming_pages_sections() -> None:
    for line in _shapes().grammar:
        assert _PAGE in line.source and "(" in line.source, line


def test_the_vendored_schema_records_its_source_and_is_what_regeneration_writes(
    tmp_path: Path,
) -> None:
    committed = json.loads(regenerate.SCHEMA_FILE.read_text(encoding="utf-8"))
    source = committed["x-refold-source"]
    assert source["types"] == "anthropic.types.RawMessageStreamEvent"
    assert source["command"].endswith(f"anthropic=={source['version']}")
    assert committed["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    output = tmp_path / "schema.json"
    assert regenerate.main([f"anthropic=={source['version']}", "--output", str(output)]) == 0
    assert json.loads(output.read_text(encoding="utf-8")) == committed


def test_no_schema_object_forbids_unknown_keys() -> None:
    def forbidding(value: Any) -> bool:
        if isinstance(value, dict):
            return value.get("additionalProperties") is False or any(
                forbidding(v) for v in value.values()
            )
        return isinstance(value, list) and any(forbidding(v) for v in value)

    assert not forbidding(_shapes().schema)


@pytest.mark.parametrize("source", ["openai", "anthropic==0.0.1"])
def test_regenerating_from_another_source_is_one_paragraph_and_exit_2(
    source: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert regenerate.main([source, "--output", "/nonexistent/never-written.json"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("refold: ") and "\n" not in error.strip()
    assert "Traceback" not in error


_CITATIONS: list[dict[str, Any]] = [
    {
        "type": "char_location",
        "cited_text": "c",
        "document_index": 0,
        "start_char_index": 0,
        "end_char_index": 1,
        "document_title": None,
    },
    {
        "type": "page_location",
        "cited_text": "c",
        "document_index": 0,
        "start_page_number": 1,
        "end_page_number": 2,
        "document_title": "Doc",
    },
    {
        "type": "web_search_result_location",
        "cited_text": "c",
        "url": "https://e.com",
        "encrypted_index": "ei",
        "title": None,
    },
]


@pytest.mark.parametrize("citation", _CITATIONS, ids=lambda c: c["type"])
def test_a_citation_departs_only_without_the_title_key_its_location_always_carries(
    citation: dict[str, Any],
) -> None:
    # the API sends `document_title` / `title` as null when there is none (@anthropic-ai/sdk
    # types it `string | null`, not optional); the Python SDK's default hides it from the schema
    delta = {"type": "citations_delta", "citation": citation}
    titled = [BASIC[0], *_block(0, _TEXT, delta), *BASIC[-2:]]
    assert _shapes().of(titled).shape == "documented"
    key = "title" if citation["type"].endswith("result_location") else "document_title"
    untitled = _with(titled, 2, lambda e: e["delta"]["citation"].pop(key))
    assert _shapes().of(untitled).departures == ("AMD-CITATION-UNTITLED",)
    on_start = [BASIC[0], *_block(0, {**_TEXT, "citations": [untitled[2]["delta"]["citation"]]})]
    assert _shapes().of([*on_start, *BASIC[-2:]]).departures == ("AMD-CITATION-UNTITLED",)


def test_tool_input_of_json_whitespace_alone_is_empty_input_not_a_cut_one() -> None:
    # the spec's "empty" joined input: AM-TOOL-NO-DELTA's case, not AQ9's (which only
    # fine-grained streaming sends); a form feed is no JSON whitespace
    tool = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}
    fragments = ("", " ", "\n", "\t\r")
    spaced = [
        BASIC[0],
        *_block(0, tool, *({"type": "input_json_delta", "partial_json": f} for f in fragments)),
        *BASIC[-2:],
    ]
    assert "AQ9" not in _shapes().of(spaced).departures
    fed = _with(spaced, 3, lambda e: e["delta"].update(partial_json="\f"))
    assert "AQ9" in _shapes().of(fed).departures
