"""The `gemini-generate-content` dialect as registered: its attribution is the spec's
table, its sniff takes Gemini chunks and no other dialect's items, and its item layer
reads either framing of the body."""

from __future__ import annotations

import json

import pytest

from refold.dialects import DIALECTS, dialect
from refold.dialects.gemini.attribution import PLACES
from refold.dialects.gemini.framing import decode_body, is_array_body
from refold.reference import gemini

GEMINI = dialect("gemini-generate-content")
_CHUNK = {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}}]}


def test_the_dialect_charges_with_the_references_one_table() -> None:
    assert GEMINI.rules_at is gemini.rules_at
    assert GEMINI.pointerless == gemini.POINTERLESS


@pytest.mark.parametrize("place", PLACES)
def test_every_place_but_the_whole_response_is_some_rules(place: str) -> None:
    assert GEMINI.rules_at(place), place
    assert GEMINI.rules_at("") == frozenset()


def test_a_top_level_key_the_table_does_not_name_is_the_snapshots_or_an_unknown_one() -> None:
    assert gemini.rules_at("/createTime") == {"GM-ENV-SNAPSHOT", "GM-UNKNOWN-KEYS"}
    assert gemini.rules_at("/key") == gemini.OUTSIDE_THE_SHAPE


@pytest.mark.parametrize(
    "chunk",
    [
        _CHUNK,
        {"promptFeedback": {"blockReason": "SAFETY"}},
        {"usageMetadata": {"trafficType": "ON_DEMAND"}, "modelVersion": "gemini-x"},
    ],
)
def test_a_gemini_chunk_is_sniffed_as_gemini(chunk: dict[str, object]) -> None:
    assert GEMINI.sniff is not None and GEMINI.sniff(chunk)


@pytest.mark.parametrize(
    "item",
    [
        {"object": "chat.completion.chunk", "choices": [], "usage": None},
        {"type": "message_start", "message": {"usage": {"input_tokens": 1}}},
        {"type": "response.completed", "response": {"usage": {}}},
        # shaped like a chunk, but typed: some other API's item, not Gemini's
        {"type": "x", "candidates": []},
        {"error": {"code": 500}},
    ],
)
def test_no_other_dialects_item_is_sniffed_as_gemini(item: dict[str, object]) -> None:
    assert GEMINI.sniff is not None and not GEMINI.sniff(item)
    owners = [d.name for d in DIALECTS.values() if d.sniff is not None and d.sniff(item)]
    assert "gemini-generate-content" not in owners, owners


def test_an_sse_body_and_an_array_body_decode_to_the_same_chunks() -> None:
    data = json.dumps(_CHUNK).encode()
    sse = [b"data: " + data[:7], data[7:] + b"\r\n\r\n"]
    array = [b"\xef\xbb\xbf \r\n[", data[:5], data[5:] + b"\r\n,\r\n" + data + b"]"]
    assert not is_array_body(b"".join(sse)) and is_array_body(b"".join(array))
    assert decode_body(sse) == [_CHUNK]
    assert decode_body(array) == [_CHUNK, _CHUNK]


def test_a_bare_error_object_body_is_one_chunk() -> None:
    error = {"error": {"code": 429, "message": "quota", "status": "RESOURCE_EXHAUSTED"}}
    assert decode_body([json.dumps(error).encode()]) == [error]


def _answer(*parts: dict[str, object]) -> list[object]:
    return [{"candidates": [{"content": {"role": "model", "parts": list(parts)}}]}]


def test_a_plain_text_stream_gives_nothing_to_the_call_signature_and_thought_rules() -> None:
    assert GEMINI.absent_departures is not None
    absent = GEMINI.absent_departures(_answer({"text": "Hi"}))
    assert absent == {
        "GM-CALL-STREAMED",
        "GM-CALL-PARTIAL-ARGS",
        "GM-SIGNATURE",
        "GM-THOUGHT-APART",
        "GM-TEXT-EMPTY",
        "GM-ROB-NULL-ENTRIES",
    }


@pytest.mark.parametrize(
    ("part", "present"),
    [
        ({"functionCall": {"name": "f", "willContinue": True}}, "GM-CALL-STREAMED"),
        ({"functionCall": {"partialArgs": []}}, "GM-CALL-PARTIAL-ARGS"),
        ({"text": "", "thoughtSignature": "c2ln"}, "GM-SIGNATURE"),
        ({"text": "x", "thought": False}, "GM-THOUGHT-APART"),
        ({"text": ""}, "GM-TEXT-EMPTY"),
        ({"text": "", "thought": True}, "GM-TEXT-EMPTY"),
    ],
)
def test_a_stream_with_the_shape_keeps_its_rule(part: dict[str, object], present: str) -> None:
    assert GEMINI.absent_departures is not None
    assert present not in GEMINI.absent_departures(_answer({"text": "Hi"}, part))


def test_a_whole_call_is_no_streamed_one_and_junk_is_read_as_nothing() -> None:
    assert GEMINI.absent_departures is not None
    whole = _answer({"functionCall": {"name": "f", "args": {}}})
    assert {"GM-CALL-STREAMED", "GM-CALL-PARTIAL-ARGS"} <= GEMINI.absent_departures(whole)
    junk: list[object] = [None, {"candidates": "x"}, {"candidates": [None, {"content": []}]}]
    assert "GM-ROB-NULL-ENTRIES" not in GEMINI.absent_departures(junk)  # a null candidate
    assert len(GEMINI.absent_departures(junk)) == 5
    cited = {"citationMetadata": {"citationSources": [{"uri": "u"}, 3]}}
    in_a_citation_list = [{"candidates": [{"index": 0, **cited}]}]
    assert "GM-ROB-NULL-ENTRIES" not in GEMINI.absent_departures(in_a_citation_list)
    # a null in a list the rule does not name is no entry it skips
    metadata = _answer({"text": "a", "partMetadata": {"x": [None]}})
    assert "GM-ROB-NULL-ENTRIES" in GEMINI.absent_departures(metadata)


def test_the_suites_leave_out_a_nameless_opening_fragment_with_no_call_open() -> None:
    from refold.suites.gemini._fragments import no_orphan_fragment

    def parts(*sent: dict[str, object], index: object = 0) -> dict[str, object]:
        return {"candidates": [{"index": index, "content": {"parts": list(sent)}}]}

    opening = {"functionCall": {"name": "f", "willContinue": True}}
    piece = {"functionCall": {"partialArgs": [], "willContinue": True}}
    last = {"functionCall": {"partialArgs": []}}
    assert no_orphan_fragment([parts(opening), parts(piece), parts(last)])
    assert no_orphan_fragment([parts({"functionCall": {}})])  # kept whole either way
    assert not no_orphan_fragment([parts(opening), parts(last), parts(piece)])
    assert not no_orphan_fragment([parts(opening, index=0), parts(piece, index=1)])
    assert no_orphan_fragment([parts(opening, index=[1]), parts(piece, index="0")])
