"""Regenerate `schema/chat.completion.chunk.json` from OpenAI's published API definition.

    python -m refold.dialects.openai_chat.regenerate_schema SOURCE [--commit SHA]

SOURCE is a clone (or bare git directory) of `openai/openai-openapi`, whose `openapi.yaml`
at HEAD is read and whose HEAD commit is recorded, or the path of an `openapi.yaml`
(`.json` too) file, with `--commit` naming the commit it was taken from. The schema is
`CreateChatCompletionStreamResponse` and everything it references, under `$defs`,
converted from OpenAPI 3.1 to a standalone Draft 2020-12 schema: `nullable: true` becomes
a `null` alternative, a `oneOf` with a `discriminator` becomes an `allOf` of `if`/`then`
on the discriminating key (so an error names the real key), descriptions and `x-*`
extensions are dropped, and no object forbids keys the definition does not list.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from .._regenerate import regenerate

__all__ = ["chunk_schema", "main"]

ROOT = "CreateChatCompletionStreamResponse"
REPOSITORY = "openai/openai-openapi"
OUTPUT = Path(__file__).resolve().parent / "schema" / "chat.completion.chunk.json"
_DROPPED = frozenset(
    {"description", "example", "examples", "deprecated", "format", "default", "title"}
)


class SourceError(Exception):
    """The source cannot be read as OpenAI's API definition."""


def _read_definition(source: Path, commit: str | None) -> tuple[dict[str, Any], str, str]:
    """(the parsed definition, its file name, its commit)."""
    if source.is_dir():
        git = ["git", f"--git-dir={source / '.git' if (source / '.git').exists() else source}"]
        try:
            text = subprocess.run(
                [*git, "show", "HEAD:openapi.yaml"], capture_output=True, text=True, check=True
            ).stdout
            commit = (
                commit
                or subprocess.run(
                    [*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
                ).stdout.strip()
            )
        except (OSError, subprocess.CalledProcessError) as exc:
            raise SourceError(
                f"{source} is a folder but git could not read openapi.yaml at "
                f"its HEAD ({exc}); expected a clone of {REPOSITORY}"
            ) from exc
        return _parsed(text, "openapi.yaml"), "openapi.yaml", commit
    if not source.is_file():
        raise SourceError(
            f"{source} does not exist; expected a clone of {REPOSITORY} or the "
            f"path of its openapi.yaml"
        )
    return _parsed(source.read_text(encoding="utf-8"), source.name), source.name, commit or ""


def _parsed(text: str, name: str) -> dict[str, Any]:
    if name.endswith(".json"):
        loaded: dict[str, Any] = json.loads(text)
        return loaded
    try:
        import yaml  # type: ignore[import-untyped]
    except ImportError as exc:
        raise SourceError(
            "reading openapi.yaml needs PyYAML, which is not installed: "
            "install the dev extras (pip install -e '.[dev]') or pass the "
            "repository's openapi.json instead"
        ) from exc
    parsed: dict[str, Any] = yaml.safe_load(text)
    return parsed


def _converted(node: Any, refs: set[str]) -> Any:
    """One OpenAPI schema node as Draft 2020-12; the component names it refers to are
    added to `refs`."""
    if isinstance(node, list):
        return [_converted(item, refs) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DROPPED or key.startswith("x-") or key in ("nullable", "discriminator"):
            continue
        if key == "$ref":
            name = value.rsplit("/", 1)[-1]
            refs.add(name)
            out[key] = f"#/$defs/{name}"
        elif key == "properties":
            out[key] = {name: _converted(sub, refs) for name, sub in value.items()}
        elif key == "additionalProperties" and value is False:
            continue  # providers add keys: never forbid them
        else:
            out[key] = _converted(value, refs)
    if "discriminator" in node and "oneOf" in out:
        values = [branch.get("x-refold-value") for branch in node["oneOf"]]
        out["allOf"] = _dispatch(
            node["discriminator"]["propertyName"], list(zip(values, out.pop("oneOf"), strict=True))
        )
    if node.get("nullable") is True:
        out = {"anyOf": [out, {"type": "null"}]}
    return out


def _dispatch(key: str, branches: list[tuple[Any, dict[str, Any]]]) -> list[dict[str, Any]]:
    """`if` the discriminating key has a branch's value `then` that branch."""
    dispatched: list[dict[str, Any]] = []
    values: list[Any] = []
    for value, branch in branches:
        if value is None:
            raise ValueError(f"a branch of the {key!r} discriminator has no one-value enum")
        values.append(value)
        dispatched.append(
            {
                "if": {"properties": {key: {"const": value}}, "required": [key]},
                "then": {"$ref": branch["$ref"]},
            }
        )
    return [{"properties": {key: {"enum": values}}, "required": [key]}, *dispatched]


def _discriminator_values(schemas: dict[str, Any], node: Any) -> None:
    """Mark each `$ref` branch of a discriminated `oneOf` with its value (the branch's
    one-value `enum` of the key), before refs are rewritten."""
    if isinstance(node, list):
        for item in node:
            _discriminator_values(schemas, item)
        return
    if not isinstance(node, dict):
        return
    if "discriminator" in node and "oneOf" in node:
        key = node["discriminator"]["propertyName"]
        for branch in node["oneOf"]:
            target = schemas[branch["$ref"].rsplit("/", 1)[-1]]
            enum = target.get("properties", {}).get(key, {}).get("enum", [])
            if len(enum) == 1:
                branch["x-refold-value"] = enum[0]
    for value in node.values():
        _discriminator_values(schemas, value)


def chunk_schema(definition: dict[str, Any], *, file: str, commit: str) -> dict[str, Any]:
    """The standalone Draft 2020-12 schema of one `chat.completion.chunk`."""
    schemas: dict[str, Any] = definition["components"]["schemas"]
    definitions: dict[str, Any] = {}
    pending, done = {ROOT}, set()
    while pending:
        name = pending.pop()
        done.add(name)
        node = json.loads(json.dumps(schemas[name]))
        _discriminator_values(schemas, node)
        refs: set[str] = set()
        definitions[name] = _converted(node, refs)
        pending |= refs - done
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:refold:dialects:openai-chat:chat.completion.chunk",
        "title": "chat.completion.chunk",
        "x-refold-source": _source(definition, file=file, commit=commit),
        "$ref": f"#/$defs/{ROOT}",
        "$defs": dict(sorted(definitions.items())),
    }


def _source(definition: dict[str, Any], *, file: str, commit: str) -> dict[str, Any]:
    return {
        "repository": REPOSITORY,
        "path": file,
        "commit": commit,
        "version": str(definition.get("info", {}).get("version", "")),
        "schema": ROOT,
        "regenerate": "python -m refold.dialects.openai_chat.regenerate_schema "
        "<clone of openai/openai-openapi>",
        "follows": (
            "the OpenAPI file, not openai-python's ChatCompletionChunk type: the API "
            "definition is what OpenAI publishes as the contract of its streams, and the "
            "SDK's type is more lenient (a choice requires only delta and index). So "
            "choices[].finish_reason is required (nullable), as OpenAI sends it on every "
            "chunk; a choice entry without it is the observed departure CHAT-NO-FINISH-KEY "
            "(many OpenAI-compatible servers omit it: LocalAI, Bedrock, vLLM, Q13)."
        ),
    }


def main(argv: list[str] | None = None) -> int:
    """Write the schema; exit 2 with one paragraph when the source cannot be read."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help=f"a clone of {REPOSITORY}, or its openapi.yaml")
    parser.add_argument("--commit", help="the commit SOURCE was taken from (a file SOURCE)")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    options = parser.parse_args(argv)

    def build() -> dict[str, Any]:
        definition, file, commit = _read_definition(options.source, options.commit)
        return chunk_schema(definition, file=file, commit=commit)

    def failure(exc: Exception) -> str:
        what = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
        return (
            f"regenerate_schema: could not build the chunk schema from {options.source}: "
            f"{what}. Expected OpenAI's API definition, with components.schemas.{ROOT}."
        )

    return regenerate(
        build,
        options.output,
        unreadable=(SourceError, KeyError, TypeError, ValueError),
        failure=failure,
        wrote=lambda schema: f"wrote {options.output} ({len(schema['$defs'])} definitions)",
    )


if __name__ == "__main__":
    sys.exit(main())
