"""`refold mutate`: the mutation score of the suites against a target's Python source.

    refold mutate --target reference                 # full run, writes mutation.json
    refold mutate --target mypkg --max-children 2    # an installed pure-Python target
    refold mutate --filter 'refold.reference.chat._tools.*' --output shard-1.json
    refold mutate --merge shard-*.json --output mutation.json

Exit status: 0, or 1 when the score is below `--fail-under`, 2 when no trustworthy
result could be produced (the suite is red on the reference, mutmut failed).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from refold.dialects import DEFAULT_DIALECT, DIALECTS, Dialect
from refold.errors import UsageError
from refold.reference import json_text

from ._usage import add_dialect_argument, dialect_option, usage_error

__all__ = ["register", "render_summary", "run"]

_CHECKOUT = Path(__file__).resolve().parent.parent.parent
# Tests of the reference's module structure (its imports, its namespace) fail by
# design on mutmut's rewritten modules, which import mutmut and add trampolines.
_STRUCTURAL_TESTS = frozenset(
    {"test_reference_api.py", "test_reference_anthropic_api.py", "test_reference_responses_api.py"}
)


def register(subparsers: Any) -> None:
    """Add `refold mutate` to the parser."""
    parser = subparsers.add_parser("mutate", help="mutation score of the suites (mutmut 3)")
    parser.add_argument(
        "--target",
        default="reference",
        help="reference (default) or an installed pure-Python module",
    )
    add_dialect_argument(parser, what="mutated and the suites run")
    parser.add_argument(
        "--max-children", type=int, default=2, metavar="N", help="parallel mutant runs (default 2)"
    )
    parser.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="GLOB",
        help="only mutants whose name matches (repeatable): one shard",
    )
    parser.add_argument("--work-dir", type=Path, help="scratch dir (default: a new temp dir)")
    parser.add_argument(
        "--output",
        "-o",
        type=Path,
        default=Path("mutation.json"),
        help="where to write the result JSON (default mutation.json)",
    )
    parser.add_argument(
        "--equivalents",
        type=Path,
        help="reviewed equivalent mutants (reference default: the dialect's "
        "list in the checkout's docs/, equivalent-mutants.toml for "
        f"{DEFAULT_DIALECT})",
    )
    parser.add_argument(
        "--suites-only",
        action="store_true",
        help="reference: leave out the checkout's tests/**/test_reference_*.py",
    )
    parser.add_argument(
        "--exclude-failing",
        action="store_true",
        help="reference: leave out tests that fail unmutated instead of "
        "refusing to run (other targets always do)",
    )
    parser.add_argument(
        "--fail-under", type=float, metavar="PERCENT", help="exit 1 when the score is below this"
    )
    parser.add_argument(
        "--merge",
        nargs="+",
        type=Path,
        metavar="SHARD",
        help="merge shard results into --output instead of running",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run (or merge) and print the summary."""
    from refold.mutation import MutationError, merge

    try:
        dialect_option(args.dialect)
    except UsageError as exc:
        return usage_error("mutate", str(exc))
    try:
        if args.merge:
            result = merge(json.loads(p.read_text(encoding="utf-8")) for p in args.merge)
        else:
            result = _run(args)
    except (UsageError, MutationError, ValueError, OSError) as exc:
        print(f"refold mutate: {exc}", file=sys.stderr)
        return 2
    args.output.write_text(json_text(result), encoding="utf-8")  # scrubbed, no bare NaN
    print(render_summary(result))
    print(f"result written to {args.output}")
    if args.fail_under is not None and (result["score"] or 0.0) < args.fail_under:
        print(
            f"refold mutate: score {result['score']}% is below --fail-under {args.fail_under}%",
            file=sys.stderr,
        )
        return 1
    return 0


def _run(args: argparse.Namespace) -> dict[str, Any]:
    from refold.mutation import MutationOptions, run_mutation

    reference = args.target == "reference"
    checked = dialect_option(args.dialect)
    own = checked or DIALECTS[DEFAULT_DIALECT]
    extra_tests: tuple[Path, ...] = ()
    if reference and not args.suites_only:
        extra_tests = reference_tests(_CHECKOUT / "tests", own)
    equivalents = args.equivalents
    if equivalents is None and reference:  # each dialect's reference has its own list
        equivalents = _CHECKOUT / "docs" / own.reference_equivalents
    workdir = args.work_dir or Path(tempfile.mkdtemp(prefix="refold-mutate-"))
    options = MutationOptions(
        target=args.target,
        workdir=workdir.resolve(),
        dialect=checked,
        max_children=args.max_children,
        filters=tuple(args.filter),
        extra_tests=extra_tests,
        equivalents=equivalents,
        exclude_failing=args.exclude_failing,
    )
    return run_mutation(options)


def reference_tests(folder: Path, dialect: Dialect) -> tuple[Path, ...]:
    """The checkout's tests of `dialect`'s reference: those its `reference_tests` glob
    names, without the structural ones and those of a package inside its reference,
    another contract's (`test_reference_anthropic_*.py`, `test_reference_events_*.py` are
    not the chat reference's)."""
    from refold.mutation import reference_source

    inside = [f"test_reference_{name}_*.py" for name in reference_source(dialect).excluded]
    return tuple(
        sorted(
            p
            for p in folder.glob(dialect.reference_tests)
            if p.name not in _STRUCTURAL_TESTS
            and not any(fnmatch.fnmatch(p.name, g) for g in inside)
        )
    )


def render_summary(result: dict[str, Any]) -> str:
    """The terminal summary: score, counts, then the survivors grouped by function."""
    counts = ", ".join(f"{n} {status}" for status, n in result["counts"].items())
    lines = [
        f"mutation score of the suites on {result['target']}: "
        f"{_percent(result['score'])} ({counts}) in {result['duration_seconds']} s"
    ]
    by_function: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for name, mutant in result["mutants"].items():
        if mutant["status"] in ("survived", "no tests", "suspicious", "timeout"):
            by_function[mutant["function"]].append((name, mutant))
    for function, mutants in sorted(by_function.items()):
        rules = sorted({r for _, m in mutants for r in m.get("rules", [])})
        # Detected mutants (timeouts) carry no rule map: only undetected ones need one.
        mapped = any("rules" in m for _, m in mutants)
        reach = f"  (reached by rules: {', '.join(rules) or 'none'})" if mapped else ""
        lines.append(f"\n{function}{reach}")
        for name, mutant in mutants:
            lines.append(f"  {mutant['status']}: {name.rpartition('.')[2]}")
            lines += [f"    {line}" for line in _changed_lines(mutant.get("diff") or "")]
    for entry in result.get("stale_equivalents", []):
        lines.append(f"\nstale equivalent entry (matched no survivor): {entry['function']}")
    return "\n".join(lines)


def _changed_lines(diff: str) -> list[str]:
    return [
        line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}%"
