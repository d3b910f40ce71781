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

from refold.commands.baseline import baseline_from_results, revise_baseline
from refold.dialects import dialect
from refold.errors import UsageError
from refold.gate.baseline import Baseline, check_dialect, dump_baseline, load_baseline
from refold.reference.chat import FEATURES, RULES
from refold.verdicts.fingerprints import Fingerprint

ROOT = Path(__file__).resolve().parents[3]
BROKEN = ROOT / "examples" / "targets" / "broken_accumulator.py"
SAMPLE_SUITE = ROOT / "examples" / "targets" / "sample_suite.py"

_reasons = st.dictionaries(
    st.sampled_from(sorted(RULES)), st.text(min_size=1).filter(str.strip), max_size=4
)


_fingerprints = st.frozensets(
    st.builds(
        Fingerprint,
        test=st.text(),
        kind=st.text(),
        pointers=st.lists(st.text()).map(lambda p: tuple(sorted(set(p)))),
    ),
    min_size=1,
    max_size=3,
)
_settings = st.fixed_dictionaries(
    {},
    optional={
        "profile": st.text(),
        "draws": st.sampled_from(["fixed", "profile"]),
        "max_examples": st.integers(0, 10**6),
        "hypothesis": st.text(),
        "refold": st.text(),
    },
)


@st.composite
def _expected_with_fingerprints(
    draw: st.DrawFn,
) -> tuple[dict[str, str], dict[str, frozenset[Fingerprint]]]:
    expected = draw(_reasons)
    fingerprinted = draw(st.sets(st.sampled_from(sorted(expected)))) if expected else set()
    return expected, {r: draw(_fingerprints) for r in fingerprinted}


@given(
    target=st.text(),
    features=st.sets(st.sampled_from(FEATURES)),
    expected=_expected_with_fingerprints(),
    skips=_reasons,
    settings=_settings,
)
def test_a_written_baseline_reads_back_to_the_same_values(
    tmp_path_factory: pytest.TempPathFactory,
    target: str,
    features: set[str],
    expected: tuple[dict[str, str], dict[str, frozenset[Fingerprint]]],
    skips: dict[str, str],
    settings: dict[str, str | int],
) -> None:
    reasons, fingerprints = expected
    values = {
        "target": target,
        "features": frozenset(features),
        "expected_failures": reasons,
        "skips": skips,
        "fingerprints": fingerprints,
        "settings": settings,
    }
    path = tmp_path_factory.mktemp("baseline") / "baseline.toml"
    text = dump_baseline(Baseline(path="-", **values), comment="line one\nline two")
    path.write_text(text, encoding="utf-8")
    assert load_baseline(path) == Baseline(path=str(path), **values)


def test_a_baseline_written_before_settings_and_fingerprints_still_loads(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.toml"
    path.write_text(
        'target = "mypkg"\nfeatures = ["text"]\n\n[expected_failures]\n"ENV-ID" = "last id wins"\n',
        encoding="utf-8",
    )
    baseline = load_baseline(path)
    assert baseline.expected_failures == {"ENV-ID": "last id wins"}
    assert baseline.fingerprints == {} and baseline.settings == {}
    assert baseline.dialect == "openai-chat"  # written before dialects: all were chat ones
    check_dialect(baseline, dialect("openai-chat"))


def test_a_written_baseline_names_its_dialect_and_reads_back_to_it(tmp_path: Path) -> None:
    written = Baseline(
        path="-",
        dialect="anthropic-messages",
        target="t",
        features=frozenset({"text", "tool_use"}),
        expected_failures={"AM-LIFE-FINISHED": "finished too early"},
        unsupported_features={"thinking": "not exposed"},
    )
    text = dump_baseline(written)
    assert text.splitlines()[0] == 'dialect = "anthropic-messages"'
    assert 'dialect = "openai-chat"' in dump_baseline(Baseline(path="-"))
    path = tmp_path / "am.toml"
    path.write_text(text, encoding="utf-8")
    assert load_baseline(path) == Baseline(
        path=str(path),
        dialect="anthropic-messages",
        target="t",
        features=written.features,
        expected_failures=written.expected_failures,
        unsupported_features=written.unsupported_features,
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('dialect = "gemini"\n', r"`dialect` is 'gemini'.*openai-chat, anthropic-messages"),
        ("dialect = 1\n", r"`dialect` is 1"),
        (
            'dialect = "anthropic-messages"\n[expected_failures]\n"ENV-ID" = "x"\n',
            r"unknown rule ids \['ENV-ID'\].*anthropic-messages",
        ),
        (
            '[expected_failures]\n"AM-LIFE-FINISHED" = "x"\n',
            r"unknown rule ids \['AM-LIFE-FINISHED'\].*openai-chat",
        ),
        (
            'dialect = "anthropic-messages"\n[unsupported_features]\nlogprobs = "x"\n',
            "unknown features",
        ),
    ],
)
def test_a_baseline_names_only_rules_and_features_of_its_own_dialect(
    tmp_path: Path,
    text: str,
    message: str,
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError, match=message) as excinfo:
        load_baseline(path)
    assert str(path) in str(excinfo.value)


def test_a_baseline_of_another_dialect_is_refused_in_one_paragraph() -> None:
    baseline = Baseline(path="vendor/baseline.toml", dialect="anthropic-messages")
    check_dialect(baseline, dialect("anthropic-messages"))
    with pytest.raises(UsageError) as excinfo:
        check_dialect(baseline, dialect("openai-chat"))
    message = str(excinfo.value)
    assert "\n" not in message
    for said in (
        "vendor/baseline.toml",
        "anthropic-messages",
        "anthropic-fold.md",
        "openai-chat",
        "chat-fold.md",
        "--dialect anthropic-messages",
    ):
        assert said in message, said


def test_a_baseline_written_from_results_keeps_their_dialect() -> None:
    results = {
        "dialect": {"name": "anthropic-messages"},
        "target": {"features": ["text"]},
        "rules": {
            "AM-LIFE-FINISHED": {"status": "failed", "reason": "too early", "fingerprints": []}
        },
    }
    baseline = baseline_from_results(results, target="t")
    assert baseline.dialect == "anthropic-messages"
    assert revise_baseline(baseline, results).dialect == "anthropic-messages"
    del results["dialect"]  # a results file written before dialects
    assert baseline_from_results(results, target="t").dialect == "openai-chat"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[expected_failures]\n"TOOL-9" = "x"\n', r"unknown rule ids \['TOOL-9'\]"),
        ('[unsupported_features]\ntelepathy = "x"\n', "unknown features"),
        ('[expected_failures]\n"ENV-ID" = ""\n', "non-empty reason"),
        ('features = "text"\n', "expected a list"),
        ("colour = 1\n", r"unknown keys \['colour'\]"),
        ("[expected_failures\n", "not valid TOML"),
        (
            '[fingerprints]\n"ENV-ID" = [{test = "m::t", kind = "differs"}]\n',
            r"\[fingerprints\] lists \['ENV-ID'\], which \[expected_failures\] does not",
        ),
        (
            '[expected_failures]\n"ENV-ID" = "x"\n[fingerprints]\n"ENV-ID" = ["m::t"]\n',
            "expected a list of",
        ),
        ('[settings]\nmax_examples = "many"\n', "expected an integer"),
        ("[settings]\nseed = 1\n", "unknown key 'seed'"),
    ],
)
def test_an_invalid_baseline_is_refused_naming_the_file_and_key(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError, match=message) as excinfo:
        load_baseline(path)
    assert str(path) in str(excinfo.value)


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)


def test_a_recorded_baseline_gates_the_release_and_goes_stale_when_fixed(tmp_path: Path) -> None:
    shutil.copy(SAMPLE_SUITE, tmp_path / "test_sample.py")
    refold = [sys.executable, "-m", "refold.cli"]
    written = _run(
        [
            *refold,
            "baseline",
            "--target",
            str(BROKEN),
            "--write",
            "baseline.toml",
            "--",
            "test_sample.py",
        ],
        tmp_path,
    )
    assert written.returncode == 0, written.stdout[-3000:] + written.stderr[-2000:]
    baseline = load_baseline(tmp_path / "baseline.toml")
    assert set(baseline.expected_failures) == {"ENV-ID", "CHOICE-FINISH"}
    assert baseline.target == str(BROKEN)

    pytest_ = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA"]
    gated = _run([*pytest_, "--baseline", "baseline.toml", "test_sample.py"], tmp_path)
    assert gated.returncode == 0, gated.stdout[-3000:]
    assert "3 xfailed" in gated.stdout and "1 passed" in gated.stdout

    fixed = _run(
        [*pytest_, "--baseline", "baseline.toml", "--target", "reference", "test_sample.py"],
        tmp_path,
    )
    assert fixed.returncode == 1, fixed.stdout[-3000:]
    assert "stale baseline entry: ENV-ID passes now" in fixed.stdout
    assert "stale baseline entry: CHOICE-FINISH passes now" in fixed.stdout


def test_baseline_features_and_a_different_features_option_conflict(tmp_path: Path) -> None:
    shutil.copy(SAMPLE_SUITE, tmp_path / "test_sample.py")
    (tmp_path / "b.toml").write_text('features = ["text", "lifecycle"]\n', encoding="utf-8")
    done = _run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--baseline",
            "b.toml",
            "--features",
            "text",
            "test_sample.py",
        ],
        tmp_path,
    )
    assert done.returncode == 4
    assert "claim different features" in done.stderr


def test_baseline_skips_skip_with_their_reason(tmp_path: Path) -> None:
    shutil.copy(SAMPLE_SUITE, tmp_path / "test_sample.py")
    (tmp_path / "b.toml").write_text('[skips]\n"TEXT-JOIN" = "hangs, issue #7"\n', encoding="utf-8")
    done = _run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-rs",
            "--baseline",
            "b.toml",
            "test_sample.py",
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert "baseline skips TEXT-JOIN: hangs, issue #7" in done.stdout
