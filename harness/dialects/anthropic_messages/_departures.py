"""Every registered way an Anthropic Messages stream departs from the documented shape.

`observed`: a named provider, proxy or gateway sends it, or Anthropic's own docs show it
(the research quirks AQn of anthropic-fold.md's evidence, each with its provenance).
`synthetic`: what the strategies and rule examples do that nobody is known to send.

One detector each, returning the numbers of the events that depart that way. The
detectors read the same two sources a `Violation` comes from: the vendored schema's
errors of an event (classified by what is missing or wrong, and where), and the grammar's
findings (`_grammar.findings`); so a departure names exactly the events it explains.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from refold.reference import JSON

from ...verdicts.departure_kinds import synthetic
from ...verdicts.shapes import Departure, load_schema
from ...verdicts.wire_shapes import FrameKind
from ._grammar import PAGE, findings

__all__ = ["DEPARTURES", "DETECTORS", "WIRE", "citations_of", "untitled"]

_BETA_BLOCKS = frozenset(
    {
        "advisor_tool_result",
        "mcp_tool_use",
        "mcp_tool_result",
        "mcp_tool_listing",
        "compaction",
        "fallback",
    }
)
"""Block types the SDK's beta stream types carry and its stable ones do not
(anthropic 2.15.0 `anthropic.types.beta.BetaRawMessageStreamEvent`)."""
_BETA_DELTAS = frozenset({"compaction_delta"})
_THINKING_EXAMPLE = f"{PAGE} (Streaming request with extended thinking)"


DEPARTURES: Mapping[str, Departure] = {
    d.id: d
    for d in (
        Departure(
            "AQ4",
            "observed",
            "no usage object on message_start or message_delta",
            (
                "Anthropic's own docs: the extended-thinking stream carries no usage on "
                f"message_start or message_delta, {_THINKING_EXAMPLE}",
            ),
        ),
        Departure(
            "AMD-THINKING-UNSIGNED-START",
            "observed",
            "a thinking block started without `signature`",
            (
                "Anthropic's own docs: the extended-thinking stream starts its thinking "
                f'block as {{"type": "thinking", "thinking": ""}}, {_THINKING_EXAMPLE}',
            ),
        ),
        Departure(
            "AQ11",
            "observed",
            "a thinking block stopped without a signature_delta (the page sends one before "
            "every thinking block's stop)",
            (
                "Anthropic-compatible providers without extended thinking (Alibaba Cloud, "
                "Fireworks) send thinking with no signature: "
                "https://github.com/earendil-works/pi/pull/4588",
                "an Anthropic-compatible /v1/messages streams thinking_delta events and no "
                "signature_delta: https://github.com/AgnesAI-Labs/AgnesAI-Models/issues/117",
            ),
        ),
        Departure(
            "AQ24",
            "observed",
            "a text block started without `text`",
            (
                "an Anthropic-compatible proxy (api-cc.freemodel.dev proxying "
                "claude-haiku-4-5): https://github.com/BerriAI/litellm/issues/28067",
                "a GLM gateway, captured with curl -N: "
                "https://github.com/BerriAI/litellm/issues/40689",
            ),
        ),
        Departure(
            "AQ7",
            "observed",
            "blocks or a stop reason inside message_start, then message_stop with no message_delta",
            (
                "programmatic tool calling: https://github.com/langchain-ai/langchain/issues/"
                "34406, https://github.com/langchain-ai/langchain/pull/38219",
            ),
        ),
        Departure(
            "AQ20",
            "observed",
            "Vertex's `vertex_event` (an event type no page names)",
            ("Claude on Vertex AI: https://github.com/vercel/ai/issues/11309",),
        ),
        Departure(
            "AQ21",
            "observed",
            "a block or delta type of the SDK's beta stream types (compaction, MCP, ...)",
            (
                "anthropic 2.15.0 anthropic.types.beta.BetaRawMessageStreamEvent (Anthropic "
                "sends them under beta headers)",
                "compaction_delta: https://github.com/UKGovernmentBEIS/inspect_ai/pull/5061",
            ),
        ),
        Departure(
            "AQ22",
            "observed",
            "Bedrock's type-less invocation-metrics chunk",
            (
                "Amazon Bedrock InvokeModelWithResponseStream, as pydantic-ai skips it "
                "(map_usage): https://github.com/pydantic/pydantic-ai/blob/main/"
                "pydantic_ai_slim/pydantic_ai/models/anthropic/_response.py",
            ),
        ),
        Departure(
            "AQ25",
            "observed",
            "a delta of a type its block's type does not take",
            (
                "Claude on Vertex, a text_delta for a tool_use block: "
                "https://github.com/anthropics/claude-code/issues/1474",
                "a Bedrock invoke route, a signature on the wrong delta type: "
                "https://github.com/maximhq/bifrost/issues/5638",
            ),
        ),
        Departure(
            "AQ9",
            "observed",
            "a tool block whose joined `partial_json` is not empty and does not parse to "
            "a JSON object (cut mid-parameter, or invalid)",
            (
                "Anthropic's own docs: fine-grained tool streaming (a beta header) sends "
                'parameters "without buffering or JSON validation, there is no guarantee '
                'that the resulting stream will complete in a valid JSON string", '
                "https://docs.claude.com/en/docs/agents-and-tools/tool-use/"
                "fine-grained-tool-streaming",
                "https://github.com/anthropics/anthropic-sdk-python/issues/1265",
            ),
        ),
        Departure(
            "AQ30",
            "observed",
            "SSE frames without an `event:` line, or an `event:` line without data or "
            "with empty data",
            (
                "Anthropic-compatible proxies that send data-only frames: "
                "https://github.com/earendil-works/pi/issues/1983, "
                "https://github.com/seifghazi/claude-code-proxy/issues/32",
                "`event:` lines with empty data: "
                "https://github.com/anthropics/anthropic-sdk-typescript/pull/861, "
                "https://github.com/anthropics/anthropic-sdk-typescript/pull/903",
            ),
        ),
        synthetic("AMD-NOT-OBJECT", "an event that is not a JSON object"),
        synthetic(
            "AMD-UNKNOWN-EVENT",
            "an event of a type no page names, or a blank or missing type",
        ),
        synthetic(
            "AMD-UNKNOWN-BLOCK",
            "a block of a type the SDK's types do not name, or without a type",
        ),
        synthetic(
            "AMD-UNKNOWN-DELTA",
            "a delta of a type the SDK's types do not name, or without a type",
        ),
        synthetic(
            "AMD-MISSING-KEY",
            "a key the SDK's types require is absent (an envelope without id, model or "
            "role, a citation without its locations, an error without its message...)",
        ),
        synthetic(
            "AMD-WRONG-TYPE",
            "a field of the wrong JSON type or an undocumented value (a null delta, an "
            "index as a string, a blank stop reason, a count as a string...)",
        ),
        synthetic(
            "AMD-CITATION-UNTITLED",
            "a citation without the title key its location type always carries "
            "(`document_title` on document locations, `title` on search results; `null` "
            "when there is none: Anthropic's API reference and @anthropic-ai/sdk type it "
            "`string | null`, not optional, and the citations page shows it)",
        ),
        synthetic("AMD-BEFORE-START", "an event other than ping before message_start"),
        synthetic("AMD-PING-BEFORE-START", "a ping before message_start (no capture shows one)"),
        synthetic("AMD-SECOND-START", "a second message_start"),
        synthetic(
            "AMD-BLOCK-INDEX",
            "block indexes not 0, 1, 2 ... in the order the blocks start (a gap, a "
            "repeat, a block started before a lower one, a negative index)",
        ),
        synthetic(
            "AMD-BLOCK-OUTSIDE",
            "a delta or stop outside its block's start and stop (interleaved blocks, "
            "a delta before its start or after its stop, an index with no block)",
        ),
        synthetic(
            "AMD-BLOCK-UNSTOPPED",
            "a block not stopped before the next block or message_delta",
        ),
        synthetic(
            "AMD-SIGNATURE-NOT-LAST",
            "a thinking block's signature_delta followed by another of its deltas (a second "
            "signature, or more thinking): the page sends one, just before the block's stop",
        ),
        synthetic("AMD-LATE-BLOCK", "a block event after a message_delta"),
        synthetic(
            "AMD-STOP-REASON-NULL",
            "a message_delta without a stop_reason after the last one that set it (the "
            "Message's stop_reason is non-null after message_start; AQ26's run 29, no "
            "capture shows a provider sending one)",
        ),
        synthetic(
            "AMD-STOP-SEQUENCE-ALONE",
            "a message_delta with a stop_sequence whose stop_reason is not `stop_sequence`",
        ),
        synthetic("AMD-NO-MESSAGE-DELTA", "message_stop with no message_delta"),
        synthetic("AMD-AFTER-STOP", "events after message_stop"),
        synthetic("AMD-AFTER-ERROR", "events after an error"),
        synthetic("AMD-CUT", "the stream ends without message_stop or an error"),
        synthetic("AMD-SSE-NAME", "an SSE frame whose `event:` name is not its data's `type`"),
        synthetic(
            "AMD-SSE-FRAMING",
            "SSE framing the streaming page never shows: comments, `id:`/`retry:` or "
            "unknown fields, JSON over several `data:` lines, `data:` without its space, "
            "CR line ends, a BOM, blank lines in a row, bytes that are not UTF-8",
        ),
        synthetic("AMD-SSE-NOT-JSON", "an SSE frame whose data is not JSON"),
    )
}
"""Every registered departure, observed first, by id."""

_BY_FINDING = {
    "before start": "AMD-BEFORE-START",
    "start content": "AQ7",
    "second start": "AMD-SECOND-START",
    "not stopped": "AMD-BLOCK-UNSTOPPED",
    "outside its block": "AMD-BLOCK-OUTSIDE",
    "index order": "AMD-BLOCK-INDEX",
    "delta type": "AQ25",
    "late block": "AMD-LATE-BLOCK",
    "signature not last": "AMD-SIGNATURE-NOT-LAST",
    "unsigned": "AQ11",
    "after stop": "AMD-AFTER-STOP",
    "cut": "AMD-CUT",
    "ping before start": "AMD-PING-BEFORE-START",
    "after error": "AMD-AFTER-ERROR",
    "stop reason unset": "AMD-STOP-REASON-NULL",
    "stop sequence alone": "AMD-STOP-SEQUENCE-ALONE",
}
"""The departure of each kind of grammar finding ("no message_delta" depends on AQ7)."""

_BEDROCK_METRICS = "amazon-bedrock-invocationMetrics"
"""The one key of Bedrock's type-less metrics chunk (AQ22); on any other event, or beside
other keys of a type-less one, it is an unknown key of an event (of an unknown one)."""
_MISSING = re.compile(r"^'(?P<key>.*)' is a required property$")


@cache
def _validator() -> Any:
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

    return Draft202012Validator(load_schema(__package__ or "", "message-stream-events.json"))


@lru_cache(maxsize=8192)
def _schema_departures(text: str) -> frozenset[str]:
    """The departures the schema errors of one event (as canonical JSON text) show."""
    item = json.loads(text)
    if not isinstance(item, dict):
        return frozenset({"AMD-NOT-OBJECT"})
    if set(item) == {_BEDROCK_METRICS}:  # the chunk as Bedrock sends it: nothing else
        return frozenset({"AQ22"})
    return frozenset(_classified(item, error) for error in _validator().iter_errors(item))


def _classified(item: dict[str, Any], error: Any) -> str:
    path = list(error.absolute_path)
    if error.validator == "required":
        found = _MISSING.match(error.message)
        return _missing(item, path, found.group("key") if found else "")
    if path and path[-1] == "type" and error.validator in ("enum", "const"):
        return _unknown_type(item, path[:-1], error.instance)
    return "AMD-WRONG-TYPE"


def _holder(item: dict[str, Any], path: list[Any]) -> tuple[str, Any]:
    """What the object at `path` is ("event", "block", "delta" or "other") and its value."""
    value: Any = item
    for step in path:
        value = value[step]
    if not path:
        return "event", value
    if path[-1] == "content_block" or (
        len(path) >= 2 and path[-2] == "content" and path[0] == "message"
    ):
        return "block", value
    if path == ["delta"] and item.get("type") == "content_block_delta":
        return "delta", value
    return "other", value


def _missing(item: dict[str, Any], path: list[Any], key: str) -> str:
    kind, holder = _holder(item, path)
    holder_type = holder.get("type") if isinstance(holder, dict) else None
    if key == "type":
        return {
            "event": "AMD-UNKNOWN-EVENT",
            "block": "AMD-UNKNOWN-BLOCK",
            "delta": "AMD-UNKNOWN-DELTA",
        }.get(kind, "AMD-MISSING-KEY")
    if key == "usage" and (path == ["message"] or item.get("type") == "message_delta"):
        return "AQ4"
    if kind == "block" and (key, holder_type) == ("text", "text"):
        return "AQ24"
    if kind == "block" and (key, holder_type) == ("signature", "thinking"):
        return "AMD-THINKING-UNSIGNED-START"
    return "AMD-MISSING-KEY"


def _unknown_type(item: dict[str, Any], path: list[Any], value: Any) -> str:
    if not isinstance(value, str):
        return "AMD-WRONG-TYPE"
    kind, _ = _holder(item, path)
    if kind == "event":
        return "AQ20" if value == "vertex_event" else "AMD-UNKNOWN-EVENT"
    if kind == "block":
        return "AQ21" if value in _BETA_BLOCKS else "AMD-UNKNOWN-BLOCK"
    if kind == "delta":
        return "AQ21" if value in _BETA_DELTAS else "AMD-UNKNOWN-DELTA"
    return "AMD-WRONG-TYPE"


def _text(item: JSON) -> str:
    return json.dumps(item, sort_keys=True, default=repr)


def _finished_on_start(items: Sequence[JSON]) -> bool:
    """Whether the first message_start already holds blocks or a stop reason (AQ7:
    programmatic tool calling then sends only message_stop)."""
    start = next(
        (item for item in items if isinstance(item, dict) and item.get("type") == "message_start"),
        None,
    )
    message = start.get("message") if start is not None else None
    if not isinstance(message, dict):
        return False
    content = message.get("content")
    return (bool(content) and isinstance(content, list)) or message.get("stop_reason") is not None


def _grammar_departures(items: Sequence[JSON]) -> dict[int, set[str]]:
    finished = _finished_on_start(items)
    marked: dict[int, set[str]] = {}
    for finding in findings(items):
        departure = _BY_FINDING.get(finding.kind) or ("AQ7" if finished else "AMD-NO-MESSAGE-DELTA")
        marked.setdefault(finding.item, set()).add(departure)
    return marked


def _detector(departure: str) -> Callable[[Sequence[JSON]], list[int]]:
    def detect(items: Sequence[JSON]) -> list[int]:
        grammar = {n for n, found in _grammar_departures(items).items() if departure in found}
        schema = {n for n, item in enumerate(items) if departure in _schema_departures(_text(item))}
        return sorted(grammar | schema)  # a cut empty stream departs at item 0

    detect.__name__ = f"detect_{departure.lower().replace('-', '_')}"
    return detect


def detect_aq9(items: Sequence[JSON]) -> list[int]:
    """The input deltas of every tool block whose joined `partial_json` is not empty (not
    JSON whitespace alone) and does not parse to an object ("the final `tool_use.input`
    is always an object", the streaming page; fine-grained tool streaming is what sends
    anything else)."""
    deltas: dict[object, list[int]] = {}
    joined: dict[object, list[str]] = {}
    for number, item in enumerate(items):
        delta = item.get("delta") if isinstance(item, dict) else None
        if not (
            isinstance(delta, dict)
            and delta.get("type") == "input_json_delta"
            and isinstance(delta.get("partial_json"), str)
        ):
            continue
        index = item.get("index") if isinstance(item, dict) else None
        deltas.setdefault(index, []).append(number)
        joined.setdefault(index, []).append(delta["partial_json"])
    found: list[int] = []
    for index, pieces in joined.items():
        # "empty" input is nothing but JSON whitespace (the spec's "joined input"):
        # AM-TOOL-NO-DELTA's case, not a cut or malformed one
        if "".join(pieces).strip(" \t\n\r") and not _parses_to_object("".join(pieces)):
            found += deltas[index]
    return sorted(found)


TITLES: Mapping[str, str] = {
    "char_location": "document_title",
    "page_location": "document_title",
    "content_block_location": "document_title",
    "web_search_result_location": "title",
    "search_result_location": "title",
}
"""The title key each citation location type always carries, `null` when there is none
(@anthropic-ai/sdk 1.15.0 `CitationCharLocation.document_title: string | null`,
`CitationsWebSearchResultLocation.title: string | null`, ...). The Python SDK's types,
the vendored schema's source, default it to None, so the schema does not require it."""


def citations_of(event: JSON) -> list[dict[str, Any]]:
    """The citation objects `event` carries: a citations_delta's, or those of the text
    blocks it opens (a content_block_start's, message_start's content)."""
    if not isinstance(event, dict):
        return []
    delta = event.get("delta")
    if event.get("type") == "content_block_delta" and isinstance(delta, dict):
        citation = delta.get("citation") if delta.get("type") == "citations_delta" else None
        return [citation] if isinstance(citation, dict) else []
    message = event.get("message")
    blocks = (
        [event.get("content_block")]
        if event.get("type") == "content_block_start"
        else message.get("content")
        if event.get("type") == "message_start" and isinstance(message, dict)
        else None
    )
    return [
        citation
        for block in (blocks if isinstance(blocks, list) else [])
        if isinstance(block, dict) and isinstance(block.get("citations"), list)
        for citation in block["citations"]
        if isinstance(citation, dict)
    ]


def untitled(citation: dict[str, Any]) -> str | None:
    """The title key `citation`'s location type always carries, when it is absent."""
    key = TITLES.get(str(citation.get("type")))
    return key if key is not None and key not in citation else None


def detect_untitled(items: Sequence[JSON]) -> list[int]:
    """The events carrying a citation without its title key (AMD-CITATION-UNTITLED)."""
    return [
        n
        for n, item in enumerate(items)
        if any(untitled(citation) is not None for citation in citations_of(item))
    ]


def _parses_to_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


_WIRE_DEPARTURES = frozenset({"AQ30", "AMD-SSE-NAME", "AMD-SSE-FRAMING", "AMD-SSE-NOT-JSON"})
"""Departures of the bytes, told by `WIRE` (`refold.verdicts.wire_shapes`), not by an event."""

WIRE: Mapping[FrameKind, str] = {
    "unnamed": "AQ30",
    "empty": "AQ30",
    "misnamed": "AMD-SSE-NAME",
    "framing": "AMD-SSE-FRAMING",
    "not-json": "AMD-SSE-NOT-JSON",
    "crlf": "AMD-SSE-FRAMING",  # CR line ends: Anthropic's examples show none
}
"""The departure of each kind of SSE framing departure."""

_OWN_DETECTORS: Mapping[str, Callable[[Sequence[JSON]], list[int]]] = {
    "AQ9": detect_aq9,
    "AMD-CITATION-UNTITLED": detect_untitled,
}
"""Departures the schema and the grammar do not tell, each with its own detector."""

DETECTORS: Mapping[str, Callable[[Sequence[JSON]], list[int]]] = {
    departure: _OWN_DETECTORS.get(departure) or _detector(departure)
    for departure in DEPARTURES
    if departure not in _WIRE_DEPARTURES
}
"""A detector per departure of the events: the numbers of the events that depart that way."""
