"""What `refold mutate` can mutate: the reference, installed pure-Python modules; and
the clear refusals (not Python, compiled, a path, not installed). The scratch work
dir copies the source and never touches the user's files."""

from __future__ import annotations

import tomllib
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from refold.errors import UsageError
from refold.mutation import locate_source
from refold.mutation._workdir import build_workdir, write_config

ACCUMULATOR = "class Accumulator:\n    def add(self, chunk):\n        self.last = chunk\n"


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = tmp_path / "site"
    (site / "tinyfold").mkdir(parents=True)
    (site / "tinyfold" / "__init__.py").write_text(ACCUMULATOR)
    (site / "onefile_fold.py").write_text(ACCUMULATOR)
    monkeypatch.syspath_prepend(str(site))
    return site


def test_the_reference_is_mutated_under_its_import_name() -> None:
    source = locate_source("reference")
    assert source.module == "refold.reference" and source.is_reference
    assert source.relative_path == Path("refold/reference")
    assert (source.path / "chat" / "_accumulator.py").is_file()
    assert (source.path / "_json.py").is_file()
    assert source.excluded == (
        "_neutral",
        "anthropic",
        "events",
        "gemini",
        "responses",
        "chat/neutral",
    )


def test_an_installed_package_and_a_single_module_are_located(installed: Path) -> None:
    package = locate_source("tinyfold:Accumulator")
    assert (package.module, package.path, package.relative_path) == (
        "tinyfold",
        installed / "tinyfold",
        Path("tinyfold"),
    )
    module = locate_source("onefile_fold")
    assert (module.path, module.relative_path) == (
        installed / "onefile_fold.py",
        Path("onefile_fold.py"),
    )


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("exec:node fold.js", r"not Python code running in this interpreter"),
        ("http://localhost:8000", "not Python code running in this interpreter"),
        ("examples/broken/sum_usage.py", "pass the importable module name"),
        ("no_such_fold_package", "no module named 'no_such_fold_package' is installed"),
    ],
)
def test_targets_that_are_not_installed_python_source_are_refused(target: str, reason: str) -> None:
    with pytest.raises(UsageError, match=reason):
        locate_source(target)


def test_a_package_with_compiled_modules_is_refused(installed: Path) -> None:
    (installed / "tinyfold" / f"_speedups{EXTENSION_SUFFIXES[0]}").write_bytes(b"\x7fELF")
    with pytest.raises(UsageError, match=r"compiled extension modules .*_speedups"):
        locate_source("tinyfold")


def test_the_work_dir_copies_the_source_and_never_touches_the_original(
    installed: Path, tmp_path: Path
) -> None:
    original = installed / "tinyfold" / "__init__.py"
    before = (original.read_bytes(), original.stat().st_mtime_ns)
    workdir = tmp_path / "work"
    source = locate_source("tinyfold")
    build_workdir(source, workdir, extra_tests=())
    write_config(source, workdir, deselect=["suites/test_x.py::test_y"])
    assert (workdir / "tinyfold" / "__init__.py").read_text() == ACCUMULATOR
    assert (workdir / "suites" / "__init__.py").is_file()
    assert (original.read_bytes(), original.stat().st_mtime_ns) == before
    settings = tomllib.loads((workdir / "pyproject.toml").read_text())["tool"]["mutmut"]
    assert settings["source_paths"] == ["tinyfold"]
    assert settings["pytest_add_cli_args_test_selection"] == ["suites"]
    assert "--target=tinyfold" in settings["pytest_add_cli_args"]
    assert "--hypothesis-profile=mutation" in settings["pytest_add_cli_args"]
    assert "--deselect=suites/test_x.py::test_y" in settings["pytest_add_cli_args"]


def test_the_reference_work_dir_holds_all_of_refold_but_copies_the_reference_once(
    tmp_path: Path,
) -> None:
    build_workdir(locate_source("reference"), tmp_path, extra_tests=())
    assert (tmp_path / "refold" / "run" / "plugin.py").is_file()
    assert (tmp_path / "refold" / "reference" / "chat" / "_accumulator.py").is_file()
    settings = tomllib.loads((tmp_path / "pyproject.toml").read_text())["tool"]["mutmut"]
    assert settings["source_paths"] == ["refold/reference"]
    assert "refold/run" in settings["also_copy"]
    # The mutated package itself is never among the copies (refold/targets, which holds
    # target `reference`, is).
    assert not any(
        p == "refold/reference" or p.startswith("refold/reference/") for p in settings["also_copy"]
    )
    assert "refold/targets" in settings["also_copy"]
