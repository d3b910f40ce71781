"""The `openai-responses` stream shapes (verdicts.md §1, issue 24 points 1 and 2): the
vendored schema is OpenAI's, standalone and permissive; the grammar cites OpenAI's pages;
the plain split family draws documented streams, its simplest draw among them; every other
family's streams carry only registered departures."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from refold.dialects.openai_responses import OPENAI_RESPONSES
from refold.dialects.openai_responses._departures import DEPARTURES, DETECTORS
from refold.dialects.openai_responses._grammar import GRAMMAR
from refold.dialects.openai_responses.regenerate_schema import build_schema, main
from refold.reference import JSONObject
from refold.strategies.responses import round_trips
from refold.suites.responses._events import (
    annotation_added,
    args_delta,
    item_added,
    item_done,
    message,
    numbered,
    text_delta,
    text_part,
    text_stream,
)
from refold.verdicts.shapes import StreamShapes, Violation

_SLOW = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _shapes() -> StreamShapes:
    shapes = OPENAI_RESPONSES.shapes
    assert shapes is not None
    return shapes


def _schema() -> Any:
    text = (
        resources.files("refold.dialects.openai_responses")
        .joinpath("schema", "response-stream-events.json")
        .read_text(encoding="utf-8")
    )
    return json.loads(text)


def _forbidding(node: Any) -> bool:
    if isinstance(node, dict):
        return node.get("additionalProperties") is False or any(
            _forbidding(v) for v in node.values()
        )
    return isinstance(node, list) and any(_forbidding(v) for v in node)


def test_the_vendored_schema_is_openais_standalone_and_permissive() -> None:
    from jsonschema import Draft202012Validator

    schema = _schema()
    Draft202012Validator.check_schema(schema)
    source = schema["x-refold-source"]
    assert source["repository"] == "openai/openai-openapi" and source["path"] == "openapi.yaml"
    assert len(source["commit"]) == 40 and source["version"]
    assert "refold.dialects.openai_responses.regenerate_schema" in source["regenerate"]
    assert not _forbidding(schema)
    refs = set(json.dumps(schema).split('"$ref": "')[1:])
    assert all(r.startswith("#/$defs/") for r in refs)


def test_an_events_error_names_the_key_its_own_schema_misses() -> None:
    delta = {
        "type": "response.output_text.delta",
        "item_id": "msg_1",
        "output_index": 0,
        "content_index": 0,
        "delta": "Hi",
        "logprobs": [],
    }
    found = _shapes().violations([delta])
    assert [(v.pointer, v.what) for v in found if "schema" in v.what] == [
        ("", "schema: 'sequence_number' is a required property")
    ]


_OPENAPI: JSONObject = {
    "info": {"version": "9"},
    "components": {
        "schemas": {
            "ResponseStreamEvent": {
                "anyOf": [{"$ref": "#/components/schemas/A"}, {"$ref": "#/components/schemas/B"}],
                "discriminator": {"propertyName": "type"},
            },
            "A": {
                "type": "object",
                "additionalProperties": False,
                "description": "an A",
                "properties": {"type": {"enum": ["a"]}, "title": {"type": "string"}},
                "required": ["type", "title"],
            },
            "B": {
                "type": "object",
                "properties": {"type": {"enum": ["b"]}, "n": {"type": "integer"}},
                "required": ["type", "n"],
            },
        }
    },
}


def test_regenerating_dispatches_a_discriminator_union_on_its_value() -> None:
    from jsonschema import Draft202012Validator

    built = build_schema(_OPENAPI, {"repository": "r", "path": "p", "commit": "c"})
    union = built["$defs"]["ResponseStreamEvent"]
    assert union["properties"]["type"]["enum"] == ["a", "b"] and "anyOf" not in union
    assert built["$defs"]["A"]["properties"]["title"] == {"type": "string"}
    validator = Draft202012Validator(built)
    assert [e.message for e in validator.iter_errors({"type": "b"})] == [
        "'n' is a required property"
    ]
    assert list(validator.iter_errors({"type": "a", "title": "t", "extra": 1})) == []


def test_regenerating_from_a_missing_source_says_what_was_expected(capsys: Any) -> None:
    assert main(["/nonexistent/openapi"]) == 2
    err = capsys.readouterr().err
    assert "openai/openai-openapi" in err and "Traceback" not in err


def test_every_grammar_line_cites_an_openai_page() -> None:
    assert GRAMMAR and all("https://platform.openai.com/docs/" in line.source for line in GRAMMAR)


def test_every_departure_has_a_class_and_observed_ones_their_provenance() -> None:
    assert all(d.shape == "synthetic" or d.provenance for d in DEPARTURES.values())
    assert {d for d in DEPARTURES if d.startswith("RQ")} >= {
        "RQ1",
        "RQ2",
        "RQ5",
        "RQ7",
        "RQ12",
        "RQ19",
    }
    assert all(d.shape == "synthetic" for k, d in DEPARTURES.items() if "-SYN-" in k)


@_SLOW
@given(round_trips(families={1}))
def test_every_stream_of_the_plain_family_is_documented(case: tuple[JSONObject, list[Any]]) -> None:
    _, events = case
    shape = _shapes().of(events)
    assert shape.shape == "documented", shape.describe()


def test_the_simplest_plain_stream_is_documented() -> None:
    _, events = find(round_trips(families={1}), lambda case: True)
    assert _shapes().of(events).shape == "documented"


def test_a_plain_stream_with_items_is_documented_at_its_simplest() -> None:
    _, events = find(round_trips(families={1}), lambda case: len(case[0]["output"]) >= 2)
    assert _shapes().of(events).shape == "documented"


@_SLOW
@given(
    st.sampled_from([2, 3, 4, 5, 6, 7]).flatmap(lambda family: round_trips(families={1, family}))
)
def test_each_other_familys_streams_carry_only_registered_departures(
    case: tuple[JSONObject, list[Any]],
) -> None:
    _, events = case
    shape = _shapes().of(events)
    assert shape.unregistered == (), shape.describe()


@_SLOW
@given(round_trips(families={1}, features={"text", "tool_calls"}))
def test_a_plain_stream_has_no_unknown_key_to_undo(case: tuple[JSONObject, list[Any]]) -> None:
    # the keys OpenAI's schema requires (`logprobs` on text events, `name` on an arguments
    # done event) are no departure: undoing RS-UNKNOWN-KEYS leaves a plain stream alone
    from refold.dialects.openai_responses._stream_departures import unknown_keys

    _, events = case
    assert unknown_keys(list(events)) == events


@_SLOW
@given(round_trips(families={1}))
def test_every_event_of_the_plain_family_is_one_of_openai_pythons_stream_events(
    case: tuple[JSONObject, list[Any]],
) -> None:
    # the issue's evidence, the other source: openai-python 3.57.0's own event types
    from openai.types.responses import ResponseStreamEvent
    from pydantic import TypeAdapter

    adapter: TypeAdapter[Any] = TypeAdapter(ResponseStreamEvent)
    for event in case[1]:
        adapter.validate_python(event)


# One test per departure widened or added for the rule examples' streams (verdicts.md §1):
# a documented stream changed in exactly that way carries exactly that departure.


def _changed(
    change: Callable[[list[Any]], list[Any]],
) -> tuple[str, tuple[str, ...], tuple[Violation, ...]]:
    """The shape of OpenAI's own stream (one message, completed) changed by `change`,
    numbered afterwards; the unchanged stream is documented."""
    assert _shapes().of(numbered(text_stream("Hi", " there"))).shape == "documented"
    shape = _shapes().of(numbered(change(copy.deepcopy(text_stream("Hi", " there")))))
    return shape.shape, shape.departures, shape.unregistered


def _before_terminal(*events: Any, output: Any = None) -> Callable[[list[Any]], list[Any]]:
    """Events inserted before the terminal event, `output` appended to its output."""

    def change(stream: list[Any]) -> list[Any]:
        if output is not None:
            stream[-1]["response"]["output"].append(output)
        return [*stream[:-1], *events, stream[-1]]

    return change


_USAGE = {
    "input_tokens": 5,
    "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
    "output_tokens": 2,
    "output_tokens_details": {"reasoning_tokens": 0},
    "total_tokens": 7,
}


def _terminal_usage(usage: Any) -> Callable[[list[Any]], list[Any]]:
    def change(stream: list[Any]) -> list[Any]:
        stream[-1]["response"]["usage"] = usage
        return stream

    return change


def test_usage_details_without_cache_write_tokens_are_the_observed_rs_doc_sparse_usage() -> None:
    assert _changed(_terminal_usage(copy.deepcopy(_USAGE))) == ("documented", (), ())
    usage = copy.deepcopy(_USAGE)
    del usage["input_tokens_details"]["cache_write_tokens"]
    assert _changed(_terminal_usage(usage)) == ("observed", ("RS-DOC-SPARSE-USAGE",), ())
    assert any("gateway" in p for p in DEPARTURES["RS-DOC-SPARSE-USAGE"].provenance)


def _response_key(event: int, key: str, value: Any) -> Callable[[list[Any]], list[Any]]:
    def change(stream: list[Any]) -> list[Any]:
        stream[event]["response"][key] = value
        return stream

    return change


@pytest.mark.parametrize("output", ["Hi!", 0, {"0": "x"}, True])
def test_a_terminal_output_that_is_not_an_array_is_the_synthetic_rs_syn_wrong_type(
    output: Any,
) -> None:
    assert _changed(_response_key(-1, "output", output)) == (
        "synthetic",
        ("RS-SYN-WRONG-TYPE",),
        (),
    )


def test_a_null_terminal_output_stays_the_observed_rq2_alone() -> None:
    assert _changed(_response_key(-1, "output", None)) == ("observed", ("RQ2",), ())


@pytest.mark.parametrize("event", [0, 1, -1], ids=["created", "in_progress", "completed"])
@pytest.mark.parametrize("key", ["model", "created_at"])
def test_a_responses_null_model_or_created_at_is_the_synthetic_rs_syn_wrong_type(
    event: int,
    key: str,
) -> None:
    assert _changed(_response_key(event, key, None)) == ("synthetic", ("RS-SYN-WRONG-TYPE",), ())


def test_an_items_event_after_its_output_item_done_is_the_synthetic_rs_syn_after_done() -> None:
    assert _changed(_before_terminal(text_delta(0, "late"))) == (
        "synthetic",
        ("RS-SYN-AFTER-DONE",),
        (),
    )


def test_another_items_event_at_a_done_items_index_is_no_rs_syn_after_done() -> None:
    # an item's events are its own: routed to a done item's index they are RQ13's
    other = message(text_part(""), id="msg_other")
    shape = _changed(
        _before_terminal(
            item_added(1, message(id="msg_other", status="in_progress")),
            args_delta(0, "x", item_id="msg_other"),
            item_done(1, other),
            output=other,
        )
    )
    assert "RS-SYN-AFTER-DONE" not in shape[1] and "RQ13" in shape[1], shape


def test_an_item_of_a_type_the_schema_does_not_name_is_the_synthetic_rs_syn_unknown_item() -> None:
    vendor = {"type": "x_vendor_call", "id": "xv_01", "payload": {"n": 1}}
    change = _before_terminal(item_added(1, vendor), item_done(1, vendor), output=vendor)
    assert _changed(change) == ("synthetic", ("RS-SYN-UNKNOWN-ITEM",), ())


def test_the_item_added_at_the_index_a_null_item_left_blank_is_the_observed_rq6() -> None:
    real = message(text_part("B"), id="msg_b")
    change = _before_terminal(
        item_added(1, None),
        item_added(1, {**real, "status": "in_progress"}),
        item_done(1, real),
        output=real,
    )
    assert _changed(change) == ("observed", ("RQ6",), ())
    # an item added at the next index after the blank one is no part of it
    following = numbered(
        _before_terminal(item_added(1, None), item_added(2, real), item_done(2, real), output=real)(
            copy.deepcopy(text_stream("Hi", " there"))
        )
    )
    blank = [n for n, e in enumerate(following) if "item" in e and e["item"] is None]
    assert len(blank) == 1 and list(DETECTORS["RQ6"](following)) == blank


def test_a_lifecycle_event_without_a_response_is_the_synthetic_rs_syn_wrong_type() -> None:
    def change(stream: list[Any]) -> list[Any]:
        return [stream[0], {"type": "response.in_progress"}, *stream[2:]]

    assert _changed(change) == ("synthetic", ("RS-SYN-WRONG-TYPE",), ())


_CITATION = {"type": "url_citation", "start_index": 0, "end_index": 2, "url": "https://x.y"}


def _annotated(*indexes: int) -> Callable[[list[Any]], list[Any]]:
    """Annotations at `indexes` on part 0, after its first delta."""

    def change(stream: list[Any]) -> list[Any]:
        at = 1 + next(n for n, e in enumerate(stream) if e["type"].endswith("text.delta"))
        added = [annotation_added(0, dict(_CITATION), index) for index in indexes]
        return [*stream[:at], *added, *stream[at:]]

    return change


def test_an_annotation_index_past_the_end_of_its_parts_is_the_synthetic_rs_syn_order() -> None:
    assert "RS-SYN-ORDER" not in _changed(_annotated(0, 1))[1]
    assert "RS-SYN-ORDER" in _changed(_annotated(0, 7))[1]
