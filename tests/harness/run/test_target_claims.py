"""The user owns the scope: a target's claims (features, projection, dialect) are
proposals. A projection leaving claimed rules unjudged is refused unless accepted, a
baseline pins the claims, and a run that judged nothing is no pass."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from refold.dialects import DIALECTS
from refold.errors import UsageError
from refold.gate.baseline import Baseline, dump_baseline, load_baseline
from refold.run.completion import NOTHING_JUDGED
from refold.run.projection import Projection, check_accepted

_SERVER = """
import json, sys
from refold.reference.chat import fold
FEATURES, PROJECTION, MODE = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
for line in sys.stdin:
    message = json.loads(line)
    reply = {"ok": True, "seq": message.get("seq")}
    if message["op"] == "hello":
        reply |= {"protocol": 2, "operations": ["fold"], "features": FEATURES}
        if PROJECTION is not None:
            reply["projection"] = PROJECTION
    else:
        reply["response"] = (fold(message["chunks"]) if MODE == "reference"
                             else {"object": "garbage"})
    sys.stdout.write(json.dumps(reply) + "\\n")
    sys.stdout.flush()
"""

_NOTHING = {"pointers": ["/zzz_nothing"], "builds": "nothing at all"}
_STARTER = Path(__file__).resolve().parents[3] / "examples" / "corpus"


def _target(
    folder: Path, features: list[str], projection: object = None, mode: str = "garbage"
) -> str:
    script = folder / "server.py"
    script.write_text(textwrap.dedent(_SERVER), encoding="utf-8")
    return "exec:" + shlex.join(
        [sys.executable, str(script), json.dumps(features), json.dumps(projection), mode]
    )


def _pytest(folder: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:randomly",
            "--hypothesis-profile=dev",
            "--replay-dir=",
            *options,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_projection_comparing_nothing_is_refused_unless_the_user_accepts_it(
    tmp_path: Path,
) -> None:
    target = _target(tmp_path, ["text"], _NOTHING)
    refused = _pytest(tmp_path, f"--target={target}")
    assert refused.returncode == 4, refused.stdout[-2000:]
    assert "states a projection (nothing at all; compared: /zzz_nothing)" in refused.stderr
    assert "not judged (text: " in refused.stderr and "--accept-projection" in refused.stderr
    accepted = _pytest(tmp_path, f"--target={target}", "--accept-projection", "--rules=TEXT-JOIN")
    assert accepted.returncode == NOTHING_JUDGED, accepted.stdout[-2000:]
    assert "refold projection: nothing at all; compared: /zzz_nothing" in accepted.stdout


def test_a_projection_judging_every_claimed_rule_needs_no_acceptance() -> None:
    chat = DIALECTS["openai-chat"]
    everything = Projection(
        (
            "/id",
            "/object",
            "/created",
            "/model",
            "/choices",
            "/usage",
            "/system_fingerprint",
            "/service_tier",
            "/error",
        ),
        "the whole result",
    )
    check_accepted(chat, everything, ["text"], origin="target t", accepted=False)
    nothing = Projection(("/zzz_nothing",), "nothing")
    with pytest.raises(UsageError, match=r"leaves \d+ rules of features it claims"):
        check_accepted(chat, nothing, ["text"], origin="target t", accepted=False)
    check_accepted(chat, nothing, ["text"], origin="target t", accepted=True)


def test_a_run_whose_selected_tests_were_all_skipped_exits_non_zero_and_says_so(
    tmp_path: Path,
) -> None:
    done = _pytest(tmp_path, f"--target={_target(tmp_path, ['text'])}", "--rules=USAGE-LAST")
    assert done.returncode == NOTHING_JUDGED != 0, done.stdout[-2000:]
    assert "refold: no rule was judged: every one of the" in done.stdout
    assert "skipped or not judged" in done.stdout


def test_a_run_that_judged_a_rule_keeps_its_verdict(tmp_path: Path) -> None:
    done = _pytest(tmp_path, f"--target={_target(tmp_path, ['text'])}", "--rules=TEXT-JOIN")
    assert done.returncode == 1, done.stdout[-2000:]
    assert "no rule was judged" not in done.stdout


def test_a_corpus_run_whose_cases_were_all_skipped_exits_non_zero(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(_STARTER / "anthropic-tool-use.json", corpus)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "refold.cli",
            "check",
            "--corpus",
            str(corpus),
            "--features",
            "text",
            "--replay-dir",
            "",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == NOTHING_JUDGED, done.stdout[-2000:]
    assert "no rule was judged: every one of the 1 selected tests" in done.stdout


def _baseline(
    folder: Path, target: str, features: list[str], projection: dict[str, object] | None
) -> Path:
    path = folder / "baseline.toml"
    path.write_text(
        dump_baseline(
            Baseline(
                path=str(path),
                target=target,
                features=frozenset(features),
                projection=projection,
                settings={"profile": "dev", "draws": "fixed"},
            )
        ),
        encoding="utf-8",
    )
    return path


def test_a_baseline_records_the_projection_and_reads_it_back(tmp_path: Path) -> None:
    path = _baseline(tmp_path, "exec:x", ["text"], dict(_NOTHING))
    assert "[projection]" in path.read_text()
    assert load_baseline(path).projection == _NOTHING
    path.write_text(path.read_text().replace('"/zzz_nothing"', '"zzz"'))
    with pytest.raises(UsageError, match=r"baseline .*\[projection\] declares a projection"):
        load_baseline(path)


def test_a_projection_the_baseline_records_is_accepted(tmp_path: Path) -> None:
    target = _target(tmp_path, ["text"], _NOTHING, mode="reference")
    baseline = _baseline(tmp_path, target, ["text"], dict(_NOTHING))
    done = _pytest(tmp_path, f"--baseline={baseline}", "--rules=TEXT-JOIN,ENV-ID")
    assert done.returncode in (0, NOTHING_JUDGED), done.stdout[-2000:] + done.stderr[-2000:]
    assert "claims differ" not in done.stdout


def test_a_target_stating_another_projection_than_its_baseline_fails_the_gate(
    tmp_path: Path,
) -> None:
    recorded = {"pointers": ["/choices"], "builds": "the choices"}
    target = _target(tmp_path, ["text"], _NOTHING, mode="reference")
    baseline = _baseline(tmp_path, target, ["text"], recorded)
    done = _pytest(tmp_path, f"--baseline={baseline}", "--accept-projection", "--rules=TEXT-JOIN")
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert (
        "claims differ from the baseline: target " in done.stdout
        and "states projection /zzz_nothing (nothing at all)" in done.stdout
        and "records /choices (the choices)" in done.stdout
    )


def test_a_target_stating_other_features_than_its_baseline_fails_the_gate(
    tmp_path: Path,
) -> None:
    target = _target(tmp_path, ["text", "usage"], mode="reference")
    baseline = _baseline(tmp_path, target, ["text"], None)
    done = _pytest(tmp_path, f"--baseline={baseline}", "--rules=TEXT-JOIN")
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert "states features text, usage" in done.stdout
    assert "(differing: usage)" in done.stdout


def test_the_results_record_the_claims_the_target_stated(tmp_path: Path) -> None:
    target = _target(tmp_path, ["text"], _NOTHING, mode="reference")
    done = _pytest(
        tmp_path,
        f"--target={target}",
        "--accept-projection",
        "--rules=ENV-ID",
        "--refold-report=results.json",
    )
    assert done.returncode in (0, NOTHING_JUDGED), done.stdout[-2000:]
    recorded = json.loads((tmp_path / "results.json").read_text())["target"]
    assert recorded["features"] == ["text"] and recorded["projection"] == _NOTHING
