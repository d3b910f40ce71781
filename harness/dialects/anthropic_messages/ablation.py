"""Departures of an Anthropic event stream from the plain shape, each named after its
rule, and how to undo them: the `anthropic-messages` dialect's ablation (`refold.verdicts.crashes`).

The plain shape is the spec's split family 1, Anthropic's own shape: `message_start`
carrying a usage object and `content: []`, per block its `content_block_start`, deltas
and `content_block_stop`, one `message_delta` carrying usage, `message_stop`, and nothing
else. Each departure is one function `undo(stream) -> stream`, named after the rule that
says how the departure folds; it is present when undoing it changes the stream.

Unlike the chat ablation (`refold.dialects.openai_chat.ablation`), an undo need not leave the fold
unchanged
everywhere: the reference must fold the undone stream identically *except at pointers
the departure's own rule owns* (`rules_at`). Adding a usage object to a stream that
reported none (AM-USAGE-ABSENT) changes the Message at `/usage` only, and `/usage` is
that rule's, so a crash that goes away with it is evidence against that rule and no
other. An undo that changes the fold anywhere else is not trusted on that stream.

The same undos charge a difference (`difference_undos`, `refold.verdicts.difference_ablation`),
with one more: a block of an unknown type made a known one kept as sent (only its
`type` changes in the fold), to tell a target that drops unknown blocks from one that
drops blocks. `undecided_at` names the owners of a pointer the stream gives nothing to
decide there (AM-USAGE-BASE at a count message_delta re-reported).

Plain JSON in, plain JSON out; the input is never mutated.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from refold.reference import JSON, JSONObject, RefoldError
from refold.reference.anthropic import NoMessageError, differences, fold
from refold.verdicts.dropping import without
from refold.verdicts.undoing import Probe, Undo, Undoing, folded_or_none

from .._dialect import Ablation
from ._block_departures import (
    block_order,
    block_reopen,
    block_stop,
    delta_match,
    delta_route,
    signature_last,
)
from .attribution import rules_at

__all__ = ["ABLATION", "DEPARTURES", "absent_departures", "known_blocks", "undecided_at"]

_EVENTS = frozenset(
    {
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "ping",
        "error",
    }
)
_DELTAS = frozenset(
    {"text_delta", "input_json_delta", "thinking_delta", "signature_delta", "citations_delta"}
)
_ENVELOPE_KEYS = frozenset({"type", "message", "index", "content_block", "delta", "usage", "error"})
_OBJECT_FIELDS = ("message", "content_block", "delta", "usage")


def _type(event: JSON) -> object:
    return event.get("type") if isinstance(event, dict) else None


def _starts(event: JSON) -> bool:
    """Whether `event` is a message_start that starts the Message (its message an object)."""
    return _type(event) == "message_start" and isinstance(
        event.get("message") if isinstance(event, dict) else None, dict
    )


def rob_not_object(stream: list[JSON]) -> list[JSON]:
    """AM-ROB-NOT-OBJECT: drop the events that are not JSON objects."""
    return without(stream, lambda event: not isinstance(event, dict))


def before_start(stream: list[JSON]) -> list[JSON]:
    """AM-BEFORE-START: drop the events before the first message_start that starts the
    Message, except `error` events (which are recorded wherever they are)."""
    first = next((n for n, event in enumerate(stream) if _starts(event)), len(stream))
    kept = [event for event in stream[:first] if _type(event) == "error"]
    return copy.deepcopy(kept + stream[first:])


def ping(stream: list[JSON]) -> list[JSON]:
    """AM-PING: drop the ping events."""
    return without(stream, lambda event: _type(event) == "ping")


def unknown_event(stream: list[JSON]) -> list[JSON]:
    """AM-UNKNOWN-EVENT: drop the objects whose type is not one the spec names."""
    return without(
        stream, lambda event: isinstance(event, dict) and event.get("type") not in _EVENTS
    )


def after_stop(stream: list[JSON]) -> list[JSON]:
    """AM-LIFE-AFTER-STOP: drop the events after the first message_stop."""
    stop = next((n for n, event in enumerate(stream) if _type(event) == "message_stop"), None)
    return copy.deepcopy(stream if stop is None else stream[: stop + 1])


def unknown_delta(stream: list[JSON]) -> list[JSON]:
    """AM-UNKNOWN-DELTA: drop the content_block_delta events of a delta type the spec
    does not name."""

    def unknown(event: JSON) -> bool:
        delta = event.get("delta") if isinstance(event, dict) else None
        return (
            _type(event) == "content_block_delta"
            and isinstance(delta, dict)
            and delta.get("type") not in _DELTAS
        )

    return without(stream, unknown)


def unknown_keys(stream: list[JSON]) -> list[JSON]:
    """AM-UNKNOWN-KEYS: drop the keys the spec does not name from the envelopes of the
    events it names (an unknown event is ignored whole: AM-UNKNOWN-EVENT's)."""
    return [
        {k: copy.deepcopy(v) for k, v in event.items() if k in _ENVELOPE_KEYS}
        if isinstance(event, dict) and event.get("type") in _EVENTS
        else copy.deepcopy(event)
        for event in stream
    ]


def wrong_type(stream: list[JSON]) -> list[JSON]:
    """AM-ROB-WRONG-TYPE: drop the envelope fields of the wrong JSON type (a `message`,
    `content_block`, `delta` or `usage` that is not an object; an `error` that is not
    one): the spec treats them as absent."""
    stream = copy.deepcopy(stream)
    for event in stream:
        if not isinstance(event, dict):
            continue
        for key in (*_OBJECT_FIELDS, "error"):
            if key in event and not isinstance(event[key], dict):
                del event[key]
    return stream


def _has_usage(event: JSON) -> bool:
    if not isinstance(event, dict):
        return False
    holder = event.get("message") if _type(event) == "message_start" else event
    return isinstance(holder, dict) and isinstance(holder.get("usage"), dict)


def usage_absent(stream: list[JSON]) -> list[JSON]:
    """AM-USAGE-ABSENT: a message_start or message_delta without a usage object gets one
    (family 1 reports usage on both). Only `/usage` may change, whether there is one
    (AM-USAGE-ABSENT owns no count): when no event reports usage, each gets the counts the
    SDK's types require, zeros; otherwise a message_delta gets the output count reported
    last, and an object with no count where none was reported yet (a count added there
    would change the folded counts)."""
    stream = copy.deepcopy(stream)
    counted = any(_has_usage(event) for event in stream)
    reported: int | None = None if counted else 0
    for event in stream:
        if not isinstance(event, dict):
            continue
        holder = event.get("message") if _type(event) == "message_start" else event
        if _type(event) not in ("message_start", "message_delta") or not isinstance(holder, dict):
            continue
        if not _has_usage(event):
            holder["usage"] = (
                ({} if counted else {"input_tokens": 0, "output_tokens": 0})
                if _type(event) == "message_start"
                else ({} if reported is None else {"output_tokens": reported})
            )
        count = holder["usage"].get("output_tokens")
        if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
            reported = count
    return stream


def start_content(stream: list[JSON]) -> list[JSON]:
    """AM-START-CONTENT: blocks sent inside the first message_start's `content` are sent
    as content_block_start/content_block_stop events right after it, at indexes 0..n-1,
    and a stop reason set there with no message_delta after it is sent in one before
    message_stop (AQ7's shape undone to family 1's)."""
    stream = copy.deepcopy(stream)
    first = next((n for n, event in enumerate(stream) if _starts(event)), None)
    if first is None:
        return stream
    start = stream[first]
    message = start.get("message") if isinstance(start, dict) else None
    if not isinstance(message, dict):  # never: `_starts` found it holding one
        return stream
    stream = _stop_in_a_delta(stream, first, message)
    content = message.get("content")
    if not isinstance(content, list) or not content:
        return stream
    message["content"] = []
    moved: list[JSON] = []
    for index, block in enumerate(content):
        moved += [
            {"type": "content_block_start", "index": index, "content_block": block},
            {"type": "content_block_stop", "index": index},
        ]
    return [*stream[: first + 1], *moved, *stream[first + 1 :]]


def _stop_in_a_delta(stream: list[JSON], first: int, message: JSONObject) -> list[JSON]:
    """The start's non-blank stop reason (and stop sequence) moved into a message_delta
    before the message_stop, when no message_delta follows the start to replace it; the
    delta carries the start's usage, so every count stays what it was."""
    reason = message.get("stop_reason")
    after = stream[first + 1 :]
    if not (isinstance(reason, str) and reason.strip()) or any(
        _type(event) == "message_delta" for event in after
    ):
        return stream
    delta: JSONObject = {
        "type": "message_delta",
        "delta": {"stop_reason": reason, "stop_sequence": message.get("stop_sequence")},
    }
    if isinstance(message.get("usage"), dict):
        delta["usage"] = copy.deepcopy(message["usage"])
    message["stop_reason"], message["stop_sequence"] = None, None
    stop = next((n for n, e in enumerate(after) if _type(e) == "message_stop"), len(after))
    return [*stream[: first + 1], *after[:stop], delta, *after[stop:]]


DEPARTURES: tuple[tuple[str, Undo], ...] = (
    ("AM-ROB-NOT-OBJECT", rob_not_object),
    ("AM-ROB-WRONG-TYPE", wrong_type),
    ("AM-BEFORE-START", before_start),
    ("AM-PING", ping),
    ("AM-UNKNOWN-EVENT", unknown_event),
    ("AM-LIFE-AFTER-STOP", after_stop),
    ("AM-UNKNOWN-DELTA", unknown_delta),
    ("AM-UNKNOWN-KEYS", unknown_keys),
    ("AM-USAGE-ABSENT", usage_absent),
    ("AM-START-CONTENT", start_content),
    ("AM-BLOCK-REOPEN", block_reopen),
    ("AM-DELTA-ROUTE", delta_route),
    ("AM-DELTA-MATCH", delta_match),
    ("AM-BLOCK-ORDER", block_order),
    ("AM-BLOCK-STOP", block_stop),
    ("AM-THINK-SIGNATURE", signature_last),
)
"""(rule id, undo) per departure from the plain shape, in the order they are tried."""

_ONLY_DEPARTING = frozenset(
    {
        "AM-START-CONTENT",
        "AM-BLOCK-REOPEN",
        "AM-DELTA-ROUTE",
        "AM-DELTA-MATCH",
        "AM-BLOCK-ORDER",
        "AM-BLOCK-STOP",
    }
)
"""The rules that decide only how a departure from family 1 folds: on a stream that does
not depart their way they have nothing to decide, so nothing to be wrong about."""


def absent_departures(stream: list[JSON]) -> frozenset[str]:
    """The rules of `_ONLY_DEPARTING` whose departure `stream` does not have (undoing it
    changes nothing), and AM-UNKNOWN-BLOCK when no block of an unknown type is opened."""
    undos = dict(DEPARTURES)
    absent = {rule for rule in _ONLY_DEPARTING if undos[rule](stream) == stream}
    if "AM-BLOCK-ORDER" not in absent:
        # blocks out of index order, with gaps or interleaved: routing a delta by its
        # index then differs from routing it by position or to the latest block
        absent.discard("AM-DELTA-ROUTE")
    if not any(_opens_unknown(event) for event in stream):
        absent.add("AM-UNKNOWN-BLOCK")
    return frozenset(absent)


_KNOWN_BLOCKS = frozenset(
    {
        "text",
        "thinking",
        "redacted_thinking",
        "tool_use",
        "server_tool_use",
        "mcp_tool_use",
        "container_upload",
    }
)


def _opens_unknown(event: JSON) -> bool:
    """Whether `event` opens (or message_start holds) a block whose type is not one the
    spec names (server results are `*_tool_result`)."""
    return any(_unknown(block) for block in _opened(event))


def _opened(event: JSON) -> list[JSON]:
    """The blocks `event` opens: its content_block, or message_start's content."""
    if not isinstance(event, dict):
        return []
    if event.get("type") == "content_block_start":
        return [event.get("content_block")]
    if event.get("type") == "message_start" and isinstance(event.get("message"), dict):
        content = event["message"].get("content")
        return list(content) if isinstance(content, list) else []
    return []


def _unknown(block: JSON) -> bool:
    return (
        isinstance(block, dict)
        and isinstance(block.get("type"), str)
        and not (block["type"] in _KNOWN_BLOCKS or block["type"].endswith("_tool_result"))
    )


_message = folded_or_none(fold, NoMessageError)
"""The reference's fold of a stream; None when no event started a Message (a prefix that
ends before message_start)."""


UNDOING = Undoing(DEPARTURES, _message, differences, rules_at)
"""The shared driver over these departures (`refold.verdicts.undoing`): an undo is trusted
where the fold changes only at pointers its own rule owns."""
_folds_alike = UNDOING.folds_alike
applicable_undos = UNDOING.applicable_undos
departures_alone = UNDOING.departures_alone


_STAND_INS = (("server_tools", "web_search_tool_result"), ("thinking", "redacted_thinking"))
"""Known types of blocks kept exactly as sent, as an unknown block is, and the feature a
target claims when it knows them."""

_AS_SENT = frozenset({"AM-UNKNOWN-BLOCK", "AM-RESULT-AS-SENT"})
"""The rules that say an unknown block is output as sent: AM-UNKNOWN-BLOCK keeps it "as
sent, at its index (AM-RESULT-AS-SENT)", and AM-RESULT-AS-SENT names unknown types."""


def known_blocks(stream: list[JSON], block_type: str) -> list[JSON]:
    """AM-UNKNOWN-BLOCK: every block of a type the spec does not name (started, or in
    message_start's content) takes the known type `block_type` of a block kept as sent,
    every other key as it was: only `/content/N/type` changes in the fold."""
    stream = copy.deepcopy(stream)
    for event in stream:
        for block in _opened(event):
            if _unknown(block):
                assert isinstance(block, dict)  # an unknown block is an object
                block["type"] = block_type
    return stream


_CRASH_ONLY = frozenset({"AM-THINK-SIGNATURE"})
"""Departures whose rule also decides the plain shape (every signature, not only a resent
one): a difference their undoing leaves in place may still be that rule's, so they are
not probed for differences, which would clear the rule (`refold.verdicts.difference_ablation`);
a crash their undoing makes go away is still charged to them."""


def difference_undos(stream: list[JSON], claimed: frozenset[str]) -> list[Probe]:
    """Every departure present in `stream` whose undoing the reference folds identically
    except at its rule's pointers (`applicable_undos`) but `_CRASH_ONLY`'s, and a block
    of an unknown type made a known one kept as sent, when the target claims a feature
    that has one (a target that drops a known block too is not failing on the block being
    unknown)."""
    found = [
        (rule_id, frozenset({rule_id}), undone)
        for rule_id, undone in applicable_undos(stream)
        if rule_id not in _CRASH_ONLY
    ]
    stand_in = next((kind for feature, kind in _STAND_INS if feature in claimed), None)
    if stand_in is None:
        return found
    undone = known_blocks(stream, stand_in)
    try:
        expected = _message(stream)
    except RefoldError:
        return found
    if undone != stream and _folds_alike(expected, undone, frozenset({"AM-UNKNOWN-BLOCK"})):
        found.append(("AM-UNKNOWN-BLOCK", _AS_SENT, undone))
    return found


ABLATION = Ablation(applicable_undos, departures_alone, difference_undos)
"""How a crash and a difference are charged to a rule here (`Dialect.ablation`)."""


_USAGE_KEY = re.compile(r"/usage/([^/]+)(/.*)?")


_UNKNOWN: object = object()
"""No received value given (the ablation asks about a pointer alone)."""


def undecided_at(stream: list[JSON], pointer: str, received: object = _UNKNOWN) -> frozenset[str]:
    """The rules owning `pointer` that `stream` shows do not decide the value there (and
    the value `received` there, when given: a difference's): at a usage count
    (`_undecided_usage`), and in a tool block's input or identity (`_undecided_tool`)."""
    if pointer == "/usage":
        return _undecided_usage_object(stream, received)
    if _USAGE_KEY.fullmatch(pointer):
        return _undecided_usage(stream, pointer, received)
    if _TOOL_KEY.fullmatch(pointer):
        return _undecided_tool(stream, pointer)
    return frozenset()


_TOOL_KEY = re.compile(r"/content/(\d+)/(input|id|name)(/.*)?")
_TOOL_BLOCKS = frozenset({"tool_use", "server_tool_use"})


def _undecided_tool(stream: list[JSON], pointer: str) -> frozenset[str]:
    """At `/content/N/input`, `/id` or `/name`, of the reference's block N:

    * AM-TOOL-INVALID, unless its input is the raw joined string (joined input that is
      not complete input: only then does the rule say anything);
    * AM-SERVER-TOOL, unless it is a `server_tool_use` block;
    * both, when the reference holds no tool block there."""
    found = _TOOL_KEY.fullmatch(pointer)
    assert found is not None  # undecided_at matched it
    try:
        message = _message(stream)
    except RefoldError:
        return frozenset()
    content = message.get("content") if message is not None else None
    number = int(found.group(1))
    block = content[number] if isinstance(content, list) and number < len(content) else None
    kind = block.get("type") if isinstance(block, dict) else None
    undecided: set[str] = set()
    if (
        kind not in _TOOL_BLOCKS
        or not isinstance(block, dict)
        or not isinstance(block.get("input"), str)
    ):
        undecided.add("AM-TOOL-INVALID")
    if kind != "server_tool_use":
        undecided.add("AM-SERVER-TOOL")
    return frozenset(undecided)


def _undecided_usage(stream: list[JSON], pointer: str, received: object) -> frozenset[str]:
    """At a usage count (`/usage/KEY`):

    * AM-USAGE-NEVER-SUM, when at most one event reports the key: nothing to add up; or
      when the value `received` there is absent, null or one of the reported values,
      which no adding made (the wrong one is kept: a replacement's or the base's
      failure);
    * AM-USAGE-REPLACE, when no message_delta carries a usage object: nothing replaces
      the key, and no message_delta omits it (an absent key keeps its value, its clause);
    * AM-USAGE-BASE, when message_start's usage does not hold it, or when the reference
      folds the stream with that key removed from it to the same count (a message_delta
      re-reported it: the value is that message_delta's, AM-USAGE-REPLACE; adding the
      start's to it is AM-USAGE-NEVER-SUM's)."""
    found = _USAGE_KEY.fullmatch(pointer)
    first = next((n for n, event in enumerate(stream) if _starts(event)), None)
    if found is None or first is None:
        return frozenset()
    key = found.group(1).replace("~1", "/").replace("~0", "~")
    reports = [n for n, event in enumerate(stream) if _reports(event, key)]
    undecided: set[str] = set()
    if len(reports) <= 1 or (
        found.group(2) is None
        and received is not _UNKNOWN
        and not _added(received, stream, reports, key)
    ):
        undecided.add("AM-USAGE-NEVER-SUM")
    if not any(_carries_usage(event) for event in stream[first + 1 :]):
        undecided.add("AM-USAGE-REPLACE")
    if first not in reports or not _start_decides(stream, first, key, found.group(1)):
        undecided.add("AM-USAGE-BASE")
    return frozenset(undecided)


def _undecided_usage_object(stream: list[JSON], received: object) -> frozenset[str]:
    """At `/usage` itself (the whole object differs: absent, null or not an object):

    * AM-USAGE-NEVER-SUM, unless the object `received` holds a count none of its key's
      several reports holds (a lost or kept usage object adds nothing up);
    * AM-USAGE-ABSENT, when message_start carried a usage object and nothing was
      estimated (no object received): its clauses are about a stream whose start has
      none;
    * AM-USAGE-REPLACE, when no message_delta carries a usage object (as at a key)."""
    first = next((n for n, event in enumerate(stream) if _starts(event)), None)
    if first is None or received is _UNKNOWN:
        return frozenset()
    undecided: set[str] = set()
    counts = received.items() if isinstance(received, dict) else ()
    if not any(
        len(reports := [n for n, event in enumerate(stream) if _reports(event, key)]) > 1
        and _added(value, stream, reports, key)
        for key, value in counts
    ):
        undecided.add("AM-USAGE-NEVER-SUM")
    if isinstance(_usage_holder(stream[first]), dict) and not isinstance(received, dict):
        undecided.add("AM-USAGE-ABSENT")
    if not any(_carries_usage(event) for event in stream[first + 1 :]):
        undecided.add("AM-USAGE-REPLACE")
    return frozenset(undecided)


def _usage_holder(event: JSON) -> object:
    """The `usage` member of a message_start's message (None when it has none)."""
    message = event.get("message") if isinstance(event, dict) else None
    return message.get("usage") if isinstance(message, dict) else None


def _reports(event: JSON, key: str) -> bool:
    """Whether `event` (message_start or message_delta) reports usage `key` non-null."""
    if not isinstance(event, dict):
        return False
    holder = event.get("message") if event.get("type") == "message_start" else event
    usage = holder.get("usage") if isinstance(holder, dict) else None
    return (
        event.get("type") in ("message_start", "message_delta")
        and isinstance(usage, dict)
        and usage.get(key) is not None
    )


def _added(received: object, stream: list[JSON], reports: list[int], key: str) -> bool:
    """Whether a count `received` for usage `key` may have been made by adding: a number
    none of the reports of the key holds."""
    if isinstance(received, bool) or not isinstance(received, int | float):
        return False
    return all(_usage_of(stream[n]).get(key) != received for n in reports)


def _usage_of(event: JSON) -> dict[str, Any]:
    """The usage object of a message_start or message_delta ({} when it has none)."""
    holder = (
        event.get("message")
        if isinstance(event, dict) and event.get("type") == "message_start"
        else event
    )
    usage = holder.get("usage") if isinstance(holder, dict) else None
    return usage if isinstance(usage, dict) else {}


def _carries_usage(event: JSON) -> bool:
    """Whether `event` is a message_delta with a usage object."""
    return (
        isinstance(event, dict)
        and event.get("type") == "message_delta"
        and isinstance(event.get("usage"), dict)
    )


def _start_decides(stream: list[JSON], first: int, key: str, escaped: str) -> bool:
    """Whether message_start's value of usage `key` shows in the fold: removing it from
    the start changes the count (else a message_delta decides it)."""
    without = copy.deepcopy(stream)
    usage = without[first]["message"].get("usage")
    if not isinstance(usage, dict) or key not in usage:
        return False
    del usage[key]
    try:
        before, after = _message(stream), _message(without)
    except RefoldError:
        return True
    count = f"/usage/{escaped}"
    return (
        before is None
        or after is None
        or any(
            d.pointer in ("/usage", count) or d.pointer.startswith(f"{count}/")
            for d in differences(before, after)
        )
    )
