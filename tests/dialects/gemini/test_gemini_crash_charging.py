"""A Gemini crash is charged to the rule of what it needs: a crash on streamed call
fragments, met by a test of another rule, goes away when the calls are sent whole and
is charged to the streamed-call rules; a crash nothing explains is not charged to a
rule about a shape the stream does not have."""

from __future__ import annotations

from pathlib import Path

import pytest

from refold.reference import JSON
from refold.run.checks import Check, ConformanceFailure
from refold.targets import Target, load_target
from refold.verdicts.crashes import analyse

_STREAMED_CALL: list[JSON] = [
    {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {"text": "Checking."},
                        {"functionCall": {"name": "get_weather", "willContinue": True}},
                        {
                            "functionCall": {
                                "partialArgs": [{"jsonPath": "$.city", "stringValue": "Paris"}],
                                "willContinue": True,
                            }
                        },
                        {"functionCall": {}},
                    ],
                },
                "index": 0,
            }
        ]
    },
    {"candidates": [{"finishReason": "STOP", "index": 0}]},
]


def _target(tmp_path: Path, body: str) -> Target:
    path = tmp_path / "crashing_gemini.py"
    path.write_text(
        f"def fold(chunks):\n{body}"
        "refold_target = {'dialect': 'gemini-generate-content', 'fold': fold,\n"
        "    'features': ['text', 'tool_calls', 'streamed_arguments', 'robustness']}\n",
        encoding="utf-8",
    )
    return load_target(str(path))


def _analysed_failure(target: Target, rules: tuple[str, ...]) -> ConformanceFailure:
    check = Check(target)
    check.rules = rules
    with pytest.raises(ConformanceFailure) as excinfo:
        check.fold(_STREAMED_CALL)
    failure = excinfo.value
    assert failure.crash is not None
    analyse(failure.crash, _STREAMED_CALL, target)
    return failure


def test_a_crash_on_argument_fragments_is_charged_to_the_streamed_call_rules(
    tmp_path: Path,
) -> None:
    target = _target(
        tmp_path,
        "    for chunk in chunks:\n"
        "        for entry in chunk.get('candidates', []):\n"
        "            for part in entry.get('content', {}).get('parts', []):\n"
        "                if 'partialArgs' in part.get('functionCall', {}):\n"
        "                    raise KeyError('args')\n"
        "    return {}\n",
    )
    failure = _analysed_failure(target, ("GM-ROB-NULL-ENTRIES", "GM-TEXT-JOIN"))
    assert failure.crash is not None and failure.crash.found_by == "probe"
    assert set(failure.implicated) == {"GM-CALL-STREAMED", "GM-CALL-PARTIAL-ARGS"}
    assert set(failure.blocked) == {"GM-ROB-NULL-ENTRIES", "GM-TEXT-JOIN"}
    assert "taking out of the stream what they alone decide" in str(failure)


def test_an_unexplained_crash_is_not_charged_to_a_shape_the_stream_lacks(
    tmp_path: Path,
) -> None:
    target = _target(tmp_path, "    raise RuntimeError('boom')\n")
    failure = _analysed_failure(target, ("GM-ROB-NULL-ENTRIES", "GM-TEXT-JOIN"))
    assert failure.crash is not None and not failure.crash.explained
    # the stream has no null entry: GM-ROB-NULL-ENTRIES is told nothing by it, and the
    # crash kept it from being checked (blocked, never passed)
    assert failure.implicated == ("GM-TEXT-JOIN",)
    assert failure.blocked == ("GM-ROB-NULL-ENTRIES",)
    # a test of that rule alone still fails on its own rule: nothing narrower is known
    failure = _analysed_failure(target, ("GM-ROB-NULL-ENTRIES",))
    assert failure.implicated == ("GM-ROB-NULL-ENTRIES",)
