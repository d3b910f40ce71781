"""`refold rules`: list the spec's rule ids with their features and statements."""

from __future__ import annotations

import argparse
from typing import Any

from refold.reference import FEATURES, RULES

__all__ = ["register", "render_markdown"]


def register(subparsers: Any) -> None:
    """Add `refold rules` to the parser."""
    parser = subparsers.add_parser("rules", help="list the rule ids of the spec")
    parser.add_argument("--feature", help="only the rules of this feature")
    parser.add_argument("--markdown", action="store_true",
                        help="print docs/rules.md (the registry as a Markdown table)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the rules."""
    if args.markdown:
        print(render_markdown(), end="")
        return 0
    for rule in RULES.values():
        if args.feature in (None, rule.feature):
            print(f"{rule.id:<20} {rule.feature:<18} {rule.statement}")
    return 0


def render_markdown() -> str:
    """The registry as the Markdown page `docs/rules.md`."""
    lines = [
        "# Rules",
        "",
        "Generated from the rules registry (`refold/reference/_rules.py`) by",
        "`refold rules --markdown > docs/rules.md`; a test keeps it up to date.",
        "The contract itself is the chat-fold spec; these are its rule ids, one line each.",
        "",
    ]
    for feature in FEATURES:
        rules = [r for r in RULES.values() if r.feature == feature]
        if not rules:
            continue
        lines += [f"## {feature}", "", "| id | rule |", "| --- | --- |"]
        lines += [f"| `{r.id}` | {_cell(r.statement)} |" for r in rules]
        lines.append("")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
