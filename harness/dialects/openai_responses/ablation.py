"""Departures of an OpenAI Responses event stream from OpenAI's own shape, each named after
its rule, and how to undo them: the `openai-responses` dialect's ablation
(`refold.verdicts.crashes`,
`refold.verdicts.difference_ablation`).

OpenAI's own shape is the spec's split family 1
(`refold.dialects.openai_responses._stream_departures` and
`refold.dialects.openai_responses._item_departures` say what departs from it). Each departure is one
function `undo(stream) -> stream`, named after the rule that says how the departure
folds; it is present when undoing it changes the stream. As in the Anthropic ablation, an
undo is trusted on a stream only when the reference folds the undone stream identically
*except at pointers the departure's own rule owns* (`rules_at`): giving a rotated item id
back changes a done item's `id`, which is RS-KEY-OUTPUT-INDEX's place, and nothing else.

An item that never got `output_item.done` (split family 4) is handed over whole on one,
as the reference recovers it (RS-RECOVER-FROM-DELTAS), and a terminal that sends no
output (split family 2) sends the recovered items (RS-OUTPUT-RECOVER): only to charge a
crash, since the same items' content is where a content defect shows (`_CRASH_ONLY`).

The other undos charge a difference too (`difference_undos`), with one more: refusal parts sent
as output_text parts of the same text (only the refusal parts' places change), to tell a
target that drops refusals from one that drops parts. `absent_departures` names the rules
a stream gives nothing to decide: those about a departure it does not have (no orphan
event, no re-added index, one terminal event ...), and those of a terminal output it does
not send (RS-OUTPUT-TERMINAL without a non-empty one, RS-OUTPUT-RECOVER with one).

Plain JSON in, plain JSON out; the input is never mutated.
"""

from __future__ import annotations

from refold.reference import JSON, RefoldError
from refold.reference.responses import NoResponseError, differences, fold
from refold.verdicts.undoing import Probe, Undo, Undoing, folded_or_none

from .._dialect import Ablation
from ._envelope_departures import env_filled, lifecycle_ids, opened, wrong_types
from ._item_departures import (
    content_index,
    done_as_deltas,
    fitting,
    items_done,
    key_output_index,
    kind_match,
    orphan,
    output_order,
    readd,
    refusals_as_text,
    route,
    terminal_output,
)
from ._part_departures import (
    distinct_call_ids,
    empty_args_deltas,
    empty_text_deltas,
    parts_in_order,
)
from ._stream_departures import (
    after_terminal,
    error_event,
    is_terminal,
    keepalive,
    null_item,
    seq_arrival,
    terminal_events,
    terminal_repeat,
    unknown_keys,
)
from .attribution import rules_at

__all__ = ["ABLATION", "DEPARTURES", "absent_departures"]

DEPARTURES: tuple[tuple[str, Undo], ...] = (
    ("RS-KEEPALIVE", keepalive),
    ("RS-ERROR-EVENT", error_event),
    ("RS-NULL-ITEM", null_item),
    ("RS-UNKNOWN-KEYS", unknown_keys),
    ("RS-SEQ-ARRIVAL", seq_arrival),
    ("RS-TERMINAL-REPEAT", terminal_repeat),
    ("LIFE-RS-AFTER", after_terminal),
    ("RS-WRONG-TYPE", wrong_types),
    ("RS-TERMINAL-BASE", opened),
    ("RS-ENV-TERMINAL", lifecycle_ids),
    ("RS-ENV-FILL", env_filled),
    ("RS-ORPHAN", orphan),
    ("RS-ROUTE", route),
    ("RS-CALL-IDS", distinct_call_ids),
    ("RS-KEY-OUTPUT-INDEX", key_output_index),
    ("RS-READD", readd),
    ("RS-KIND-MATCH", fitting),
    ("RS-OUTPUT-ORDER", output_order),
    ("RS-CONTENT-INDEX", parts_in_order),
    ("RS-DONE-REPLACES", done_as_deltas),
    ("RS-RECOVER-FROM-DELTAS", items_done),
    ("RS-OUTPUT-RECOVER", terminal_output),
    ("RS-TERMINAL-EVENTS", terminal_events),
)
"""(rule id, undo) per departure from the plain shape, in the order they are tried (and
undone together: an item is recovered as the stream's own terminal leaves it, RS-RECOVER-STATUS,
before every terminal is read as `response.completed`)."""


_response = folded_or_none(fold, NoResponseError)
"""The reference's fold of a stream; None when it holds no event (a prefix that ends
before any)."""


_OUTCOMES = {"response.incomplete": "RS-INCOMPLETE", "response.failed": "RS-FAILED"}


def _deciding(rule_id: str, stream: list[JSON]) -> frozenset[str]:
    """The rules that decide how a departure folds: its own; for an incomplete or failed
    terminal read as completed, also the rule of each outcome the stream has (RS-INCOMPLETE
    says what the result holds after `response.incomplete`)."""
    if rule_id != "RS-TERMINAL-EVENTS":
        return frozenset({rule_id})
    return frozenset(
        {
            rule_id,
            *(
                rule
                for kind, rule in _OUTCOMES.items()
                if kind in _types([e for e in stream if is_terminal(e)])
            ),
        }
    )


_CRASH_ONLY = frozenset(
    {
        "RS-RECOVER-FROM-DELTAS",
        "RS-OUTPUT-RECOVER",
        "RS-WRONG-TYPE",
        "RS-TERMINAL-BASE",
        "RS-ENV-TERMINAL",
        "RS-ENV-FILL",
        "RS-KIND-MATCH",
        "RS-CONTENT-INDEX",
    }
)
"""Departures undone to charge a crash, never a difference: an item recovered from its
deltas is where a content defect shows (a refusal a target drops from deltas), and the
item handed over whole on `output_item.done` or in the terminal's output would charge
that defect to recovery. A target that raises on an item never done (openai-python:
"Cannot complete response with unfinished output items") is charged
RS-RECOVER-FROM-DELTAS, one that iterates a terminal output it was not sent
("snapshot.output is not iterable") RS-OUTPUT-RECOVER, not every rule of the test. The
envelope and part undos (`_envelope_departures`, `fitting`, `parts_in_order`) charge
crashes only too: one that raises on a stream without `response.created` ("expected
'response.created' event") is RS-TERMINAL-BASE's, on a lifecycle event without a response
RS-WRONG-TYPE's, on a changed response id ("Lifecycle response identity changed")
RS-ENV-TERMINAL's, on lifecycle output items it waits to see finished RS-ENV-FILL's, on a
text delta at a function call RS-KIND-MATCH's, on parts out of order RS-CONTENT-INDEX's;
a difference on such a stream stays charged by its pointer, as before they were undone."""


UNDOING = Undoing(DEPARTURES, _response, differences, rules_at, _deciding, _CRASH_ONLY)
"""The shared driver over these departures (`refold.verdicts.undoing`): an undo is trusted
where the fold changes only at pointers its deciding rules own, and each is charged with
it (a crash after response.incomplete is RS-TERMINAL-EVENTS's and RS-INCOMPLETE's)."""
_folds_alike = UNDOING.folds_alike
applicable_undos = UNDOING.applicable_undos
departures_alone = UNDOING.departures_alone


_PROBES: tuple[tuple[str, Undo], ...] = (
    ("RS-TEXT-JOIN", empty_text_deltas),
    ("RS-ARGS-JOIN", empty_args_deltas),
)
"""Variations of OpenAI's own shape that are no departure to undo (split family 1 sends
them: empty deltas, RQ23), by the rule deciding them: a target that trips on one
(litellm: "Invalid function argument delta") fails that rule, not every rule of the
test."""


def difference_undos(stream: list[JSON], claimed: frozenset[str]) -> list[Probe]:
    """Every departure present in `stream` whose undoing the reference folds identically
    except at its rule's pointers (`applicable_undos`); its empty deltas left out
    (`_EMPTY_DELTAS`); and refusal parts sent as output_text parts, when the stream has
    any and the target claims `refusal` (a target that drops an output_text part too is
    not failing on the part being a refusal)."""
    found = UNDOING.difference_probes(stream)
    try:
        expected = _response(stream)
    except RefoldError:
        return found
    probes = list(_PROBES)
    if "refusal" in claimed:
        probes.append(("RS-REFUSAL", refusals_as_text))
    for rule_id, probe in probes:
        undone = probe(stream)
        if undone != stream and _folds_alike(expected, undone, frozenset({rule_id})):
            found.append((rule_id, frozenset({rule_id}), undone))
    return found


ABLATION = Ablation(applicable_undos, departures_alone, difference_undos)
"""How a crash and a difference are charged to a rule here (`Dialect.ablation`)."""


_FROM_UNDOS = (
    "RS-KEEPALIVE",
    "RS-ERROR-EVENT",
    "RS-NULL-ITEM",
    "RS-TERMINAL-REPEAT",
    "RS-ORPHAN",
    "RS-ROUTE",
    "RS-READD",
    "RS-OUTPUT-ORDER",
    "RS-KEY-OUTPUT-INDEX",
)
"""The departures present exactly when their undo changes the stream."""
_DONE_EVENTS = frozenset(
    {
        "response.output_text.done",
        "response.refusal.done",
        "response.function_call_arguments.done",
        "response.content_part.done",
        "response.reasoning_text.done",
        "response.reasoning_summary_text.done",
        "response.reasoning_summary_part.done",
    }
)
"""The `.done` events RS-DONE-REPLACES decides (output_item.done is RS-ITEM-DONE-REPLACES's)."""


def _terminal_output(stream: list[JSON]) -> bool | None:
    """Whether the last terminal event sends a non-empty output; None without one."""
    last = next((e for e in reversed(stream) if is_terminal(e)), None)
    if not isinstance(last, dict):
        return None
    output = last["response"].get("output")
    return isinstance(output, list) and bool(output)


def _types(stream: list[JSON]) -> set[object]:
    return {event.get("type") for event in stream if isinstance(event, dict)}


def _parts_depart(stream: list[JSON]) -> bool:
    """RS-CONTENT-INDEX: parts out of index order or with gaps, or an annotation index
    past the end of its part's annotations."""
    return content_index(stream) or parts_in_order(stream) != stream


def absent_departures(stream: list[JSON]) -> frozenset[str]:
    """The rules `stream` gives nothing to decide: those about a departure it does not
    have, and those of a terminal output it does not send (see the module docstring)."""
    undos = dict(DEPARTURES)
    absent = {rule for rule in _FROM_UNDOS if undos[rule](stream) == stream}
    for rule, departs in (("RS-KIND-MATCH", kind_match), ("RS-CONTENT-INDEX", _parts_depart)):
        if not departs(stream):
            absent.add(rule)
    types = _types(stream)
    terminals = _types([event for event in stream if is_terminal(event)])
    absent |= {rule for kind, rule in _OUTCOMES.items() if kind not in terminals}
    if "response.output_item.done" not in types:
        absent.add("RS-ITEM-DONE-REPLACES")
    if not types & _DONE_EVENTS:
        absent.add("RS-DONE-REPLACES")
    whole = _terminal_output(stream)
    if whole is not True:
        absent.add("RS-OUTPUT-TERMINAL")
    if whole is True:
        absent |= {"RS-OUTPUT-RECOVER", "RS-RECOVER-FROM-DELTAS"}
    if not any(is_terminal(event) for event in stream):
        absent.add("RS-OUTPUT-RECOVER")  # a snapshot's output is LIFE-RS-SNAPSHOT's
    return frozenset(absent)
