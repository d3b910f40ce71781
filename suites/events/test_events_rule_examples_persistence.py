"""Rule examples: persistence (events.md §3): what the runtime writes for a turn holds no
frame, no response id, no canary, and strip keeps every portable field."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from refold.dialects.provider_events.adapters.checks import EventsCheck
from refold.reference import JSON
from refold.reference import events as reference_events
from refold.run.marks import rule

from ._frames import (
    CHAT_ID,
    MESSAGE_ID,
    chat,
    chunk,
    content,
    message,
    message_start,
    ping,
    role,
    text_block,
    tool,
    tool_block,
    usage_chunk,
)
from ._sources import SOURCE_PARAMS

CANARIES = ("CANARY-fp-1", "CANARY-ü-2", "CANARY-hdr-3")
"""Planted outside the portable fields; the second needs escaping in ASCII JSON."""


def _planted(source: str) -> list[JSON]:
    """Text, a call, usage and Opaque frames, with a canary in a non-portable field
    (system_fingerprint), in unknown keys, and in an unknown frame."""
    if source == "openai-chat":
        return chat(
            {**role(), "system_fingerprint": CANARIES[0]},
            {**content("Hi"), "x_gateway": {"note": CANARIES[1]}},
            tool(0, call_id="call_1", name="get_weather", arguments='{"city":"Paris"}'),
            {**chunk(), "choices": [], "x_headers": {"x-request-id": CANARIES[2]}},
            reason="tool_calls",
            usage=usage_chunk(5, 7),
        )
    start = message_start()
    start["message"]["x_trace"] = CANARIES[0]
    return [
        start,
        *message(
            *text_block(0, "Hi"),
            *tool_block(1, "toolu_1", "get_weather", '{"city":"Paris"}'),
            {**ping(), "x_note": CANARIES[1]},
            {"type": "x_headers", "x-request-id": CANARIES[2]},
            reason="tool_use",
        )[1:],
    ]


def _keys(value: JSON) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _persisted(check: EventsCheck, source: str, frames: list[JSON]) -> JSON:
    _, output = check.normalized(source, frames)
    return output.get("persisted")


def _needs_fold(check: EventsCheck) -> None:
    """Skip, saying why, when the adapter has no `fold(events)` to check through."""
    if not check.target.offers_fold:
        pytest.skip(
            f"{check.target.name} offers no fold(events): the rule is checked "
            f"through the adapter's own fold (events.md §5.5)"
        )


def _text_forms(value: JSON) -> str:
    """The persisted value as text, raw and ASCII-escaped, for substring scans."""
    return json.dumps(value, ensure_ascii=False) + json.dumps(value)


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("PERSIST-STRIP")
def test_nothing_persisted_has_an_opaque_payload_or_response_id_key(
    check: EventsCheck, source: str
) -> None:
    # §3: "contains no opaque, no payload, no response_id key at any depth"; Opaque events
    # may be persisted as {type, event_type} or dropped, so only keys are looked at
    found = sorted(
        set(_keys(_persisted(check, source, _planted(source))))
        & {"opaque", "payload", "response_id"}
    )
    if found:
        raise check.fail(f"the persisted value has the keys {found}", received=found)


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("PERSIST-CANARY")
def test_no_planted_canary_is_persisted_escaped_or_not(check: EventsCheck, source: str) -> None:
    # §3: "No string planted in any provider frame outside the portable fields (a canary
    # in an unknown key, a header value, system_fingerprint) appears anywhere in the
    # persisted bytes, escaped or not"
    text = _text_forms(_persisted(check, source, _planted(source)))
    forms = {c: {c, json.dumps(c)[1:-1]} for c in CANARIES}
    leaked = [c for c, variants in forms.items() if any(v in text for v in variants)]
    if leaked:
        raise check.fail(f"canaries persisted: {leaked}", received=leaked)
    check.holds(source, _planted(source), canaries=CANARIES)


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("PERSIST-RESPONSE-ID")
def test_the_raw_response_id_is_not_persisted(check: EventsCheck, source: str) -> None:
    # §3: "The raw response id is not persisted: removed, or replaced by a value that does
    # not contain it"
    raw = CHAT_ID if source == "openai-chat" else MESSAGE_ID
    if raw in _text_forms(_persisted(check, source, _planted(source))):
        raise check.fail(f"the raw response id {raw!r} is persisted", received=raw)


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("PERSIST-PORTABLE")
def test_folding_the_stripped_events_gives_the_stripped_turn(
    check: EventsCheck, source: str
) -> None:
    # §3: "strip loses no portable field ...; folding strip(E) gives strip(T)" (with the
    # adapter's own fold: §5.5 checks it through the fold op, which is optional)
    _needs_fold(check)
    check.holds(source, _planted(source))


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("PERSIST-IDEMPOTENT")
def test_what_is_persisted_is_already_stripped(check: EventsCheck, source: str) -> None:
    # §3: "strip(strip(x)) == strip(x)": the runtime persists strip(x), so stripping what
    # it persisted again changes nothing (the in-process protocol has no strip op of its
    # own; the checker holds an adapter's strip to it when one is offered)
    persisted = _persisted(check, source, _planted(source))
    again = reference_events.strip(persisted)
    if again != persisted:
        raise check.fail(
            "stripping the persisted value again changes it", expected=persisted, received=again
        )
    check.holds(source, _planted(source))


@pytest.mark.parametrize("source", SOURCE_PARAMS)
@rule("PERSIST-NO-SEMANTICS")
def test_nulling_every_opaque_leaves_the_stripped_turn_unchanged(
    check: EventsCheck, source: str
) -> None:
    # §3: "Replacing every opaque/payload by null before the fold leaves strip(T)
    # unchanged" (§5.5: "re-run with opaques nulled when the adapter offers a fold op")
    _needs_fold(check)
    check.holds(source, _planted(source))
