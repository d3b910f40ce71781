"""Each broken Gemini accumulator of `examples/broken/` has its one defect, shown by hand
against the reference fold, without the harness.

For every `gemini_*.py` module: the streams of `DEFECTS` fold differently from
`refold.reference.gemini.fold`, the rules of their differences' pointers (`rules_at`)
include one of the module's expected rules, and together the streams reach all of them;
every hand-written stream of `NEUTRAL`, which cannot show any of the defects, folds
exactly like the reference, and so do lossless round trips drawn where the module's
defect cannot show, so the defect is the only one. The base, `_gemini_fold.py`, folds
every stream here like the reference (and every drawn stream:
tests/dialects/test_broken_base_folds.py). `EXPECTED_FAILURES` is the README table's last
column, the rules each module's docstring says it breaks.
"""

from __future__ import annotations

import copy
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from refold.dialects.gemini.attribution import rules_at
from refold.reference import JSON, JSONObject
from refold.reference.gemini import FEATURES, RULES, Accumulator, differences, fold
from refold.strategies.gemini import round_trips

_BROKEN = Path(__file__).resolve().parents[3] / "examples" / "broken"

EXPECTED_FAILURES: dict[str, frozenset[str]] = {
    "gemini_keeps_highest_usage": frozenset({"GM-USAGE-LAST"}),
    "gemini_first_entry_is_candidate_zero": frozenset(
        {"GM-CAND-INDEX", "GM-CAND-ORDER", "GM-ROB-NULL-ENTRIES", "GM-LIFE-TRUNCATED"}
    ),
    "gemini_text_joins_across_calls": frozenset({"GM-TEXT-JOIN", "GM-SIGNATURE"}),
    "gemini_concatenates_signatures": frozenset({"GM-SIGNATURE", "GM-TEXT-JOIN"}),
    "gemini_overwrites_signatures": frozenset({"GM-SIGNATURE", "GM-TEXT-JOIN"}),
    "gemini_drops_lone_signature": frozenset({"GM-SIGNATURE"}),
    "gemini_concatenates_finish_reason": frozenset({"GM-FINISH"}),
    "gemini_appends_safety_ratings": frozenset({"GM-SAFETY"}),
    "gemini_grounding_from_last_chunk": frozenset({"GM-GROUNDING"}),
    "gemini_drops_unknown_parts": frozenset({"GM-PART-OTHER", "GM-UNKNOWN-KEYS", "GM-TEXT-JOIN"}),
    "gemini_keeps_argument_fragments": frozenset({"GM-CALL-STREAMED", "GM-CALL-PARTIAL-ARGS"}),
    "gemini_drops_file_data": frozenset({"GM-INLINE"}),
}
"""Each broken Gemini accumulator and the GM rules its defect breaks (README table)."""


def _load(name: str) -> ModuleType:
    # Each example subclasses the base fold next to it (_gemini_fold.py), which a file
    # target may import: the harness puts a target file's folder last on sys.path.
    if str(_BROKEN) not in sys.path:
        sys.path.append(str(_BROKEN))
    spec = importlib.util.spec_from_file_location(f"broken_{name}", _BROKEN / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fold(name: str, chunks: list[JSON]) -> JSONObject:
    accumulator = _load(name).refold_target["factory"]()
    for chunk in copy.deepcopy(chunks):
        accumulator.add(chunk)
    response: JSONObject = accumulator.response()
    return response


def _finished(name: str, chunks: list[JSON]) -> bool:
    accumulator = _load(name).refold_target["factory"]()
    for chunk in copy.deepcopy(chunks):
        accumulator.add(chunk)
    return bool(accumulator.finished)


def _reference_finished(chunks: list[JSON]) -> bool:
    accumulator = Accumulator()
    for chunk in copy.deepcopy(chunks):
        accumulator.add(chunk)
    return accumulator.finished


# Hand-written streams, in the Gemini API's own shape unless a defect needs otherwise.

SIGNATURE = "U0lHLTE2LUE="
OTHER_SIGNATURE = "U0lHLTE2LUI="
CALL: JSONObject = {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}, "id": "g1"}}
RATINGS: list[JSONObject] = [
    {"category": "HARM_CATEGORY_HARASSMENT", "probability": "NEGLIGIBLE"},
    {"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "NEGLIGIBLE"},
]
GROUNDING: JSONObject = {
    "webSearchQueries": ["weather paris"],
    "groundingChunks": [{"web": {"uri": "https://example.com", "title": "Ex"}}],
}


def chunk(*parts: JSON, index: int | None = None, **candidate: JSON) -> JSONObject:
    """One Gemini API chunk with one candidate whose content holds `parts`."""
    entry: JSONObject = {"content": {"role": "model", "parts": list(parts)}, **candidate}
    if index is not None:
        entry["index"] = index
    return {"candidates": [entry], "modelVersion": "gemini-2.5-flash", "responseId": "r1"}


def usage(prompt: int, thoughts: int, answer: int) -> JSONObject:
    return {
        "promptTokenCount": prompt,
        "thoughtsTokenCount": thoughts,
        "candidatesTokenCount": answer,
        "totalTokenCount": prompt + thoughts + answer,
    }


def _streamed_call() -> list[JSONObject]:
    """Vertex's streamed arguments (R6): `{"city": "Boston"}` in two string pieces."""
    pieces = [
        {"jsonPath": "$.city", "stringValue": "Bos", "willContinue": True},
        {"jsonPath": "$.city", "stringValue": "ton"},
    ]
    return [
        chunk({"functionCall": {"name": "get_weather", "willContinue": True}}),
        *(chunk({"functionCall": {"partialArgs": [p], "willContinue": True}}) for p in pieces),
        chunk({"functionCall": {}}, finishReason="STOP"),
    ]


NEUTRAL: list[list[JSON]] = [
    [
        {**chunk({"text": "Hel"}), "usageMetadata": usage(3, 0, 1)},
        {**chunk({"text": "lo"}, finishReason="STOP"), "usageMetadata": usage(3, 0, 2)},
    ],
    [
        chunk({"text": "Plan", "thought": True}),
        chunk({"text": "It is "}, {"text": "sunny."}),
        chunk(
            {"text": "", "thoughtSignature": SIGNATURE},
            finishReason="STOP",
            safetyRatings=RATINGS,
            groundingMetadata=GROUNDING,
        ),
    ],
    [
        chunk({"text": "Checking."}, {**CALL, "thoughtSignature": SIGNATURE}),
        chunk(
            {"executableCode": {"language": "PYTHON", "code": "print(1)"}},
            {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1\n"}},
            {"inlineData": {"mimeType": "image/png", "data": "iVBORw0K"}},
            finishReason="MAX_TOKENS",
        ),
    ],
]
"""Streams no defect here shows in: text over chunks with running usage, a thought run and
a Gemini 3 signed answer with metadata on the finish chunk, a signed call, code, media."""

DEFECTS: dict[str, list[list[JSON]]] = {
    "gemini_keeps_highest_usage": [
        [
            {**chunk({"text": "A picture"}), "usageMetadata": usage(10, 244, 1217)},
            {**chunk(finishReason="STOP"), "usageMetadata": usage(10, 167, 1217)},
        ]
    ],
    "gemini_first_entry_is_candidate_zero": [
        [chunk({"text": "A"}, index=0), chunk({"text": "B"}, index=1)],
        [chunk({"text": "Only the second."}, index=1, finishReason="STOP")],
        # GM-ROB-NULL-ENTRIES: the null first entry is read, candidate 0's entry after it not
        [{"candidates": [None, {"content": {"parts": [{"text": "Hi"}]}, "finishReason": "STOP"}]}],
        # GM-LIFE-TRUNCATED: candidate 1 never finished, but was never read either
        [
            {
                "candidates": [
                    {"content": {"parts": [{"text": "A"}]}, "index": 0},
                    {"content": {"parts": [{"text": "B"}]}, "index": 1},
                ]
            },
            {"candidates": [{"index": 0, "finishReason": "STOP"}]},
        ],
    ],
    "gemini_text_joins_across_calls": [
        [chunk({"text": "Checking."}), chunk(CALL), chunk({"text": "Done."}, finishReason="STOP")]
    ],
    "gemini_concatenates_signatures": [
        [
            chunk({"text": "One.", "thoughtSignature": SIGNATURE}),
            chunk({"text": "Two.", "thoughtSignature": OTHER_SIGNATURE}, finishReason="STOP"),
        ]
    ],
    "gemini_overwrites_signatures": [
        [
            chunk({"text": "One.", "thoughtSignature": SIGNATURE}),
            chunk({"text": "Two.", "thoughtSignature": OTHER_SIGNATURE}, finishReason="STOP"),
        ]
    ],
    "gemini_drops_lone_signature": [
        [
            chunk({"text": "Plan", "thought": True}),
            chunk({"text": "", "thoughtSignature": SIGNATURE}, finishReason="STOP"),
        ],
        [chunk(CALL), chunk({"text": "", "thoughtSignature": SIGNATURE}, finishReason="STOP")],
    ],
    "gemini_concatenates_finish_reason": [
        [chunk({"text": "Hi"}, finishReason="STOP"), chunk(finishReason="STOP")]
    ],
    "gemini_appends_safety_ratings": [
        [
            chunk({"text": "Hi"}, safetyRatings=RATINGS),
            chunk(finishReason="STOP", safetyRatings=RATINGS),
        ]
    ],
    "gemini_grounding_from_last_chunk": [
        [
            chunk({"inlineData": {"mimeType": "image/png", "data": "iVBORw0K"}}),
            chunk(groundingMetadata=GROUNDING),
            chunk({"text": "Here it is."}, finishReason="STOP"),
        ]
    ],
    "gemini_drops_unknown_parts": [
        [chunk({"toolCall": {"id": "t1", "name": "search"}}, finishReason="STOP")],
        [chunk({"text": "Hi", "partMetadata": {"source": "x"}}, finishReason="STOP")],
        [
            chunk(
                {"text": "Plain "},
                {"text": "cited", "partMetadata": {"source": "x"}},
                {"text": "!"},
            )
        ],
    ],
    "gemini_keeps_argument_fragments": [_streamed_call()],
    "gemini_drops_file_data": [
        [
            chunk({"text": "See"}),
            chunk({"fileData": {"mimeType": "image/png", "fileUri": "gs://b/x.png"}}),
            chunk(finishReason="STOP"),
        ]
    ],
}
"""Streams that show each defect; together they reach every rule the module breaks."""


def test_the_table_names_every_gemini_module_with_spec_rules() -> None:
    modules = {path.stem for path in _BROKEN.glob("gemini_*.py")}
    assert modules == set(EXPECTED_FAILURES) == set(DEFECTS)
    assert len(modules) >= 10
    unknown = {rule for rules in EXPECTED_FAILURES.values() for rule in rules} - set(RULES)
    assert not unknown, f"rules the spec does not have: {sorted(unknown)}"


@pytest.mark.parametrize("name", sorted(EXPECTED_FAILURES))
def test_each_module_declares_a_gemini_target_and_cites_its_rules(name: str) -> None:
    module = _load(name)
    target = module.refold_target
    assert target["dialect"] == "gemini-generate-content" and target["name"] == name
    features = set(target["features"])
    assert features <= set(FEATURES) and "text" in features
    assert target["factory"]().finished is False
    doc = module.__doc__ or ""
    assert doc.startswith("Broken on purpose: ") and "Modelled on: " in doc
    assert "Evidence: /work/shared/research/gemini-fold.md R" in doc
    breaks = next(line for line in doc.splitlines() if line.startswith("Breaks: "))
    listed = breaks.removeprefix("Breaks: ").split(".")[0]
    assert set(listed.split(", ")) == EXPECTED_FAILURES[name]
    claimed = {RULES[rule].feature for rule in EXPECTED_FAILURES[name]}
    assert claimed <= features, f"{name} breaks rules of features it does not claim"


@pytest.mark.parametrize("name", sorted(EXPECTED_FAILURES))
def test_each_module_subclasses_the_gemini_base_and_marks_its_bug(name: str) -> None:
    base = _load("_gemini_fold")
    factory = _load(name).refold_target["factory"]
    bases = {(cls.__qualname__, cls.__module__) for cls in factory.__mro__}
    assert ("Accumulator", "_gemini_fold") in bases
    assert "# the bug" in (_BROKEN / f"{name}.py").read_text(encoding="utf-8")
    assert base.refold_target["features"] == _load(name).refold_target["features"]


@pytest.mark.parametrize("name", sorted(DEFECTS))
def test_a_defect_stream_departs_from_the_reference_on_the_modules_rules(name: str) -> None:
    expected = EXPECTED_FAILURES[name]
    reached: set[str] = set()
    for chunks in DEFECTS[name]:
        found = differences(fold(chunks), _fold(name, chunks))
        assert found, f"{name}: folds {chunks} like the reference"
        rules = frozenset().union(*(rules_at(d.pointer) for d in found))
        if _finished(name, chunks) and not _reference_finished(chunks):
            rules |= {"GM-LIFE-TRUNCATED"}  # pointerless: finished on a cut stream
        assert rules & expected, f"{name}: differences {found} implicate only {sorted(rules)}"
        reached |= rules & expected
    assert reached == expected, f"{name}: no stream departs on {sorted(expected - reached)}"


@pytest.mark.parametrize("name", sorted(EXPECTED_FAILURES))
def test_a_stream_that_cannot_show_the_defect_folds_like_the_reference(name: str) -> None:
    for chunks in NEUTRAL:
        assert differences(fold(chunks), _fold(name, chunks)) == [], name


def test_the_base_folds_every_stream_here_like_the_reference() -> None:
    streams = [*NEUTRAL, *(s for v in DEFECTS.values() for s in v)]
    for chunks in streams:
        assert differences(fold(chunks), _fold("_gemini_fold", chunks)) == []


def _shows_nothing(response: JSONObject) -> bool:
    return True


def _one_candidate(response: JSONObject) -> bool:
    return len(response.get("candidates", [])) <= 1


_ROUND_TRIPS: dict[str, tuple[frozenset[str], frozenset[int] | None, Callable]] = {
    "gemini_keeps_highest_usage": (frozenset(FEATURES) - {"usage"}, None, _shows_nothing),
    "gemini_first_entry_is_candidate_zero": (frozenset({"text"}), None, _one_candidate),
    "gemini_text_joins_across_calls": (frozenset({"text", "usage"}), None, _shows_nothing),
    "gemini_concatenates_signatures": (frozenset(FEATURES) - {"thinking"}, None, _shows_nothing),
    "gemini_overwrites_signatures": (frozenset(FEATURES) - {"thinking"}, None, _shows_nothing),
    "gemini_drops_lone_signature": (frozenset(FEATURES) - {"thinking"}, None, _shows_nothing),
    "gemini_concatenates_finish_reason": (frozenset(FEATURES), None, _shows_nothing),
    "gemini_appends_safety_ratings": (frozenset(FEATURES) - {"safety"}, None, _shows_nothing),
    "gemini_grounding_from_last_chunk": (frozenset(FEATURES) - {"grounding"}, None, _shows_nothing),
    "gemini_drops_unknown_parts": (frozenset(FEATURES), frozenset({1}), _shows_nothing),
    "gemini_keeps_argument_fragments": (
        frozenset(FEATURES) - {"streamed_arguments"},
        None,
        _shows_nothing,
    ),
    "gemini_drops_file_data": (frozenset(FEATURES) - {"media"}, None, _shows_nothing),
}
"""For each module: the features and split families whose round trips cannot show its
defect, and a filter on the drawn response. Finish reasons come once per candidate in
every family; the documented family (1) sends only documented part kinds."""


@pytest.mark.parametrize("name", sorted(_ROUND_TRIPS))
@settings(deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_lossless_stream_that_cannot_show_the_defect_folds_like_the_reference(
    name: str, data: st.DataObject
) -> None:
    features, families, wanted = _ROUND_TRIPS[name]
    response, chunks = data.draw(round_trips(features=features, families=families))
    assume(wanted(response))
    assert differences(fold(chunks), _fold(name, chunks)) == []
