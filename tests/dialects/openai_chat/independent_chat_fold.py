"""Clean-room implementation of chat-fold.md (OpenAI Chat Completions stream fold).

Standard library only. Written from the spec alone, on 2026-12-07, by an implementer who had
not read the reference or the suites; kept as written, format aside
(test_an_independent_chat_fold_passes.py runs the suites against it).
"""

import copy
import json

FEATURES = [
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
]


class EmptyFoldError(RuntimeError):
    """Raised when the response is read before any chunk was folded (LIFE-EMPTY)."""


# ---------------------------------------------------------------- helpers


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _nonblank(v):
    """Return v if it is a non-blank string, else None (blank counts as absent)."""
    if isinstance(v, str) and v.strip() != "":
        return v
    return None


def _index(v):
    if _is_int(v) and v >= 0:
        return v
    return None


def _reject_constant(name):
    raise ValueError(name)


def _complete(args):
    """Complete arguments: a string that, JSON whitespace trimmed, parses as one JSON object."""
    if not isinstance(args, str):
        return False, None
    s = args.strip(" \t\n\r")
    if not s.startswith("{"):
        return False, None
    try:
        val = json.loads(s, parse_constant=_reject_constant)
    except Exception:  # ValueError, RecursionError ...
        return False, None
    if isinstance(val, dict):
        return True, val
    return False, None


def _json_equal(a, b):
    """Equality of JSON values (true != 1, 1 == 1.0)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return False
        return all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    if a is None or b is None:
        return a is None and b is None
    if type(a) is not type(b):
        return False
    return a == b


def _describe(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a JSON boolean (%r)" % v
    if isinstance(v, (int, float)):
        return "a JSON number (%r)" % v
    if isinstance(v, str):
        r = repr(v)
        return "a JSON string (%s)" % (r if len(r) < 60 else r[:57] + "...")
    if isinstance(v, list):
        return "a JSON array of %d item(s)" % len(v)
    return "a value of Python type %s" % type(v).__name__


# ---------------------------------------------------------------- state


class _Call:
    __slots__ = ("arguments", "id", "name", "type")

    def __init__(self):
        self.id = None
        self.type = None
        self.name = None
        self.arguments = ""


class _Choice:
    def __init__(self, index):
        self.index = index
        self.role = None
        self.finish_reason = None
        self.native_finish_reason = None
        self.content = []
        self.refusal = []
        self.reasoning = []
        self.reasoning_content = []
        self.annotations = None  # list once any delta.annotations list arrived
        self.tools = {}  # index -> list of _Call
        self.last_tool_index = None
        self.rd = []  # list of segment dicts (in order of first appearance)
        self.rd_keyed = {}  # (type, index) -> segment dict
        self.rd_open = {}  # type -> open index-less segment dict
        self.lp_seen = False
        self.lp_content = []
        self.lp_refusal = []
        self.lp_refusal_seen = False


_MERGE_FIELD = {"reasoning.text": "text", "reasoning.summary": "summary"}


class Accumulator:
    def __init__(self):
        self._any = False
        self._done = False
        self._id = None
        self._model = None
        self._created = None
        self._provider = {}
        self._usage = None
        self._choices = {}

    # ---- lifecycle
    def mark_done(self):
        self._done = True

    @property
    def finished(self):
        if self._done:
            return True
        if not self._choices:
            return False
        for ch in self._choices.values():
            if ch.finish_reason is None or ch.finish_reason == "error":
                return False
        return True

    # ---- folding
    def add(self, chunk):
        if not isinstance(chunk, dict):
            raise TypeError(
                "a chat.completion.chunk must be a JSON object; received %s" % _describe(chunk)
            )
        self._any = True
        if self._id is None:
            self._id = _nonblank(chunk.get("id"))
        if self._model is None:
            self._model = _nonblank(chunk.get("model"))
        if self._created is None:
            c = chunk.get("created")
            if _is_int(c) and c > 0:
                self._created = c
        for key in ("provider", "system_fingerprint", "service_tier"):
            v = _nonblank(chunk.get(key))
            if v is not None:
                self._provider[key] = v
        u = chunk.get("usage")
        if isinstance(u, dict):
            self._usage = copy.deepcopy(u)
        choices = chunk.get("choices")
        if isinstance(choices, list):
            for entry in choices:
                if isinstance(entry, dict):
                    self._add_choice(entry)

    def _add_choice(self, entry):
        idx = _index(entry.get("index"))
        if idx is None:
            idx = 0
        ch = self._choices.get(idx)
        if ch is None:
            ch = self._choices[idx] = _Choice(idx)
        delta = entry.get("delta")
        if not isinstance(delta, dict):
            delta = {}
        if ch.role is None:
            ch.role = _nonblank(delta.get("role"))
        for key, buf in (
            ("content", ch.content),
            ("refusal", ch.refusal),
            ("reasoning", ch.reasoning),
            ("reasoning_content", ch.reasoning_content),
        ):
            v = delta.get(key)
            if isinstance(v, str):
                buf.append(v)
        ann = delta.get("annotations")
        if isinstance(ann, list):
            if ch.annotations is None:
                ch.annotations = []
            for a in ann:
                if isinstance(a, dict):
                    ch.annotations.append(copy.deepcopy(a))
        tcs = delta.get("tool_calls")
        if isinstance(tcs, list):
            for frag in tcs:
                if isinstance(frag, dict):
                    self._add_tool(ch, frag)
        rds = delta.get("reasoning_details")
        if isinstance(rds, list):
            for seg in rds:
                if isinstance(seg, dict):
                    self._add_rd(ch, seg)
        lp = entry.get("logprobs")
        if isinstance(lp, dict):
            ch.lp_seen = True
            c = lp.get("content")
            if isinstance(c, list):
                ch.lp_content.extend(copy.deepcopy(x) for x in c if isinstance(x, dict))
            r = lp.get("refusal")
            if isinstance(r, list):
                items = [copy.deepcopy(x) for x in r if isinstance(x, dict)]
                if items:
                    ch.lp_refusal_seen = True
                ch.lp_refusal.extend(items)
        fr = _nonblank(entry.get("finish_reason"))
        if fr is not None:
            ch.finish_reason = fr
        nfr = _nonblank(entry.get("native_finish_reason"))
        if nfr is not None:
            ch.native_finish_reason = nfr

    def _add_tool(self, ch, frag):
        tidx = _index(frag.get("index"))
        if tidx is None:
            tidx = ch.last_tool_index if ch.last_tool_index is not None else 0
        ch.last_tool_index = tidx
        fid = _nonblank(frag.get("id"))
        fn = frag.get("function")
        if not isinstance(fn, dict):
            fn = {}
        fname = _nonblank(fn.get("name"))
        fargs = fn.get("arguments")
        if not isinstance(fargs, str):
            fargs = None
        ftype = _nonblank(frag.get("type"))

        calls = ch.tools.get(tidx)
        if not calls:  # TOOL-1-OPEN
            call = _Call()
            ch.tools[tidx] = [call]
        else:
            cur = calls[-1]
            frag_complete, frag_val = _complete(fargs)
            cur_complete, cur_val = _complete(cur.arguments)
            if fid is not None and cur.id is not None and fid != cur.id:
                call = _Call()  # TOOL-2-NEW-ID
                calls.append(call)
            elif frag_complete and cur_complete and fid is not None and fid == cur.id:
                return  # TOOL-3-RESEND (same id)
            elif (
                frag_complete
                and cur_complete
                and fid is None
                and fname is None
                and _json_equal(frag_val, cur_val)
            ):
                return  # TOOL-3-RESEND [ext] (no id, no name, equal JSON)
            elif frag_complete and cur_complete:
                call = _Call()  # TOOL-4-SPLIT
                calls.append(call)
            else:
                call = cur  # TOOL-5-APPEND
        if fargs is not None:
            call.arguments += fargs
        if call.id is None and fid is not None:
            call.id = fid
        if call.name is None and fname is not None:
            call.name = fname
        if call.type is None and ftype is not None:
            call.type = ftype

    def _add_rd(self, ch, frag):
        typ = frag.get("type")
        field = _MERGE_FIELD.get(typ) if isinstance(typ, str) else None
        if field is None:  # RD-AS-SENT
            ch.rd.append(copy.deepcopy(frag))
            return
        ridx = frag.get("index")
        has_index = _is_int(ridx)
        if has_index:
            seg = ch.rd_keyed.get((typ, ridx))
            if seg is None:
                seg = {"type": typ}
                ch.rd_keyed[(typ, ridx)] = seg
                ch.rd.append(seg)
        else:
            seg = ch.rd_open.get(typ)
            if seg is None:
                seg = {"type": typ}
                ch.rd_open[typ] = seg
                ch.rd.append(seg)
        for k, v in frag.items():
            if k == "type":
                continue
            if k == "index":
                if has_index:
                    seg["index"] = v
                continue
            if k == field:
                if isinstance(v, str):
                    seg[k] = seg.get(k, "") + v if isinstance(seg.get(k), str) else v
                continue
            if isinstance(v, str):
                if _nonblank(v) is not None or k not in seg:
                    seg[k] = v
            elif v is not None:
                seg[k] = copy.deepcopy(v)
            elif k not in seg:
                seg[k] = None
        if not has_index and _nonblank(seg.get("signature")) is not None:
            ch.rd_open.pop(typ, None)  # RD-INDEXLESS: closes once signed

    # ---- reading
    def response(self):
        if not self._any:
            raise EmptyFoldError("no chunk has been folded yet: there is no response to read")
        finished = self.finished
        out = {
            "id": self._id,
            "object": "chat.completion",
            "created": self._created,
            "model": self._model,
        }
        for k, v in self._provider.items():
            out[k] = v
        choices = []
        for idx in sorted(self._choices):
            ch = self._choices[idx]
            msg = {"role": ch.role if ch.role is not None else "assistant"}
            content = "".join(ch.content)
            msg["content"] = content if content else None
            for key, buf in (
                ("refusal", ch.refusal),
                ("reasoning", ch.reasoning),
                ("reasoning_content", ch.reasoning_content),
            ):
                s = "".join(buf)
                msg[key] = s if s else None
            if ch.rd:
                msg["reasoning_details"] = copy.deepcopy(ch.rd)
            calls = []
            for tidx in sorted(ch.tools):
                for call in ch.tools[tidx]:
                    args = call.arguments
                    if finished and args == "":
                        args = "{}"
                    calls.append(
                        {
                            "id": call.id,
                            "type": call.type if call.type is not None else "function",
                            "function": {"name": call.name, "arguments": args},
                        }
                    )
            if calls:
                msg["tool_calls"] = calls
            if ch.annotations is not None:
                msg["annotations"] = copy.deepcopy(ch.annotations)
            c = {"index": idx, "message": msg, "finish_reason": ch.finish_reason}
            if ch.native_finish_reason is not None:
                c["native_finish_reason"] = ch.native_finish_reason
            if ch.lp_seen:
                c["logprobs"] = {
                    "content": copy.deepcopy(ch.lp_content),
                    "refusal": copy.deepcopy(ch.lp_refusal) if ch.lp_refusal_seen else None,
                }
            else:
                c["logprobs"] = None
            choices.append(c)
        out["choices"] = choices
        if self._usage is not None:
            out["usage"] = copy.deepcopy(self._usage)
        return out


def fold(chunks):
    acc = Accumulator()
    for c in chunks:
        acc.add(c)
    return acc.response()


refold_target = {
    "factory": Accumulator,
    "name": "cleanfold",
    "features": FEATURES,
}
