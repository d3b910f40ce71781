"""Clean-room fold of Gemini streamGenerateContent chunks (gemini-fold.md, GM-*).

Standard library only. Written from docs/spec/gemini-fold.md alone, on 2026-12-07, by an
implementer who had not read the reference or the suites; kept as written, lint aside
(test_an_independent_gemini_fold_passes.py runs the suites against it).
"""

from __future__ import annotations

import copy
import json
import re

__all__ = ["Accumulator", "fold", "refold_target"]

_ENV_OWN = {"candidates", "usageMetadata", "promptFeedback", "modelVersion", "responseId", "error"}
_CAND_OWN = {
    "index",
    "content",
    "finishReason",
    "safetyRatings",
    "citationMetadata",
    "groundingMetadata",
}
_CITATION_LISTS = ("citationSources", "citations")
_PLAIN_KEYS = {"text", "thought", "thoughtSignature"}


class FoldError(ValueError):
    """Raised for a refused chunk (GM-ROB-NOT-OBJECT) or an early read (GM-LIFE-EMPTY)."""


def _blank(value):
    """Blank: absent/None, wrong type (not a string), or empty/whitespace string."""
    return not isinstance(value, str) or value.strip() == ""


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _index_of(value):
    """GM-CAND-INDEX: a non-negative integral JSON number, else 0."""
    if _is_number(value):
        if isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                return 0
            if not value.is_integer():
                return 0
            value = int(value)
        if value >= 0:
            return value
    return 0


def _type_name(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a JSON array"
    return type(value).__name__


# --------------------------------------------------------------------------- jsonPath


_INDEX_RE = re.compile(r"[0-9]+")


def _parse_path(path):
    """RFC 9535 member-name subset: `$` then `.name`, `['name']`, `["name"]`, `[n]`."""
    if not isinstance(path, str) or not path.startswith("$"):
        return None
    segments = []
    i, n = 1, len(path)
    while i < n:
        c = path[i]
        if c == ".":
            j = i + 1
            while j < n and path[j] not in ".[":
                j += 1
            name = path[i + 1 : j]
            if name == "":
                return None
            segments.append(name)
            i = j
        elif c == "[":
            if i + 1 < n and path[i + 1] in "'\"":
                quote = path[i + 1]
                end = path.find(quote, i + 2)
                if end == -1 or end + 1 >= n or path[end + 1] != "]":
                    return None
                segments.append(path[i + 2 : end])
                i = end + 2
            else:
                end = path.find("]", i + 1)
                if end == -1:
                    return None
                digits = path[i + 1 : end]
                if not _INDEX_RE.fullmatch(digits):
                    return None
                segments.append(int(digits))
                i = end + 1
        else:
            return None
    if not segments or not isinstance(segments[0], str):
        return None
    return tuple(segments)


_NO_VALUE = object()


def _piece_value(piece):
    """The piece's typed value, read in the order the spec gives; (kind, value)."""
    if isinstance(piece.get("stringValue"), str):
        return "string", piece["stringValue"]
    if _is_number(piece.get("numberValue")):
        return "number", piece["numberValue"]
    if isinstance(piece.get("boolValue"), bool):
        return "bool", piece["boolValue"]
    if piece.get("nullValue") is not None:
        return "null", None
    return None, _NO_VALUE


def _set_at(root, segments, value, append):
    """Set value at segments under root (a dict); False when the path is blocked."""
    cur = root
    for k, seg in enumerate(segments):
        last = k == len(segments) - 1
        if isinstance(seg, str):
            if not isinstance(cur, dict):
                return False
            if last:
                if append and isinstance(cur.get(seg), str):
                    cur[seg] = cur[seg] + value
                else:
                    cur[seg] = value
                return True
            nxt = segments[k + 1]
            child = cur.get(seg)
            if child is None:
                child = {} if isinstance(nxt, str) else []
                cur[seg] = child
            elif not isinstance(child, dict if isinstance(nxt, str) else list):
                return False
            cur = child
        else:
            if not isinstance(cur, list):
                return False
            while len(cur) < seg:
                cur.append(None)
            if last:
                if seg < len(cur):
                    if append and isinstance(cur[seg], str):
                        cur[seg] = cur[seg] + value
                    else:
                        cur[seg] = value
                else:
                    cur.append(value)
                return True
            nxt = segments[k + 1]
            if seg == len(cur):
                cur.append(None)
            child = cur[seg]
            if child is None:
                child = {} if isinstance(nxt, str) else []
                cur[seg] = child
            elif not isinstance(child, dict if isinstance(nxt, str) else list):
                return False
            cur = child
    return False


# --------------------------------------------------------------------------- parts


class _TextRun:
    __slots__ = ("signature", "text", "thought")

    def __init__(self, text, thought, signature):
        self.text = text
        self.thought = thought
        self.signature = signature

    def render(self):
        out = {"text": self.text}
        if self.thought:
            out["thought"] = True
        if self.signature is not None:
            out["thoughtSignature"] = self.signature
        return out


class _Whole:
    __slots__ = ("part",)

    def __init__(self, part):
        self.part = part

    def render(self):
        return copy.deepcopy(self.part)


class _StreamedCall:
    """GM-CALL-STREAMED / GM-CALL-PARTIAL-ARGS."""

    __slots__ = ("applied", "built", "call", "part_keys", "prev")

    def __init__(self, part):
        fc = part["functionCall"]
        self.call = {
            k: copy.deepcopy(v) for k, v in fc.items() if k not in ("partialArgs", "willContinue")
        }
        self.part_keys = {k: copy.deepcopy(v) for k, v in part.items() if k != "functionCall"}
        self.built = {}
        self.applied = False
        self.prev = None  # (segments, was_string, will_continue) of the previous piece
        self.apply_pieces(fc.get("partialArgs"))

    def continue_with(self, part):
        fc = part["functionCall"]
        for k, v in fc.items():
            if k in ("name", "partialArgs", "willContinue") or v is None:
                continue
            self.call[k] = copy.deepcopy(v)
        for k, v in part.items():
            if k == "functionCall" or v is None:
                continue
            self.part_keys[k] = copy.deepcopy(v)
        self.apply_pieces(fc.get("partialArgs"))

    def apply_pieces(self, pieces):
        if not isinstance(pieces, list):
            return
        for piece in pieces:
            if not isinstance(piece, dict):
                continue  # GM-ROB-NULL-ENTRIES
            segments = _parse_path(piece.get("jsonPath"))
            kind, value = _piece_value(piece)
            will_continue = piece.get("willContinue") is True
            if segments is None or value is _NO_VALUE:
                self.prev = None
                continue
            append = (
                kind == "string"
                and self.prev is not None
                and self.prev[0] == segments
                and self.prev[1]
                and self.prev[2]
            )
            if _set_at(self.built, segments, copy.deepcopy(value), append):
                self.applied = True
            self.prev = (segments, kind == "string", will_continue)

    def render(self):
        call = copy.deepcopy(self.call)
        if self.applied:
            call["args"] = copy.deepcopy(self.built)
        out = {"functionCall": call}
        out.update(copy.deepcopy(self.part_keys))
        return out


def _is_plain_text(part):
    return isinstance(part.get("text"), str) and set(part) <= _PLAIN_KEYS


def _fc_name_blank(fc):
    return _blank(fc.get("name"))


# --------------------------------------------------------------------------- candidates


class _Candidate:
    def __init__(self, index):
        self.index = index
        self.keys = {}
        self.finish = None
        self.has_content = False
        self.role = None
        self.content_keys = {}
        self.parts = []  # _TextRun | _Whole | _StreamedCall
        self.open_call = None
        self.safety = []  # list of [category_key, rating]
        self.citations = None  # dict, lists deduped
        self.grounding = None

    # -- candidate entry
    def add(self, entry):
        for key, value in entry.items():
            if key in _CAND_OWN or value is None:
                continue
            self.keys[key] = copy.deepcopy(value)  # GM-CAND-KEYS
        fr = entry.get("finishReason")
        if not _blank(fr):
            self.finish = fr  # GM-FINISH
        content = entry.get("content")
        if isinstance(content, dict):
            self._add_content(content)
        self._add_safety(entry.get("safetyRatings"))
        self._add_citations(entry.get("citationMetadata"))
        self._add_grounding(entry.get("groundingMetadata"))

    def _add_content(self, content):
        self.has_content = True
        role = content.get("role")
        if self.role is None and not _blank(role):
            self.role = role
        for key, value in content.items():
            if key in ("role", "parts") or value is None:
                continue
            self.content_keys[key] = copy.deepcopy(value)
        parts = content.get("parts")
        if isinstance(parts, list):
            for part in parts:
                self._add_part(part)

    def _add_part(self, part):
        if not isinstance(part, dict):
            return  # GM-ROB-NULL-ENTRIES / GM-PART-OTHER
        if all(v is None for v in part.values()):
            return  # `{}` or only nulls: carries nothing
        fc = part.get("functionCall")
        if self.open_call is not None:
            if isinstance(fc, dict) and _fc_name_blank(fc):
                self.open_call.continue_with(part)
                if fc.get("willContinue") is not True:
                    self.open_call = None
                return
            if isinstance(fc, dict):
                self.open_call = None  # a named call ends the open one
            # other parts are appended after the open call, which stays open
        if isinstance(fc, dict):
            opens = fc.get("willContinue") is True or isinstance(fc.get("partialArgs"), list)
            if opens and not _fc_name_blank(fc):
                call = _StreamedCall(part)
                self.parts.append(call)
                if fc.get("willContinue") is True:
                    self.open_call = call
                return
            self.parts.append(_Whole(copy.deepcopy(part)))  # GM-CALL-WHOLE
            return
        if _is_plain_text(part):
            self._add_text(part)
            return
        self.parts.append(_Whole(copy.deepcopy(part)))  # GM-CODE, GM-INLINE, GM-PART-OTHER

    def _add_text(self, part):
        text = part["text"]
        thought = part.get("thought") is True
        sig = part.get("thoughtSignature")
        sig = None if _blank(sig) else sig
        if text == "" and sig is None:
            return  # GM-TEXT-EMPTY
        prev = self.parts[-1] if self.parts else None
        if isinstance(prev, _TextRun) and prev.thought == thought and prev.signature is None:
            prev.text += text
            if sig is not None:
                prev.signature = sig
            return
        self.parts.append(_TextRun(text, thought, sig))

    def _add_safety(self, ratings):
        if not isinstance(ratings, list):
            return
        for rating in ratings:
            if not isinstance(rating, dict):
                continue
            cat = rating.get("category")
            key = None if _blank(cat) else cat
            for slot in self.safety:
                if slot[0] == key:
                    slot[1] = copy.deepcopy(rating)
                    break
            else:
                self.safety.append([key, copy.deepcopy(rating)])

    def _add_citations(self, meta):
        if not isinstance(meta, dict):
            return
        if self.citations is None:
            self.citations = {}
        for key, value in meta.items():
            if value is None:
                continue
            if key in _CITATION_LISTS:
                if not isinstance(value, list):
                    continue
                kept = self.citations.setdefault(key, [])
                for entry in value:
                    if not isinstance(entry, dict):
                        continue
                    if any(_json_equal(entry, k) for k in kept):
                        continue
                    kept.append(copy.deepcopy(entry))
            else:
                self.citations[key] = copy.deepcopy(value)

    def _add_grounding(self, meta):
        if not isinstance(meta, dict):
            return
        if self.grounding is None:
            self.grounding = {}
        for key, value in meta.items():
            if value is None:
                continue
            self.grounding[key] = copy.deepcopy(value)

    def render(self):
        out = copy.deepcopy(self.keys)
        out["index"] = self.index
        if self.has_content:
            content = copy.deepcopy(self.content_keys)
            content["role"] = self.role if self.role is not None else "model"
            content["parts"] = [p.render() for p in self.parts]
            out["content"] = content
        if self.finish is not None:
            out["finishReason"] = self.finish
        if self.safety:
            out["safetyRatings"] = [copy.deepcopy(r) for _, r in self.safety]
        if self.citations is not None:
            out["citationMetadata"] = copy.deepcopy(self.citations)
        if self.grounding is not None:
            out["groundingMetadata"] = copy.deepcopy(self.grounding)
        return out


def _canon(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _json_equal(a, b):
    return _norm(a) == _norm(b)


def _norm(v):
    if isinstance(v, bool):
        return ("b", v)
    if isinstance(v, (int, float)):
        return ("n", float(v)) if isinstance(v, float) and not v.is_integer() else ("n", int(v))
    if isinstance(v, dict):
        return ("o", tuple(sorted((k, _norm(x)) for k, x in v.items())))
    if isinstance(v, list):
        return ("a", tuple(_norm(x) for x in v))
    return ("s" if isinstance(v, str) else "z", v)


# --------------------------------------------------------------------------- accumulator


class Accumulator:
    """Incremental fold: add(chunk), response(), finished, error, mark_done()."""

    def __init__(self):
        self._count = 0  # chunks offered
        self._folded = 0  # chunks accepted
        self._env = {}
        self._model_version = None
        self._response_id = None
        self._usage = None
        self._prompt_feedback = None
        self._candidates = {}
        self._error = None

    def add(self, chunk):
        self._count += 1
        if not isinstance(chunk, dict):
            raise FoldError(
                f'chunk {self._count} at pointer "": expected a JSON object, '
                f"received {_type_name(chunk)}: {json.dumps(chunk)[:200]}"
            )
        self._folded += 1
        if self._error is not None:
            return  # GM-LIFE-ERROR: terminal
        if chunk.get("error") is not None:
            err = chunk["error"]
            self._error = copy.deepcopy(err) if isinstance(err, dict) else {}
            return
        for key, value in chunk.items():
            if key in _ENV_OWN or value is None:
                continue
            self._env[key] = copy.deepcopy(value)  # GM-ENV-SNAPSHOT
        mv = chunk.get("modelVersion")
        if not _blank(mv):
            self._model_version = mv
        rid = chunk.get("responseId")
        if not _blank(rid):
            self._response_id = rid
        usage = chunk.get("usageMetadata")
        if isinstance(usage, dict):
            self._usage = copy.deepcopy(usage)
        pf = chunk.get("promptFeedback")
        if isinstance(pf, dict):
            self._prompt_feedback = copy.deepcopy(pf)
        cands = chunk.get("candidates")
        if isinstance(cands, list):
            for entry in cands:
                if not isinstance(entry, dict):
                    continue
                idx = _index_of(entry.get("index"))
                cand = self._candidates.get(idx)
                if cand is None:
                    cand = self._candidates[idx] = _Candidate(idx)
                cand.add(entry)

    def response(self):
        if self._folded == 0:
            raise FoldError("no chunk has been folded yet: there is no response to read")
        out = copy.deepcopy(self._env)
        if self._candidates:
            out["candidates"] = [self._candidates[i].render() for i in sorted(self._candidates)]
        if self._prompt_feedback is not None:
            out["promptFeedback"] = copy.deepcopy(self._prompt_feedback)
        if self._usage is not None:
            out["usageMetadata"] = copy.deepcopy(self._usage)
        if self._model_version is not None:
            out["modelVersion"] = self._model_version
        if self._response_id is not None:
            out["responseId"] = self._response_id
        return out

    @property
    def finished(self):
        if self._error is not None:
            return False
        if self._candidates and all(c.finish is not None for c in self._candidates.values()):
            return True
        pf = self._prompt_feedback
        return isinstance(pf, dict) and not _blank(pf.get("blockReason"))

    @property
    def error(self):
        return copy.deepcopy(self._error)

    def mark_done(self):
        """Gemini has no terminal sentinel; nothing to record."""


def fold(chunks):
    acc = Accumulator()
    for chunk in chunks:
        acc.add(chunk)
    return acc.response()


refold_target = {
    "name": "cleanfold",
    "dialect": "gemini-generate-content",
    "factory": Accumulator,
    "features": [
        "text",
        "candidates",
        "thinking",
        "tool_calls",
        "streamed_arguments",
        "code_execution",
        "media",
        "safety",
        "citations",
        "grounding",
        "usage",
        "robustness",
        "lifecycle",
    ],
}
