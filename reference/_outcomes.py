"""The one outcome vocabulary and record shapes every refold record shares.

The harness writes them (`refold.records.results`, `refold.records.report`,
`refold.records.replay`) and the
reports read them (`refold.reports`, which may import only `refold.reference`), so they
are defined once, here: the statuses a rule can have, worst first; the record of a
failure (`FailureRecord`), as a rule's entry in the results JSON carries it and as it
crosses from an xdist worker; a rule's entry in the results JSON (`RuleRecord`); and the
dialect a record names (`DialectRecord`). Records written before dialects existed name
none: they were all of the chat dialect (`UNNAMED_DIALECT`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, NotRequired, TypedDict, get_args

__all__ = [
    "IMPACTS",
    "SHAPES",
    "STATUSES",
    "UNNAMED_DIALECT",
    "DialectRecord",
    "FailureRecord",
    "Impact",
    "PolicyRecord",
    "RuleRecord",
    "Shape",
    "Status",
    "diagnosis_of_record",
    "diagnosis_text",
    "dialect_record",
    "failure_record",
    "impact_of_record",
    "rule_found_on",
    "rule_impact",
    "shape_of_record",
    "worst_impact",
    "worst_shape",
]

Status = Literal["failed", "xfailed", "blocked", "not judged", "passed", "skipped", "not run"]
"""What a run says about a rule: the worst outcome of the tests that check it. "not
judged": the rule's places all lie outside the target's stated projection (a library that
builds no result of the dialect is compared on what it builds), so no test judged it; a
record written before the status existed never has it, and reads as it did."""

STATUSES: tuple[Status, ...] = get_args(Status)
"""From worst to best; a rule takes the worst status among its tests."""


Shape = Literal["documented", "observed", "synthetic"]
"""What kind of stream a stream is (verdicts.md §1): every frame valid against the provider's
published schema in an order its documented grammar allows; else every departure one a
named real provider is known to send; else carrying a departure nobody is known to send."""

SHAPES: tuple[Shape, ...] = get_args(Shape)
"""From least to most departing: the order rules are searched in (verdicts.md §2)."""

Impact = Literal["crash", "loss", "corruption", "representation"]
"""What a failure costs (verdicts.md §3), from its differences."""

IMPACTS: tuple[Impact, ...] = get_args(Impact)
"""From worst to mildest: a rule's impact is the worst among its failures."""


def worst_shape(shapes: Iterable[Shape]) -> Shape:
    """The most departing of `shapes` ("documented" for none): a stream's shape is the
    worst of its departures'."""
    return max(shapes, key=SHAPES.index, default="documented")


def worst_impact(impacts: Iterable[Impact]) -> Impact | None:
    """The worst of `impacts` (None for none)."""
    return min(impacts, key=IMPACTS.index, default=None)


def shape_of_record(record: Any) -> Shape:
    """The shape a failure record carries; a record written before shapes (or of a
    failure that was no conformance failure) reads as `synthetic`: nothing showed it on a
    documented stream."""
    shape = record.get("shape") if isinstance(record, Mapping) else None
    return shape if shape in SHAPES else "synthetic"


def impact_of_record(record: Any) -> Impact | None:
    """The impact a failure record carries (None: it states none)."""
    impact = record.get("impact") if isinstance(record, Mapping) else None
    return impact if impact in IMPACTS else None


def rule_found_on(rule: Mapping[str, Any]) -> Shape | None:
    """A results file's rule entry's `found_on`: None for a rule that did not fail; for a
    failed rule of a file written before shapes, its failure's shape (`synthetic`)."""
    if rule.get("status") != "failed":
        return None
    found = rule.get("found_on")
    return found if found in SHAPES else shape_of_record(rule.get("failure"))


def rule_impact(rule: Mapping[str, Any]) -> Impact | None:
    """A results file's rule entry's `impact` (None: not failed, none stated, or a file
    written before impacts)."""
    if rule.get("status") != "failed":
        return None
    impact = rule.get("impact")
    return impact if impact in IMPACTS else impact_of_record(rule.get("failure"))


class PolicyRecord(TypedDict):
    """A known fold policy a failure's diagnosis names (`refold.policies`)."""

    name: str
    """What a maintainer calls it: "sums usage across chunks"."""
    libraries: list[str]
    """The libraries known to apply it, with the versions measured."""


def diagnosis_text(found: list[PolicyRecord]) -> str:
    """A diagnosis as one phrase: "matches policy *P*, as LIB does"; "matches 2 policies:
    *P*, as LIB does; *Q*, as LIB and LIB do" when the stream cannot tell them apart; or
    "no known policy" (`[]`)."""
    if not found:
        return "no known policy"
    named = "; ".join(f"*{p['name']}*{_as(p['libraries'])}" for p in found)
    return (
        f"matches policy {named}" if len(found) == 1 else f"matches {len(found)} policies: {named}"
    )


def _as(libraries: list[str]) -> str:
    if not libraries:
        return ""
    named = (
        libraries[0] if len(libraries) == 1 else f"{', '.join(libraries[:-1])} and {libraries[-1]}"
    )
    return f", as {named} {'does' if len(libraries) == 1 else 'do'}"


def diagnosis_of_record(record: Any) -> list[PolicyRecord] | None:
    """The diagnosis a failure record carries, or None when it has none (a record written
    before diagnoses, or of a failure not diagnosed); malformed entries are left out."""
    found = record.get("diagnosis") if isinstance(record, Mapping) else None
    if not isinstance(found, list):
        return None
    return [
        {"name": p["name"], "libraries": _strings(p.get("libraries"))}
        for p in found
        if isinstance(p, Mapping) and isinstance(p.get("name"), str)
    ]


def _strings(value: Any) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list) else []


class FailureRecord(TypedDict):
    """A failure as records carry it: scrubbed, bounded, plain JSON."""

    message: str
    """The failure message (for a conformance failure, rendered from the scrubbed copy)."""
    chunks: list[Any] | None
    """The failing stream's items, as the dialect names them (chunks, events); the key
    keeps its first name so that every record written before dialects still reads."""
    expected: Any
    received: Any
    pointer: str | None
    """The JSON pointer of the first difference, None when nothing was compared."""
    replay_file: NotRequired[str]
    """The replay file written for the failure, when one was."""
    diagnosis: NotRequired[list[PolicyRecord]]
    """The known fold policies that reproduce the target's output (`refold.verdicts.diagnosis`);
    [] is "no known policy"; absent: not diagnosed (or written before diagnoses)."""
    shape: NotRequired[Shape]
    """The shape of `chunks` (verdicts.md §1); absent: written before shapes."""
    departures: NotRequired[list[str]]
    """The ids of the registered departures `chunks` carries ([] for a documented one)."""
    impact: NotRequired[Impact]
    """What the failure costs (verdicts.md §3)."""
    impacts: NotRequired[dict[str, Impact]]
    """The rules charged with it whose own differences cost otherwise than `impact`
    (a rule's impact comes from the differences charged to it, verdicts.md §2-3)."""


def failure_record(
    message: str,
    *,
    chunks: list[Any] | None = None,
    expected: Any = None,
    received: Any = None,
    pointer: str | None = None,
) -> FailureRecord:
    """A failure record; a failure with nothing compared has only its message."""
    return {
        "message": message,
        "chunks": chunks,
        "expected": expected,
        "received": received,
        "pointer": pointer,
    }


class RuleRecord(TypedDict):
    """One rule's entry in the results JSON (`refold.records.report`)."""

    feature: str
    registry: Literal["spec", "wire"]
    """"spec": a rule of the dialect's spec; "wire": one of its own registry of wire rules,
    labelled with the dialect's `extra_rules_note`."""
    statement: str
    status: Status
    tests: int
    reason: str | None
    failure: FailureRecord | None
    blocked_by: list[str]
    fingerprints: list[dict[str, Any]]
    verdict: str | None
    found_on: NotRequired[Shape]
    """For a failed rule: the least departing shape it failed on (verdicts.md §2)."""
    impact: NotRequired[Impact]
    """For a failed rule: the worst impact of its failures on its `found_on` shape."""
    departures: NotRequired[list[str]]
    """For a failed rule: the departure ids of its minimal failing stream."""


class DialectRecord(TypedDict):
    """The dialect a record was written for, with what a reader needs to show it."""

    name: str
    """The stable name, the registry's key for it."""
    title: str
    """What readers call it (`OpenAI Chat Completions`)."""
    spec: str
    """The contract's file name (`chat-fold.md`)."""
    item: str
    """What one element of its streams is called (`chunk`, `event`)."""
    features: list[str]
    """Its feature vocabulary, in the order tables list it."""
    extra_rules_note: str | None
    """How the rules of registry "wire" are labelled (None when it has none)."""
    docs: NotRequired[str]
    """The provider's streaming API page ("": none); absent: written before it was kept."""


UNNAMED_DIALECT: DialectRecord = {
    "name": "openai-chat",
    "title": "OpenAI Chat Completions",
    "spec": "chat-fold.md",
    "item": "chunk",
    # The record format's version 1 had no `dialect` key: such a record is a chat run's,
    # and this is what that dialect said of itself then (a test holds it equal to the
    # registered dialect's, so the kernel imports no dialect).
    "features": [
        "text",
        "choices",
        "tool_calls",
        "tool_call_repair",
        "empty_arguments",
        "refusal",
        "reasoning",
        "reasoning_details",
        "annotations",
        "logprobs",
        "usage",
        "provider_fields",
        "robustness",
        "lifecycle",
        "sse",
        "events",
    ],
    "extra_rules_note": (
        "wire rules from WHATWG HTML Living Standard §9.2 server-sent events; "
        "not part of chat-fold.md"
    ),
    "docs": "https://platform.openai.com/docs/api-reference/chat/streaming",
}
"""The dialect of a record that names none: every record written before dialects existed
(the harness checks that it equals the registered chat dialect's)."""


def dialect_record(document: Mapping[str, Any]) -> DialectRecord:
    """The dialect a results JSON (or any record with a `dialect` key) names.

    A record without the key is `UNNAMED_DIALECT`'s. A key that is a name alone, or an
    object missing some of the keys (a hand edit), keeps what it gives and takes the rest
    from the chat dialect when it is that one, else from the name itself.
    """
    given = document.get("dialect")
    if given is None:
        return UNNAMED_DIALECT
    found = {"name": given} if isinstance(given, str) else given
    if not isinstance(found, Mapping) or not isinstance(found.get("name"), str):
        return UNNAMED_DIALECT
    name = str(found["name"])
    base: DialectRecord = (
        UNNAMED_DIALECT
        if name == UNNAMED_DIALECT["name"]
        else {
            "name": name,
            "title": name,
            "spec": "",
            "item": "item",
            "features": [],
            "extra_rules_note": None,
            "docs": "",
        }
    )
    return {
        "name": name,
        "title": _text(found.get("title"), base["title"]),
        "spec": _text(found.get("spec"), base["spec"]),
        "item": _text(found.get("item"), base["item"]),
        "features": (
            [str(f) for f in found["features"]]
            if isinstance(found.get("features"), list)
            else base["features"]
        ),
        "extra_rules_note": (
            found["extra_rules_note"]
            if isinstance(found.get("extra_rules_note"), str)
            else base["extra_rules_note"]
        ),
        "docs": _text(found.get("docs"), base.get("docs", "")),
    }


def _text(value: Any, default: str) -> str:
    return value if isinstance(value, str) else default
