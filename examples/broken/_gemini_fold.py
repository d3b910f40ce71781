"""A correct Gemini `streamGenerateContent` fold, the base every broken `gemini_*.py`
subclasses.

It folds the chunks of one stream (each a whole `GenerateContentResponse`) into the
response the same call returns unstreamed, as docs/spec/gemini-fold.md says, written from
that spec alone: standard library only, plain JSON in and out, identical to
`refold.reference.gemini` on every stream. Each step is a short method named after what it
does, so that a broken example is this fold with one method overridden: the method its
defect lives in. A candidate is a `Candidate`, named on the accumulator, and a text run a
`TextRun`, named on the candidate, so a defect in one is an override of it.

Checked like any target: `refold check --target examples/broken/_gemini_fold.py`.
"""

from __future__ import annotations

import copy
import itertools
import re

FEATURES = [
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
]
WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
ENVELOPE_OWN_KEYS = ("candidates", "usageMetadata", "promptFeedback", "modelVersion")
ENVELOPE_OWN_KEYS += ("responseId", "error")
CANDIDATE_OWN_KEYS = ("index", "content", "finishReason", "safetyRatings")
CANDIDATE_OWN_KEYS += ("citationMetadata", "groundingMetadata")
PLAIN_TEXT_KEYS = frozenset({"text", "thought", "thoughtSignature"})
CITATION_LISTS = ("citationSources", "citations")
NAME_FIRST = "A-Za-z_\x80-\ud7ff\ue000-\U0010ffff"
PATH_SEGMENT = re.compile(
    rf"\.([{NAME_FIRST}][{NAME_FIRST}0-9]*)"  # RFC 9535 member-name-shorthand
    r"|\['([^']*)'\]"  # names are taken literally: no escapes, a backslash is itself
    r'|\["([^"]*)"\]'
    r"|\[(0|[1-9][0-9]*)\]"  # RFC 9535 int: ASCII digits, no leading zero
)


def nonblank(value):
    """A non-blank string, or None: blank identities and enum values count as absent."""
    return value if isinstance(value, str) and value.strip(WHITESPACE) else None


def json_index(value):
    """A non-negative JSON integer (1.0 counts, true does not), or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if value >= 0 else None


def json_object(value):
    """`value` when it is a JSON object, else None."""
    return value if isinstance(value, dict) else None


def json_list(value):
    """`value` when it is a JSON array, else an empty list."""
    return value if isinstance(value, list) else []


def is_number(value):
    return isinstance(value, int | float) and not isinstance(value, bool)


def parse_path(text):
    """`$.a['b'][0]` as ("a", "b", 0): member names and indexes, the first a name; None
    when `text` is not such a path."""
    if not isinstance(text, str) or not text.startswith("$"):
        return None
    segments, position = [], 1
    while position < len(text):
        found = PATH_SEGMENT.match(text, position)
        if found is None:
            return None
        name = next((g for g in found.groups()[:3] if g is not None), None)
        segments.append(name if name is not None else int(found.group(4)))
        position = found.end()
    if not segments or not isinstance(segments[0], str):
        return None
    return tuple(segments)


def piece_value(piece):
    """The typed value of a `partialArgs` piece as (found, value), read in the spec's
    order: stringValue, numberValue, boolValue, nullValue."""
    if isinstance(piece.get("stringValue"), str):
        return True, piece["stringValue"]
    if is_number(piece.get("numberValue")):
        return True, piece["numberValue"]
    if isinstance(piece.get("boolValue"), bool):
        return True, piece["boolValue"]
    if piece.get("nullValue") is not None:
        return True, None
    return False, None


class TextRun:
    """One output text part built from plain text parts of one kind."""

    def __init__(self, thought, text, signature):
        self.thought = thought
        self.text = text
        self.signature = signature

    def takes(self, thought):
        """A run takes a fragment of its kind until it is signed."""
        return self.thought == thought and self.signature is None

    def append(self, text, signature):
        self.text += text
        self.signature = signature

    def output(self):
        part = {"text": self.text}
        if self.thought:
            part["thought"] = True
        if self.signature is not None:
            part["thoughtSignature"] = self.signature
        return part


class WholePart:
    """A part kept exactly as sent: calls, code, media and every other kind."""

    def __init__(self, part):
        self.part = copy.deepcopy(part)

    def output(self):
        return copy.deepcopy(self.part)


class StreamedCall:
    """A Vertex function call streamed in fragments (`partialArgs`, `willContinue`)."""

    def __init__(self, part):
        call = part["functionCall"]
        self.call = {k: copy.deepcopy(v) for k, v in call.items() if k not in _FRAGMENT_KEYS}
        self.part_keys = {k: copy.deepcopy(v) for k, v in part.items() if k != "functionCall"}
        self.args = None
        self.last_piece = None
        self.apply_pieces(call.get("partialArgs"))

    def continue_with(self, part):
        """A nameless fragment: its pieces are applied, its other keys set, last wins."""
        call = part["functionCall"]
        self.apply_pieces(call.get("partialArgs"))
        for key, value in call.items():
            if key not in _FRAGMENT_KEYS and key != "name" and value is not None:
                self.call[key] = copy.deepcopy(value)
        for key, value in part.items():
            if key != "functionCall" and value is not None:
                self.part_keys[key] = copy.deepcopy(value)

    def apply_pieces(self, pieces):
        for piece in json_list(pieces):
            if isinstance(piece, dict):
                self.apply_piece(piece)

    def apply_piece(self, piece):
        """Set the piece's value at its path; a string continues the previous piece's."""
        path = parse_path(piece.get("jsonPath"))
        found, value = piece_value(piece)
        if path is None or not found:
            return
        args = {} if self.args is None else self.args
        if self.continues(path, value):
            value = self.value_at(args, path) + value
        if self.set_at(args, path, value):
            self.args = args
            self.last_piece = (path, isinstance(value, str), piece.get("willContinue") is True)

    def continues(self, path, value):
        previous = self.last_piece
        if previous is None or not isinstance(value, str):
            return False
        return previous == (path, True, True) and isinstance(self.value_at(self.args, path), str)

    @staticmethod
    def value_at(args, path):
        node = args
        for segment in path:
            node = node[segment]
        return node

    @staticmethod
    def set_at(args, path, value):
        """Set `value` at `path`, creating containers; False (nothing set) when the path
        runs through a value of another type."""
        if not StreamedCall.reachable(args, path):
            return False
        node = args
        for segment, following in itertools.pairwise(path):
            node = StreamedCall.child(node, segment, [] if isinstance(following, int) else {})
        if isinstance(path[-1], int):
            node.extend([None] * (path[-1] + 1 - len(node)))
        node[path[-1]] = value
        return True

    @staticmethod
    def child(node, segment, empty):
        """The container at `segment` of `node`, created (arrays padded with null)."""
        if isinstance(segment, int):
            node.extend([None] * (segment + 1 - len(node)))
        if (node[segment] if isinstance(segment, int) else node.get(segment)) is None:
            node[segment] = empty
        return node[segment]

    @staticmethod
    def reachable(args, path):
        """Whether every existing container on `path` has the type its segment needs."""
        node = args
        for segment in path:
            if node is None:
                return True
            if not isinstance(node, dict if isinstance(segment, str) else list):
                return False
            if isinstance(segment, str):
                node = node.get(segment)
            else:
                node = node[segment] if segment < len(node) else None
        return True

    def output(self):
        call = copy.deepcopy(self.call)
        if self.args is not None:
            call["args"] = copy.deepcopy(self.args)
        return {"functionCall": call, **copy.deepcopy(self.part_keys)}


_FRAGMENT_KEYS = ("partialArgs", "willContinue")


class Candidate:
    """One candidate: its parts, finish reason, metadata and other keys."""

    TextRun = TextRun

    def __init__(self, index):
        self.index = index
        self.content = None
        self.role = None
        self.parts = []
        self.open_call = None
        self.finish_reason = None
        self.safety = {}
        self.citations = None
        self.grounding = None
        self.keys = {}

    def add(self, entry):
        self.add_content(entry.get("content"))
        self.add_finish_reason(entry.get("finishReason"))
        self.add_safety_ratings(entry.get("safetyRatings"))
        self.add_citations(json_object(entry.get("citationMetadata")))
        self.add_grounding(json_object(entry.get("groundingMetadata")))
        for key, value in entry.items():
            if key not in CANDIDATE_OWN_KEYS and value is not None:
                self.keys[key] = copy.deepcopy(value)

    def add_content(self, content):
        if not isinstance(content, dict):
            return
        self.content = {} if self.content is None else self.content
        if self.role is None:
            self.role = nonblank(content.get("role"))
        for key, value in content.items():
            if key not in ("role", "parts") and value is not None:
                self.content[key] = copy.deepcopy(value)
        for part in json_list(content.get("parts")):
            self.add_part(part)

    def add_part(self, part):
        """Parts are deltas: each is appended, joined into a text run, or continues the
        open streamed call."""
        if not isinstance(part, dict) or all(v is None for v in part.values()):
            return
        if self.is_plain_text(part):
            self.add_text(part)
        elif isinstance(part.get("functionCall"), dict):
            self.add_function_call(part)
        else:
            self.parts.append(WholePart(part))

    @staticmethod
    def is_plain_text(part):
        return isinstance(part.get("text"), str) and set(part) <= PLAIN_TEXT_KEYS

    def add_text(self, part):
        """A plain text part joins the previous part when that is an unsigned run of its
        kind; an empty unsigned one carries nothing."""
        thought = part.get("thought") is True
        signature = nonblank(part.get("thoughtSignature"))
        if part["text"] == "" and signature is None:
            return
        run = self.joinable_run(thought)
        if run is not None:
            run.append(part["text"], signature)
        else:
            self.parts.append(self.TextRun(thought, part["text"], signature))

    def joinable_run(self, thought):
        """The previous part, when it is a text run that takes a fragment of this kind."""
        previous = self.parts[-1] if self.parts else None
        return previous if isinstance(previous, TextRun) and previous.takes(thought) else None

    def add_function_call(self, part):
        call = part["functionCall"]
        if self.open_call is not None and nonblank(call.get("name")) is None:
            self.continue_call(part)
        elif call.get("willContinue") is True or isinstance(call.get("partialArgs"), list):
            self.open_streamed_call(part)
        else:
            self.open_call = None
            self.parts.append(WholePart(part))

    def open_streamed_call(self, part):
        self.open_call = StreamedCall(part)
        self.parts.append(self.open_call)
        if part["functionCall"].get("willContinue") is not True:
            self.open_call = None

    def continue_call(self, part):
        self.open_call.continue_with(part)
        if part["functionCall"].get("willContinue") is not True:
            self.open_call = None

    def add_finish_reason(self, reason):
        """The last non-blank finish reason, verbatim; absence never erases it."""
        if nonblank(reason) is not None:
            self.finish_reason = reason

    def add_safety_ratings(self, ratings):
        """Ratings merge by category: a later one replaces its category's in place."""
        for rating in json_list(ratings):
            if isinstance(rating, dict):
                self.safety[nonblank(rating.get("category"))] = copy.deepcopy(rating)

    def add_citations(self, metadata):
        """Citation lists are unions without repeats; other keys take the last value."""
        if metadata is None:
            return
        self.citations = {} if self.citations is None else self.citations
        for key, value in metadata.items():
            if key in CITATION_LISTS:
                self.add_citation_entries(key, value)
            elif value is not None:
                self.citations[key] = copy.deepcopy(value)

    def add_citation_entries(self, key, entries):
        kept = self.citations.setdefault(key, [])
        for entry in json_list(entries):
            if isinstance(entry, dict) and entry not in kept:
                kept.append(copy.deepcopy(entry))

    def add_grounding(self, metadata):
        """Grounding merges per key: a later non-null value replaces that key whole."""
        if metadata is None:
            return
        self.grounding = {} if self.grounding is None else self.grounding
        for key, value in metadata.items():
            if value is not None:
                self.grounding[key] = copy.deepcopy(value)

    @property
    def finished(self):
        return self.finish_reason is not None

    def output(self):
        candidate = {"index": self.index}
        if self.content is not None:
            candidate["content"] = self.output_content()
        if self.finish_reason is not None:
            candidate["finishReason"] = self.finish_reason
        if self.safety:
            candidate["safetyRatings"] = copy.deepcopy(list(self.safety.values()))
        if self.citations is not None:
            candidate["citationMetadata"] = copy.deepcopy(self.citations)
        if self.grounding is not None:
            candidate["groundingMetadata"] = copy.deepcopy(self.grounding)
        candidate.update(copy.deepcopy(self.keys))
        return candidate

    def output_content(self):
        content = copy.deepcopy(self.content)
        content["role"] = self.role or "model"
        content["parts"] = [part.output() for part in self.parts]
        return content


class Accumulator:
    """Folds Gemini `streamGenerateContent` chunks into a response, one chunk at a time."""

    Candidate = Candidate

    def __init__(self):
        self.received = 0
        self.refused = 0
        self.candidates = {}
        self.usage = None
        self.prompt_feedback = None
        self.identities = {}
        self.keys = {}
        self.failure = None

    def add(self, chunk):
        number = self.received
        self.received += 1
        if not isinstance(chunk, dict):
            self.refused += 1
            raise TypeError(
                f"chunk {number} (pointer ''): a chunk must be a JSON object, "
                f"got {type(chunk).__name__} {chunk!r:.80}"
            )
        if self.failure is not None:
            return
        if chunk.get("error") is not None:
            self.failure = copy.deepcopy(json_object(chunk["error"]) or {})
            return
        self.add_envelope(chunk)
        self.add_candidates(json_list(chunk.get("candidates")))

    def add_envelope(self, chunk):
        self.add_usage(chunk.get("usageMetadata"))
        self.add_prompt_feedback(chunk.get("promptFeedback"))
        for key in ("modelVersion", "responseId"):
            if nonblank(chunk.get(key)) is not None:
                self.identities[key] = chunk[key]
        for key, value in chunk.items():
            if key not in ENVELOPE_OWN_KEYS and value is not None:
                self.keys[key] = copy.deepcopy(value)

    def add_usage(self, usage):
        """Usage counts are running totals: the last object replaces the folded one whole."""
        if isinstance(usage, dict):
            self.usage = copy.deepcopy(usage)

    def add_prompt_feedback(self, feedback):
        if isinstance(feedback, dict):
            self.prompt_feedback = copy.deepcopy(feedback)

    def add_candidates(self, entries):
        for entry in entries:
            if isinstance(entry, dict):
                self.add_candidate(entry)

    def add_candidate(self, entry):
        """An entry belongs to the candidate its `index` names; no index is 0."""
        index = json_index(entry.get("index")) or 0
        if index not in self.candidates:
            self.candidates[index] = self.Candidate(index)
        self.candidates[index].add(entry)

    @property
    def finished(self):
        if self.failure is not None:
            return False
        if self.candidates and all(c.finished for c in self.candidates.values()):
            return True
        return nonblank((self.prompt_feedback or {}).get("blockReason")) is not None

    @property
    def error(self):
        return copy.deepcopy(self.failure)

    def response(self):
        if self.received == self.refused:
            raise LookupError("no chunk has been folded yet: there is no response to read")
        response = copy.deepcopy(self.keys)
        if self.candidates:
            response["candidates"] = self.output_candidates()
        if self.usage is not None:
            response["usageMetadata"] = copy.deepcopy(self.usage)
        if self.prompt_feedback is not None:
            response["promptFeedback"] = copy.deepcopy(self.prompt_feedback)
        response.update(self.identities)
        return response

    def output_candidates(self):
        """Candidates sorted by index, gaps closed up, each carrying its index."""
        return [self.candidates[index].output() for index in sorted(self.candidates)]


refold_target = {
    "dialect": "gemini-generate-content",
    "name": "gemini_fold",
    "factory": Accumulator,
    "features": FEATURES,
}
