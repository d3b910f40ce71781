"""The rules registry: every rule id of the chat-fold spec, its feature and its statement.

Rule ids are the stable keys of the whole project: suites mark tests with them, reports
group results by them and baselines list expected failures by them. The table below is
the single copy in code; `docs/rules.md` is generated from it (`refold rules --markdown`).
"""

from __future__ import annotations

from .._rules import Rule

__all__ = ["FEATURES", "RULES", "rule", "rules_of"]

FEATURES: tuple[str, ...] = (
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
    "sse",
    "events",
)
"""The spec's closed feature vocabulary, in the spec's order. `text` is required of every target."""


_TABLE: tuple[tuple[str, str, str], ...] = (
    # Envelope
    ("ENV-OBJECT", "text", '`object` is "chat.completion", whatever the chunks say.'),
    ("ENV-ID", "text", "`id` is the first non-blank chunk `id`; later ids never replace it."),
    ("ENV-MODEL", "text", "`model` is the first non-blank chunk `model`."),
    ("ENV-CREATED", "text", "`created` is the first chunk `created` that is a positive integer."),
    ("ENV-NO-ERROR", "text", "A top-level `error` object is never copied into the response."),
    # Provider fields
    (
        "PROV-LAST",
        "provider_fields",
        "`provider`, `system_fingerprint` and `service_tier` take the last non-blank value seen "
        "on any chunk; a later blank or absent value never erases an earlier one.",
    ),
    (
        "PROV-NATIVE-FINISH",
        "provider_fields",
        "Per choice, `native_finish_reason` is the last non-blank value.",
    ),
    # Choices
    (
        "CHOICE-KEY",
        "text",
        "A choice is keyed by its `index` value, not its list position; an entry without a "
        "non-negative integer `index` is choice 0.",
    ),
    (
        "CHOICE-ORDER",
        "choices",
        "Output choices are sorted by index, and interleaved fragments of different choices "
        "never mix.",
    ),
    (
        "CHOICE-ROLE",
        "text",
        '`message.role` is the first non-blank `delta.role`, never concatenated; "assistant" '
        "when none arrived.",
    ),
    (
        "CHOICE-FINISH",
        "text",
        "`finish_reason` is the last non-blank value for that choice; null when none arrived.",
    ),
    (
        "CHOICE-DELTA-NULL",
        "text",
        "A `delta` that is null, absent or not an object folds as an empty delta; its "
        "`finish_reason` still counts.",
    ),
    # Text fields
    (
        "TEXT-JOIN",
        "text",
        "`message.content` concatenates every string `delta.content` verbatim, in arrival order; "
        "null when empty.",
    ),
    ("TEXT-REFUSAL", "refusal", "`message.refusal` joins `delta.refusal` the same way."),
    (
        "TEXT-REASONING",
        "reasoning",
        "`message.reasoning` joins `delta.reasoning`, and `message.reasoning_content` joins "
        "`delta.reasoning_content`, each as its own field.",
    ),
    (
        "TEXT-ANNOTATIONS",
        "annotations",
        "`message.annotations` concatenates every `delta.annotations` list (non-object entries "
        "skipped); absent when none arrived.",
    ),
    # Tool calls: the ladder, first match wins
    ("TOOL-1-OPEN", "tool_calls", "A fragment on an index with no call yet starts a call there."),
    (
        "TOOL-2-NEW-ID",
        "tool_call_repair",
        "A fragment whose non-blank `id` differs from the current call's non-blank `id` starts "
        "a new call on that index.",
    ),
    (
        "TOOL-3-RESEND",
        "tool_call_repair",
        "Complete arguments with the current call's `id` (or with no id and no name and equal "
        "as parsed JSON) onto complete arguments are a re-send: nothing changes.",
    ),
    (
        "TOOL-4-SPLIT",
        "tool_call_repair",
        "Complete arguments onto complete arguments start a new call on that index; an "
        "incomplete fragment never splits.",
    ),
    (
        "TOOL-5-APPEND",
        "tool_calls",
        "Otherwise the fragment's `function.arguments` is appended verbatim to the current call.",
    ),
    # Tool calls: every call
    (
        "TOOL-INDEX",
        "tool_calls",
        "Fragments join by the `index` value, not list position; indexes may start above 0 and "
        "be sparse.",
    ),
    (
        "TOOL-NO-INDEX",
        "tool_call_repair",
        "A fragment without a non-negative integer `index` belongs to the choice's most recently "
        "touched call index (0 when none).",
    ),
    (
        "TOOL-ADOPT-ID",
        "tool_calls",
        "A call without an id takes the first non-blank `id` that arrives on a fragment applied "
        "to it.",
    ),
    (
        "TOOL-NAME",
        "tool_calls",
        "`function.name` is the call's first non-blank name; later names are ignored, never "
        "concatenated.",
    ),
    (
        "TOOL-TYPE",
        "tool_calls",
        '`type` is the call\'s first non-blank type; "function" when none arrived; never '
        "inherited from the previous call.",
    ),
    (
        "TOOL-OUTPUT",
        "tool_calls",
        "Output calls are ordered by index, then by arrival, and carry no `index`.",
    ),
    (
        "TOOL-RAW",
        "tool_calls",
        "Arguments are kept exactly as they arrived: never parsed, re-serialised, repaired or "
        "truncated.",
    ),
    (
        "TOOL-EMPTY-ARGS",
        "empty_arguments",
        'Once the fold is finished, a call whose arguments are still "" reads "{}"; until then '
        'it reads "".',
    ),
    # Reasoning details
    (
        "RD-MERGE",
        "reasoning_details",
        "`reasoning.text` and `reasoning.summary` fragments merge into one segment per "
        "(type, index), concatenating `text` or `summary`.",
    ),
    (
        "RD-FIELDS",
        "reasoning_details",
        "Every other string field of a merged segment keeps its last non-blank value.",
    ),
    (
        "RD-INDEXLESS",
        "reasoning_details",
        "An index-less text or summary fragment joins the open index-less segment of its type; "
        "a signature closes it.",
    ),
    (
        "RD-AS-SENT",
        "reasoning_details",
        "`reasoning.encrypted` and unknown segment types are kept as sent, one per fragment.",
    ),
    (
        "RD-ORDER",
        "reasoning_details",
        "Output segments are in order of first appearance; `index` is kept when it arrived.",
    ),
    # Log probabilities
    (
        "LP-CONCAT",
        "logprobs",
        "Per choice, `logprobs.content` and `logprobs.refusal` entries are concatenated in "
        "arrival order.",
    ),
    (
        "LP-SHAPE",
        "logprobs",
        'When any chunk carried a `logprobs` object: {"content": [...], "refusal": [...] or '
        "null}; otherwise null.",
    ),
    (
        "LP-SKIP",
        "logprobs",
        "A `logprobs` value that is not an object, or a `content`/`refusal` that is not a list, "
        "is skipped.",
    ),
    # Usage
    (
        "USAGE-LAST",
        "usage",
        "`usage` is the last usage object seen, replaced whole, never summed and never cleared "
        "by a later null; absent when none arrived.",
    ),
    # Robustness
    (
        "ROB-NULL-ENTRIES",
        "robustness",
        "Null and non-object entries in `choices`, `tool_calls`, `reasoning_details`, "
        "`annotations` and logprobs lists are skipped.",
    ),
    (
        "ROB-BLANK",
        "robustness",
        "Blank ids, types, names, roles and finish reasons count as absent.",
    ),
    (
        "ROB-WRONG-TYPE",
        "robustness",
        "A field of the wrong JSON type is treated as absent; the fold never raises on a JSON "
        "object.",
    ),
    (
        "ROB-NOT-OBJECT",
        "robustness",
        "A chunk that is not a JSON object is refused with an error naming what was received, "
        "leaving the fold unchanged.",
    ),
    ("ROB-UNKNOWN-KEYS", "robustness", "Unknown keys never change the result."),
    # Lifecycle
    (
        "LIFE-EMPTY",
        "lifecycle",
        "Reading the response before any chunk was folded raises a documented error.",
    ),
    (
        "LIFE-SNAPSHOT",
        "lifecycle",
        "Every read builds a new response; later chunks never change one handed out, and the "
        "chunks given are never mutated.",
    ),
    (
        "LIFE-FINISHED",
        "lifecycle",
        "Finished once [DONE] is recorded, or once at least one choice exists and every choice "
        'has a finish reason other than "error".',
    ),
    ("LIFE-DONE", "lifecycle", "Recording the [DONE] sentinel finishes the fold."),
    (
        "LIFE-ERROR",
        "lifecycle",
        "An error chunk folds like any other; its `error` is not kept, and "
        '`finish_reason: "error"` does not finish the fold.',
    ),
    (
        "LIFE-AFTER",
        "lifecycle",
        "Chunks after an error chunk, or after the fold finished, are still folded.",
    ),
)

RULES: dict[str, Rule] = {row[0]: Rule(*row) for row in _TABLE}
"""Every rule of the spec by id, in the spec's order."""


def rule(rule_id: str) -> Rule:
    """Return the rule with this id, or raise `KeyError` naming the known ids' count."""
    try:
        return RULES[rule_id]
    except KeyError:
        raise KeyError(
            f"unknown rule id {rule_id!r}; the spec has {len(RULES)} rules (see `refold rules`)"
        ) from None


def rules_of(feature: str) -> list[Rule]:
    """Return the rules that belong to `feature`, in the spec's order."""
    return [r for r in RULES.values() if r.feature == feature]
