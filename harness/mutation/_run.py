"""One mutation run: work dir, a green run first, mutmut, then the results JSON."""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from refold.dialects import Dialect
from refold.errors import UsageError

from ._equivalents import apply_equivalents, load_equivalents
from ._progress import ProgressRelay
from ._results import DETECTED, FORMAT, counts, function_of, read_verdicts, score
from ._rulemap import ENVIRONMENT_VARIABLE
from ._source import MutationSource, locate_source
from ._workdir import TESTS_DIR, build_workdir, pytest_options, test_paths, write_config

__all__ = ["MutationError", "MutationOptions", "run_mutation"]


class MutationError(Exception):
    """The mutation run could not produce a trustworthy result."""


@dataclass(frozen=True)
class MutationOptions:
    """What `refold mutate` was asked to do."""

    target: str
    workdir: Path
    dialect: Dialect | None = None
    max_children: int = 2
    filters: tuple[str, ...] = ()
    extra_tests: tuple[Path, ...] = ()
    equivalents: Path | None = None
    exclude_failing: bool = False
    environment: dict[str, str] = field(default_factory=dict)


def run_mutation(options: MutationOptions, *, out: IO[str] = sys.stdout) -> dict[str, Any]:
    """Run mutmut for `options.target` and return the mutation result (see docs/mutation.md).

    Raises:
        UsageError: the target cannot be mutated.
        MutationError: the suite is not green on the reference, or mutmut failed.
    """
    started = datetime.now(UTC)
    clock = time.monotonic()
    source = locate_source(options.target, options.dialect)
    build_workdir(source, options.workdir, extra_tests=options.extra_tests)
    out.write(
        f"refold mutate: {source.module} from {source.path}\n"
        f"  work dir {options.workdir}\n  checking the suite is green first...\n"
    )
    out.flush()
    rule_map = _green_run(source, options)
    _run_mutmut(options, out)
    stats = json.loads((options.workdir / "mutants" / "mutmut-stats.json").read_text("utf-8"))
    tests_by_function: dict[str, list[str]] = stats["tests_by_mangled_function_name"]
    _check_tests_resolve(tests_by_function, rule_map["rules"])
    mutants = _mutants(options, tests_by_function, rule_map["rules"])
    stale = apply_equivalents(
        mutants, load_equivalents(options.equivalents) if options.equivalents else []
    )
    # Only this source's modules vouch: an entry of a module the run did not mutate (a
    # list given with --equivalents that covers more) is not this run's to call stale.
    modules = {m["function"].rpartition(".")[0] for m in mutants.values()}
    stale = [e for e in stale if e.function.rpartition(".")[0] in modules]
    if options.filters:  # a shard only vouches for the functions it checked
        checked = {m["function"] for m in mutants.values() if m["status"] != "not checked"}
        stale = [e for e in stale if e.function in checked]
    return _result(
        source,
        options,
        mutants,
        rule_map,
        stale=stale,
        started=started,
        duration=time.monotonic() - clock,
    )


def _green_run(source: MutationSource, options: MutationOptions) -> dict[str, Any]:
    # mutmut needs the unmutated run green; tests that fail there are left out (they
    # can kill nothing), except on the reference, where a failure is a bug to fix first.
    rule_map_file = options.workdir / "rule-map.json"
    tests = test_paths(source, options.workdir)
    command = [
        sys.executable,
        "-m",
        "pytest",
        *tests,
        *pytest_options(source),
        "-p",
        "refold.mutation._rulemap",
        "-q",
    ]
    environment = {
        **os.environ,
        **options.environment,
        ENVIRONMENT_VARIABLE: str(rule_map_file),
        "PYTHONPATH": _python_path(options.workdir, options.environment),
    }
    finished = subprocess.run(
        command, cwd=options.workdir, env=environment, text=True, capture_output=True, check=False
    )
    if not rule_map_file.is_file() or finished.returncode not in (0, 1):
        raise MutationError(
            f"the suite did not run on {source.target} (pytest exit status "
            f"{finished.returncode}):\n{_tail(finished.stdout + finished.stderr)}"
        )
    rule_map: dict[str, Any] = json.loads(rule_map_file.read_text(encoding="utf-8"))
    failed: list[str] = rule_map["failed"]
    if failed and source.is_reference and not options.exclude_failing:
        raise MutationError(
            f"the suite must pass on the reference before mutation; "
            f"{len(failed)} test(s) failed (--exclude-failing leaves them "
            f"out): {', '.join(failed[:10])}\n"
            f"{_tail(finished.stdout)}"
        )
    if len(failed) == len(rule_map["rules"]):
        raise MutationError(
            f"every test fails on the unmutated {source.target}: nothing could kill a mutant"
        )
    write_config(source, options.workdir, deselect=failed)
    return rule_map


def _python_path(workdir: Path, environment: dict[str, str]) -> str:
    extra = environment.get("PYTHONPATH") or os.environ.get("PYTHONPATH", "")
    return os.pathsep.join(p for p in (str(workdir), extra) if p)


def _tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def _mutmut_executable() -> str:
    beside = Path(sys.executable).with_name("mutmut")
    found = str(beside) if beside.is_file() else shutil.which("mutmut")
    if found is None:
        raise UsageError("mutmut is not installed: pip install 'refold[mutation]'")
    return found


def _run_mutmut(options: MutationOptions, out: IO[str]) -> None:
    command = [
        _mutmut_executable(),
        "run",
        "--max-children",
        str(options.max_children),
        *options.filters,
    ]
    # mutmut puts mutants/ first on sys.path itself, so PYTHONPATH may stay.
    environment = {**os.environ, **options.environment, "PYTHONUNBUFFERED": "1"}
    relay = ProgressRelay(out, lambda: _expected(options))
    with subprocess.Popen(
        command,
        cwd=options.workdir,
        env=environment,
        text=True,
        encoding="utf-8",
        errors="replace",
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    ) as process:
        assert process.stdout is not None
        for piece in iter(lambda: process.stdout.read(512), ""):  # type: ignore[union-attr]
            relay.feed(piece)
    relay.finish()
    if process.returncode != 0:
        raise MutationError(
            f"mutmut run exited with status {process.returncode}:\n" + "\n".join(relay.tail)
        )


def _expected(options: MutationOptions) -> int:
    names = read_verdicts(options.workdir / "mutants")
    return sum(1 for name in names if _selected(name, options.filters))


def _selected(name: str, filters: Sequence[str]) -> bool:
    return not filters or any(fnmatch.fnmatch(name, f) or name == f for f in filters)


def _check_tests_resolve(tests_by_function: dict[str, list[str]], rules: dict[str, Any]) -> None:
    # The false-100% trap: if mutmut recorded node ids the work dir cannot collect,
    # every per-mutant pytest run errors and every mutant reads "killed".
    unknown = sorted({t for tests in tests_by_function.values() for t in tests} - set(rules))
    if unknown:
        raise MutationError(
            f"mutmut's stats name {len(unknown)} test(s) the work dir does not "
            f"collect (e.g. {unknown[0]!r}); its kills would be false"
        )


def _mutants(
    options: MutationOptions, tests_by_function: dict[str, list[str]], rules: dict[str, list[str]]
) -> dict[str, dict[str, Any]]:
    mutants: dict[str, dict[str, Any]] = {}
    for name, (status, module_file) in read_verdicts(options.workdir / "mutants").items():
        if not _selected(name, options.filters):
            status = "not checked"
        function = function_of(name)
        mutant: dict[str, Any] = {"status": status, "function": function}
        if status not in DETECTED and status != "not checked":
            tests = tests_by_function.get(function, [])
            mutant["diff"] = _diff(name, module_file)
            mutant["tests"] = len(tests)
            mutant["rules"] = sorted({r for t in tests for r in rules.get(t, [])})
        mutants[name] = mutant
    return mutants


def _diff(name: str, module_file: Path) -> str:
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    diff = get_diff_for_mutant(name, path=module_file)
    # The work dir is scratch: name the file by its module, not its temporary path.
    return diff.replace(str(module_file), name.rpartition(".")[0].replace(".", "/") + ".py")


def _result(
    source: MutationSource,
    options: MutationOptions,
    mutants: dict[str, dict[str, Any]],
    rule_map: dict[str, Any],
    *,
    stale: list[Any],
    started: datetime,
    duration: float,
) -> dict[str, Any]:
    import mutmut

    import refold

    return {
        "format": FORMAT,
        "target": source.target,
        "module": source.module,
        "dialect": source.dialect.name if source.dialect is not None else None,
        "refold_version": refold.__version__,
        "mutmut_version": getattr(mutmut, "__version__", "unknown"),
        "started": started.isoformat(timespec="seconds"),
        "duration_seconds": round(duration, 1),
        "max_children": options.max_children,
        "filter": list(options.filters),
        "tests": {
            "collected": len(rule_map["rules"]),
            "excluded_failing": rule_map["failed"],
            "paths": [test_paths(source, options.workdir)[0]]
            + [f"{TESTS_DIR}/{p.name}" for p in options.extra_tests],
        },
        "counts": counts(mutants),
        "score": score(mutants),
        "stale_equivalents": [
            {"function": e.function, "mutation": e.mutation, "reason": e.reason} for e in stale
        ],
        "mutants": dict(sorted(mutants.items())),
    }
