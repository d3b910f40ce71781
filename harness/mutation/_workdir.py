"""The scratch work dir a mutation run happens in.

mutmut copies what it mutates into `<work dir>/mutants/` and runs the tests from there,
with `mutants/` first on `sys.path`. Three things make the run honest (see
docs/mutation.md): the tests sit inside the work dir (with `--pyargs`, node ids could
not be resolved and every mutant was reported killed), the mutated package keeps the
dotted name the tests import, and for the reference the whole `refold` package is
copied next to it so nothing resolves to the unmutated checkout.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from refold.run.locations import package_dir, suites_dir

from ._source import MutationSource

__all__ = [
    "PROFILE",
    "SUITES_DIR",
    "TESTS_DIR",
    "build_workdir",
    "pytest_options",
    "test_paths",
    "write_config",
]

PROFILE = "mutation"
SUITES_DIR = "suites"
TESTS_DIR = "tests"
_IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", ".pytest_cache")
_IGNORED_IN_SUITES = shutil.ignore_patterns(
    "__pycache__", "*.pyc", ".hypothesis", ".pytest_cache", "corpus"
)


def build_workdir(source: MutationSource, directory: Path, *, extra_tests: Sequence[Path]) -> None:
    """Copy the source, the suites (as `suites/`) and `extra_tests` (into `tests/`)."""
    directory.mkdir(parents=True, exist_ok=True)
    _copy(source.path, directory / source.relative_path)
    if source.is_reference:
        _copy_refold_package(directory / "refold")
    # Not the corpus suite: it replays `--corpus DIR` only, which a mutation run never gives
    # (from the copy, the plugin cannot tell it is the corpus suite, and would refuse it).
    _copy(suites_dir(), directory / SUITES_DIR, ignore=_IGNORED_IN_SUITES)
    if extra_tests:
        (directory / TESTS_DIR).mkdir(exist_ok=True)
        for test in [*extra_tests, *_helpers_of(extra_tests)]:
            shutil.copy2(test, directory / TESTS_DIR / test.name)
    write_config(source, directory, deselect=())


def _helpers_of(tests: Sequence[Path]) -> list[Path]:
    """The private modules (`_*.py`) the copied tests may import: those beside each test and
    those of the tests' root (`tests/`, which the checkout's conftest puts on `sys.path`),
    copied flat beside the tests, where pytest's rootdir-relative imports find them."""
    folders = {test.parent for test in tests}
    folders |= {folder.parent for folder in folders if folder.parent.name != "tests"}
    folders |= {root for folder in folders for root in folder.parents if root.name == "tests"}
    return sorted(
        {helper for folder in folders for helper in folder.glob("_*.py")} - set(tests),
        key=lambda helper: helper.name,
    )


def _copy(origin: Path, destination: Path, ignore: Any = _IGNORED) -> None:
    destination.parent.mkdir(parents=True, exist_ok=True)
    if origin.is_dir():
        shutil.copytree(origin, destination, ignore=ignore, dirs_exist_ok=True)
    else:
        shutil.copy2(origin, destination)


def _copy_refold_package(destination: Path) -> None:
    # The reference is `refold.reference`: the rest of `refold` (plugin, checks,
    # strategies...) must import from the work dir too, or `refold/__init__.py` in
    # the checkout would shadow the copy and the tests would import unmutated code.
    import refold

    # The reference too: the mutated source may be only a part of it (another dialect's
    # reference inside it), copied over it unchanged.
    _copy(Path(refold.__file__).parent, destination)
    for name in ("reference", "strategies", "suites", "reports"):
        _copy(package_dir(f"refold.{name}"), destination / name)


def write_config(source: MutationSource, directory: Path, *, deselect: Sequence[str]) -> None:
    """Write the work dir's pyproject.toml: mutmut's settings and pytest's options.

    `deselect` names tests that fail on the unmutated target: they are left out, since
    mutmut needs a green run and a test that already fails can kill nothing.
    """
    tests = test_paths(source, directory)
    pytest_args = [*pytest_options(source), *(f"--deselect={n}" for n in deselect)]
    mutated = source.relative_path.as_posix()
    settings = {
        "source_paths": [mutated],
        # Copied into mutants/ unmutated: another dialect's reference inside this one.
        "do_not_mutate": [f"{mutated}/{name}/*" for name in source.excluded],
        # Mutated alone, when given: modules of other packages a run's dialect owns.
        "only_mutate": [f"{mutated}/{glob}" for glob in source.only],
        "also_copy": _also_copy(source, directory),
        "pytest_add_cli_args": pytest_args,
        "pytest_add_cli_args_test_selection": tests,
        # mutmut's own per-mutant wall limit, (estimate + constant) x multiplier, is
        # only the outer bound: the guard plugin times each test (see _guard).
        "timeout_multiplier": 3.0,
        "timeout_constant": 10.0,
    }
    lines = ["[tool.mutmut]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in settings.items()]
    lines += [
        "",
        "[tool.pytest.ini_options]",
        'addopts = ["--strict-markers"]',
        "xfail_strict = true",
        "",
    ]
    (directory / "pyproject.toml").write_text("\n".join(lines), encoding="utf-8")


def test_paths(source: MutationSource, directory: Path) -> list[str]:
    """The tests every run in the work dir collects: the suites (`--dialect` keeps only
    the run's dialect's own and the generic ones) and the copied extra tests."""
    return [SUITES_DIR] + ([TESTS_DIR] if (directory / TESTS_DIR).is_dir() else [])


def pytest_options(source: MutationSource) -> list[str]:
    """The pytest options of every run in the work dir (the green run and mutmut's)."""
    # --assert=plain: pytest rewrites the asserts of every module of a pytest11
    # plugin's distribution, which in the work dir includes the mutated package
    # itself; verdicts need pass/fail only, not assertion introspection.
    # --no-header: the header hook loads the target too (see _guard).
    # --in-process: mutmut's trampolines record and switch mutants in this process.
    dialect = [f"--dialect={source.dialect.name}"] if source.dialect is not None else []
    return [
        f"--target={source.target}",
        *dialect,
        "--in-process",
        f"--hypothesis-profile={PROFILE}",
        "-p",
        "no:cacheprovider",
        "--assert=plain",
        "--no-header",
        "-p",
        "refold.mutation._guard",
    ]


def _also_copy(source: MutationSource, directory: Path) -> list[str]:
    copied = [SUITES_DIR]
    if source.is_reference:
        # Every entry of refold/ beside the mutated package and the packages holding it
        # (refold/reference/*.py beside refold/reference/anthropic): copying the mutated
        # package too would overwrite the mutants on an incremental re-run.
        mutated = source.relative_path
        for depth in range(1, len(mutated.parts)):
            folder, inner = Path(*mutated.parts[:depth]), mutated.parts[depth]
            copied += sorted(
                (folder / entry.name).as_posix()
                for entry in (directory / folder).iterdir()
                if entry.name != inner and entry.name != "__pycache__"
            )
    return copied
