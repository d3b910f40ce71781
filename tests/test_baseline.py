"""Baselines: parsing and writing round-trip, expected failures become xfail, a stale
entry fails the run, and `refold baseline --write` records a run that then passes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refold.baseline import Baseline, dump_baseline, load_baseline
from refold.errors import UsageError
from refold.reference import FEATURES, RULES

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "examples" / "targets" / "broken_accumulator.py"
SAMPLE_SUITE = ROOT / "examples" / "targets" / "sample_suite.py"

_reasons = st.dictionaries(st.sampled_from(sorted(RULES)), st.text(min_size=1).filter(str.strip),
                           max_size=4)


@given(target=st.text(), features=st.sets(st.sampled_from(FEATURES)),
       expected=_reasons, skips=_reasons)
def test_a_written_baseline_reads_back_to_the_same_values(
    tmp_path_factory: pytest.TempPathFactory, target: str, features: set[str],
    expected: dict[str, str], skips: dict[str, str],
) -> None:
    baseline = Baseline(path="-", target=target, features=frozenset(features),
                        expected_failures=expected, skips=skips)
    path = tmp_path_factory.mktemp("baseline") / "baseline.toml"
    path.write_text(dump_baseline(baseline, comment="line one\nline two"), encoding="utf-8")
    assert load_baseline(path) == Baseline(path=str(path), target=target,
                                           features=frozenset(features),
                                           expected_failures=expected, skips=skips)


@pytest.mark.parametrize(("text", "message"), [
    ('[expected_failures]\n"TOOL-9" = "x"\n', r"unknown rule ids \['TOOL-9'\]"),
    ('[unsupported_features]\ntelepathy = "x"\n', "unknown features"),
    ('[expected_failures]\n"ENV-ID" = ""\n', "non-empty reason"),
    ("features = \"text\"\n", "expected a list"),
    ("colour = 1\n", r"unknown keys \['colour'\]"),
    ("[expected_failures\n", "not valid TOML"),
])
def test_an_invalid_baseline_is_refused_naming_the_file_and_key(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError, match=message) as excinfo:
        load_baseline(path)
    assert str(path) in str(excinfo.value)


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=600,
                          check=False)


def test_a_recorded_baseline_gates_the_release_and_goes_stale_when_fixed(tmp_path: Path) -> None:
    shutil.copy(SAMPLE_SUITE, tmp_path / "test_sample.py")
    refold = [sys.executable, "-m", "refold.cli"]
    written = _run([*refold, "baseline", "--target", str(BROKEN), "--write", "baseline.toml",
                    "--", "test_sample.py"], tmp_path)
    assert written.returncode == 0, written.stdout[-3000:] + written.stderr[-2000:]
    baseline = load_baseline(tmp_path / "baseline.toml")
    assert set(baseline.expected_failures) == {"ENV-ID", "CHOICE-FINISH"}
    assert baseline.target == str(BROKEN)

    pytest_ = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA"]
    gated = _run([*pytest_, "--baseline", "baseline.toml", "test_sample.py"], tmp_path)
    assert gated.returncode == 0, gated.stdout[-3000:]
    assert "3 xfailed" in gated.stdout and "1 passed" in gated.stdout

    fixed = _run([*pytest_, "--baseline", "baseline.toml", "--target", "reference",
                  "test_sample.py"], tmp_path)
    assert fixed.returncode == 1, fixed.stdout[-3000:]
    assert "stale baseline entry: ENV-ID passes now" in fixed.stdout
    assert "stale baseline entry: CHOICE-FINISH passes now" in fixed.stdout


def test_baseline_features_and_a_different_features_option_conflict(tmp_path: Path) -> None:
    shutil.copy(SAMPLE_SUITE, tmp_path / "test_sample.py")
    (tmp_path / "b.toml").write_text('features = ["text", "lifecycle"]\n', encoding="utf-8")
    done = _run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--baseline",
                 "b.toml", "--features", "text", "test_sample.py"], tmp_path)
    assert done.returncode == 4
    assert "claim different features" in done.stderr


def test_baseline_skips_skip_with_their_reason(tmp_path: Path) -> None:
    shutil.copy(SAMPLE_SUITE, tmp_path / "test_sample.py")
    (tmp_path / "b.toml").write_text('[skips]\n"TEXT-JOIN" = "hangs, issue #7"\n',
                                     encoding="utf-8")
    done = _run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "--baseline",
                 "b.toml", "test_sample.py"], tmp_path)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "baseline skips TEXT-JOIN: hangs, issue #7" in done.stdout
