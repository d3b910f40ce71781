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
with two more: a block of an unknown type made a known one kept as sent (only its
`type` changes in the fold), to tell a target that drops unknown blocks from one that
drops blocks; and, for a target claiming citations, the streamed citations taken out
(`uncited`), to charge a crash on a documented citation to AM-CITATIONS-APPEND.
The undos themselves are `_event_departures` (event level) and `_block_departures`
(block level); `undecided` names the owners of a pointer the stream gives nothing to
decide there.

Plain JSON in, plain JSON out; the input is never mutated.
"""

from __future__ import annotations

import copy

from refold.reference import JSON, RefoldError
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
from ._event_departures import (
    after_stop,
    before_start,
    citation_titles,
    life_error,
    ping,
    rob_not_object,
    start_content,
    start_once,
    text_start,
    thinking_start,
    tool_leading_space,
    unknown_delta,
    unknown_event,
    unknown_keys,
    usage_absent,
    wrong_type,
)
from .attribution import rules_at

__all__ = ["ABLATION", "DEPARTURES", "absent_departures", "known_blocks"]

DEPARTURES: tuple[tuple[str, Undo], ...] = (
    ("AM-ROB-NOT-OBJECT", rob_not_object),
    ("AM-ROB-WRONG-TYPE", wrong_type),
    ("AM-BEFORE-START", before_start),
    ("AM-START-ONCE", start_once),
    ("AM-PING", ping),
    ("AM-UNKNOWN-EVENT", unknown_event),
    ("AM-LIFE-AFTER-STOP", after_stop),
    ("AM-LIFE-ERROR", life_error),
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
    ("AM-TEXT-JOIN", text_start),
    ("AM-TOOL-JOIN", tool_leading_space),
    ("AM-THINK-JOIN", thinking_start),
    ("AM-CITATIONS-APPEND", citation_titles),
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


_CRASH_ONLY = frozenset(
    {
        "AM-THINK-SIGNATURE",
        "AM-TEXT-JOIN",
        "AM-TOOL-JOIN",
        "AM-THINK-JOIN",
        "AM-CITATIONS-APPEND",
        "AM-START-ONCE",
        "AM-LIFE-ERROR",
    }
)
"""Departures not probed for differences (`refold.verdicts.difference_ablation`); a crash
their undoing makes go away is still charged to them:

* those whose rule also decides the plain shape (every signature, text, tool input,
  thinking and citation; not only a resent signature, a blank start, leading whitespace
  or an untitled citation): a difference their undoing leaves in place may still be that
  rule's, and probing would clear it;
* those whose undoing takes an event out from between a block's own events (a second
  message_start, an error): the block then looks stopped in place, and a difference the
  undo makes go away would be charged to AM-BLOCK-STOP too (the rules an undo leaves with
  nothing to decide), which it has nothing to do with."""


UNDOING = Undoing(DEPARTURES, _message, differences, rules_at, crash_only=_CRASH_ONLY)
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


def difference_undos(stream: list[JSON], claimed: frozenset[str]) -> list[Probe]:
    """Every departure present in `stream` whose undoing the reference folds identically
    except at its rule's pointers (`applicable_undos`) but `_CRASH_ONLY`'s, and a block
    of an unknown type made a known one kept as sent, when the target claims a feature
    that has one (a target that drops a known block too is not failing on the block being
    unknown); and the streamed citations taken out (`uncited`), when it claims them."""
    found = UNDOING.difference_probes(stream)
    try:
        expected = _message(stream)
    except RefoldError:
        return found
    stand_in = next((kind for feature, kind in _STAND_INS if feature in claimed), None)
    probes: list[tuple[Probe, frozenset[str]]] = []  # each with the rules owning its change
    if stand_in is not None:
        unknown = frozenset({"AM-UNKNOWN-BLOCK"})
        probes.append((("AM-UNKNOWN-BLOCK", _AS_SENT, known_blocks(stream, stand_in)), unknown))
    if "citations" in claimed:
        probes.append(((_UNCITED, _CITED, uncited(stream)), _CITED))
    for probe, owned in probes:
        if probe[2] != stream and _folds_alike(expected, probe[2], owned):
            found.append(probe)
    return found


_CITED = frozenset({"AM-CITATIONS-APPEND"})
_UNCITED = "AM-CITATIONS-APPEND (uncited)"
"""The probe's own name: not AM-CITATIONS-APPEND's undo (`citation_titles`), which a crash
analysis has tried already by that id when the stream has an untitled citation."""


def uncited(stream: list[JSON]) -> list[JSON]:
    """AM-CITATIONS-APPEND: the citations_delta events carrying a citation object taken
    out (one that is not an object is AM-ROB-WRONG-TYPE's). Only the blocks' `citations`
    change in the fold, and that rule decides them: a crash that goes away without them
    (a validator refusing a documented citation, a `null` title) is that rule's,
    whatever test drew the stream."""
    return without(
        stream,
        lambda event: (
            isinstance(event, dict)
            and event.get("type") == "content_block_delta"
            and isinstance(event.get("delta"), dict)
            and event["delta"].get("type") == "citations_delta"
            and isinstance(event["delta"].get("citation"), dict)
        ),
    )


ABLATION = Ablation(applicable_undos, departures_alone, difference_undos)
"""How a crash and a difference are charged to a rule here (`Dialect.ablation`)."""
