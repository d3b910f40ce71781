"""The fold policies of the `openai-chat` dialect: each the reference fold
(`refold.reference.chat.fold`) with one change a real library makes.

Tool-call policies keep the reference for everything but the calls, and rebuild each
choice's `tool_calls` with the one ladder step they change (`_Calls`): the reference's
first-non-blank identity and joined argument text otherwise, `{}` for a call without
argument text once the stream finished.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from refold.reference import JSON, JSONObject, parse_complete
from refold.reference.chat import Accumulator, fold

from ...policies import Policy, PolicyRaised
from .._reading import index_of

__all__ = ["CHAT_POLICIES"]

_Fragment = dict[str, str | None]


def _nonblank(value: JSON) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _entries(chunk: JSON) -> list[tuple[int, JSONObject]]:
    """The choice entries of a chunk that are objects, with the choice they fold into."""
    choices = chunk.get("choices") if isinstance(chunk, dict) else None
    return [
        (index_of(entry.get("index")) or 0, entry)
        for entry in (choices if isinstance(choices, list) else [])
        if isinstance(entry, dict)
    ]


def _deltas(chunk: JSON) -> list[tuple[int, JSONObject]]:
    return [
        (index, entry["delta"])
        for index, entry in _entries(chunk)
        if isinstance(entry.get("delta"), dict)
    ]


def _choice(folded: JSONObject, index: int) -> JSONObject | None:
    return next((c for c in folded["choices"] if c.get("index") == index), None)


def _fragment(entry: JSONObject) -> _Fragment:
    found = entry.get("function")
    function: JSONObject = found if isinstance(found, dict) else {}
    arguments = function.get("arguments")
    return {
        "id": _nonblank(entry.get("id")),
        "type": _nonblank(entry.get("type")),
        "name": _nonblank(function.get("name")),
        "arguments": arguments if isinstance(arguments, str) else None,
    }


def _whole(text: str | None) -> JSONObject | None:
    return parse_complete(text) if text else None


Continue = Callable[[list[_Fragment], _Fragment], None]
"""What a fragment on a tool index that has calls does to them (the last is current)."""


def _reference_step(calls: list[_Fragment], fragment: _Fragment) -> None:
    current = calls[-1]
    if fragment["id"] and current["id"] and fragment["id"] != current["id"]:
        calls.append(dict(fragment))  # TOOL-2-NEW-ID
    elif _whole(fragment["arguments"]) is not None and _whole(current["arguments"]):
        resent = (
            fragment["id"] == current["id"]
            if fragment["id"]
            else fragment["name"] is None
            and _whole(fragment["arguments"]) == _whole(current["arguments"])
        )
        if not resent:
            calls.append(dict(fragment))  # TOOL-4-SPLIT
    else:
        _join(current, fragment)


def _join(current: _Fragment, fragment: _Fragment) -> None:
    """TOOL-5-APPEND: the first id, type and name stay; argument text joins."""
    for key in ("id", "type", "name"):
        current[key] = current[key] or fragment[key]
    current["arguments"] = (current["arguments"] or "") + (fragment["arguments"] or "")


def _with_calls(step: Continue) -> Callable[[list[JSON]], JSONObject]:
    """The reference fold whose tool calls are rebuilt with `step` for a fragment on an
    index that has calls."""

    def policy_fold(chunks: list[JSON]) -> JSONObject:
        accumulator = Accumulator()
        calls: dict[int, dict[int, list[_Fragment]]] = {}
        last: dict[int, int] = {}
        for chunk in chunks:
            accumulator.add(chunk)
            for choice, delta in _deltas(chunk):
                entries = delta.get("tool_calls")
                for entry in entries if isinstance(entries, list) else []:
                    if not isinstance(entry, dict):
                        continue
                    index = index_of(entry.get("index"))
                    index = last.get(choice, 0) if index is None else index
                    last[choice] = index
                    found = calls.setdefault(choice, {}).setdefault(index, [])
                    if found:
                        step(found, _fragment(entry))
                    else:
                        found.append(_fragment(entry))
        folded, finished = accumulator.response(), accumulator.finished
        for choice, by_index in calls.items():
            message = (_choice(folded, choice) or {}).get("message", {})
            message["tool_calls"] = [
                _call_output(call, finished=finished)
                for i in sorted(by_index)
                for call in by_index[i]
            ]
        return folded

    return policy_fold


def _call_output(call: _Fragment, *, finished: bool) -> JSONObject:
    arguments = call["arguments"] or ""
    return {
        "id": call["id"],
        "type": call["type"] or "function",
        "function": {
            "name": call["name"],
            "arguments": "{}" if finished and not arguments else arguments,
        },
    }


def _concatenated_identity(calls: list[_Fragment], fragment: _Fragment) -> None:
    current = calls[-1]
    if fragment["id"] and current["id"] and fragment["id"] != current["id"]:
        calls.append(dict(fragment))
    elif _whole(fragment["arguments"]) is not None and _whole(current["arguments"]):
        _reference_step(calls, fragment)
    else:
        for key in ("id", "name"):  # the policy: a repeated id or name is appended
            current[key] = (current[key] or "") + (fragment[key] or "") or None
        current["type"] = current["type"] or fragment["type"]
        current["arguments"] = (current["arguments"] or "") + (fragment["arguments"] or "")


def _concatenates_identity(chunks: list[JSON]) -> JSONObject:
    folded = _with_calls(_concatenated_identity)(chunks)
    roles: dict[int, str] = {}
    for chunk in chunks:
        for choice, delta in _deltas(chunk):
            if isinstance(delta.get("role"), str):
                roles[choice] = roles.get(choice, "") + delta["role"]
    for choice, role in roles.items():
        found = _choice(folded, choice)
        if found is not None and role:
            found["message"]["role"] = role
    return folded


def _merged_per_index(calls: list[_Fragment], fragment: _Fragment) -> None:
    _join(calls[-1], fragment)  # the policy: one call per tool index


def _no_resend_detection(calls: list[_Fragment], fragment: _Fragment) -> None:
    current = calls[-1]
    if fragment["id"] and current["id"] and fragment["id"] != current["id"]:
        calls.append(dict(fragment))
    else:
        _join(current, fragment)  # the policy: whole arguments again are appended too


def _indexless_at_zero(chunks: list[JSON]) -> JSONObject:
    """The reference fold of the stream whose index-less tool fragments all read index 0."""
    rewritten = copy.deepcopy(chunks)
    for chunk in rewritten:
        for _, delta in _deltas(chunk):
            entries = delta.get("tool_calls")
            for entry in entries if isinstance(entries, list) else []:
                if isinstance(entry, dict) and index_of(entry.get("index")) is None:
                    entry["index"] = 0  # the policy: not the most recently touched index
    return fold(rewritten)


def _summed(total: JSONObject, usage: JSONObject) -> JSONObject:
    result = dict(total)
    for key, value in usage.items():
        earlier = result.get(key)
        if isinstance(value, dict):
            result[key] = _summed(earlier if isinstance(earlier, dict) else {}, value)
        elif _number(value) and _number(earlier):
            result[key] = earlier + value
        else:
            result[key] = value
    return result


def _number(value: JSON) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _sums_usage(chunks: list[JSON]) -> JSONObject:
    total: JSONObject | None = None
    rewritten: list[JSON] = []
    for chunk in chunks:
        if isinstance(chunk, dict) and isinstance(chunk.get("usage"), dict):
            total = _summed(total or {}, chunk["usage"])
            chunk = {**chunk, "usage": total}  # the reference keeps the last: the sum
        rewritten.append(chunk)
    return fold(rewritten)


def _usage_erased_by_null(chunks: list[JSON]) -> JSONObject:
    folded = fold(chunks)
    last = chunks[-1] if chunks and isinstance(chunks[-1], dict) else {}
    if not isinstance(last.get("usage"), dict):
        folded.pop("usage", None)  # the policy: every chunk's usage replaces, None too
    return folded


def _choices_by_position(chunks: list[JSON]) -> JSONObject:
    def positioned(chunk: JSON) -> JSON:
        choices = chunk.get("choices") if isinstance(chunk, dict) else None
        if not isinstance(chunk, dict) or not isinstance(choices, list):
            return chunk
        return {
            **chunk,
            "choices": [
                {**entry, "index": position} if isinstance(entry, dict) else entry
                for position, entry in enumerate(choices)
            ],
        }

    return fold([positioned(chunk) for chunk in chunks])


def _raises_on_null_choice(chunks: list[JSON]) -> JSONObject:
    for number, chunk in enumerate(chunks, 1):
        choices = chunk.get("choices") if isinstance(chunk, dict) else None
        if isinstance(choices, list) and not all(isinstance(e, dict) for e in choices):
            raise PolicyRaised(f"chunk {number}: an entry of choices is not an object")
    return fold(chunks)


_BLANK = "\x00blank:"
"""Marks a blank finish reason so that the reference keeps it as a reason."""


def _blank_finish_counts(chunks: list[JSON]) -> JSONObject:
    def marked(chunk: JSON) -> JSON:
        if not isinstance(chunk, dict) or not isinstance(chunk.get("choices"), list):
            return chunk
        return {
            **chunk,
            "choices": [
                {**e, "finish_reason": _BLANK + e["finish_reason"]}
                if isinstance(e, dict)
                and isinstance(e.get("finish_reason"), str)
                and not e["finish_reason"].strip()
                else e
                for e in chunk["choices"]
            ],
        }

    folded = fold([marked(chunk) for chunk in chunks])
    for choice in folded["choices"]:
        reason = choice.get("finish_reason")
        if isinstance(reason, str) and reason.startswith(_BLANK):
            choice["finish_reason"] = reason.removeprefix(_BLANK)
    return folded


def _empty_arguments_at_once(chunks: list[JSON]) -> JSONObject:
    folded = copy.deepcopy(fold(chunks))
    for choice in folded["choices"]:
        for call in choice.get("message", {}).get("tool_calls", []):
            if call["function"]["arguments"] == "":
                call["function"]["arguments"] = "{}"  # the policy: before finishing too
    return folded


CHAT_POLICIES: tuple[Policy, ...] = (
    Policy(
        "concatenates repeated identity fields",
        ("CHOICE-ROLE", "TOOL-NAME", "TOOL-5-APPEND"),
        ("openai 3.57.0",),
        _concatenates_identity,
        "concatenate_repeated_strings",
    ),
    Policy(
        "sums usage across chunks",
        ("USAGE-LAST",),
        ("langchain-core 1.8.3",),
        _sums_usage,
        "sum_usage",
    ),
    Policy(
        "keys choices by their position",
        ("CHOICE-KEY", "CHOICE-ORDER"),
        ("langchain-openai 1.7.4", "AI SDK", "openai 3.57.0"),
        _choices_by_position,
        "choices_by_position",
    ),
    Policy(
        "merges calls that share an index",
        ("TOOL-2-NEW-ID", "TOOL-3-RESEND", "TOOL-4-SPLIT", "TOOL-NO-INDEX"),
        ("litellm 1.110.2",),
        _with_calls(_merged_per_index),
        "merge_calls_sharing_index",
    ),
    Policy(
        "an index-less tool fragment joins index 0",
        ("TOOL-NO-INDEX",),
        ("litellm 1.110.2",),
        _indexless_at_zero,
        "index_less_fragments_at_zero",
    ),
    Policy(
        "appends re-sent arguments",
        ("TOOL-3-RESEND", "TOOL-4-SPLIT"),
        ("litellm 1.110.2", "AI SDK", "@ai-sdk/openai"),
        _with_calls(_no_resend_detection),
        "no_resend_detection",
    ),
    Policy(
        "a null usage erases the folded one",
        ("USAGE-LAST",),
        ("openai 3.57.0",),
        _usage_erased_by_null,
        "usage_erased_by_null",
    ),
    Policy(
        "raises on a null choice",
        ("ROB-NULL-ENTRIES", "ROB-WRONG-TYPE"),
        ("openai 3.57.0", "litellm 1.110.2", "langchain-openai 1.7.4"),
        _raises_on_null_choice,
        "crash_on_null_choice",
    ),
    Policy(
        "a blank finish reason counts",
        ("CHOICE-FINISH", "ROB-BLANK", "LIFE-FINISHED"),
        ("AI SDK openai-compatible", "@ai-sdk/openai", "OpenRouter provider"),
        _blank_finish_counts,
        "finish_erased_by_blank",
    ),
    Policy(
        "empty arguments read {} before the stream finished",
        ("TOOL-EMPTY-ARGS",),
        ("litellm 1.110.2", "OpenRouter provider"),
        _empty_arguments_at_once,
        "empty_arguments_too_early",
    ),
)
"""The chat policies, one per broken chat accumulator whose defect shows in its fold
(`live_snapshot`'s is in the incremental interface: its folds are right)."""
