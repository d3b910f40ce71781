"""The fragments of one choice: every message field cut into lanes of stream items.

An *item* is a partial choice entry (`{"delta": {...}}`, `{"logprobs": {...}}`, ...).
A *lane* is a list of items whose order the fold depends on; lanes are independent of
each other and may interleave in any order. Each function here turns one field of a
known choice into its lanes, within the constraints of the spec's split families.
"""

from __future__ import annotations

from collections.abc import Collection

from hypothesis import event
from hypothesis import strategies as st

from refold.reference import JSON, JSONObject, parse_complete

from .._text import BOOLEANS, below, cut, escape_positions, pieces_of

__all__ = [
    "Lane",
    "annotation_lanes",
    "logprob_lanes",
    "reasoning_lanes",
    "text_lanes",
    "tool_call_lanes",
]

Lane = list[JSONObject]

_JOINED = {"reasoning.text": "text", "reasoning.summary": "summary"}
_FIRST_FRAGMENT_FIELDS = ("id", "format")
_BLANKS = st.sampled_from(["", None, "  "])


def text_lanes(draw: st.DrawFn, key: str, text: str | None) -> list[Lane]:
    """TEXT-JOIN: a text field cut at any code point, empty fragments allowed."""
    if text is None:
        # OpenAI opens with `"content": ""`; an empty concatenation still reads null.
        return [[{"delta": {key: ""}}]] if key == "content" and draw(BOOLEANS) else []
    pieces = pieces_of(text, cut(draw, len(text)))
    return [[{"delta": {key: piece}} for piece in pieces]]


def annotation_lanes(draw: st.DrawFn, annotations: list[JSONObject] | None) -> list[Lane]:
    """TEXT-ANNOTATIONS: the list split into consecutive, possibly empty, sublists."""
    if not annotations:
        return []
    parts = pieces_of(annotations, cut(draw, len(annotations), max_cuts=3))
    return [[{"delta": {"annotations": list(part)}} for part in parts]]


def logprob_lanes(draw: st.DrawFn, logprobs: JSONObject | None) -> list[Lane]:
    """LP-CONCAT: the content and refusal entries each split across chunks."""
    if logprobs is None:
        return []
    content, refusal = logprobs["content"], logprobs["refusal"]
    lanes = [
        [
            {"logprobs": {"content": list(part), "refusal": None}}
            for part in pieces_of(content, cut(draw, len(content), max_cuts=3))
        ]
    ]
    if refusal:
        lanes.append(
            [
                {"logprobs": {"content": [], "refusal": list(part)}}
                for part in pieces_of(refusal, cut(draw, len(refusal), max_cuts=2))
            ]
        )
    return lanes


def reasoning_lanes(
    draw: st.DrawFn, segments: list[JSONObject] | None, *, families: Collection[int]
) -> list[Lane]:
    """RD-*: each segment's fragments, interleaved in one lane so that segments first
    appear in order and an index-less segment is never interleaved with another
    index-less segment of its type."""
    if not segments:
        return []
    queues = [_segment_fragments(draw, s, families=families) for s in segments]
    order: list[JSONObject] = []
    started = 0
    while True:
        candidates = [i for i in range(started) if queues[i]]
        if started < len(queues) and _may_start(segments, queues, started):
            candidates.append(started)
        if not candidates:
            return [[{"delta": {"reasoning_details": [fragment]}} for fragment in order]]
        chosen = candidates[draw(below(len(candidates)))]
        started += chosen == started
        order.append(queues[chosen].pop(0))


def _may_start(segments: list[JSONObject], queues: list[list[JSONObject]], next_: int) -> bool:
    kind = segments[next_]["type"]
    if kind not in _JOINED or "index" in segments[next_]:
        return True
    return all(
        not queues[i]
        for i in range(next_)
        if segments[i]["type"] == kind and "index" not in segments[i]
    )


def _segment_fragments(
    draw: st.DrawFn, segment: JSONObject, *, families: Collection[int]
) -> list[JSONObject]:
    kind = segment["type"]
    if kind not in _JOINED:
        return [dict(segment)]  # RD-AS-SENT: one fragment, verbatim
    joined = _JOINED[kind]
    pieces = pieces_of(segment[joined], cut(draw, len(segment[joined]), max_cuts=3))
    repeat = 2 in families and draw(BOOLEANS)
    fragments: list[JSONObject] = []
    for number, piece in enumerate(pieces):
        fragment: JSONObject = {"type": kind, joined: piece}
        if "index" in segment:
            fragment["index"] = segment["index"]
        if number == 0 or repeat:
            fragment.update({k: segment[k] for k in _FIRST_FRAGMENT_FIELDS if k in segment})
        if 8 in families and number < len(pieces) - 1 and draw(BOOLEANS):
            fragment["signature"] = None  # RD-FIELDS: blank never closes or erases
        fragments.append(fragment)
    if "signature" in segment:
        fragments[-1]["signature"] = segment["signature"]  # RD-INDEXLESS: on the last one
    return fragments


def tool_call_lanes(
    draw: st.DrawFn, calls: list[JSONObject] | None, *, families: Collection[int], finished: bool
) -> list[Lane]:
    """TOOL-*: each call's fragments, on its own index (family 1), sharing an index
    with the previous call (family 3), or with no index at all (family 4)."""
    if not calls:
        return []
    # Q3: indexes above 0 or with gaps are an observed departure (an Anthropic content
    # block index reused); family 1 alone draws OpenAI's dense indexes from 0
    sparse = bool(set(families) - {1})
    if 4 in families and draw(BOOLEANS):
        return [_indexless_lane(draw, calls, families=families, finished=finished, sparse=sparse)]
    index = draw(below(4)) if sparse else 0  # TOOL-INDEX: the first index may be above 0
    lanes: list[Lane] = []
    for position, call in enumerate(calls):
        shares = position > 0 and 3 in families and draw(BOOLEANS)
        if shares:
            event("split: calls sharing an index (family 3)")
        else:
            index += (1 + (draw(below(3)) if sparse else 0)) if position else 0
            lanes.append([])
        id_late = not shares and 5 in families and draw(BOOLEANS)
        fragments = _call_fragments(
            draw, call, index, families=families, finished=finished, id_late=id_late
        )
        lanes[-1] += [_item(fragment) for fragment in fragments]
    return lanes


def _indexless_lane(
    draw: st.DrawFn,
    calls: list[JSONObject],
    *,
    families: Collection[int],
    finished: bool,
    sparse: bool,
) -> Lane:
    """Family 4 (TOOL-NO-INDEX): the calls one after the other, the first few on indexes
    of their own and every later one without an index, so that those join the most
    recently touched index (the last indexed call's, the highest), not index 0."""
    event("split: tool calls without index (family 4)")
    indexed = draw(below(len(calls)))
    if indexed:
        event("split: index-less calls after indexed ones (family 4)")
    index = draw(below(4)) if sparse else 0
    lane: list[JSONObject] = []
    for position, call in enumerate(calls):
        if 0 < position < indexed:
            index += 1 + (draw(below(3)) if sparse else 0)
        lane += _call_fragments(
            draw,
            call,
            index if position < indexed else None,
            families=families,
            finished=finished,
            id_late=False,
        )
    return [_item(fragment) for fragment in lane]


def _item(fragment: JSONObject) -> JSONObject:
    return {"delta": {"tool_calls": [fragment]}}


def _call_fragments(
    draw: st.DrawFn,
    call: JSONObject,
    index: int | None,
    *,
    families: Collection[int],
    finished: bool,
    id_late: bool,
) -> list[JSONObject]:
    arguments: str = call["function"]["arguments"]
    if arguments == "" or (arguments == "{}" and finished and 7 in families and draw(BOOLEANS)):
        event("split: call streamed without arguments (family 7)")
        pieces: list[str] = []
    else:
        pieces = [
            str(p)
            for p in pieces_of(
                arguments, cut(draw, len(arguments), favour=escape_positions(arguments))
            )
        ]
    count = max(len(pieces), 2 if id_late else 1)
    id_at = 1 + draw(below(count - 1)) if id_late else 0
    if id_late:
        event("split: call id arriving late (family 5)")
    repeat = 2 in families and draw(BOOLEANS)
    fragments = []
    for number in range(count):
        fragment: JSONObject = {} if index is None else {"index": index}
        if number == id_at or (repeat and number > id_at):
            fragment["id"] = call["id"]
        elif 8 in families and draw(BOOLEANS):
            fragment["id"] = draw(_BLANKS)  # ROB-BLANK
        if number == 0 or repeat:
            fragment["type"] = call["type"]
        function: JSONObject = {"name": call["function"]["name"]} if number == 0 or repeat else {}
        if number < len(pieces):
            function["arguments"] = pieces[number]
        elif not pieces and draw(BOOLEANS):
            function["arguments"] = ""  # family 7: "" or no `arguments` key at all
        if 8 in families and number > 0 and draw(BOOLEANS):
            function["name"] = "renamed"  # TOOL-NAME: later names are ignored
        fragment["function"] = function
        fragments.append(fragment)
    if pieces and 6 in families and parse_complete(arguments) is not None and draw(BOOLEANS):
        fragments.append(_resend(call, index, with_id=draw(BOOLEANS)))
    return fragments


def _resend(call: JSONObject, index: int | None, *, with_id: bool) -> JSONObject:
    """TOOL-3-RESEND: the whole arguments again, with the call's id or with neither
    id nor name (vLLM's end-of-stream flush)."""
    event("split: arguments re-sent (family 6)")
    fragment: JSONObject = {} if index is None else {"index": index}
    if with_id:
        fragment["id"] = call["id"]
    function: JSON = {"arguments": call["function"]["arguments"]}
    fragment["function"] = function
    return fragment
