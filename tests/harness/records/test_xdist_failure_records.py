"""What a worker sends its controller about a failure is plain, bounded JSON text.

pytest-xdist ships each test report through execnet, which cannot serialise an integer
outside a signed 32-bit range: a failure record holding one (an SDK echoing a huge
`created`, a drawn wrongly typed value) ended the whole run in an INTERNALERROR.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from refold.records.replay import decode_failure, encode_failure
from refold.reference._persist import TOTAL_BYTES
from refold.run.checks import ConformanceFailure

_HUGE_CREATED = """
from refold.reference.chat import fold as _fold

def fold(chunks):
    response = _fold(chunks)
    response["created"] = {created}
    return response
"""

_CREATED_TEST = "test_created_is_the_first_positive_integer_created"


@pytest.mark.parametrize("created", [2**31, -(2**31) - 1, 2**63 + 1, -(2**70)])
def test_a_failure_holding_an_integer_beyond_32_bits_is_reported_under_xdist(
    tmp_path: Path, created: int
) -> None:
    target = tmp_path / "huge_created.py"
    target.write_text(_HUGE_CREATED.format(created=created), encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "refold.cli",
            "check",
            "--target",
            str(target),
            "--profile",
            "dev",
            "--report",
            "results.json",
            "--",
            "-n",
            "2",
            "-k",
            _CREATED_TEST,
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = done.stdout + done.stderr
    assert "INTERNALERROR" not in output, output[-3000:]
    assert done.returncode == 1, output[-3000:]
    rule = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["rules"][
        "ENV-CREATED"
    ]
    assert rule["status"] == "failed"
    assert rule["failure"]["received"]["created"] == created
    assert rule["failure"]["pointer"] == "/created"


def test_an_encoded_failure_is_json_text_that_decodes_to_the_record() -> None:
    failure = ConformanceFailure(
        ("ENV-CREATED",),
        "differs",
        chunks=[{"created": 2**64}],
        expected={"created": 1},
        received={"created": 2**64},
    )
    text = encode_failure(failure)
    assert isinstance(text, str)
    record = decode_failure(text)
    assert record is not None
    assert record["chunks"] == [{"created": 2**64}]
    assert record["received"] == {"created": 2**64}


def test_an_encoded_failure_is_bounded_whatever_the_values() -> None:
    huge_text = "x" * 5_000_000
    failure = ConformanceFailure(
        ("TEXT-JOIN",),
        "differs",
        chunks=[{"content": huge_text}] * 50,
        expected={"content": huge_text},
        received={"n": 10**5000, "f": float("nan")},
    )
    text = encode_failure(failure)
    # The one cap on what refold keeps (refold.reference.TOTAL_BYTES of strings), plus the
    # record's own structure.
    assert len(text.encode("utf-8")) < TOTAL_BYTES + 16 * 1024
    record = decode_failure(text)
    assert record is not None and record["message"].startswith("TEXT-JOIN")
    json.loads(text, parse_constant=_no_constant)  # plain JSON: no NaN or Infinity


def test_a_property_that_is_not_an_encoded_failure_decodes_to_nothing() -> None:
    assert decode_failure("not json") is None
    assert decode_failure(json.dumps([1, 2])) is None
    assert decode_failure({"message": "a dict from an older worker"}) is None


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


_DOCS = Path(__file__).resolve().parents[3] / "docs" / "sdk-conformance.md"
_SDK_MODULES = {"openai": "openai", "litellm": "litellm", "langchain": "langchain_openai"}
_FAILS_IN_EVERY_SDK = "test_a_null_choice_entry_is_skipped"  # "choices": [null] raises


def _report_commands() -> dict[str, str]:
    """The documented report commands, by target."""
    commands = [
        line.strip()
        for line in _DOCS.read_text(encoding="utf-8").splitlines()
        if line.startswith("refold check --target ")
    ]
    return {command.split()[3]: command for command in commands}


def test_the_docs_give_a_report_command_for_every_built_in_sdk_target() -> None:
    from refold.targets import BUILTIN_TARGETS
    from refold.targets.loading import BUILTIN_EVENTS_TARGETS

    assert set(_report_commands()) == (set(BUILTIN_TARGETS) | set(BUILTIN_EVENTS_TARGETS)) - {
        "reference"
    }
    assert all(" -- -n 2" in command for command in _report_commands().values())


@pytest.mark.parametrize("target", sorted(_SDK_MODULES))
def test_the_documented_report_command_runs_under_xdist(tmp_path: Path, target: str) -> None:
    import importlib.util
    import os

    if importlib.util.find_spec(_SDK_MODULES[target]) is None:
        pytest.skip(f"install refold[{target}] to run its report command")
    command = f"{_report_commands()[target]} -k {_FAILS_IN_EVERY_SDK}"
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PATH": path},
    )
    output = done.stdout + done.stderr
    assert "INTERNALERROR" not in output, output[-3000:]
    assert done.returncode == 1, output[-3000:]
    [results] = tmp_path.glob("reports/conformance/*/results.json")
    rules = json.loads(results.read_text(encoding="utf-8"))["rules"]
    assert rules["ROB-NULL-ENTRIES"]["status"] == "failed"
    assert rules["ROB-NULL-ENTRIES"]["failure"]["chunks"]
    assert (results.parent / "summary.md").is_file()
