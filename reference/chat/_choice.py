"""One choice of the completion: its delta fields, finish reasons and log probabilities.

A delta is read key by key through `_DELTA_FIELDS`, a table from the delta key to the
rule that folds it; keys the table does not name are ignored (ROB-UNKNOWN-KEYS).
"""

from __future__ import annotations

from collections.abc import Callable

from .._json import JSON, JSONObject, copy_json, non_blank
from ._reasoning import ReasoningDetails
from ._tools import ToolCalls

__all__ = ["ChoiceFold"]

_TEXT_FIELDS = ("content", "refusal", "reasoning", "reasoning_content")
"""Delta strings joined verbatim: TEXT-JOIN, TEXT-REFUSAL, TEXT-REASONING."""


class ChoiceFold:
    """The fold of every entry of `choices` that carried one index."""

    __slots__ = (
        "_annotations",
        "_finish_reason",
        "_logprob_content",
        "_logprob_refusal",
        "_logprobs",
        "_native_finish_reason",
        "_reasoning_details",
        "_role",
        "_text",
        "_tool_calls",
        "index",
    )

    def __init__(self, index: int) -> None:
        self.index = index
        self._role: str | None = None
        self._finish_reason: str | None = None
        self._native_finish_reason: str | None = None
        self._text: dict[str, list[str]] = {}
        self._annotations: list[JSONObject] | None = None
        self._logprobs = False
        self._logprob_content: list[JSONObject] = []
        self._logprob_refusal: list[JSONObject] | None = None
        self._tool_calls = ToolCalls()
        self._reasoning_details = ReasoningDetails()

    @property
    def finished(self) -> bool:
        """True once the choice has a finish reason other than "error" (LIFE-FINISHED)."""
        return self._finish_reason is not None and self._finish_reason != "error"

    def add(self, entry: JSONObject) -> None:
        """Fold one entry of a chunk's `choices` list."""
        finish_reason = non_blank(entry.get("finish_reason"))
        if finish_reason is not None:
            self._finish_reason = finish_reason  # CHOICE-FINISH, ROB-BLANK
        native = non_blank(entry.get("native_finish_reason"))
        if native is not None:
            self._native_finish_reason = native  # PROV-NATIVE-FINISH
        self._add_logprobs(entry.get("logprobs"))
        delta = entry.get("delta")
        if isinstance(delta, dict):  # CHOICE-DELTA-NULL
            for key, value in delta.items():
                fold_field = _DELTA_FIELDS.get(key)
                if fold_field is not None:
                    fold_field(self, key, value)

    def _add_role(self, key: str, value: JSON) -> None:
        if self._role is None:
            self._role = non_blank(value)  # CHOICE-ROLE

    def _add_text(self, key: str, value: JSON) -> None:
        if isinstance(value, str) and value:
            self._text.setdefault(key, []).append(value)

    def _add_annotations(self, key: str, value: JSON) -> None:
        if isinstance(value, list):  # TEXT-ANNOTATIONS
            if self._annotations is None:
                self._annotations = []
            self._annotations.extend(item for item in value if isinstance(item, dict))

    def _add_tool_calls(self, key: str, value: JSON) -> None:
        self._tool_calls.add(value)

    def _add_reasoning_details(self, key: str, value: JSON) -> None:
        self._reasoning_details.add(value)

    def _add_logprobs(self, value: JSON) -> None:
        if not isinstance(value, dict):
            return  # LP-SKIP (null is the common case)
        self._logprobs = True
        content = value.get("content")
        if isinstance(content, list):  # LP-CONCAT
            self._logprob_content.extend(item for item in content if isinstance(item, dict))
        refusal = value.get("refusal")
        if isinstance(refusal, list):
            entries = [item for item in refusal if isinstance(item, dict)]
            if entries:
                if self._logprob_refusal is None:
                    self._logprob_refusal = []
                self._logprob_refusal.extend(entries)

    def output(self, *, finished: bool) -> JSONObject:
        """The choice as a non-streaming response carries it."""
        choice: JSONObject = {
            "index": self.index,
            "message": self._message(finished=finished),
            "finish_reason": self._finish_reason,
            "logprobs": self._logprobs_output(),
        }
        if self._native_finish_reason is not None:
            choice["native_finish_reason"] = self._native_finish_reason
        return choice

    def _message(self, *, finished: bool) -> JSONObject:
        message: JSONObject = {"role": self._role or "assistant", "content": None}
        for key, parts in self._text.items():
            message[key] = "".join(parts)
        details = self._reasoning_details.output()
        if details:
            message["reasoning_details"] = details
        calls = self._tool_calls.output(finished=finished)
        if calls:
            message["tool_calls"] = calls
        if self._annotations is not None:
            message["annotations"] = copy_json(self._annotations)
        return message

    def _logprobs_output(self) -> JSONObject | None:
        if not self._logprobs:
            return None  # LP-SHAPE
        refusal = self._logprob_refusal
        return {
            "content": copy_json(self._logprob_content),
            "refusal": copy_json(refusal) if refusal is not None else None,
        }


_DELTA_FIELDS: dict[str, Callable[[ChoiceFold, str, JSON], None]] = {
    "role": ChoiceFold._add_role,
    **dict.fromkeys(_TEXT_FIELDS, ChoiceFold._add_text),
    "annotations": ChoiceFold._add_annotations,
    "tool_calls": ChoiceFold._add_tool_calls,
    "reasoning_details": ChoiceFold._add_reasoning_details,
}
"""Which rule folds each delta key; any other key is ignored (ROB-UNKNOWN-KEYS)."""
