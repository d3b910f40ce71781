"""Regenerate the vendored JSON Schema of Anthropic Messages stream events.

    python -m refold.dialects.anthropic_messages.regenerate_schema anthropic==2.15.0

Anthropic publishes no OpenAPI file; its official SDKs are generated from one, so their
types are the published shape. SOURCE names the installed SDK distribution (`anthropic`,
optionally pinned `anthropic==VERSION`, which must be the installed version). The schema
is `pydantic.TypeAdapter(anthropic.types.RawMessageStreamEvent).json_schema()` with the
two events the SDK handles in its SSE layer instead (`ping`, `error`) added as the
streaming page shows them, every union whose members carry a `type` constant turned into
an `if`/`then` dispatch on that constant (so a violation names the real key), and
`additionalProperties` left permissive (providers add keys). `required` is the SDK's.

The SDK and pydantic are dev-only packages, imported when this runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from .._regenerate import regenerate

__all__ = ["SCHEMA_FILE", "dispatched", "main", "stream_event_schema"]

SCHEMA_FILE = Path(__file__).resolve().parent / "schema" / "message-stream-events.json"
"""Where the vendored schema lives (shipped as package data)."""

_STREAMING_PAGE = "https://docs.anthropic.com/en/docs/build-with-claude/streaming"
_COMMAND = "python -m refold.dialects.anthropic_messages.regenerate_schema"

_DOCUMENTED_EVENTS: dict[str, dict[str, Any]] = {
    "PingEvent": {
        "description": '"Event streams may also include any number of ping events" '
        f"({_STREAMING_PAGE}, Event types: Ping events).",
        "type": "object",
        "properties": {"type": {"const": "ping", "type": "string"}},
        "required": ["type"],
    },
    "ErrorEvent": {
        "description": '"We may occasionally send errors in the event stream"; the page\'s '
        'example is {"type": "error", "error": {"type": '
        '"overloaded_error", "message": "Overloaded"}} '
        f"({_STREAMING_PAGE}, Event types: Error events).",
        "type": "object",
        "properties": {
            "type": {"const": "error", "type": "string"},
            "error": {
                "type": "object",
                "properties": {"type": {"type": "string"}, "message": {"type": "string"}},
                "required": ["type", "message"],
            },
        },
        "required": ["error", "type"],
    },
}
"""The events the streaming page documents that `RawMessageStreamEvent` leaves out."""


class SourceError(Exception):
    """SOURCE cannot be read: the paragraph says what was received and expected."""


def stream_event_schema(source: str) -> dict[str, Any]:
    """The vendored schema built from the SDK SOURCE names (`anthropic[==VERSION]`).

    Raises:
        SourceError: SOURCE is not the anthropic SDK, its version is not the installed
            one, or the SDK or pydantic is not installed.
    """
    version = _installed_version(source)
    try:
        import pydantic
        from anthropic.types import RawMessageStreamEvent
    except ImportError as exc:
        raise SourceError(
            f"Regenerating the Anthropic schema imports the anthropic SDK and pydantic, "
            f"and importing them failed ({exc}). Install the dev extras "
            f"(`pip install -e '.[dev]'`) and run `{_COMMAND} {source}` again."
        ) from exc
    generated = pydantic.TypeAdapter(RawMessageStreamEvent).json_schema()
    definitions: dict[str, Any] = {**generated.pop("$defs"), **_DOCUMENTED_EVENTS}
    events = [*generated["anyOf"], {"$ref": "#/$defs/PingEvent"}, {"$ref": "#/$defs/ErrorEvent"}]
    definitions = {
        name: _permissive(dispatched(value, definitions)) for name, value in definitions.items()
    }
    top = dispatched({"anyOf": events}, definitions)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Anthropic Messages stream event",
        "x-refold-source": {
            "sdk": "anthropic (anthropics/anthropic-sdk-python, PyPI)",
            "version": version,
            "types": "anthropic.types.RawMessageStreamEvent",
            "generator": f"pydantic {metadata.version('pydantic')} "
            "TypeAdapter(RawMessageStreamEvent).json_schema()",
            "added": {
                "PingEvent": f"{_STREAMING_PAGE} (Event types: Ping events)",
                "ErrorEvent": f"{_STREAMING_PAGE} (Event types: Error events)",
            },
            "changes": "unions of `type`-tagged members dispatch on `type` with if/then; "
            "additionalProperties permissive; required as the SDK types say",
            "command": f"{_COMMAND} anthropic=={version}",
        },
        **top,
        "$defs": definitions,
    }


def _installed_version(source: str) -> str:
    name, _, wanted = source.partition("==")
    if name.strip().lower() != "anthropic":
        raise SourceError(
            f"SOURCE was {source!r}; expected the anthropic SDK's distribution name, "
            f"`anthropic` or `anthropic==VERSION` (its types are the schema's source)."
        )
    try:
        installed = metadata.version("anthropic")
    except metadata.PackageNotFoundError:
        installed = ""
    if not installed:
        raise SourceError(
            f"SOURCE {source!r} names the anthropic SDK, which is not installed in this "
            f"environment. Install the dev extras (`pip install -e '.[dev]'`) and run "
            f"`{_COMMAND} {source}` again."
        )
    if wanted and wanted.strip() != installed:
        raise SourceError(
            f"SOURCE asks for anthropic {wanted.strip()}, but anthropic {installed} is "
            f"installed; install that version or pass `anthropic=={installed}`."
        )
    return installed


def dispatched(schema: Any, definitions: dict[str, Any]) -> Any:
    """`schema` with every `anyOf` whose members all carry a `type` constant made an
    `if`/`then` dispatch on it (a `null` member kept as an allowed type), recursively.

    A bare `anyOf` reports only "is not valid under any of the given schemas" at the
    union; the dispatch validates against the one member the `type` names, so an error
    names its own key, and an unknown `type` is reported at `/type`."""
    if isinstance(schema, list):
        return [dispatched(item, definitions) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result = {key: dispatched(value, definitions) for key, value in schema.items()}
    members = result.get("anyOf")
    if isinstance(members, list):
        nullable = any(member == {"type": "null"} for member in members)
        tagged = [member for member in members if member != {"type": "null"}]
        tags = [_tag(member, definitions) for member in tagged]
        if tagged and all(tag is not None for tag in tags):
            del result["anyOf"]
            result.update(_dispatch(list(zip(tags, tagged, strict=True)), nullable=nullable))
    return result


def _tag(member: Any, definitions: dict[str, Any]) -> str | None:
    """The `type` constant of a union member (a `$ref` into `definitions`), if any."""
    if not isinstance(member, dict) or set(member) != {"$ref"}:
        return None
    target = definitions.get(str(member["$ref"]).rsplit("/", 1)[-1], {})
    constant = target.get("properties", {}).get("type", {}).get("const")
    return constant if isinstance(constant, str) else None


def _dispatch(members: list[tuple[str | None, Any]], *, nullable: bool) -> dict[str, Any]:
    rules = [
        {"if": {"properties": {"type": {"const": tag}}, "required": ["type"]}, "then": member}
        for tag, member in members
    ]
    body = {
        "required": ["type"],
        "properties": {"type": {"enum": [tag for tag, _ in members]}},
        "allOf": rules,
    }
    if not nullable:
        return {"type": "object", **body}
    return {"type": ["object", "null"], "if": {"type": "object"}, "then": body}


def _permissive(schema: Any) -> Any:
    """`schema` with every `additionalProperties: false` removed (providers add keys)."""
    if isinstance(schema, list):
        return [_permissive(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        key: _permissive(value)
        for key, value in schema.items()
        if not (key == "additionalProperties" and value is False)
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Write the schema SOURCE gives to `--output` (default: the vendored file)."""
    parser = argparse.ArgumentParser(
        prog=_COMMAND.removeprefix("python -m "),
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    parser.add_argument("source", metavar="SOURCE", help="anthropic or anthropic==VERSION")
    parser.add_argument("--output", type=Path, default=SCHEMA_FILE)
    arguments = parser.parse_args(argv)
    return regenerate(
        lambda: stream_event_schema(arguments.source),
        arguments.output,
        unreadable=(SourceError,),
        failure=lambda exc: f"refold: {exc}",
        wrote=lambda schema: (
            f"refold: wrote {arguments.output} (anthropic {schema['x-refold-source']['version']})"
        ),
    )


if __name__ == "__main__":
    sys.exit(main())
