"""The `openai-responses` stream shapes (verdicts.md §1, issue 24 points 1 and 2): the
vendored schema is OpenAI's, standalone and permissive; the grammar cites OpenAI's pages;
the plain split family draws documented streams, its simplest draw among them; every other
family's streams carry only registered departures."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from refold.dialects.openai_responses import OPENAI_RESPONSES
from refold.dialects.openai_responses._departures import DEPARTURES
from refold.dialects.openai_responses._grammar import GRAMMAR
from refold.dialects.openai_responses.regenerate_schema import build_schema, main
from refold.reference import JSONObject
from refold.shapes import StreamShapes
from refold.strategies.responses import round_trips

_SLOW = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                       HealthCheck.data_too_large])


def _shapes() -> StreamShapes:
    shapes = OPENAI_RESPONSES.shapes
    assert shapes is not None
    return shapes


def _schema() -> Any:
    text = resources.files("refold.dialects.openai_responses").joinpath(
        "schema", "response-stream-events.json").read_text(encoding="utf-8")
    return json.loads(text)


def _forbidding(node: Any) -> bool:
    if isinstance(node, dict):
        return node.get("additionalProperties") is False or any(
            _forbidding(v) for v in node.values())
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
    delta = {"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0,
             "content_index": 0, "delta": "Hi", "logprobs": []}
    found = _shapes().violations([delta])
    assert [(v.pointer, v.what) for v in found if "schema" in v.what] == [
        ("", "schema: 'sequence_number' is a required property")]


_OPENAPI: JSONObject = {"info": {"version": "9"}, "components": {"schemas": {
    "ResponseStreamEvent": {"anyOf": [{"$ref": "#/components/schemas/A"},
                                      {"$ref": "#/components/schemas/B"}],
                            "discriminator": {"propertyName": "type"}},
    "A": {"type": "object", "additionalProperties": False, "description": "an A",
          "properties": {"type": {"enum": ["a"]}, "title": {"type": "string"}},
          "required": ["type", "title"]},
    "B": {"type": "object", "properties": {"type": {"enum": ["b"]}, "n": {"type": "integer"}},
          "required": ["type", "n"]},
}}}


def test_regenerating_dispatches_a_discriminator_union_on_its_value() -> None:
    from jsonschema import Draft202012Validator

    built = build_schema(_OPENAPI, {"repository": "r", "path": "p", "commit": "c"})
    union = built["$defs"]["ResponseStreamEvent"]
    assert union["properties"]["type"]["enum"] == ["a", "b"] and "anyOf" not in union
    assert built["$defs"]["A"]["properties"]["title"] == {"type": "string"}
    validator = Draft202012Validator(built)
    assert [e.message for e in validator.iter_errors({"type": "b"})] == [
        "'n' is a required property"]
    assert list(validator.iter_errors({"type": "a", "title": "t", "extra": 1})) == []


def test_regenerating_from_a_missing_source_says_what_was_expected(capsys: Any) -> None:
    assert main(["/nonexistent/openapi"]) == 2
    err = capsys.readouterr().err
    assert "openai/openai-openapi" in err and "Traceback" not in err


def test_every_grammar_line_cites_an_openai_page() -> None:
    assert GRAMMAR and all("https://platform.openai.com/docs/" in line.source
                           for line in GRAMMAR)


def test_every_departure_has_a_class_and_observed_ones_their_provenance() -> None:
    assert all(d.shape == "synthetic" or d.provenance for d in DEPARTURES.values())
    assert {d for d in DEPARTURES if d.startswith("RQ")} >= {"RQ1", "RQ2", "RQ5", "RQ7",
                                                             "RQ12", "RQ19"}
    assert all(d.shape == "synthetic" for k, d in DEPARTURES.items() if "-SYN-" in k)


@_SLOW
@given(round_trips(families={1}))
def test_every_stream_of_the_plain_family_is_documented(case: tuple[JSONObject, list[Any]]
                                                         ) -> None:
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
@given(st.sampled_from([2, 3, 4, 5, 6, 7]).flatmap(
    lambda family: round_trips(families={1, family})))
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
    from refold._responses_departures import unknown_keys

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
