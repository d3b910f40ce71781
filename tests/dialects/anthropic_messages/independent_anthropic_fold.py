"""Clean-room Anthropic Messages stream fold (anthropic-fold.md, AM-* rules). Stdlib only.

Written from the spec alone, on 2026-12-07, by an implementer who had not read the
reference or the suites; kept as written, format aside
(test_an_independent_anthropic_fold_passes.py runs the suites against it).
"""

import copy
import json

_TEXT = "text"
_TOOL_TYPES = ("tool_use", "server_tool_use", "mcp_tool_use")
_JSON_WS = " \t\n\r"
_NUM_KEYS = (
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
)
_OBJ_KEYS = ("server_tool_use", "cache_creation")


def _blank(v):
    if v is None or not isinstance(v, str):
        return True
    return v.strip() == ""


def _index(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v if v >= 0 else None
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            return None
        if v.is_integer() and v >= 0:
            return int(v)
    return None


def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _usage_value_ok(key, v):
    if v is None:
        return False
    if key in _NUM_KEYS:
        return _is_num(v)
    if key in _OBJ_KEYS:
        return isinstance(v, dict)
    if key == "service_tier":
        return not _blank(v)
    return True


def _reject_constant(name):
    raise ValueError("not JSON: " + name)


def _parse_object(s):
    t = s.strip(_JSON_WS)
    try:
        v = json.loads(t, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return None, False
    if isinstance(v, dict):
        return v, True
    return None, False


class FoldError(Exception):
    pass


class _Block:
    __slots__ = ("cites", "data", "has_sig", "joined", "kind", "sig", "text", "thinking")

    def __init__(self, data):
        self.data = data  # deep copy of the block as sent
        t = data.get("type") if isinstance(data, dict) else None
        self.kind = None if _blank(t) else t
        self.joined = ""
        self.cites = []
        if self.kind == "text":
            tx = data.get("text")
            self.text = tx if isinstance(tx, str) else ""
        if self.kind == "thinking":
            th = data.get("thinking")
            self.thinking = th if isinstance(th, str) else ""
            self.sig = None
            self.has_sig = False

    def build(self):
        d = self.data
        if not isinstance(d, dict):
            return copy.deepcopy(d)
        out = copy.deepcopy(d)
        if self.kind == "text":
            out["text"] = self.text
            if self.cites:
                base = d.get("citations")
                base = copy.deepcopy(base) if isinstance(base, list) else []
                out["citations"] = base + copy.deepcopy(self.cites)
        elif self.kind == "thinking":
            out["thinking"] = self.thinking
            if self.has_sig:
                out["signature"] = self.sig
        elif self.kind in _TOOL_TYPES:
            if self.joined.strip(_JSON_WS) != "":
                obj, ok = _parse_object(self.joined)
                out["input"] = obj if ok else self.joined
        return out


class Accumulator:
    def __init__(self):
        self._msg = None
        self._blocks = {}
        self._stop_reason = None
        self._stop_sequence = None
        self._stop_set = False
        self._usage = None
        self._finished = False
        self._stopped = False
        self._error = None
        self._errored = False

    # lifecycle reads
    @property
    def finished(self):
        return self._finished

    @property
    def error(self):
        return copy.deepcopy(self._error) if self._errored else None

    def add(self, event):
        if not isinstance(event, dict):
            raise TypeError(
                "an Anthropic stream event must be a JSON object, received %s: %.200r"
                % (type(event).__name__, event)
            )
        event = copy.deepcopy(event)
        if self._errored or self._stopped:
            return
        et = event.get("type")
        if _blank(et):
            return
        if et == "error":
            err = event.get("error")
            self._error = err if isinstance(err, dict) else {}
            self._errored = True
            return
        if et == "message_start":
            if self._msg is None:
                self._start(event)
            return
        if self._msg is None:
            return
        if et == "content_block_start":
            self._block_start(event)
        elif et == "content_block_delta":
            self._block_delta(event)
        elif et == "content_block_stop":
            pass
        elif et == "message_delta":
            self._message_delta(event)
        elif et == "message_stop":
            self._stopped = True
            self._finished = True
        # ping, unknown: nothing

    def _start(self, event):
        m = event.get("message")
        if not isinstance(m, dict):
            return
        self._msg = m
        content = m.get("content")
        if isinstance(content, list):
            for i, b in enumerate(content):
                self._blocks[i] = _Block(b)
        sr = m.get("stop_reason")
        self._stop_reason = None if _blank(sr) else sr
        self._stop_sequence = m.get("stop_sequence")
        u = m.get("usage")
        self._usage = u if isinstance(u, dict) else None

    def _block_start(self, event):
        idx = _index(event.get("index"))
        if idx is None or idx in self._blocks:
            return
        cb = event.get("content_block")
        if not isinstance(cb, dict):
            return
        self._blocks[idx] = _Block(cb)

    def _block_delta(self, event):
        idx = _index(event.get("index"))
        if idx is None:
            return
        b = self._blocks.get(idx)
        if b is None:
            return
        d = event.get("delta")
        if not isinstance(d, dict):
            return
        dt = d.get("type")
        if _blank(dt):
            return
        k = b.kind
        if dt == "text_delta" and k == "text":
            t = d.get("text")
            if isinstance(t, str):
                b.text += t
        elif dt == "citations_delta" and k == "text":
            c = d.get("citation")
            if isinstance(c, dict):
                b.cites.append(c)
        elif dt == "input_json_delta" and k in _TOOL_TYPES:
            p = d.get("partial_json")
            if isinstance(p, str):
                b.joined += p
        elif dt == "thinking_delta" and k == "thinking":
            t = d.get("thinking")
            if isinstance(t, str):
                b.thinking += t
        elif dt == "signature_delta" and k == "thinking":
            s = d.get("signature")
            if isinstance(s, str):
                b.sig = s
                b.has_sig = True

    def _message_delta(self, event):
        d = event.get("delta")
        if isinstance(d, dict):
            sr = d.get("stop_reason")
            if not _blank(sr):
                self._stop_reason = sr
                ss = d.get("stop_sequence")
                self._stop_sequence = ss if isinstance(ss, str) else None
                self._stop_set = True
            sd = d.get("stop_details")
            if isinstance(sd, dict):
                self._msg["stop_details"] = sd
            ct = d.get("container")
            if isinstance(ct, dict):
                self._msg["container"] = ct
        u = event.get("usage")
        if isinstance(u, dict):
            for key, v in u.items():
                if _usage_value_ok(key, v):
                    if self._usage is None:
                        self._usage = {}
                    self._usage[key] = v

    def response(self):
        if self._msg is None:
            raise FoldError("no message_start has been folded: there is no Message yet")
        out = copy.deepcopy(self._msg)
        if _blank(out.get("type")):
            out["type"] = "message"
        if _blank(out.get("role")):
            out["role"] = "assistant"
        out["content"] = [self._blocks[i].build() for i in sorted(self._blocks)]
        out["stop_reason"] = self._stop_reason
        out["stop_sequence"] = self._stop_sequence
        if self._usage is not None:
            out["usage"] = copy.deepcopy(self._usage)
        else:
            out.pop("usage", None)
        return out


def fold(events):
    acc = Accumulator()
    for e in events:
        acc.add(e)
    return acc.response()


# ---- SSE decoder (WHATWG event-stream parsing; type from data) ----
def decode(parts):
    raw = b"".join(bytes(p) for p in parts)
    text = raw.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    # split lines on CRLF, CR, LF; the last piece (no terminator) is incomplete
    lines = []
    i = 0
    n = len(text)
    start = 0
    while i < n:
        c = text[i]
        if c == "\r":
            lines.append(text[start:i])
            if i + 1 < n and text[i + 1] == "\n":
                i += 1
            start = i + 1
        elif c == "\n":
            lines.append(text[start:i])
            start = i + 1
        i += 1
    events = []
    data = []
    for line in lines:
        if line == "":
            if data:
                payload = "\n".join(data)
                data = []
                if payload == "":
                    continue
                try:
                    obj = json.loads(payload, parse_constant=_reject_constant)
                except ValueError as exc:
                    raise ValueError("SSE data is not JSON: %.200r (%s)" % (payload, exc))
                events.append(obj)
            continue
        if line.startswith(":"):
            continue
        if ":" in line:
            field, value = line.split(":", 1)
            if value.startswith(" "):
                value = value[1:]
        else:
            field, value = line, ""
        if field == "data":
            data.append(value)
        # event, id, retry: the fold reads data's type; nothing else needed
    return events


refold_target = {
    "name": "cleanfold",
    "factory": Accumulator,
    "features": [
        "text",
        "tool_use",
        "server_tools",
        "thinking",
        "citations",
        "stop_details",
        "usage",
        "robustness",
        "lifecycle",
        "sse",
    ],
    "dialect": "anthropic-messages",
    "sse": decode,
}
