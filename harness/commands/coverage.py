"""`refold coverage`: line and branch coverage of a target under the suites, by rule.

refold coverage --target mypkg --output coverage.json
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from refold.errors import UsageError
from refold.reference import json_text

from ._usage import add_dialect_argument, dialect_option, usage_error

__all__ = ["register", "render_summary", "run"]


def register(subparsers: Any) -> None:
    """Add `refold coverage` to the parser."""
    parser = subparsers.add_parser("coverage", help="line/branch coverage of a target, by rule")
    parser.add_argument(
        "--target", default="reference", help="reference (default) or an installed Python module"
    )
    add_dialect_argument(parser, what="measured and the suites run")
    parser.add_argument("--profile", default="ci", help="Hypothesis profile (default ci)")
    parser.add_argument(
        "--output",
        "-o",
        type=Path,
        default=Path("coverage.json"),
        help="where to write the coverage JSON (default coverage.json)",
    )
    parser.add_argument("pytest_args", nargs="*", help="further pytest arguments (after --)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Measure, write the JSON, print the summary. Exit 0 unless nothing could be measured."""
    from refold.run.coverage import run_coverage

    try:
        checked = dialect_option(args.dialect)
    except UsageError as exc:
        return usage_error("coverage", str(exc))
    try:
        document = run_coverage(
            args.target, profile=args.profile, pytest_args=args.pytest_args, dialect=checked
        )
    except UsageError as exc:
        print(f"refold coverage: {exc}", file=sys.stderr)
        return 2
    args.output.write_text(json_text(document), encoding="utf-8")  # no bare NaN
    print(render_summary(document))
    print(f"coverage written to {args.output}")
    return 0 if document["files"] else 2


def render_summary(document: dict[str, Any]) -> str:
    """Totals, one line per file with its missing lines, and the rules reaching most lines."""
    totals = document["totals"]
    lines = [
        f"coverage of {document['package']} under the suites "
        f"(pytest exit status {document['pytest_status']}): "
        f"{totals['lines_percent']:.1f}% of lines, {totals['branches_percent']:.1f}% of "
        "branches"
    ]
    for name, data in document["files"].items():
        missing = ",".join(str(n) for n in data["missing_lines"]) or "-"
        lines.append(
            f"  {name:<40} {data['lines_percent']:6.1f}% {data['branches_percent']:6.1f}%"
            f"  missing: {missing}"
        )
    reach = sorted(
        (
            (sum(len(v) for v in per_file.values()), rule_id)
            for rule_id, per_file in document["lines_by_rule"].items()
        ),
        reverse=True,
    )
    if reach:
        lines.append(
            "lines reached, by rule: " + ", ".join(f"{rule_id} {count}" for count, rule_id in reach)
        )
    return "\n".join(lines)
