"""The registered departures of an OpenAI Responses stream from its documented shape.

`observed` ones are the research quirks (`RQn`, research/responses-fold.md §3) and the
places where OpenAI's own published examples or captures differ from its published
schema (`RS-DOC-*`), each with who sends it and where that is shown. `synthetic` ones
(`RS-SYN-*`) are what the strategies' noise and damage and the rule examples do that no
provider is known to send. Each has one detector: the numbers of the events where a
stream departs that way.

RQ3 (arguments only on `.done`), RQ15 (`obfuscation`), RQ16 (no usage on the terminal),
RQ17 (`response.incomplete`) and RQ23 (an empty delta) are no departures: the schema and
the grammar allow them. Keys the schema does not list never are: providers add keys.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from refold.reference import JSON, JSONObject
from refold.shapes import Departure

from ._grammar import LIFECYCLE, TERMINALS, is_int, kind
from ._known import DOCUMENTED_TYPES, RESPONSE_REQUIRED

__all__ = ["DEPARTURES", "DETECTORS"]

_ADDED = "response.output_item.added"
_DONE = "response.output_item.done"
_REF = "https://platform.openai.com/docs/api-reference/responses-streaming"
_CAPTURE = ("prism-php's recorded OpenAI stream tests/Fixtures/openai/"
            "stream-unknown-error-responses-1.json (https://github.com/prism-php/prism)")

_Detector = Callable[[Sequence[JSON]], list[int]]


def _objects(items: Sequence[JSON]) -> Iterator[tuple[int, JSONObject]]:
    for number, item in enumerate(items):
        if isinstance(item, dict):
            yield number, item


def _index(item: JSONObject) -> int | None:
    value = item.get("output_index")
    return int(value) if is_int(value) else None  # type: ignore[arg-type]


def _terminal_at(items: Sequence[JSON]) -> int | None:
    return next((n for n, item in enumerate(items) if kind(item) in TERMINALS), None)


def _responses(items: Sequence[JSON]) -> Iterator[tuple[int, JSONObject]]:
    for number, item in _objects(items):
        if kind(item) in (*LIFECYCLE, *TERMINALS) and isinstance(item.get("response"), dict):
            yield number, item["response"]


def _announced(items: Sequence[JSON]) -> dict[int, JSONObject]:
    """The first item added at each output_index."""
    found: dict[int, JSONObject] = {}
    for _, item in _objects(items):
        index = _index(item)
        if kind(item) == _ADDED and index is not None and isinstance(item.get("item"), dict):
            found.setdefault(index, item["item"])
    return found


def _item_events(items: Sequence[JSON]) -> Iterator[tuple[int, JSONObject, int]]:
    """(number, event, output_index) of every event of an item but its added and done."""
    for number, item in _objects(items):
        index = _index(item)
        if index is not None and kind(item) not in (_ADDED, _DONE):
            yield number, item, index


# observed


def _empty_terminal_output(items: Sequence[JSON]) -> list[int]:
    end = _terminal_at(items)
    if end is None or not any(kind(i) in (_ADDED, _DONE) for i in items[:end]):
        return []
    return [n for n, i in _objects(items) if kind(i) in TERMINALS
            and isinstance(i.get("response"), dict) and i["response"].get("output") == []]


def _missing_terminal_output(items: Sequence[JSON]) -> list[int]:
    streamed = {_index(i) for _, i in _objects(items) if kind(i) in (_ADDED, _DONE)} - {None}
    found: list[int] = []
    for number, item in _objects(items):
        body = item.get("response")
        if kind(item) not in TERMINALS or not isinstance(body, dict):
            continue
        output = body.get("output")
        if output is None or (isinstance(output, list) and 0 < len(output) < len(streamed)):
            found.append(number)
    return found


def _never_done(items: Sequence[JSON]) -> list[int]:
    end = _terminal_at(items)
    if end is None:
        return []
    done = {_index(i) for _, i in _objects(items[:end]) if kind(i) == _DONE}
    return [n for n, i in _objects(items[:end]) if kind(i) == _ADDED and _index(i) not in done]


def _before_announced(items: Sequence[JSON]) -> list[int]:
    """Item events before their item's added, and an added that comes after an earlier
    index was streamed unannounced (it cannot be at the next index then)."""
    announced: set[int] = set()
    unannounced: set[int] = set()
    found: list[int] = []
    for number, item in _objects(items):
        index = _index(item)
        if index is None:
            continue
        if kind(item) == _ADDED:
            if index != len(announced) and any(i < index for i in unannounced - announced):
                found.append(number)
            announced.add(index)
        elif index not in announced:
            unannounced.add(index)
            found.append(number)
    return found


def _blank_item(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items)
            if kind(i) == _ADDED and not isinstance(i.get("item"), dict)]


def _ids(items: Sequence[JSON]) -> set[str]:
    return {str(item["id"]) for item in _announced(items).values()
            if isinstance(item.get("id"), str)}


def _rotated_ids(items: Sequence[JSON]) -> list[int]:
    announced, known = _announced(items), _ids(items)
    found: list[int] = []
    for number, event, index in _item_events(items):
        named, own = event.get("item_id"), announced.get(index, {}).get("id")
        if isinstance(named, str) and isinstance(own, str) and named != own \
                and named not in known:
            found.append(number)
    return found


def _call_without_id(items: Sequence[JSON]) -> list[int]:
    bare = {index for index, item in _announced(items).items()
            if item.get("type") == "function_call" and "id" not in item}
    found = [n for n, i in _objects(items) if kind(i) in (_ADDED, _DONE)
             and isinstance(i.get("item"), dict) and i["item"].get("type") == "function_call"
             and "id" not in i["item"]]
    found += [n for n, event, index in _item_events(items)
              if index in bare and "item_id" not in event]
    return sorted(set(found))


def _sequence_departs(items: Sequence[JSON]) -> list[int]:
    last: float = -1
    found: list[int] = []
    for number, item in _objects(items):
        value = item.get("sequence_number")
        if not is_int(value):
            found.append(number)
            continue
        assert isinstance(value, int | float)
        if value <= last:
            found.append(number)
        last = max(last, value)
    return found


def _index_collisions(items: Sequence[JSON]) -> list[int]:
    first: dict[int, JSON] = {}
    ids: dict[str, int] = {}
    found: list[int] = []
    for number, item in _objects(items):
        index = _index(item)
        if kind(item) == _ADDED and index is not None and isinstance(item.get("item"), dict):
            own = item["item"].get("id")
            if (index in first and first[index] != own) or (found and index > len(first)):
                found.append(number)  # a collision, or the index it left unused skipped
            first.setdefault(index, own)
            if isinstance(own, str):
                ids.setdefault(own, index)
        elif index is not None:
            named = item.get("item_id")
            if kind(item) == _DONE and isinstance(item.get("item"), dict):
                named = item["item"].get("id")
            if isinstance(named, str) and ids.get(named, index) != index:
                found.append(number)
    return found


def _nested_error(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items) if kind(i) == "error" and isinstance(i.get("error"),
                                                                              dict)]


def _repeated_terminal(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items) if kind(i) in TERMINALS][1:]


def _keepalive(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items) if kind(i) == "keepalive"]


def _null_usage(items: Sequence[JSON]) -> list[int]:
    return [n for n, body in _responses(items) if "usage" in body and body["usage"] is None]


def _sparse_usage(items: Sequence[JSON]) -> list[int]:
    keys = ("input_tokens_details", "output_tokens_details")
    return [n for n, body in _responses(items) if isinstance(body.get("usage"), dict)
            and any(key not in body["usage"] for key in keys)]


def _sparse_response(items: Sequence[JSON]) -> list[int]:
    wanted = RESPONSE_REQUIRED - {"output"}  # a terminal without output is RQ2's
    return [n for n, body in _responses(items) if not wanted <= set(body)]


def _text_events(item: JSONObject) -> bool:
    return kind(item) in ("response.output_text.delta", "response.output_text.done")


def _text_parts(value: JSON) -> Iterator[JSONObject]:
    """Every output_text part inside an event (its part, its item, its response)."""
    if isinstance(value, dict):
        if value.get("type") == "output_text":
            yield value
        for key in ("part", "item", "response", "output", "content"):
            yield from _text_parts(value.get(key))
    elif isinstance(value, list):
        for element in value:
            yield from _text_parts(element)


def _no_logprobs(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items)
            if (_text_events(i) and "logprobs" not in i)
            or any("logprobs" not in part for part in _text_parts(i))]


def _no_annotations(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items)
            if any("annotations" not in part for part in _text_parts(i))]


def _args_done_without_name(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items)
            if kind(i) == "response.function_call_arguments.done" and "name" not in i]


def _messages(value: JSON) -> Iterator[JSONObject]:
    if isinstance(value, dict):
        if value.get("type") == "message":
            yield value
        for key in ("item", "response", "output"):
            yield from _messages(value.get(key))
    elif isinstance(value, list):
        for element in value:
            yield from _messages(element)


def _message_without_status(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items) if any("status" not in m for m in _messages(i))]


# synthetic


def _unknown_event(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items) if isinstance(kind(i), str)
            and kind(i) not in DOCUMENTED_TYPES and kind(i) != "keepalive"]


_INDEXES = ("output_index", "content_index", "summary_index", "annotation_index")
_TEXTS = ("delta", "text", "refusal", "arguments", "item_id")


def _wrong_type(item: JSONObject) -> bool:
    if not isinstance(item.get("type"), str):
        return True
    if any(key in item and not is_int(item[key]) for key in _INDEXES):
        return True
    if any(key in item and not isinstance(item[key], str) for key in _TEXTS):
        return True
    body = item.get("response", {})
    if kind(item) in (*LIFECYCLE, *TERMINALS) and not isinstance(body, dict):
        return True
    return kind(item) == _DONE and not isinstance(item.get("item"), dict)


def _wrong_types(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items) if _wrong_type(i)]


def _not_object(items: Sequence[JSON]) -> list[int]:
    return [n for n, item in enumerate(items) if not isinstance(item, dict)]


def _no_item_id(items: Sequence[JSON]) -> list[int]:
    announced = _announced(items)
    return [n for n, event, index in _item_events(items)
            if "item_id" not in event and isinstance(announced.get(index, {}).get("id"), str)]


def _after_terminal(items: Sequence[JSON]) -> list[int]:
    end = _terminal_at(items)
    return [] if end is None else [n for n in range(end + 1, len(items))
                                   if kind(items[n]) not in TERMINALS]


def _cut(items: Sequence[JSON]) -> list[int]:
    if not items or _terminal_at(items) is not None or kind(items[-1]) == "error":
        return []
    return [len(items) - 1]


_FITS = {"response.output_text.": "message", "response.refusal.": "message",
         "response.content_part.": "message", "response.function_call_arguments.":
         "function_call", "response.reasoning_": "reasoning"}


def _fits(event_type: str, item_type: object, part: JSON) -> bool:
    if isinstance(part, dict) and part.get("type") == "reasoning_text":
        return item_type == "reasoning"
    for prefix, fits in _FITS.items():
        if event_type.startswith(prefix):
            return item_type == fits
    return not event_type.startswith("response.") or event_type.split(".")[1] == item_type \
        or str(item_type).startswith(event_type.split(".")[1].split("_call")[0])


def _kind_mismatch(items: Sequence[JSON]) -> list[int]:
    announced = _announced(items)
    return [n for n, event, index in _item_events(items) if index in announced
            and not _fits(str(kind(event)), announced[index].get("type"), event.get("part"))]


def _done_again(items: Sequence[JSON]) -> list[int]:
    seen: set[tuple[object, ...]] = set()
    found: list[int] = []
    for number, item in _objects(items):
        if not str(kind(item)).endswith(".done"):
            continue
        key = (kind(item), _index(item), item.get("content_index"), item.get("summary_index"))
        if key in seen:
            found.append(number)
        seen.add(key)
    return found


def _bare_error(items: Sequence[JSON]) -> list[int]:
    return [n for n, i in _objects(items) if kind(i) == "error"
            and not isinstance(i.get("error"), dict) and not isinstance(i.get("message"), str)]


def _not_response(items: Sequence[JSON]) -> list[int]:
    return [n for n, body in _responses(items) if "object" in body
            and body["object"] != "response"]


def _out_of_order(items: Sequence[JSON]) -> list[int]:
    """Items or parts added at an index past the next one no event has named yet (one an
    orphan event or a done item named first is RQ5's)."""
    found: list[int] = []
    added: dict[object, set[int]] = {}
    for number, item in _objects(items):
        for key, opens in (("output_index", _ADDED),
                           ("content_index", "response.content_part.added"),
                           ("summary_index", "response.reasoning_summary_part.added")):
            value = item.get(key)
            if not is_int(value):
                continue
            scope = key if key == "output_index" else (key, _index(item))
            seen = added.setdefault(scope, set())  # every index an event named so far
            at = int(value)  # type: ignore[arg-type]
            if kind(item) == opens and at != len(seen) and at not in seen:
                found.append(number)
            seen.add(at)
    return found


def _late_lifecycle(items: Sequence[JSON]) -> list[int]:
    """A lifecycle event repeated, or after the first item event."""
    seen: set[object] = set()
    found: list[int] = []
    started = False
    for number, item in _objects(items):
        if kind(item) in LIFECYCLE:
            if kind(item) in seen or started:
                found.append(number)
            seen.add(kind(item))
        elif _index(item) is not None or kind(item) in TERMINALS:
            started = True
    return found


def _headless(items: Sequence[JSON]) -> list[int]:
    return [0] if items and kind(items[0]) != "response.created" else []


def _observed(id: str, summary: str, *provenance: str) -> Departure:
    return Departure(id, "observed", summary, provenance)


def _synthetic(id: str, summary: str) -> Departure:
    return Departure(id, "synthetic", summary)


_REGISTRY: tuple[tuple[Departure, _Detector], ...] = (
    (_observed("RQ1", "the terminal response's `output` is `[]` although items were streamed",
               "the ChatGPT/Codex backend: https://github.com/BerriAI/litellm/pull/26075, "
               "https://github.com/open-webui/open-webui/pull/27800"), _empty_terminal_output),
    (_observed("RQ2", "the terminal response's `output` is absent, `null`, or holds fewer "
                      "items than were streamed",
               "gateways: https://github.com/ENTERPILOT/GoModel/pull/831, "
               "https://github.com/mcowger/plexus/pull/644, "
               "https://github.com/maximhq/bifrost/pull/1985 (only tool items put back)"),
     _missing_terminal_output),
    (_observed("RQ4", "an item never gets `response.output_item.done` before the terminal "
                      "event", "https://github.com/NousResearch/hermes-agent/pull/92767 "
                             "(citing opencode #37159)"), _never_done),
    (_observed("RQ5", "an item's events before its `response.output_item.added`, or an item "
                      "never added", "the gpt-oss harmony path: "
                                     "https://github.com/vllm-project/agentic-api/issues/62; "
                                     "https://github.com/BerriAI/litellm/pull/36375"),
     _before_announced),
    (_observed("RQ6", "`response.output_item.added` whose `item` is null",
               "https://github.com/openai/openai-python/issues/3125 (fixed by PR #3126)"),
     _blank_item),
    (_observed("RQ7", "item ids that rotate between an item's events",
               "GitHub Copilot (gpt-5.3-codex), captured in Vercel AI's fixture "
               "github-copilot-id-rotation.1 (https://github.com/vercel/ai)"), _rotated_ids),
    (_observed("RQ10", "a `function_call` item without `id` (its events without `item_id`)",
               "https://github.com/anomalyco/opencode/pull/45081"), _call_without_id),
    (_observed("RQ12", "`sequence_number` absent, repeated or out of order",
               "https://github.com/ENTERPILOT/GoModel/pull/953, "
               "https://github.com/BerriAI/litellm/pull/28899, "
               "https://github.com/BerriAI/litellm/pull/32579, "
               "https://github.com/vinhnx/VTCode/issues/731"), _sequence_departs),
    (_observed("RQ13", "two items at one `output_index`, or an item's events at another "
                       "item's index", "https://github.com/theopenco/llmgateway/pull/2908, "
                                      "https://github.com/agentgateway/agentgateway/pull/1453; "
                                      "LangChain's source comment on drifting output_index"),
     _index_collisions),
    (_observed("RQ18", "an `error` event whose payload is nested under `error`",
               _CAPTURE, "openai-node's ResponseStream: \"first-party providers nest their "
                         "error payload\" (https://github.com/openai/openai-node)"),
     _nested_error),
    (_observed("RQ19", "the terminal event delivered twice",
               "research/neutral-events.md §2.6 (openai-core: \"a duplicated "
               "response.completed ... the final response converges\")"), _repeated_terminal),
    (_observed("RQ24", "`keepalive` events", "openai-node's ResponseAccumulator: \"a transport "
               "keepalive event that leaves the accumulated response unchanged\" "
               "(https://github.com/openai/openai-node)"), _keepalive),
    (_observed("RS-RESUMED", "a stream that does not open with `response.created` (one "
                             "resumed after a `sequence_number`)",
               "https://platform.openai.com/docs/guides/background#resuming-streams "
               "(`starting_after`)", "https://platform.openai.com/docs/guides/function-calling"
               "#streaming (its output events start at response.output_item.added)"),
     _headless),
    (_observed("RS-DOC-NULL-USAGE", "a lifecycle response with `usage: null` (the schema "
                                    "types usage as an object)",
               f"{_REF}/response/created (its example)", _CAPTURE), _null_usage),
    (_observed("RS-DOC-SPARSE-USAGE", "usage without `input_tokens_details` or "
                                      "`output_tokens_details`",
               f"{_REF}/response/completed (its example)"), _sparse_usage),
    (_observed("RS-DOC-SPARSE-RESPONSE", "a response without keys the Response schema "
                                         "requires (`tools`, `instructions`, `metadata` ...)",
               f"{_REF}/response/queued, /response/failed and /response/incomplete (their "
               "examples); gateways' sparse terminal frames (RS-ENV-FILL: RQ2, RQ18)"),
     _sparse_response),
    (_observed("RS-DOC-NO-LOGPROBS", "output_text events or parts without `logprobs`",
               f"{_REF}/response/output_text/delta, /response/output_text/done and "
               "/response/content_part/added (their examples)"), _no_logprobs),
    (_observed("RS-DOC-MESSAGE-STATUS", "a message item without `status`",
               f"{_REF}/response/completed (its example's output message)"),
     _message_without_status),
    (_observed("RS-DOC-ARGS-NAME", "`response.function_call_arguments.done` without `name`",
               "https://github.com/openai/openai-dotnet/issues/424 (OpenAI's done event "
               "carries arguments but not name)"), _args_done_without_name),
    (_observed("RQ14", "an output_text part without `annotations`",
               "https://github.com/Wei-Shaw/sub2api/issues/5140"), _no_annotations),
    (_synthetic("RS-SYN-UNKNOWN-EVENT", "an event type OpenAI does not document"),
     _unknown_event),
    (_synthetic("RS-SYN-WRONG-TYPE", "a field of the wrong JSON type (an index that is not "
                                     "a non-negative integer, a delta that is not a string, "
                                     "a response that is not an object)"), _wrong_types),
    (_synthetic("RS-SYN-NOT-OBJECT", "an event that is not a JSON object"), _not_object),
    (_synthetic("RS-SYN-NO-ITEM-ID", "an item's events without `item_id`"), _no_item_id),
    (_synthetic("RS-SYN-AFTER-TERMINAL", "events after the terminal event"), _after_terminal),
    (_synthetic("RS-SYN-CUT", "a stream that ends with neither a terminal nor an error "
                              "event"), _cut),
    (_synthetic("RS-SYN-KIND-MISMATCH", "an item event routed to an item of a type it does "
                                        "not fit"), _kind_mismatch),
    (_synthetic("RS-SYN-DONE-AGAIN", "a second `.done` event for a part or item already "
                                     "done"), _done_again),
    (_synthetic("RS-SYN-LATE-LIFECYCLE", "a lifecycle event repeated, or after the output "
                                         "items"), _late_lifecycle),
    (_synthetic("RS-SYN-OBJECT", "a response whose `object` is not \"response\""),
     _not_response),
    (_synthetic("RS-SYN-ORDER", "items or parts added out of index order"), _out_of_order),
    (_synthetic("RS-SYN-BARE-ERROR", "an `error` event without a message"), _bare_error),
)

DEPARTURES: dict[str, Departure] = {d.id: d for d, _ in _REGISTRY}
"""Every registered departure of a Responses stream, by id, observed ones first."""
DETECTORS: dict[str, _Detector] = {d.id: detect for d, detect in _REGISTRY}
"""The detector of each departure."""
