"""Target `langchain-events`: LangChain's streamed `AIMessageChunk`s as provider-neutral events.

Dialect `provider-events` (events.md), accepting `openai-chat` (langchain-openai 1.7.4,
`ChatOpenAI.stream()`), `openai-responses` (the same, `ChatOpenAI(use_responses_api=True)`:
`POST /v1/responses` through openai-python's Responses stream) and `anthropic-messages`
(langchain-anthropic 1.7.10, `ChatAnthropic.stream()`), langchain-core 1.8.3. What runs is
the library's own streaming call with only the network replaced: openai-python's client
(Chat, Responses) or anthropic-python's
(the Anthropic wire module's offline `SDK.client`, Anthropic) over an in-memory transport whose
response body is fed one frame at a time (`FedStream`: the call runs on a thread and pulls
the body; after each frame the target collects every chunk the call yielded before it
asked for the next frame). No frame is read ahead: each event's `opaque` is the frame
that was fed when its chunk came out (an argument fragment held until its call's id and
name are known keeps the frame it arrived in, EV-ARGS-BUFFER). Frames are written as the
providers write them (`data: <json>` and `data: [DONE]`; Anthropic `event: <type>` +
`data:`, `named_frames`). The Chat request asks for usage (`stream_usage=True`); the Anthropic
one declares a tool, as langchain-anthropic's own target does, so content stays structured.

How a chunk maps (in this order, per chunk; `agg` is the `+` of the chunks so far):

    content text (str, or `text` blocks' `text`)   -> TextDelta per non-empty piece
    tool_call_chunks[k] with id and name            -> ToolCallStarted (first time for its
                                                       `index`), then the held deltas
    tool_call_chunks[k].args, non-empty             -> ToolCallArgumentsDelta for the call of
                                                       its `index` (held until started)
    response_metadata finish_reason (Chat) /        -> ToolCallCompleted per started call, in
      stop_reason (Anthropic), non-empty               start order, its arguments the `args`
                                                       of agg.tool_calls (LangChain's lenient
                                                       parse_partial_json); a call LangChain
                                                       put in agg.invalid_tool_calls instead:
                                                       outcome error `invalid_tool_arguments`
    usage_metadata                                  -> Usage: that chunk's usage_metadata
                                                       (input_tokens, output_tokens,
                                                       input_token_details.cache_read,
                                                       output_token_details.reasoning)
    the call ends without raising                   -> Completed, the turn from agg
    the call raises openai/anthropic APIError       -> outcome error `provider_error`
    a frame whose chunks gave none of the above     -> Opaque (`message` for Chat, else the
      (no chunk, empty deltas, role-only, ping...)     frame's `type`); `[DONE]` gives none

The turn: provider `langchain`; model = response_metadata.model_name (`""` when absent:
langchain-openai sets it on the finish chunk only); response_id = None (the message id is
LangChain's run id `lc_run--…`; the provider's id never reaches a chunk); output_text =
agg's text; tool_calls = agg.tool_calls; stop_reason = the finish or stop reason through
events.md §4 (`tool_use` for `end_turn` with calls, EV-STOP-TOOL); usage =
agg.usage_metadata, which LangChain sums across chunks (all null when absent); opaque =
`message_to_dict(agg)` (no `events.turn_opaque` claim: it is not the dialect fold).
Responses (`use_responses_api=True`) go through the same table: the chunks' content is a
list of blocks (`text` blocks are the text), `tool_call_chunks` carry `call_id` as id,
the finish is response_metadata `status` (the terminal's chunk: `completed` is end_turn,
`incomplete` by `incomplete_details.reason`, §4.2), response_id is response_metadata `id`
(LangChain keeps `response.id` there), and the ValueError langchain-openai raises for
`response.failed` and `error` events is the outcome `provider_error` (it raises before any
chunk, so a failed response's usage is never reported).
Completed comes with the frame at which the call returns: Chat's `[DONE]` (openai-python
stops reading there) or the end of the body; Anthropic's end of the body.

What LangChain cannot represent, and so this target cannot emit: a completion event
(ToolCallCompleted and Completed are derived, above: Completed when the call returns,
which for Anthropic is the end of the body, not `message_stop`); a block's end
(`content_block_stop` yields no chunk, so Anthropic calls complete at `message_delta`);
the provider's response id; message_start's usage (LangChain reports usage on
`message_delta` only); an ended stream told from a cut one (a body cut before its
finish returns normally); a strict parse of arguments (`parse_partial_json` repairs cut
JSON).

Persisted: the turn's message as LangChain's chat history writes it,
`messages_to_dict([agg])` (the serialisation of `BaseChatMessageHistory`'s documented
file history and `messages_from_dict`'s input; `InMemoryChatMessageHistory` keeps the
objects and `RunnableWithMessageHistory` stores the same summed message, less the
`chunk_position` of `.stream()`'s closing chunk; both deprecated since 1.6.4), as JSON;
`[]` when the call raised (history is written only when a run ends).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from refold.reference import JSON, JSONObject
from refold.reference.sse import event_name
from refold.targets.sdk._requires import require

__all__ = ["LangChainEvents", "refold_target"]

require("langchain_openai", extra="langchain")
require("langchain_anthropic", extra="langchain-anthropic")
import anthropic  # noqa: E402
import httpx2  # noqa: E402
import openai  # noqa: E402
from langchain_anthropic import ChatAnthropic  # noqa: E402
from langchain_core.messages import AIMessageChunk, HumanMessage, messages_to_dict  # noqa: E402
from langchain_openai import ChatOpenAI  # noqa: E402
from pydantic import Field  # noqa: E402

from refold.targets.sdk._fed_stream import Ended, FedStream, Raised  # noqa: E402
from refold.targets.sdk.offline import named_frames, sdk_client  # noqa: E402
from refold.targets.sdk.summing import versions  # noqa: E402

_CHAT_STOPS = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "content_filter",
}
_MESSAGE_STOPS = {
    reason: reason
    for reason in ("end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal")
}
_COUNTERS = ("input_tokens", "output_tokens", "cached_input_tokens", "reasoning_tokens")
_EVENT_STREAM = {"content-type": "text/event-stream"}


_ANTHROPIC_TOOLS = [{"name": "refold_tool", "input_schema": {"type": "object", "properties": {}}}]
"""A tool declared so that ChatAnthropic keeps content as blocks (as langchain-anthropic's
fold target declares one)."""


def _answering(body: Iterator[bytes]) -> Callable[[httpx2.Request], httpx2.Response]:
    def answer(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers=_EVENT_STREAM, content=body, request=request)

    return answer


def _openai_chunks(body: Iterator[bytes], *, responses: bool = False) -> Iterator[AIMessageChunk]:
    transport = httpx2.MockTransport(_answering(body))
    model = ChatOpenAI(
        model="refold-offline",
        api_key="sk-refold-offline-dummy",  # type: ignore[arg-type]
        base_url="http://127.0.0.1:9/v1",
        max_retries=0,
        stream_usage=True,
        use_responses_api=responses,
        http_client=httpx2.Client(transport=transport),
    )
    yield from model.stream([HumanMessage("refold")])


def _responses_chunks(body: Iterator[bytes]) -> Iterator[AIMessageChunk]:
    """ChatOpenAI with `use_responses_api=True`: `POST /v1/responses`, its events."""
    return _openai_chunks(body, responses=True)


class _FedChatAnthropic(ChatAnthropic):
    """ChatAnthropic whose requests go to `fed_client` (offline) instead of its own."""

    fed_client: Any = Field(default=None, exclude=True)

    def _create(self, payload: dict[str, Any]) -> Any:
        return self.fed_client.messages.with_raw_response.create(**payload)


def _anthropic_chunks(body: Iterator[bytes]) -> Iterator[AIMessageChunk]:
    model = _FedChatAnthropic(
        model="claude-refold-offline",  # type: ignore[call-arg]
        api_key="refold-offline-dummy",  # type: ignore[arg-type]
        max_retries=0,
        fed_client=sdk_client(
            anthropic.Anthropic,
            _answering(body),
            api_key="refold-offline-dummy",
            base_url="http://refold.invalid",
        ),
    )
    yield from model.stream([HumanMessage("refold")], tools=_ANTHROPIC_TOOLS)


def _chat_frame(frame: JSON) -> bytes:
    if frame == "[DONE]":
        return b"data: [DONE]\n\n"
    try:
        return f"data: {json.dumps(frame, ensure_ascii=False)}\n\n".encode()
    except UnicodeEncodeError:
        # A lone surrogate can only travel escaped in UTF-8 JSON text.
        return f"data: {json.dumps(frame)}\n\n".encode()


def _anthropic_frame(frame: JSON) -> bytes:
    return named_frames([frame])[0]


def _responses_frame(frame: JSON) -> bytes:
    """`event: <type>` (when usable) and one `data:` line, as OpenAI sends them."""
    kind = event_name(frame)
    head = f"event: {kind}\n" if kind is not None else ""
    return head.encode() + _chat_frame(frame)


def _responses_stop(metadata: Mapping[str, Any]) -> str:
    """events.md §4.2: completed is end_turn (tool_use with calls: `_turn`); incomplete
    by `incomplete_details.reason`; else other."""
    status = metadata.get("status")
    if status == "completed":
        return "end_turn"
    details = metadata.get("incomplete_details")
    reason = details.get("reason") if isinstance(details, dict) else None
    return (
        {"max_output_tokens": "max_tokens", "content_filter": "content_filter"}.get(reason, "other")
        if status == "incomplete" and isinstance(reason, str)
        else "other"
    )


@dataclass(frozen=True)
class _Source:
    """What differs between the source dialects."""

    chunks: Callable[[Iterator[bytes]], Iterator[AIMessageChunk]]
    encode: Callable[[JSON], bytes]
    finish_key: str
    stops: Mapping[str, str]
    named: bool
    """Opaque.event_type is the frame's `type` (else `message`: Chat has no event names)."""
    stop_of: Callable[[Mapping[str, Any]], str] | None = None
    """The stop reason from response_metadata, where `stops` of `finish_key` is not it."""
    provider_errors: tuple[type[BaseException], ...] = (openai.APIError, anthropic.APIError)
    """What the call raises for a provider's error frame (outcome `provider_error`)."""
    id_key: str | None = None
    """The response_metadata key holding the provider's response id, where it has one."""


_SOURCES: dict[str, _Source] = {
    "openai-chat": _Source(_openai_chunks, _chat_frame, "finish_reason", _CHAT_STOPS, named=False),
    # langchain-openai's Responses stream raises ValueError(the error) for
    # `response.failed` and `error` events (_convert_responses_chunk_to_generation_chunk)
    "openai-responses": _Source(
        _responses_chunks,
        _responses_frame,
        "status",
        {},
        named=True,
        stop_of=_responses_stop,
        provider_errors=(openai.APIError, ValueError),
        id_key="id",
    ),
    "anthropic-messages": _Source(
        _anthropic_chunks, _anthropic_frame, "stop_reason", _MESSAGE_STOPS, named=True
    ),
}


@dataclass
class _Call:
    """One entry of agg.tool_call_chunks (LangChain's merge of the fragments), by position."""

    args: str = ""
    id: str | None = None
    name: str | None = None
    started: bool = False
    completed: bool = False
    held: list[tuple[str, JSON]] = field(default_factory=list)


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content] if content else []
    texts = (
        block.get("text") if isinstance(block, dict) and block.get("type") == "text" else block
        for block in content
    )
    return [text for text in texts if isinstance(text, str) and text]


def _usage(metadata: Any) -> JSONObject:
    if metadata is None:
        return dict.fromkeys(_COUNTERS)
    return {
        "input_tokens": metadata.get("input_tokens"),
        "output_tokens": metadata.get("output_tokens"),
        "cached_input_tokens": (metadata.get("input_token_details") or {}).get("cache_read"),
        "reasoning_tokens": (metadata.get("output_token_details") or {}).get("reasoning"),
    }


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


class LangChainEvents:
    """One stream through LangChain, frame by frame: `begin`, `frame`, `end`, `persisted`
    (the in-process adapter of EVENTS_TARGET.md; a fresh instance per stream)."""

    def __init__(self) -> None:
        self._source = _SOURCES["openai-chat"]
        self._stream: FedStream | None = None
        self._reset()

    def _reset(self) -> None:
        self._summed: AIMessageChunk | None = None
        self._calls: list[_Call] = []
        self._order: list[_Call] = []
        self._outcome: JSONObject | None = None
        self._raised = False
        self._held = False
        self._last: JSON = None

    def begin(self, dialect: str) -> None:
        """Start LangChain's streaming call for a stream of `dialect`."""
        source = _SOURCES.get(dialect)
        if source is None:
            raise ValueError(
                f"the langchain-events target accepts {', '.join(_SOURCES)}; "
                f"received dialect {dialect!r}"
            )
        self._reset()
        self._source = source
        self._stream = FedStream(source.chunks)

    def frame(self, frame: JSON) -> list[JSONObject]:
        """Feed one frame to LangChain; the events of the chunks it yielded for it."""
        stream = self._running()
        self._last = frame
        decided, self._held = self._outcome is not None, False
        events = self._events(stream.feed(self._source.encode(frame)), frame)
        carried = [event for event in events if event["type"] != "Completed"]
        # A held fragment is this frame's delta, released once its call starts.
        if not carried and not self._held and not decided and frame != "[DONE]":
            # Before any Completed: Completed stays last (EV-COMPLETED-LAST).
            events.insert(0, self._opaque(frame))
        return events

    def end(self) -> JSONObject:
        """End the body: the outcome and the events of what LangChain yielded then."""
        events = self._events(self._running().end(), self._last)
        if self._outcome is None:
            raise RuntimeError("LangChain's streaming call did not end at the end of the body")
        return {**self._outcome, "events": events}

    def persisted(self) -> JSON:
        """The turn's message as LangChain's chat history writes it (module docstring)."""
        if self._raised or self._summed is None:
            return []
        return _json(messages_to_dict([self._summed]))

    def _running(self) -> FedStream:
        if self._stream is None:
            raise RuntimeError("frame() or end() before begin(): no stream is running")
        return self._stream

    def _events(self, items: list[Any], frame: JSON) -> list[JSONObject]:
        events: list[JSONObject] = []
        for item in items:
            if isinstance(item, Ended | Raised):
                events += self._ended(item)
            else:
                events += self._chunk(item, frame)
        return events

    def _chunk(self, chunk: AIMessageChunk, frame: JSON) -> list[JSONObject]:
        self._summed = chunk if self._summed is None else self._summed + chunk
        if self._outcome is not None:  # decided: LangChain runs on, nothing is emitted
            return []
        events: list[JSONObject] = [
            {"type": "TextDelta", "delta": text, "opaque": frame} for text in _texts(chunk.content)
        ]
        if chunk.tool_call_chunks:
            events += self._merged(frame)
        if chunk.response_metadata.get(self._source.finish_key):
            events += self._finish(frame)
        if chunk.usage_metadata is not None and self._outcome is None:
            events.append({"type": "Usage", "usage": _usage(chunk.usage_metadata), "opaque": frame})
        return events

    def _merged(self, frame: JSON) -> list[JSONObject]:
        """The events of what this chunk changed in agg.tool_call_chunks, entry by entry:
        LangChain's own merge decides which call a fragment belongs to."""
        assert self._summed is not None  # a chunk was just added
        merged = self._summed.tool_call_chunks
        self._calls += [_Call() for _ in merged[len(self._calls) :]]
        events: list[JSONObject] = []
        for call, entry in zip(self._calls, merged, strict=True):
            args = entry.get("args") or ""
            appended = args[len(call.args) :] if args.startswith(call.args) else args
            call.args, call.id, call.name = args, entry.get("id"), entry.get("name")
            if not call.started and call.id and call.name:
                events += self._start(call, frame)
            if not appended:
                continue
            if call.started:
                events.append(_args_delta(call, appended, frame))
            else:
                call.held.append((appended, frame))
                self._held = True
        return events

    def _start(self, call: _Call, frame: JSON) -> list[JSONObject]:
        call.started = True
        self._order.append(call)
        started = {"type": "ToolCallStarted", "id": call.id, "name": call.name, "opaque": frame}
        held, call.held = call.held, []
        return [started, *(_args_delta(call, delta, opaque) for delta, opaque in held)]

    def _finish(self, frame: JSON) -> list[JSONObject]:
        summed = self._summed
        assert summed is not None  # a chunk was just added
        valid = [dict(call) for call in summed.tool_calls]
        invalid = [dict(call) for call in summed.invalid_tool_calls]
        events: list[JSONObject] = []
        for call in self._order:
            found = _take(valid, call.id)
            if call.completed:
                continue
            if found is None and (bad := _take(invalid, call.id)) is not None:
                self._outcome = {
                    "outcome": "error",
                    "error": {
                        "kind": "invalid_tool_arguments",
                        "message": f"LangChain put call {call.id!r} in invalid_tool_calls: its "
                        f"arguments {bad.get('args')!r} do not parse",
                    },
                }
                return events
            if found is not None:
                call.completed = True
                events.append(
                    {"type": "ToolCallCompleted", "call": _tool_call(found), "opaque": frame}
                )
        return events

    def _ended(self, item: Ended | Raised) -> list[JSONObject]:
        if isinstance(item, Raised):
            if not isinstance(item.error, self._source.provider_errors):
                raise item.error  # LangChain's own failure: the harness charges it
            self._raised = True
            if self._outcome is None:
                self._outcome = {
                    "outcome": "error",
                    "error": {"kind": "provider_error", "message": str(item.error)},
                }
            return []
        if self._outcome is not None:
            return []
        self._outcome = {"outcome": "completed"}
        return [{"type": "Completed", "turn": self._turn()}]

    def _turn(self) -> JSONObject:
        summed = self._summed
        if summed is None:
            raise RuntimeError("LangChain's call ended without yielding a chunk")
        metadata = summed.response_metadata
        reason = metadata.get(self._source.finish_key)
        stop = self._source.stops.get(reason, "other") if isinstance(reason, str) else "other"
        if self._source.stop_of is not None:
            stop = self._source.stop_of(metadata)
        calls = [_tool_call(call) for call in summed.tool_calls]
        model = metadata.get("model_name")
        key = self._source.id_key
        return {
            "provider": "langchain",
            "model": model if isinstance(model, str) else "",
            "response_id": None if key is None else metadata.get(key),
            "output_text": "".join(_texts(summed.content)),
            "tool_calls": calls,
            "stop_reason": "tool_use" if stop == "end_turn" and calls else stop,
            "usage": _usage(summed.usage_metadata),
            "opaque": _json(messages_to_dict([summed])[0]),
        }

    def _opaque(self, frame: JSON) -> JSONObject:
        kind = frame.get("type") if self._source.named and isinstance(frame, dict) else None
        return {
            "type": "Opaque",
            "event_type": kind if isinstance(kind, str) else "message",
            "payload": frame,
        }


def _args_delta(call: _Call, delta: str, frame: JSON) -> JSONObject:
    return {"type": "ToolCallArgumentsDelta", "id": call.id, "delta": delta, "opaque": frame}


def _take(calls: list[dict[str, Any]], call_id: str | None) -> dict[str, Any] | None:
    """Remove and return the first of `calls` with id `call_id` (LangChain keeps them in
    the order of agg.tool_call_chunks)."""
    for number, call in enumerate(calls):
        if call.get("id") == call_id:
            return calls.pop(number)
    return None


def _tool_call(call: Any) -> JSONObject:
    return {"id": call.get("id"), "name": call.get("name"), "arguments": _json(call.get("args"))}


refold_target: dict[str, Any] = {
    "name": "langchain-events",
    "dialect": "provider-events",
    "adapter": LangChainEvents,
    "accepts": list(_SOURCES),
    "provider": "langchain",
    "features": ["events"],
    "description": f"{versions('langchain-openai', 'langchain-core')}; "
    f"{versions('langchain-anthropic', 'langchain-core', 'anthropic')}: "
    f"ChatOpenAI.stream() (Chat and use_responses_api=True) / "
    f"ChatAnthropic.stream() AIMessageChunks as neutral "
    f"events (refold.dialects.provider_events.targets.langchain)",
}
"""The declaration `--target langchain-events` loads."""
