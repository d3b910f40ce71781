"""Regenerate the vendored JSON Schema of OpenAI Responses stream events.

    python -m refold.dialects.openai_responses.regenerate_schema SOURCE [--commit REV] [--out PATH]

SOURCE is a git directory of `openai/openai-openapi` (a clone, or the bare mirror `fetch
github:openai/openai-openapi` brings), whose `openapi.yaml` is read at REV (default
`HEAD`), or a path to an `openapi.yaml` itself (then `--commit` names the commit it was
taken from, for the record). The schema written is `ResponseStreamEvent` with every
schema it references under `$defs`, as Draft 2020-12:

- OpenAPI's `discriminator` unions (`ResponseStreamEvent`, `OutputItem`, the content
  parts, annotations) become an enum of the discriminator's values plus one `if`/`then`
  per value, so a `jsonschema` error names the real missing or mistyped key of the
  event's own schema instead of "not valid under any of the given schemas";
- `additionalProperties: false` is dropped (keys the schema does not list stay allowed:
  providers add keys), as are the annotations that only document (`description`,
  `example`, `title`, `x-*`);
- `$recursiveRef: "#"` becomes a `$ref` to the definition that anchors it.

Why the OpenAPI file and not openai-python's `ResponseStreamEvent`: the API definition is
what OpenAI publishes as the shape of its wire, and its SDKs are generated from it; the
SDK's pydantic types drop from `required` every field that may be `null`
(`error`, `incomplete_details`, `instructions`, `metadata`, `temperature`, `top_p` on a
Response, `code` and `param` on an `error` event), keys the API always sends and its own
examples show. `pyyaml` is read lazily: it is a dev dependency.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .._regenerate import regenerate

__all__ = ["ROOT", "SCHEMA_FILE", "build_schema", "main"]

ROOT = "ResponseStreamEvent"
"""The OpenAPI component whose closure is vendored."""
SCHEMA_FILE = Path(__file__).parent / "schema" / "response-stream-events.json"
_REPOSITORY = "openai/openai-openapi"
_PATH = "openapi.yaml"
_COMMAND = (
    "python -m refold.dialects.openai_responses.regenerate_schema "
    "<git dir of openai/openai-openapi> --commit <rev>"
)
_WHY = (
    "OpenAI's published API definition, from which its SDKs are generated; chosen over "
    "openai-python 3.57.0's openai.types.responses.ResponseStreamEvent, whose pydantic "
    "types drop from `required` every field that may be null (a Response's error, "
    "incomplete_details, instructions, metadata, temperature, top_p; an error event's "
    "code and param), keys the API sends and its own examples show"
)
_DOCUMENTING = frozenset(
    {"description", "example", "examples", "title", "discriminator", "$recursiveAnchor"}
)
_PREFIX = "#/components/schemas/"


def _referenced(node: Any, found: set[str]) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_PREFIX):
            found.add(ref[len(_PREFIX) :])
        for value in node.values():
            _referenced(value, found)
    elif isinstance(node, list):
        for value in node:
            _referenced(value, found)


def _closure(schemas: Mapping[str, Any], root: str) -> list[str]:
    """Every component `root` reaches, sorted."""
    seen: set[str] = set()
    todo = [root]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        found: set[str] = set()
        _referenced(schemas[name], found)
        todo += sorted(found - seen)
    return sorted(seen)


def _values(schema: Any, prop: str, schemas: Mapping[str, Any]) -> list[Any] | None:
    """The discriminator values a union branch admits (None: not read off it)."""
    if not isinstance(schema, dict):
        return None
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith(_PREFIX):
        return _values(schemas.get(ref[len(_PREFIX) :]), prop, schemas)
    declared = schema.get("properties", {}).get(prop)
    if isinstance(declared, dict):
        if "const" in declared:
            return [declared["const"]]
        if isinstance(declared.get("enum"), list):
            return list(declared["enum"])
    for part in schema.get("allOf", []):
        values = _values(part, prop, schemas)
        if values is not None:
            return values
    return None


def _dispatched(node: dict[str, Any], schemas: Mapping[str, Any]) -> dict[str, Any] | None:
    """A discriminator union as an enum plus one `if`/`then` per value (None: a branch
    whose value cannot be read, left a union)."""
    prop = node["discriminator"]["propertyName"]
    union = "oneOf" if "oneOf" in node else "anyOf"
    by_value: dict[str, list[Any]] = {}
    for branch in node[union]:
        values = _values(branch, prop, schemas)
        if values is None:
            return None
        for value in values:
            by_value.setdefault(value, []).append(branch)
    rest = {k: v for k, v in node.items() if k not in (union, "discriminator")}
    rules = [
        {
            "if": {"properties": {prop: {"const": value}}, "required": [prop]},
            "then": branches[0] if len(branches) == 1 else {"anyOf": branches},
        }
        for value, branches in by_value.items()
    ]
    required = [*rest.get("required", []), *([] if prop in rest.get("required", []) else [prop])]
    properties = {**rest.get("properties", {}), prop: {"enum": list(by_value)}}
    return {
        **rest,
        "type": "object",
        "required": required,
        "properties": properties,
        "allOf": [*rest.get("allOf", []), *rules],
    }


def _converted(node: Any, schemas: Mapping[str, Any], anchor: str) -> Any:
    """One schema node in Draft 2020-12 form (see the module docstring)."""
    if isinstance(node, list):
        return [_converted(value, schemas, anchor) for value in node]
    if not isinstance(node, dict):
        return node
    if isinstance(node.get("discriminator"), dict) and ("oneOf" in node or "anyOf" in node):
        dispatched = _dispatched(node, schemas)
        if dispatched is not None:
            node = dispatched
    result: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DOCUMENTING or key.startswith("x-"):
            continue
        if key == "additionalProperties" and value is False:
            continue
        if key == "$recursiveRef":
            result["$ref"] = f"#/$defs/{anchor}"
        elif key == "$ref" and isinstance(value, str) and value.startswith(_PREFIX):
            result["$ref"] = "#/$defs/" + value[len(_PREFIX) :]
        elif key in ("properties", "patternProperties", "$defs") and isinstance(value, dict):
            result[key] = {name: _converted(sub, schemas, anchor) for name, sub in value.items()}
        else:
            result[key] = _converted(value, schemas, anchor)
    return result


def build_schema(api: Mapping[str, Any], source: Mapping[str, str]) -> dict[str, Any]:
    """The standalone schema of one Responses stream event from a parsed OpenAPI
    document, recording `source` (repository, path, commit) in `x-refold-source`."""
    schemas: Mapping[str, Any] = api["components"]["schemas"]
    defs = {name: _converted(schemas[name], schemas, name) for name in _closure(schemas, ROOT)}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "OpenAI Responses stream event",
        "x-refold-source": {
            **source,
            "component": f"components/schemas/{ROOT}",
            "version": str(api.get("info", {}).get("version", "")),
            "regenerate": _COMMAND,
            "why": _WHY,
        },
        "$ref": f"#/$defs/{ROOT}",
        "$defs": defs,
    }


class _SourceError(Exception):
    """SOURCE cannot be read as the brief says."""


def _read_source(source: Path, rev: str | None) -> tuple[str, str]:
    """(the text of openapi.yaml, the commit it was read at)."""
    if source.is_file():
        return source.read_text(encoding="utf-8"), rev or "unknown"
    if not source.is_dir():
        raise _SourceError(f"{source} is neither a file nor a directory")

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", "--git-dir", str(_git_dir(source)), *args],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise _SourceError(
                f"git {' '.join(args)} failed in {source}: {done.stderr.strip()[:300]}"
            )
        return done.stdout

    commit = git("rev-parse", f"{rev or 'HEAD'}^{{commit}}").strip()
    return git("show", f"{commit}:{_PATH}"), commit


def _git_dir(source: Path) -> Path:
    return source / ".git" if (source / ".git").exists() else source


def main(argv: list[str] | None = None) -> int:
    """Write the vendored schema from SOURCE; non-zero with one paragraph on failure."""
    parser = argparse.ArgumentParser(prog="regenerate_schema", description=__doc__.split("\n")[0])
    parser.add_argument(
        "source", type=Path, help="git dir of openai/openai-openapi, or openapi.yaml"
    )
    parser.add_argument("--commit", default=None, help="revision to read (default HEAD)")
    parser.add_argument("--out", type=Path, default=SCHEMA_FILE, help="file to write")
    args = parser.parse_args(argv)
    try:
        import yaml  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        print(
            "regenerate_schema needs pyyaml to read openapi.yaml, and it is not installed: "
            "install the dev extras (pip install -e '.[dev]') or pyyaml, then run it again.",
            file=sys.stderr,
        )
        return 2

    def build() -> dict[str, Any]:
        text, commit = _read_source(args.source, args.commit)
        api = yaml.safe_load(text)
        return build_schema(api, {"repository": _REPOSITORY, "path": _PATH, "commit": commit})

    def wrote(schema: dict[str, Any]) -> str:
        commit = schema["x-refold-source"]["commit"]
        return f"wrote {args.out} ({len(schema['$defs'])} definitions, {_REPOSITORY}@{commit[:12]})"

    return regenerate(
        build,
        args.out,
        unreadable=(_SourceError, OSError, yaml.YAMLError, KeyError, TypeError),
        failure=lambda error: (
            f"regenerate_schema could not read {_PATH} from {args.source}: {error}. Expected "
            f"a git directory of {_REPOSITORY} or the path of its {_PATH}, whose "
            f"components/schemas holds {ROOT}."
        ),
        wrote=wrote,
        ensure_ascii=True,
        sort_keys=True,
    )


if __name__ == "__main__":
    raise SystemExit(main())
