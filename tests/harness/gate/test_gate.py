"""The release gate: a run with a baseline draws fixed examples, records and compares what
failed per test (fingerprints), judges only the tests that ran, and refuses entries it
could never check; `refold baseline` records the settings it drew with."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from refold.gate.baseline import load_baseline
from refold.reference.chat import differences
from refold.run.checks import ConformanceFailure
from refold.verdicts.fingerprints import Fingerprint, fingerprints_of, normalise_pointer

ROOT = Path(__file__).resolve().parents[3]
BROKEN = ROOT / "examples" / "targets" / "broken_accumulator.py"
SAMPLE_SUITE = ROOT / "examples" / "targets" / "sample_suite.py"
PYTEST = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA"]
REFOLD = [sys.executable, "-m", "refold.cli"]

_DELEGATING = """
from refold.reference.chat import Accumulator as _Reference


class Accumulator:
    def __init__(self):
        self._reference = _Reference()

    def add(self, chunk):
        {add}
        self._reference.add(chunk)

    def response(self):
        response = self._reference.response()
        {response}
        return response

    @property
    def finished(self):
        return self._reference.finished

    def mark_done(self):
        self._reference.mark_done()
"""


def _target(directory: Path, name: str, *, add: str = "pass", response: str = "pass") -> Path:
    """A target that folds as the reference does, with one bug put in."""
    path = directory / f"{name}.py"
    path.write_text(_DELEGATING.format(add=add, response=response), encoding="utf-8")
    return path


def _run(argv: list[str], cwd: Path, *, ci: bool = True) -> subprocess.CompletedProcess[str]:
    from hypothesis._settings import _CI_VARS  # the variables Hypothesis reads a CI from

    environment = {k: v for k, v in os.environ.items() if ci or k not in _CI_VARS}
    return subprocess.run(
        argv, cwd=cwd, capture_output=True, text=True, timeout=600, check=False, env=environment
    )


def _sentences(text: str, start: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(start)]


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    shutil.copy(SAMPLE_SUITE, tmp_path / "test_sample.py")
    return tmp_path


def test_list_indexes_in_a_fingerprint_are_normalised() -> None:
    assert (
        normalise_pointer("/choices/10/message/tool_calls/0/function/name")
        == "/choices/*/message/tool_calls/*/function/name"
    )
    assert normalise_pointer("/usage/prompt_tokens") == "/usage/prompt_tokens"


def test_a_fingerprint_holds_only_the_pointers_that_are_evidence_against_its_rule() -> None:
    expected = {
        "id": "a",
        "usage": {"total_tokens": 1},
        "choices": [{"index": 0, "finish_reason": "stop"}],
    }
    received = {
        "id": "b",
        "usage": {"total_tokens": 2},
        "choices": [{"index": 0, "finish_reason": None}],
    }
    failure = ConformanceFailure(
        ("ENV-ID", "CHOICE-FINISH"), "differs", differences=differences(expected, received)
    )
    found = fingerprints_of(failure, test="test_m::test_t", rules=("ENV-ID", "CHOICE-FINISH"))
    by_rule = {f.pop("rule"): Fingerprint.from_json(f) for f in found}
    assert by_rule == {  # USAGE-LAST is implicated, but not a rule of this test
        "ENV-ID": Fingerprint("test_m::test_t", "differs", ("/id",)),
        "CHOICE-FINISH": Fingerprint("test_m::test_t", "differs", ("/choices/*/finish_reason",)),
    }


_PROBE = """
from hypothesis import settings

from refold.run.marks import rule


@rule("TEXT-JOIN")
def test_the_draws_are_fixed(check):
    current = settings()
    assert current.derandomize and current.database is None, current
"""


def test_a_run_with_a_baseline_draws_fixed_examples_whatever_the_profile(tmp_path: Path) -> None:
    (tmp_path / "test_probe.py").write_text(_PROBE, encoding="utf-8")
    (tmp_path / "b.toml").write_text('target = "reference"\n', encoding="utf-8")
    gated = _run(
        [*PYTEST, "--baseline", "b.toml", "--hypothesis-profile", "dev", "test_probe.py"], tmp_path
    )
    assert gated.returncode == 0, gated.stdout[-3000:]
    assert "refold draws: fixed (profile dev, max_examples 20)" in gated.stdout
    # Where Hypothesis sees a CI (CI=true) its default settings, and so the dev profile,
    # are derandomized already: the opt-out is shown where the profile draws at random.
    asked = _run(
        [
            *PYTEST,
            "--baseline",
            "b.toml",
            "--hypothesis-profile",
            "dev",
            "--draws",
            "profile",
            "test_probe.py",
        ],
        tmp_path,
        ci=False,
    )
    assert asked.returncode == 1, asked.stdout[-3000:]  # the user asked for random draws


def test_a_baseline_records_its_settings_and_a_check_with_others_says_so(workdir: Path) -> None:
    written = _run(
        [
            *REFOLD,
            "baseline",
            "--target",
            str(BROKEN),
            "--profile",
            "dev",
            "--write",
            "b.toml",
            "--",
            "test_sample.py",
        ],
        workdir,
    )
    assert written.returncode == 0, written.stdout[-3000:] + written.stderr[-2000:]
    baseline = load_baseline(workdir / "b.toml")
    assert baseline.settings["profile"] == "dev" and baseline.settings["draws"] == "fixed"
    assert baseline.settings["max_examples"] == 20 and baseline.settings["hypothesis"]
    checked = _run([*REFOLD, "check", "--baseline", "b.toml", "--", "test_sample.py"], workdir)
    assert checked.returncode == 0, checked.stdout[-3000:]  # the recorded profile: dev
    assert "was written with" not in checked.stdout
    other = _run(
        [*REFOLD, "check", "--baseline", "b.toml", "--profile", "ci", "--", "test_sample.py"],
        workdir,
    )
    assert other.returncode == 0, other.stdout[-3000:]
    (note,) = _sentences(other.stdout, "refold baseline: b.toml was written with")
    assert "profile dev, max_examples 20" in note and "profile ci, max_examples 100" in note


def test_a_new_defect_in_a_known_failing_rule_fails_the_gate(workdir: Path) -> None:
    written = _run(
        [*REFOLD, "baseline", "--target", str(BROKEN), "--write", "b.toml", "--", "test_sample.py"],
        workdir,
    )
    assert written.returncode == 0, written.stdout[-3000:] + written.stderr[-2000:]
    assert load_baseline(workdir / "b.toml").fingerprints["CHOICE-FINISH"]
    # Still fails CHOICE-FINISH (and ENV-ID, as recorded), now by raising on a chunk after
    # a finish: no departure from the plain shape explains that crash (undoing the blank
    # finish reason leaves it), so it stays charged to the test's own rule.
    worse = _target(
        workdir,
        "worse",
        add="\n        ".join(
            [
                "self.last = chunk.get('id') or getattr(self, 'last', None)",
                "if getattr(self, 'stopped', False):",
                "    raise ValueError('a chunk after the finish')",
                "self.stopped = any(isinstance(c, dict) and c.get('finish_reason') == 'stop'",
                "                   for c in chunk.get('choices') or [])",
            ]
        ),
        response="response['id'] = self.last",
    )
    gated = _run(
        [
            *PYTEST,
            "--baseline",
            "b.toml",
            "--target",
            str(worse),
            "--refold-report",
            "r.json",
            "test_sample.py",
        ],
        workdir,
    )
    assert gated.returncode == 1, gated.stdout[-3000:]
    (sentence,) = _sentences(gated.stdout, "new failure: CHOICE-FINISH")
    assert "test_sample::test_a_later_empty_finish_reason_erases_nothing raised" in sentence
    assert (
        "it records test_sample::test_a_later_empty_finish_reason_erases_nothing differs "
        "at /choices/*/finish_reason"
        in sentence
        and sentence.endswith(".")
    )
    failure = json.loads((workdir / "r.json").read_text(encoding="utf-8"))["rules"][
        "CHOICE-FINISH"
    ]["failure"]
    assert failure["message"] == sentence and failure["chunks"]


def test_a_new_failure_of_another_rule_is_a_complete_sentence_with_its_chunks(
    workdir: Path,
) -> None:
    (workdir / "b.toml").write_text(
        '[expected_failures]\n"CHOICE-FINISH" = "issue #1"\n', encoding="utf-8"
    )
    shouting = _target(
        workdir,
        "shouting",
        response=(
            "for c in response['choices']: c['message']['content'] = "
            "(c['message'].get('content') or '') + '!'"
        ),
    )
    gated = _run(
        [
            *PYTEST,
            "--baseline",
            "b.toml",
            "--target",
            str(shouting),
            "--refold-report",
            "r.json",
            "-k",
            "finish",
            "test_sample.py",
        ],
        workdir,
    )
    assert gated.returncode == 1, gated.stdout[-3000:]
    (sentence,) = _sentences(gated.stdout, "new failure: TEXT-JOIN")
    assert "a test the baseline b.toml expects to fail only for CHOICE-FINISH (" in sentence
    assert sentence.endswith(").")
    failure = json.loads((workdir / "r.json").read_text(encoding="utf-8"))["rules"]["TEXT-JOIN"][
        "failure"
    ]
    assert failure["message"] == sentence and failure["chunks"]


_TWO_FINISH_TESTS = """
from refold.run.marks import rule


@rule("CHOICE-FINISH")
def test_a_blank_finish_reason_erases_nothing(check):
    check.folds_like_reference([
        {"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        {"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": ""}]}])


@rule("CHOICE-FINISH")
def test_a_finish_reason_is_kept(check):
    check.folds_like_reference([
        {"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}])
"""


def test_a_subset_run_reports_nothing_stale_about_tests_it_did_not_run(tmp_path: Path) -> None:
    (tmp_path / "test_finish.py").write_text(_TWO_FINISH_TESTS, encoding="utf-8")
    written = _run(
        [*REFOLD, "baseline", "--target", str(BROKEN), "--write", "b.toml", "--", "test_finish.py"],
        tmp_path,
    )
    assert written.returncode == 0, written.stdout[-3000:] + written.stderr[-2000:]
    subset = _run([*PYTEST, "--baseline", "b.toml", "-k", "is_kept", "test_finish.py"], tmp_path)
    assert subset.returncode == 0, subset.stdout[-3000:]
    assert "stale" not in subset.stdout
    fixed = _run(
        [*PYTEST, "--baseline", "b.toml", "--target", "reference", "test_finish.py"], tmp_path
    )
    assert fixed.returncode == 1, fixed.stdout[-3000:]
    (sentence,) = _sentences(fixed.stdout, "stale baseline entry: CHOICE-FINISH passes now")
    assert sentence.endswith("remove the entry.")


def test_a_baseline_entry_for_an_unclaimed_feature_is_refused(workdir: Path) -> None:
    (workdir / "b.toml").write_text(
        'target = "reference"\nfeatures = ["text", "choices"]\n\n'
        '[expected_failures]\n"TOOL-NAME" = "names are concatenated"\n',
        encoding="utf-8",
    )
    done = _run([*PYTEST, "--baseline", "b.toml", "test_sample.py"], workdir)
    assert done.returncode == 4, done.stdout[-3000:] + done.stderr[-3000:]
    said = " ".join(done.stderr.split())
    assert "[expected_failures] lists TOOL-NAME (tool_calls)" in said
    assert "does not claim" in said and "Traceback" not in said


_MASKED_SUITE = """
from hypothesis import given, settings
from hypothesis import strategies as st

from refold.run.marks import rule


def _stream(parts, role_twice):
    return [{"id": "c", "choices": [{"index": 0, "delta": {
        "content": part, **({"role": "assistant"} if number == 0 or role_twice else {})}}]}
        for number, part in enumerate(["x", *parts])]


@rule("CHOICE-ROLE")
def test_the_role_is_not_repeated(check):
    check.folds_like_reference(_stream([], True) + _stream([], True))


@rule("TEXT-JOIN")
@settings(max_examples=100, database=None)
@given(parts=st.lists(st.sampled_from(["a", "b"]), min_size=1, max_size=3),
       role_twice=st.booleans())
def test_text_is_joined(check, parts, role_twice):
    check.folds_like_reference(_stream(parts, role_twice))
"""


def test_refold_baseline_folds_in_what_the_check_finds_past_masked_failures(
    tmp_path: Path,
) -> None:
    (tmp_path / "test_masked.py").write_text(_MASKED_SUITE, encoding="utf-8")
    # Two bugs: a repeated role is concatenated (CHOICE-ROLE), a third "b" is doubled
    # (TEXT-JOIN), rarely drawn.
    # Unmasked, the text test shrinks to the role bug; with CHOICE-ROLE known (masked)
    # it finds the text bug, which the written file must then expect.
    target = _target(
        tmp_path,
        "two_bugs",
        add="\n        ".join(
            [
                "import copy; chunk = copy.deepcopy(chunk)",
                "for c in chunk.get('choices') or []:",
                "    d = c.get('delta') or {}",
                "    self.bs = getattr(self, 'bs', 0) + (d.get('content') == 'b')",
                "    if d.get('content') == 'b' and self.bs == 3: d['content'] = 'bb'",
                "    self.roles = getattr(self, 'roles', 0) + bool(d.get('role'))",
            ]
        ),
        response="\n        ".join(
            [
                "if getattr(self, 'roles', 0) > 1:",
                "    response['choices'][0]['message']['role'] *= 2",
            ]
        ),
    )
    written = _run(
        [*REFOLD, "baseline", "--target", str(target), "--write", "b.toml", "--", "test_masked.py"],
        tmp_path,
    )
    assert written.returncode == 0, written.stdout[-4000:] + written.stderr[-2000:]
    baseline = load_baseline(tmp_path / "b.toml")
    assert set(baseline.expected_failures) == {"CHOICE-ROLE", "TEXT-JOIN"}, written.stdout[-4000:]
    gated = _run([*PYTEST, "--baseline", "b.toml", "test_masked.py"], tmp_path)
    assert gated.returncode == 0, gated.stdout[-3000:]


def test_a_known_failure_blocked_by_a_new_crash_is_not_stale(workdir: Path) -> None:
    written = _run(
        [*REFOLD, "baseline", "--target", str(BROKEN), "--write", "b.toml", "--", "test_sample.py"],
        workdir,
    )
    assert written.returncode == 0, written.stdout[-3000:] + written.stderr[-2000:]
    # Raising on the blank finish reason: ablation charges the crash to ROB-BLANK, which
    # keeps the test from judging CHOICE-FINISH either way.
    crashing = _target(
        workdir,
        "crashing",
        add="\n        ".join(
            [
                "self.last = chunk.get('id') or getattr(self, 'last', None)",
                "if any(isinstance(c, dict) and c.get('finish_reason') == ''",
                "       for c in chunk.get('choices') or []):",
                "    raise ValueError('blank finish_reason')",
            ]
        ),
        response="response['id'] = self.last",
    )
    gated = _run(
        [
            *PYTEST,
            "--baseline",
            "b.toml",
            "--target",
            str(crashing),
            "--refold-report",
            "r.json",
            "test_sample.py",
        ],
        workdir,
    )
    assert gated.returncode == 1, gated.stdout[-3000:]
    assert _sentences(gated.stdout, "new failure: ROB-BLANK")
    assert not _sentences(gated.stdout, "stale baseline fingerprint: CHOICE-FINISH")
    rules = json.loads((workdir / "r.json").read_text(encoding="utf-8"))["rules"]
    assert rules["CHOICE-FINISH"]["verdict"] != "stale"


def test_dev_and_nightly_draw_new_examples_also_where_hypothesis_sees_a_ci() -> None:
    probe = (
        "from hypothesis import settings\n"
        "from refold.run.profiles import register_profiles\n"
        "register_profiles()\n"
        "print([settings.get_profile(p).derandomize for p in ('dev', 'nightly', 'ci')])"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, "CI": "true"},
    ).stdout
    assert shown.strip() == "[False, False, True]"
