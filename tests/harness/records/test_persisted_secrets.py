"""Nothing secret or opaque is persisted, wherever it hides: a hostile target plants a
canary under every credential name, in every credential shape and under `opaque` and
`payload` at depth, in its answer, its name and its description; after `refold check
--report-dir`, `--report FILE` and `refold baseline --write`, no written file holds any
canary, raw, JSON-escaped, HTML-escaped or Markdown-escaped, and the terminal saw no
raw control character of the target's."""

from __future__ import annotations

import html
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SAMPLE_SUITE = ROOT / "examples" / "targets" / "sample_suite.py"
REFOLD = [sys.executable, "-m", "refold.cli"]

# Each canary's core is unique and alphanumeric, so no escaping can hide it from the search.
KEYED = {
    name: f"Qz{n}keyed{n}canary"
    for n, name in enumerate(
        [
            "api_key",
            "apiKey",
            "api-key",
            "x-api-key",
            "X-API-Key",
            "authorization",
            "Proxy-Authorization",
            "password",
            "secret",
            "client_secret",
            "token",
            "session_token",
            "access_token",
            "refresh_token",
            "id_token",
            "cookie",
            "set-cookie",
            "Set-Cookie",
        ]
    )
}
SHAPED = [
    "sk-Qz0shapedABCDEFGHIJKLMN",
    "sk-proj-Qz1shapedABCDEFGHIJKL",
    "sk-ant-api03-Qz2shapedABCDEFGH",
    "AKIAQZ3SHAPEDABCDEFG",
    "ghp_Qz4shapedABCDEFGHIJKLMNOPQRS",
    "gho_Qz5shapedABCDEFGHIJKLMNOPQRS",
    "github_pat_Qz6shaped_ABCDEFGHIJKLMNOP",
    "xoxb-Qz7shaped-ABCDEFGH",
    "Bearer Qz8shapedABCDEFGH",
    "bearer Qz9shapedABCDEFGH",
    "eyJQz10shapedhdr.eyJQz10shapedbody.Qz10shapedsig",
]
BASIC = "Authorization: Basic Qz11shapedQUJDREVGRw=="
ASSIGNED = ["OPENAI_API_KEY=Qz12assigned", '{"password": "Qz13assigned"}']
OPAQUE = "Qz14opaqueframe"
PAYLOAD = "Qz15payloadbody"
NAMED = "sk-proj-Qz16namedABCDEFGHIJKLM"
DESCRIBED = "ghp_Qz17describedABCDEFGHIJKLMN"
CORES = [
    *KEYED.values(),
    "Qz0shaped",
    "Qz1shaped",
    "Qz2shaped",
    "QZ3SHAPED",
    "Qz4shaped",
    "Qz5shaped",
    "Qz6shaped",
    "Qz7shaped",
    "Qz8shaped",
    "Qz9shaped",
    "Qz10shaped",
    "Qz11shaped",
    "Qz12assigned",
    "Qz13assigned",
    OPAQUE,
    PAYLOAD,
    "Qz16named",
    "Qz17described",
]
CONTROL = "\x1b]0;pwned\x07\x1b[2J\x9b31m"

HOSTILE = f"""
from refold.reference.chat import fold as _fold

def _answer(chunks):
    response = _fold(chunks)
    response.update({KEYED!r})
    response["choices"][0]["message"]["content"] = (
        {CONTROL!r} + {" | ".join([*SHAPED, BASIC, *ASSIGNED])!r})
    response["choices"][0]["message"]["opaque"] = {{"deep": [{{"frame": {OPAQUE!r}}}]}}
    response["usage"] = {{"x": {{"y": {{"payload": {{"body": {PAYLOAD!r}}}}}}}}}
    return response

refold_target = {{"name": "hostile " + {NAMED!r} + {CONTROL!r}, "fold": _answer,
                  "description": "leaks " + {DESCRIBED!r} + {CONTROL!r},
                  "features": ["text", "choices", "usage"]}}
"""


def _escaped_forms(core: str) -> set[str]:
    return {core, json.dumps(core)[1:-1], html.escape(core), core.replace("_", "\\_")}


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    workdir = tmp_path_factory.mktemp("hostile")
    shutil.copy(SAMPLE_SUITE, workdir / "test_sample.py")
    (workdir / "hostile.py").write_text(HOSTILE, encoding="utf-8")
    console = ""
    for argv in (
        ["check", "--report-dir", "out"],
        ["check", "--report", "report.json"],
        ["baseline", "--write", "baseline.toml"],
    ):
        done = subprocess.run(
            [
                *REFOLD,
                *argv,
                "--target",
                "hostile.py",
                "--",
                "test_sample.py",
                "-k",
                "test_text_is_joined",
            ],
            cwd=workdir,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-3000:]
        console += done.stdout + done.stderr
    return workdir, console


def test_the_hostile_run_wrote_every_kind_of_file(hostile_run: tuple[Path, str]) -> None:
    workdir, _ = hostile_run
    names = {p.name for p in (workdir / "out").iterdir()}
    assert {"results.json", "report.html", "junit.xml", "summary.md"} <= names
    assert list((workdir / "refold-replays").glob("*.json"))
    assert (workdir / "report.json").is_file() and (workdir / "baseline.toml").is_file()
    results = json.loads((workdir / "out" / "results.json").read_text(encoding="utf-8"))
    assert results["rules"]["TEXT-JOIN"]["status"] == "failed"


def test_no_written_file_holds_a_canary_in_any_escaping(hostile_run: tuple[Path, str]) -> None:
    workdir, _ = hostile_run
    written = [p for p in workdir.rglob("*") if p.is_file() and p.suffix != ".py"]
    leaks = [
        (path.name, core)
        for path in written
        for core in CORES
        if any(form in path.read_text(encoding="utf-8") for form in _escaped_forms(core))
    ]
    assert leaks == []


def test_opaque_and_payload_values_say_present_not_kept(hostile_run: tuple[Path, str]) -> None:
    workdir, _ = hostile_run
    replay = next((workdir / "refold-replays").glob("*.json"))
    received = json.loads(replay.read_text(encoding="utf-8"))["received"]
    assert received["choices"][0]["message"]["opaque"] == "(present, not kept)"
    assert received["usage"]["x"]["y"]["payload"] == "(present, not kept)"
    assert received["api_key"] == received["authorization"] == "[redacted]"


def test_the_console_saw_no_raw_control_character(hostile_run: tuple[Path, str]) -> None:
    _, console = hostile_run
    assert "\x1b" not in console and "\x07" not in console and "\x9b" not in console
    assert "\\u001b]0;pwned" in console  # shown, escaped


def test_a_usage_error_naming_a_hostile_target_is_scrubbed_and_escaped(tmp_path: Path) -> None:
    target = tmp_path / "named.py"
    target.write_text(
        "from refold.reference.chat import Accumulator\n"
        "refold_target = {'name': 'evil sk-proj-Qz16namedABCDEFGHIJKLM \\x1b]0;pwned\\x07',\n"
        "                 'factory': Accumulator, 'features': ['text']}\n",
        encoding="utf-8",
    )
    (tmp_path / "b.toml").write_text(
        '[expected_failures]\n"USAGE-LAST" = "sums"\n', encoding="utf-8"
    )
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--target",
            str(target),
            "--baseline",
            "b.toml",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 4, run.stdout[-2000:] + run.stderr[-2000:]
    shown = run.stdout + run.stderr
    assert "USAGE-LAST" in shown
    assert "sk-proj-Qz16named" not in shown and "\x1b" not in shown
