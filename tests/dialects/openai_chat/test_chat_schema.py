"""The vendored OpenAI chunk schema (issue 24 point 1): standalone Draft 2020-12, with its
source recorded, conversion of OpenAPI's nullable and discriminators, precise errors, and
a regenerator that says what is wrong with a bad source in one paragraph."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from refold.dialects.openai_chat import regenerate_schema

_FILE = Path(regenerate_schema.__file__).parent / "schema" / "chat.completion.chunk.json"
_SCHEMA: dict[str, Any] = json.loads(_FILE.read_text(encoding="utf-8"))


def test_the_schema_is_standalone_draft_2020_12_and_records_its_source() -> None:
    Draft202012Validator.check_schema(_SCHEMA)
    refs = {v for v in json.dumps(_SCHEMA).split('"') if v.startswith("#/")}
    assert all(ref.removeprefix("#/$defs/") in _SCHEMA["$defs"] for ref in refs)
    source = _SCHEMA["x-refold-source"]
    assert source["repository"] == "openai/openai-openapi" and source["path"] == "openapi.yaml"
    assert len(source["commit"]) == 40 and source["version"] and source["regenerate"]
    assert "finish_reason" in source["follows"]


def test_a_choice_entry_requires_its_finish_reason_as_the_api_definition_says() -> None:
    validator = Draft202012Validator(_SCHEMA)
    chunk = {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": {"content": "Hi"}}],
        "extra": 1,
    }
    errors = [(list(e.absolute_path), e.validator) for e in validator.iter_errors(chunk)]
    assert errors == [(["choices", 0], "required")]
    chunk["choices"][0]["finish_reason"] = None
    assert not list(validator.iter_errors(chunk))


def test_nullable_and_discriminated_unions_are_converted() -> None:
    definition = {
        "info": {"version": "9"},
        "components": {
            "schemas": {
                "CreateChatCompletionStreamResponse": {
                    "type": "object",
                    "description": "dropped",
                    "additionalProperties": False,
                    "properties": {
                        "a": {"type": "string", "nullable": True},
                        "b": {
                            "oneOf": [
                                {"$ref": "#/components/schemas/X"},
                                {"$ref": "#/components/schemas/Y"},
                            ],
                            "discriminator": {"propertyName": "type"},
                        },
                    },
                },
                "X": {
                    "type": "object",
                    "properties": {"type": {"enum": ["x"]}, "n": {"type": "integer"}},
                },
                "Y": {"type": "object", "properties": {"type": {"enum": ["y"]}}},
            }
        },
    }
    schema = regenerate_schema.chunk_schema(definition, file="openapi.yaml", commit="0" * 40)
    validator = Draft202012Validator(schema)
    root = schema["$defs"]["CreateChatCompletionStreamResponse"]
    assert "description" not in root and "additionalProperties" not in root
    assert validator.is_valid({"a": None, "b": {"type": "x", "n": 1}, "c": 2})
    errors = [
        (list(e.absolute_path), e.message)
        for e in validator.iter_errors({"b": {"type": "x", "n": "1"}})
    ]
    assert errors == [(["b", "n"], "'1' is not of type 'integer'")]


def test_a_source_that_is_not_the_api_definition_is_refused_in_one_paragraph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "openapi.json"
    source.write_text('{"components": {"schemas": {}}}')
    assert regenerate_schema.main([str(source), "--output", str(tmp_path / "out.json")]) == 2
    message = capsys.readouterr().err.strip()
    assert "CreateChatCompletionStreamResponse" in message and "\n" not in message
    assert not (tmp_path / "out.json").exists()
    assert regenerate_schema.main([str(tmp_path / "missing")]) == 2
