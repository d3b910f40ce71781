"""Nothing a target does outlives the run or reaches the user's files: every target
process runs confined (refold.targets.confinement) and the harness kills all it started
before writing a result. Each hostile target is written here as an attacker would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from refold.errors import TargetError, UsageError
from refold.targets import Target, load_target
from refold.targets.confine_exec import landlock_abi
from refold.targets.confinement import (
    DEFAULT_MEMORY,
    Confinement,
    configure,
    current,
    parse_memory,
    passed_names,
)

CHUNKS = [
    {"id": "c1", "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": "stop"}]}
]
_LANDLOCK = pytest.mark.skipif(landlock_abi() < 1, reason="the kernel has no Landlock")
_SCOPED = pytest.mark.skipif(landlock_abi() < 6, reason="Landlock ABI < 6: signals unscoped")

_GARBAGE = "def fold(chunks):\n    return {'object': 'garbage'}\n"


@pytest.fixture
def confined(tmp_path: Path) -> Iterator[None]:
    """The run's confinement restored after a test that sets its own."""
    before = current()
    yield
    configure(before)


def _file(folder: Path, name: str, source: str) -> str:
    path = folder / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return str(path)


def _probe(tmp_path: Path, body: str) -> Target:
    """An isolated target whose fold runs `body` (which sets `found`) and answers it."""
    source = (
        "import json, os, sys\ndef fold(chunks):\n    found = {}\n"
        + textwrap.indent(textwrap.dedent(body), "    ")
        + "\n    return {'object': json.dumps(found)}\n"
    )
    return load_target(_file(tmp_path, "probe.py", source), isolated=True)


def _answer(target: Target) -> dict[str, object]:
    try:
        found: dict[str, object] = json.loads(str(target.fold(CHUNKS)["object"]))
        return found
    finally:
        target.close()


def _pytest(
    folder: Path, target: str, *options: str, python: str = sys.executable, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """`pytest --target=TARGET` run from `folder`, as a user would start it there."""
    return subprocess.run(
        [
            python,
            "-m",
            "pytest",
            "-p",
            "no:randomly",
            f"--target={target}",
            "--hypothesis-profile=dev",
            "--rules=TEXT-JOIN",
            "--replay-dir=",
            *options,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


# The working directory, the environment, the memory


def test_each_target_process_works_in_a_fresh_private_directory_removed_after_it(
    tmp_path: Path,
) -> None:
    first = _answer(
        _probe(tmp_path, "found['cwd'] = os.getcwd(); found['files'] = os.listdir('.')")
    )
    second = _answer(_probe(tmp_path, "found['cwd'] = os.getcwd()"))
    assert first["cwd"] != second["cwd"] != os.getcwd()
    assert first["files"] == ["tmp"]
    assert not Path(str(first["cwd"])).exists()


def test_a_target_sees_only_the_allowlisted_environment_and_what_is_passed(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    confined: None,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-proj-CANARYCANARYCANARY")
    monkeypatch.setenv("MY_UPSTREAM", "upstream-pass-CANARY")
    body = "found['env'] = dict(os.environ)"
    seen = _answer(_probe(tmp_path, body))["env"]
    assert isinstance(seen, dict)
    assert "OPENAI_API_KEY" not in seen and "MY_UPSTREAM" not in seen
    assert seen["PATH"] == os.environ["PATH"]
    assert seen["HOME"] == seen["PWD"] and seen["TMPDIR"] == seen["HOME"] + "/tmp"
    configure(Confinement(pass_env=passed_names(["MY_UPSTREAM"])))
    passed = _answer(_probe(tmp_path, body))["env"]
    assert isinstance(passed, dict)
    assert passed["MY_UPSTREAM"] == "upstream-pass-CANARY" and "OPENAI_API_KEY" not in passed


def test_a_target_process_has_the_default_address_space_limit(tmp_path: Path) -> None:
    limits = _answer(
        _probe(tmp_path, "import resource\nfound['as'] = resource.getrlimit(resource.RLIMIT_AS)")
    )
    assert limits["as"] == [DEFAULT_MEMORY, DEFAULT_MEMORY]


def test_unbounded_allocation_meets_the_memory_limit_and_fails_the_call(
    tmp_path: Path,
    confined: None,
) -> None:
    configure(Confinement(memory=parse_memory("256M")))
    target = load_target(
        _file(
            tmp_path,
            "hog.py",
            """
        def fold(chunks):
            hoard = []
            for _ in range(16):  # 1 GiB, four times the limit
                hoard.append(bytearray(64 * 1024 * 1024))
            return {"object": "chat.completion"}
    """,
        ),
        isolated=True,
    )
    try:
        with pytest.raises(TargetError, match="MemoryError"):
            target.fold(CHUNKS)
    finally:
        target.close()


def test_the_memory_and_environment_options_are_read_strictly() -> None:
    assert parse_memory(None) == DEFAULT_MEMORY == 2 * 1024**3
    assert parse_memory("512M") == 512 * 1024**2 == parse_memory("512MiB")
    assert parse_memory("4g") == 4 * 1024**3 and parse_memory("none") is None
    assert parse_memory("1000") == 1000
    for wrong in ("", "-1", "0", "lots", "5T"):
        with pytest.raises(UsageError, match="--target-memory"):
            parse_memory(wrong)
    assert passed_names(["A,B", "A"]) == ("A", "B")
    with pytest.raises(UsageError, match="--pass-env"):
        passed_names(["1BAD"])


# Landlock: writes and signals


@_LANDLOCK
def test_a_target_writes_only_to_its_own_directory_and_temporary_files(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "outside.txt"
    found = _answer(
        _probe(
            tmp_path,
            f"""
        import tempfile
        try:
            open({str(outside)!r}, "w").write("planted")
            found["outside"] = "written"
        except PermissionError:
            found["outside"] = "denied"
        open("own.txt", "w").write("mine")
        with tempfile.NamedTemporaryFile() as scratch:
            scratch.write(b"temporary")
        found["inside"] = "written"
    """,
        )
    )
    assert found == {"outside": "denied", "inside": "written"}
    assert not outside.exists()


@_SCOPED
def test_a_target_cannot_signal_the_harness(tmp_path: Path) -> None:
    found = _answer(
        _probe(
            tmp_path,
            """
        try:
            os.kill(os.getppid(), 0)
            found["signal"] = "delivered"
        except PermissionError:
            found["signal"] = "denied"
    """,
        )
    )
    assert found == {"signal": "denied"}


@_SCOPED
def test_a_target_stopping_the_harness_does_not_stop_the_run(tmp_path: Path) -> None:
    _file(
        tmp_path,
        "stopper.py",
        """
        import os, signal
        def fold(chunks):
            try:
                os.kill(os.getppid(), signal.SIGSTOP)
            except OSError:
                pass
            return {"object": "garbage"}
    """,
    )
    try:
        done = _pytest(tmp_path, "stopper.py", timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("the harness was stopped by its target and never finished")
    assert done.returncode == 1, done.stdout[-2000:]
    assert "TEXT-JOIN" in done.stdout and "failed" in done.stdout


@_LANDLOCK
def test_a_target_planting_conftest_and_pytest_ini_where_the_harness_runs_changes_no_verdict(
    tmp_path: Path,
) -> None:
    harness = tmp_path / "project"
    harness.mkdir()
    _file(
        harness,
        "planter.py",
        f"GUESSED = {str(harness)!r}\n"
        + textwrap.dedent("""
        import os
        from refold.reference.chat import fold as _fold
        PASS = '''
        import pytest
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(item, call):
            outcome = yield
            outcome.get_result().outcome = "passed"
        '''
        def fold(chunks):
            try:
                folder = os.readlink(f"/proc/{os.getppid()}/cwd")
            except OSError:  # Landlock denies it: the folder as an attacker would guess it
                folder = GUESSED
            for name, text in (("conftest.py", PASS), ("pytest.ini", "[pytest]\\n")):
                try:
                    with open(os.path.join(folder, name), "w") as planted:
                        planted.write(text)
                except OSError:
                    pass
            return _fold(chunks)
    """),
    )
    _file(harness, "garbage.py", _GARBAGE)
    planted = _pytest(harness, "planter.py")
    assert planted.returncode == 0, planted.stdout[-2000:]
    assert not (harness / "conftest.py").exists() and not (harness / "pytest.ini").exists()
    broken = _pytest(harness, "garbage.py")
    assert broken.returncode == 1, broken.stdout[-2000:]


def _throwaway_venv(folder: Path) -> tuple[str, Path]:
    """A venv of its own whose site-packages reach this one's: its python, and where a
    `.pth` planted in it would be read."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(folder)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    python = str(folder / "bin" / "python")
    site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    ours = next(p for p in sys.path if p.endswith("site-packages"))
    (site / "refold_link.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    return python, site


@_LANDLOCK
def test_a_target_planting_a_pth_in_site_packages_changes_no_later_verdict(
    tmp_path: Path,
) -> None:
    python, site = _throwaway_venv(tmp_path / "venv")
    harness = tmp_path / "project"
    harness.mkdir()
    _file(
        harness,
        "pth_planter.py",
        """
        import sysconfig
        from refold.reference.chat import fold as _fold
        PATCH = ("import refold.run.checks as c; "
                 "c.Check.differences = lambda *a, **k: []\\n")
        def fold(chunks):
            try:
                with open(sysconfig.get_paths()["purelib"] + "/zzz_patch.pth", "w") as pth:
                    pth.write(PATCH)
            except OSError:
                pass
            return _fold(chunks)
    """,
    )
    _file(harness, "garbage.py", _GARBAGE)
    planted = _pytest(harness, "pth_planter.py", python=python)
    assert planted.returncode == 0, planted.stdout[-2000:] + planted.stderr[-2000:]
    assert not (site / "zzz_patch.pth").exists()
    broken = _pytest(harness, "garbage.py", python=python)
    assert broken.returncode == 1, broken.stdout[-2000:]


def test_the_run_says_which_confinements_are_in_force(tmp_path: Path) -> None:
    done = _pytest(tmp_path, "reference", "--target-memory=1G", "--pass-env=MY_NAME")
    line = next(line for line in done.stdout.splitlines() if line.startswith("refold confinement:"))
    assert "a fresh private directory" in line and "address space 1 GiB" in line
    assert "11 allowlisted names" in line
    assert ("Landlock ABI" in line) == (landlock_abi() > 0)
    in_process = _pytest(tmp_path, "reference", "--in-process")
    assert "refold confinement: none" in in_process.stdout


def test_a_bad_memory_option_is_a_usage_error(tmp_path: Path) -> None:
    done = _pytest(tmp_path, "reference", "--target-memory=lots")
    assert done.returncode == 4 and "--target-memory 'lots' is not a size" in done.stderr


# refold check's own configuration is explicit


def test_refold_check_loads_no_conftest_ini_or_plugin_from_its_folder(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(
        textwrap.dedent("""
        import pytest
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(item, call):
            outcome = yield
            outcome.get_result().outcome = "passed"
    """)
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:refold\n")
    info = tmp_path / "evil-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: evil\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pytest11]\nevil = evil_plugin\n")
    _file(
        tmp_path,
        "evil_plugin.py",
        """
        def pytest_sessionfinish(session):
            session.exitstatus = 0
    """,
    )
    _file(tmp_path, "garbage.py", _GARBAGE)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "refold.cli",
            "check",
            "--target",
            "garbage.py",
            "--profile",
            "dev",
            "--rules",
            "TEXT-JOIN",
            "--replay-dir",
            "",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-2000:]
    assert "TEXT-JOIN" in done.stdout
