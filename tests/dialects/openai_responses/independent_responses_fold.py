"""Clean-room fold of OpenAI Responses API stream events (responses-fold.md, RS-* / LIFE-RS-*).

Standard library only. Written from the spec text alone, on 2026-12-07, by an implementer
who had not read the reference or the suites; two sentences the spec leaves open were then
aligned with the reference (test_an_independent_responses_fold_passes.py says which). Kept
as written, lint aside.

Errors:
- ``Accumulator.add(event)`` raises ``TypeError`` when the event is not a JSON object
  (RS-NOT-OBJECT); the fold is left unchanged.
- ``Accumulator.response()`` raises ``EmptyStreamError`` (a ``LookupError``) when no event has
  been folded yet (LIFE-RS-EMPTY).
"""

from __future__ import annotations

import contextlib
import copy
import math

LIFECYCLE = {"response.created", "response.queued", "response.in_progress"}
TERMINAL = {"response.completed", "response.incomplete", "response.failed"}

# Hosted-tool event families: event-type prefix (between "response." and the last dot) -> item type.
HOSTED_PREFIXES = {
    "web_search_call": "web_search_call",
    "file_search_call": "file_search_call",
    "code_interpreter_call": "code_interpreter_call",
    "code_interpreter_call_code": "code_interpreter_call",
    "image_generation_call": "image_generation_call",
    "mcp_call": "mcp_call",
    "mcp_call_arguments": "mcp_call",
    "mcp_list_tools": "mcp_list_tools",
    "custom_tool_call_input": "custom_tool_call",
}


class EmptyStreamError(LookupError):
    """The result was read before any event was folded (LIFE-RS-EMPTY)."""


# ---------------------------------------------------------------- helpers


def _index(value):
    """A non-negative integral number, else None (RS-WRONG-TYPE)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer() and value >= 0:
        return int(value)
    return None


def _nonblank_str(value):
    return isinstance(value, str) and value.strip() != ""


def _str(value):
    return value if isinstance(value, str) else None


def _obj(value):
    return value if isinstance(value, dict) else None


# ---------------------------------------------------------------- per-item state


class _Part:
    __slots__ = ("final", "part")

    def __init__(self, part):
        self.part = part
        self.final = False


class _Item:
    def __init__(self, base, announced):
        self.base = base  # the added item (or placeholder), a dict
        self.announced = announced
        self.content = {}  # content_index -> _Part
        self.summary = {}  # summary_index -> _Part
        self.args = None  # streamed arguments (str) or None
        self.args_final = False
        self.done = None  # output_item.done item

    @property
    def type(self):
        t = self.base.get("type")
        return t if isinstance(t, str) else None

    # -- parts

    def _base_list(self, key):
        lst = self.base.get(key)
        return lst if isinstance(lst, list) else None

    def get_part(self, table, key, idx, default_part):
        """The part at idx, created from the base item's list or default_part."""
        p = table.get(idx)
        if p is None:
            lst = self._base_list(key)
            if lst is not None and idx < len(lst) and isinstance(lst[idx], dict):
                init = copy.deepcopy(lst[idx])
            else:
                init = default_part()
            p = _Part(init)
            table[idx] = p
        return p

    def build(self, terminal_kind=None):
        if self.done is not None:
            return copy.deepcopy(self.done)
        out = copy.deepcopy(self.base)
        kind = self.type
        # v3: only the kinds that stream build fields; hosted/unknown items are kept as sent
        if self.content and kind in ("message", "reasoning"):
            out["content"] = self._merge("content", self.content)
        if self.summary and kind == "reasoning":
            out["summary"] = self._merge("summary", self.summary)
        if self.args is not None and kind == "function_call":
            out["arguments"] = self.args
        if terminal_kind is not None:
            status = out.get("status")
            if not _nonblank_str(status) or status == "in_progress":
                out["status"] = (
                    "completed" if terminal_kind == "response.completed" else "incomplete"
                )
        return out

    def _merge(self, key, table):
        merged = {}
        lst = self._base_list(key)
        if lst is not None:
            for i, v in enumerate(lst):
                merged[i] = copy.deepcopy(v)
        for i, p in table.items():
            merged[i] = copy.deepcopy(p.part)
        return [merged[i] for i in sorted(merged)]


def _placeholder(item_type, item_id):
    item = {"type": item_type}
    if _nonblank_str(item_id):
        item["id"] = item_id
    item["status"] = "in_progress"
    if item_type == "message":
        item["role"] = "assistant"
        item["content"] = []
    elif item_type == "function_call":
        item["arguments"] = ""
    elif item_type == "reasoning":
        item["summary"] = []
    return item


def _text_part():
    return {"type": "output_text", "text": "", "annotations": []}


def _refusal_part():
    return {"type": "refusal", "refusal": ""}


def _reasoning_text_part():
    return {"type": "reasoning_text", "text": ""}


def _summary_part():
    return {"type": "summary_text", "text": ""}


# ---------------------------------------------------------------- the accumulator


class Accumulator:
    def __init__(self):
        self._count = 0  # events folded (objects only)
        self._lifecycle = []  # (position, response dict)
        self._terminal = None  # (position, event type, response dict)
        self._items = {}  # output_index -> _Item
        self._ids = {}  # announced item id -> output_index

    # -- public interface

    def add(self, event):
        if not isinstance(event, dict):
            raise TypeError(
                f"a Responses stream event must be a JSON object, got {type(event).__name__}"
            )
        event = copy.deepcopy(event)
        self._count += 1
        with contextlib.suppress(Exception):  # defensive: an object never raises
            self._fold(event, self._count)

    def response(self):
        if self._count == 0:
            raise EmptyStreamError("no event has been folded yet: there is no Response to read")
        if self._terminal is None:
            return self._snapshot()
        return self._final()

    @property
    def finished(self):
        return self._terminal is not None

    def mark_done(self):
        # The Responses API has no [DONE]; end of stream finishes nothing (LIFE-RS-FINISHED).
        pass

    # -- folding

    def _fold(self, ev, pos):
        etype = ev.get("type")
        if not isinstance(etype, str):
            return
        if etype in LIFECYCLE:
            resp = _obj(ev.get("response"))
            if resp is not None:
                self._lifecycle.append((pos, resp))
            return
        if etype in TERMINAL:
            resp = _obj(ev.get("response"))
            if resp is not None:
                self._terminal = (pos, etype, resp)
            return
        if not etype.startswith("response."):
            return  # error, keepalive, unknown
        kind = etype[len("response.") :]
        if kind == "output_item.added":
            self._on_added(ev)
        elif kind == "output_item.done":
            self._on_item_done(ev)
        elif kind in ("content_part.added", "content_part.done"):
            self._on_content_part(ev, kind.endswith("done"))
        elif kind in ("output_text.delta", "output_text.done"):
            self._on_text(ev, kind.endswith("done"), refusal=False)
        elif kind in ("refusal.delta", "refusal.done"):
            self._on_text(ev, kind.endswith("done"), refusal=True)
        elif kind == "output_text.annotation.added":
            self._on_annotation(ev)
        elif kind in ("function_call_arguments.delta", "function_call_arguments.done"):
            self._on_args(ev, kind.endswith("done"))
        elif kind in ("reasoning_summary_part.added", "reasoning_summary_part.done"):
            self._on_summary_part(ev, kind.endswith("done"))
        elif kind in ("reasoning_summary_text.delta", "reasoning_summary_text.done"):
            self._on_summary_text(ev, kind.endswith("done"))
        elif kind in ("reasoning_text.delta", "reasoning_text.done"):
            self._on_reasoning_text(ev, kind.endswith("done"))
        else:
            prefix = kind.rsplit(".", 1)[0] if "." in kind else None
            if prefix in HOSTED_PREFIXES:
                self._route(ev, HOSTED_PREFIXES[prefix])  # opens a placeholder only

    # -- routing

    def _route(self, ev, implied_type, item_id=None):
        """The _Item an item event belongs to (RS-ROUTE, RS-ORPHAN), or None."""
        if item_id is None:
            item_id = ev.get("item_id")
        if isinstance(item_id, str) and item_id in self._ids:
            return self._items[self._ids[item_id]]
        idx = _index(ev.get("output_index"))
        if idx is None:
            return None
        item = self._items.get(idx)
        if item is None:
            if implied_type is None:
                return None
            item = _Item(_placeholder(implied_type, item_id), announced=False)
            self._items[idx] = item
        return item

    def _on_added(self, ev):
        new = _obj(ev.get("item"))
        if new is None:
            return  # RS-NULL-ITEM
        idx = _index(ev.get("output_index"))
        if idx is None:
            return
        new = copy.deepcopy(new)
        item = self._items.get(idx)
        if item is None:
            item = _Item(new, announced=True)
            self._items[idx] = item
        else:  # RS-READD
            item.base = new
            item.announced = True
        nid = new.get("id")
        if isinstance(nid, str) and nid != "":
            self._ids[nid] = idx

    def _on_item_done(self, ev):
        done = _obj(ev.get("item"))
        if done is None:
            return
        did = done.get("id")
        implied = done.get("type") if isinstance(done.get("type"), str) else None
        item = self._route(ev, implied or "message", item_id=did if isinstance(did, str) else None)
        if item is None:
            return
        item.done = copy.deepcopy(done)

    @staticmethod
    def _fits_message(item):
        return item.type == "message"

    @staticmethod
    def _fits_reasoning(item):
        return item.type == "reasoning"

    def _on_content_part(self, ev, is_done):
        part = _obj(ev.get("part"))
        ptype = part.get("type") if part is not None else None
        implied = "reasoning" if ptype == "reasoning_text" else "message"
        item = self._route(ev, implied)
        if item is None or part is None:
            return
        if ptype == "reasoning_text":
            if not self._fits_reasoning(item):
                return
        elif not self._fits_message(item):
            return
        cidx = _index(ev.get("content_index"))
        if cidx is None:
            return  # v3: parts are keyed by content_index; absent -> nothing
        part = copy.deepcopy(part)
        existing = item.content.get(cidx)
        if is_done or existing is None:
            p = _Part(part)
            if existing is None and not is_done:
                # start from the announced item's part when it had one
                lst = item._base_list("content")
                if lst is not None and cidx < len(lst) and isinstance(lst[cidx], dict):
                    merged = copy.deepcopy(lst[cidx])
                    merged.update(part)
                    p = _Part(merged)
            p.final = is_done
            item.content[cidx] = p
            return
        # content_part.added over a part that already streamed: keep what was streamed
        if existing.final:
            return
        old = existing.part
        newp = dict(part)
        for key in ("text", "refusal"):
            if (
                isinstance(old.get(key), str)
                and old.get(key) != ""
                and old.get("type") == newp.get("type")
            ):
                newp[key] = old[key]
        if (
            isinstance(old.get("annotations"), list)
            and old.get("annotations")
            and not newp.get("annotations")
        ):
            newp["annotations"] = old["annotations"]
        existing.part = newp

    def _on_text(self, ev, is_done, refusal):
        item = self._route(ev, "message")
        if item is None or not self._fits_message(item):
            return
        cidx = _index(ev.get("content_index"))
        if cidx is None:
            return  # v3: parts are keyed by content_index; absent -> nothing
        if refusal:
            key, ptype, make = "refusal", "refusal", _refusal_part
            value = _str(ev.get("refusal" if is_done else "delta"))
        else:
            key, ptype, make = "text", "output_text", _text_part
            value = _str(ev.get("text" if is_done else "delta"))
        existing = item.content.get(cidx)
        if existing is not None:
            t = existing.part.get("type")
            if t is not None and t != ptype:
                return  # RS-KIND-MATCH (part level)
        elif item._base_list("content") is not None and cidx < len(item.base["content"]):
            bp = item.base["content"][cidx]
            if isinstance(bp, dict) and bp.get("type") is not None and bp.get("type") != ptype:
                return
        p = item.get_part(item.content, "content", cidx, make)
        if value is None:
            return  # v2: the event opens its part even without a string value (reference)
        if is_done:
            p.part[key] = value
            p.final = True
        else:
            if p.final:
                return
            cur = p.part.get(key)
            p.part[key] = (cur if isinstance(cur, str) else "") + value

    def _on_annotation(self, ev):
        item = self._route(ev, "message")
        if item is None or not self._fits_message(item):
            return
        ann = ev.get("annotation")
        if ann is None:
            return
        cidx = _index(ev.get("content_index"))
        if cidx is None:
            return  # v3: parts are keyed by content_index; absent -> nothing
        existing = item.content.get(cidx)
        if existing is not None and existing.part.get("type") not in (None, "output_text"):
            return
        p = item.get_part(item.content, "content", cidx, _text_part)
        anns = p.part.get("annotations")
        if not isinstance(anns, list):
            anns = []
            p.part["annotations"] = anns
        aidx = _index(ev.get("annotation_index"))
        ann = copy.deepcopy(ann)
        if aidx is not None and aidx < len(anns):
            anns[aidx] = ann
        else:
            anns.append(ann)

    def _on_args(self, ev, is_done):
        item = self._route(ev, "function_call")
        if item is None or item.type != "function_call":
            return
        value = _str(ev.get("arguments" if is_done else "delta"))
        if value is None:
            return
        if is_done:
            item.args = value
            item.args_final = True
            return
        if item.args_final:
            return
        if item.args is None:
            base = item.base.get("arguments")
            item.args = base if isinstance(base, str) else ""
        item.args += value

    def _on_summary_part(self, ev, is_done):
        item = self._route(ev, "reasoning")
        if item is None or not self._fits_reasoning(item):
            return
        part = _obj(ev.get("part"))
        if part is None:
            return
        sidx = _index(ev.get("summary_index"))
        if sidx is None:
            return  # v3: keyed by summary_index; absent -> nothing
        part = copy.deepcopy(part)
        existing = item.summary.get(sidx)
        if is_done or existing is None:
            p = _Part(part)
            p.final = is_done
            item.summary[sidx] = p
            return
        if existing.final:
            return
        old = existing.part
        if isinstance(old.get("text"), str) and old.get("text") != "":
            part["text"] = old["text"]
        existing.part = part

    def _on_summary_text(self, ev, is_done):
        item = self._route(ev, "reasoning")
        if item is None or not self._fits_reasoning(item):
            return
        value = _str(ev.get("text" if is_done else "delta"))
        sidx = _index(ev.get("summary_index"))
        if sidx is None:
            return  # v3: keyed by summary_index; absent -> nothing
        p = item.get_part(item.summary, "summary", sidx, _summary_part)
        if value is None:
            return
        if is_done:
            p.part["text"] = value
            p.final = True
        elif not p.final:
            cur = p.part.get("text")
            p.part["text"] = (cur if isinstance(cur, str) else "") + value

    def _on_reasoning_text(self, ev, is_done):
        item = self._route(ev, "reasoning")
        if item is None or not self._fits_reasoning(item):
            return
        value = _str(ev.get("text" if is_done else "delta"))
        cidx = _index(ev.get("content_index"))
        if cidx is None:
            return  # v3: parts are keyed by content_index; absent -> nothing
        p = item.get_part(item.content, "content", cidx, _reasoning_text_part)
        if p.part.get("type") not in (None, "reasoning_text") or value is None:
            return
        if is_done:
            p.part["text"] = value
            p.final = True
        elif not p.final:
            cur = p.part.get("text")
            p.part["text"] = (cur if isinstance(cur, str) else "") + value

    # -- results

    def _streamed(self, terminal_kind=None):
        return [self._items[i].build(terminal_kind) for i in sorted(self._items)]

    def _snapshot(self):
        if self._lifecycle:
            out = copy.deepcopy(self._lifecycle[-1][1])
        else:
            out = {"status": "in_progress"}
        out["object"] = "response"
        out["output"] = self._streamed()
        return out

    def _final(self):
        pos, kind, resp = self._terminal
        out = copy.deepcopy(resp)
        # RS-ENV-FILL: key by key from the latest earlier lifecycle response with a non-null value
        earlier = [r for p, r in self._lifecycle if p < pos]
        for r in reversed(earlier):
            for key, value in r.items():
                if key == "output" or value is None:
                    continue
                if out.get(key) is None:
                    out[key] = copy.deepcopy(value)
        out["object"] = "response"
        terminal_output = resp.get("output")
        if isinstance(terminal_output, list) and terminal_output:
            out["output"] = copy.deepcopy(terminal_output)  # RS-OUTPUT-TERMINAL
        else:
            out["output"] = self._streamed(kind)  # RS-OUTPUT-RECOVER (+ RS-RECOVER-STATUS)
        return out


def fold(events):
    acc = Accumulator()
    for ev in events:
        acc.add(ev)
    return acc.response()


refold_target = {
    "name": "cleanfold",
    "dialect": "openai-responses",
    "factory": Accumulator,
    "features": [
        "text",
        "tool_calls",
        "refusal",
        "reasoning",
        "annotations",
        "usage",
        "robustness",
        "lifecycle",
    ],
}
