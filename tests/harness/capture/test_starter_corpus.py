"""The starter corpus (examples/corpus/): the providers' documentation streams, as cases.

Each case is what `refold capture` makes of its committed source (examples/corpus/sources/)
and names the documentation page it comes from. Every built-in target of a case's dialect
replays it; the SDKs that fold a documented stream otherwise than the reference have that
pinned here by the rules the failure is charged to, as the other findings tests pin theirs
(a new SDK release that changes one fails here, to be re-pinned on purpose).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from refold.capture.captures import capture
from refold.capture.corpus import Case, case_rules, load_corpus
from refold.dialects import DIALECTS, dialect
from refold.run.checks import Check, ConformanceFailure
from refold.targets import BUILTIN_TARGETS, Target, load_target
from refold.verdicts.crashes import analyse
from refold.verdicts.difference_ablation import ablate

ROOT = Path(__file__).resolve().parents[3]
STARTER = ROOT / "examples" / "corpus"
CASES = load_corpus(STARTER)
DOCS = (
    "https://docs.claude.com/",
    "https://platform.openai.com/docs/",
    # Google's Gemini API cookbook: the REST quickstart's curl output (the API reference
    # pages show no stream)
    "https://github.com/google-gemini/cookbook/",
)

_CRASH_ALL_TEXT = frozenset(
    {
        "AM-START-BASE",
        "AM-TYPE-ROLE",
        "AM-BLOCK-OPEN",
        "AM-BLOCK-STOP",
        "AM-TEXT-JOIN",
        "AM-USAGE-BASE",
        "AM-USAGE-REPLACE",
        "AM-USAGE-NEVER-SUM",
        "AM-USAGE-ABSENT",
    }
)
_NO_TERMINAL = frozenset(
    {
        # the documented events end without a terminal event; a rule the stream gives nothing
        # to decide (no orphan, no second terminal, no failed one) is charged nothing
        "RS-TERMINAL-BASE",
        "RS-ENV-TERMINAL",
        "RS-ENV-FILL",
        "RS-OBJECT",
        "RS-TERMINAL-EVENTS",
        "RS-ITEM-DONE-REPLACES",
        "RS-DONE-REPLACES",
        "RS-RECOVER-FROM-DELTAS",
        "RS-HOSTED-ITEMS",
        "RS-CALL-IDS",
        "RS-ARGS-JOIN",
        "RS-ARGS-RAW",
    }
)
_USAGE = frozenset({"AM-USAGE-BASE", "AM-USAGE-REPLACE", "AM-USAGE-NEVER-SUM"})
# langchain-anthropic's usage: input_tokens 0 (message_start's count is dropped) and
# output_tokens message_delta's: a lost base, no sum. AM-USAGE-NEVER-SUM is charged only
# for a count none of the stream's reports of it holds
# (refold.dialects.anthropic_messages.ablation).
_LC_USAGE = frozenset({"AM-START-BASE", "AM-USAGE-BASE", "AM-USAGE-REPLACE"})

FINDINGS: dict[str, dict[str, frozenset[str] | str]] = {
    # target -> case -> the rules its failure is charged to ("skipped": a feature the
    # target does not claim decides a place of the case); a case not listed passes.
    "litellm": {"openai-chat-chunks": frozenset({"USAGE-LAST"})},
    "langchain": {"openai-chat-chunks": "skipped"},
    "anthropic": {
        "anthropic-thinking": frozenset({"AM-USAGE-ABSENT"}),
        "anthropic-web-search": frozenset({"AM-BLOCK-STOP"}),
    },
    "anthropic-stream": {
        "anthropic-error": _CRASH_ALL_TEXT,
        "anthropic-thinking": frozenset({"AM-USAGE-ABSENT"}),
        "anthropic-web-search": frozenset({"AM-BLOCK-STOP"}),
    },
    "langchain-anthropic": {
        "anthropic-error": _CRASH_ALL_TEXT,
        "anthropic-text": _LC_USAGE,
        "anthropic-thinking": frozenset({"AM-START-BASE", "AM-USAGE-ABSENT"}),
        "anthropic-tool-use": _LC_USAGE,
        # message_delta re-reports input_tokens here: message_start's is not the one kept
        "anthropic-web-search": frozenset({"AM-START-BASE", "AM-USAGE-REPLACE"}),
    },
    "litellm-anthropic": {
        "anthropic-error": _CRASH_ALL_TEXT,
        "anthropic-text": frozenset({"AM-START-BASE"}),
        "anthropic-thinking": frozenset({"AM-START-BASE", "AM-USAGE-ABSENT"}),
        "anthropic-tool-use": frozenset({"AM-START-BASE"}),
        "anthropic-web-search": frozenset(
            {
                "AM-START-BASE",
                "AM-BLOCK-OPEN",
                "AM-TEXT-JOIN",
                "AM-TOOL-JOIN",
                # no AM-TOOL-INVALID: the reference's input there is an object, so the
                # rule about joined input that is not complete JSON says nothing
                "AM-TOOL-NO-DELTA",
                "AM-TOOL-IDENTITY",
                "AM-SERVER-TOOL",
                # the cache counts message_delta re-reports are dropped: lost, not summed
                "AM-RESULT-AS-SENT",
                "AM-USAGE-REPLACE",
                "AM-UNKNOWN-KEYS",
            }
        ),
    },
    "openai-responses": {"openai-responses-function-call": _NO_TERMINAL},
    "langchain-openai-responses": {
        "openai-responses-function-call": frozenset(
            {
                "RS-TERMINAL-BASE",
                "RS-ENV-TERMINAL",
                "RS-ENV-FILL",
                "RS-OBJECT",
                "RS-TERMINAL-EVENTS",
            }
        )
    },
    "litellm-responses": {"openai-responses-function-call": _NO_TERMINAL},
    # anthropic-ts folds the tool-use and web-search streams: the two failures pinned
    # here before were of sources cut before their message_stop (refold capture dropped
    # the unterminated last event without a word; it now refuses such a source).
    "anthropic-ts": {
        # the SDK throws the docs' error event: the stream cut before it folds, so the
        # crash is AM-LIFE-ERROR's (the Message read after an error is the partial one)
        "anthropic-error": frozenset({"AM-LIFE-ERROR"}),
        "anthropic-thinking": frozenset({"AM-USAGE-ABSENT"}),
    },
    # the AI SDK reads no usage before message_delta: the Message lacks message_start's
    # counts, a lost base (no sum, no estimate, and no message_delta to replace them);
    # its schema check raises on the docs' thinking stream, which has no usage at all:
    # the counts its types require make the crash go away (AM-USAGE-ABSENT's, not the
    # seven rules of the test it was charged to while the undo sent `usage: {}`)
    "ai-sdk-anthropic": {
        "anthropic-error": frozenset({"AM-USAGE-BASE"}),
        "anthropic-thinking": frozenset({"AM-USAGE-ABSENT"}),
        "anthropic-tool-use": "skipped",
        "anthropic-web-search": "skipped",
    },
    "openai-node-responses": {"openai-responses-function-call": _NO_TERMINAL},
    # Google's cookbook stream (gemini-pro): every chunk says finishReason STOP and repeats
    # its safetyRatings, the first carries promptFeedback. langchain-google-genai sums the
    # chunks with `+`, joining the finish reasons and appending the ratings; the others do
    # not claim `safety`, which the case's rules include.
    "langchain-google-genai": {
        "gemini-text": frozenset({"GM-FINISH", "GM-PROMPT-FEEDBACK", "GM-SAFETY"})
    },
    "google-genai": {"gemini-text": "skipped"},
    "litellm-gemini": {"gemini-text": "skipped"},
    "google-genai-node": {"gemini-text": "skipped"},
}
"""What each built-in SDK target makes of the documentation streams (measured with the
SDK versions pyproject.toml and package-lock.json pin)."""

# Events adapters replay nothing here; their streams are their dialect's tests.
_NO_STARTER_STREAMS = ("langchain-events", "pydantic-ai-events", "pydantic-ai-gemini-events")
_SOURCE_TARGETS = [name for name in BUILTIN_TARGETS if name not in _NO_STARTER_STREAMS]


def test_every_case_names_the_documentation_page_it_comes_from() -> None:
    # every dialect with captures of its own (`Dialect.sniff`) has a documentation stream
    assert {case.dialect.name for case in CASES} == {
        one.name for one in DIALECTS.values() if one.sniff is not None
    }
    for case in CASES:
        assert str(case.provenance.get("url", "")).startswith(DOCS), case.name
        assert case.provenance.get("note"), case.name


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_case_is_what_refold_capture_makes_of_its_source(case: Case, tmp_path: Path) -> None:
    [source] = (STARTER / "sources").glob(f"{case.name}.*")
    [again] = capture(
        source, tmp_path, extra={"url": case.provenance["url"], "note": case.provenance["note"]}
    ).cases
    assert again.document() | {"provenance": None} == case.document() | {"provenance": None}
    assert {**again.provenance, "captured": None} == {**case.provenance, "captured": None}


def _outcome(target: Target, case: Case) -> frozenset[str] | str:
    rules = case_rules(case)
    if {case.dialect.rules[r].feature for r in rules} - target.features:
        return "skipped"
    check = Check(target)
    check.rules = rules
    try:
        assert case.expected is not None
        check.folds_to(case.items, case.expected)
    except ConformanceFailure as failure:
        # what the plugin does once a test failed, before it reports the charged rules
        if failure.crash is not None:
            analyse(failure.crash, failure.chunks or [], target)
        elif failure.differences:
            failure.ablation = ablate(
                failure.chunks or [], failure.differences, target, failure.claimed
            )
        return frozenset(failure.implicated)
    return "passed"


@pytest.mark.parametrize("name", _SOURCE_TARGETS)
def test_every_builtin_target_replays_the_documentation_streams(name: str) -> None:
    if BUILTIN_TARGETS[name].startswith("exec:node") and not (
        (ROOT / "harness" / "targets" / "sdk" / "node" / "node_modules").is_dir()
    ):
        pytest.skip("the Node.js SDKs are not installed (npm ci --prefix harness/targets/sdk/node)")
    found: dict[str, frozenset[str] | str] = {}
    declared = load_target(name)
    if name != "reference" and not any(case.dialect is declared.dialect for case in CASES):
        declared.close()
        pytest.skip(f"the starter corpus has no case of {declared.dialect.name} yet")
    # Each SDK target is of one dialect; the reference serves every dialect's.
    targets = (
        [declared]
        if name != "reference"
        else [
            load_target(name, dialect=dialect(d))
            for d in sorted({case.dialect.name for case in CASES})
        ]
    )
    for target in targets:
        try:
            for case in CASES:
                if case.dialect is target.dialect:
                    found[case.name] = _outcome(target, case)
        finally:
            target.close()
    assert found, f"{name} replays no case of the starter corpus"
    expected = {case: FINDINGS.get(name, {}).get(case, "passed") for case in found}
    assert found == expected
