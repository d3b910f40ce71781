"""`refold rules`: list the rule ids with their features and statements.

The spec's rules come first; the wire rules of the `sse` suite follow in a section of
their own, since they come from WHATWG server-sent events, not from chat-fold.md.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

from refold.reference import FEATURES, RULES, SSE_RULES, SSE_RULES_SOURCE, Rule

from ..table import WIRE_HEADING
from ._usage import usage_error

__all__ = ["register", "render_markdown"]


def register(subparsers: Any) -> None:
    """Add `refold rules` to the parser."""
    parser = subparsers.add_parser("rules", help="list the rule ids of the spec and the "
                                                 "sse wire rules")
    parser.add_argument("--feature", help="only the rules of this feature")
    parser.add_argument("--markdown", action="store_true",
                        help="print docs/rules.md (the registries as Markdown tables)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the rules."""
    if args.markdown:
        print(render_markdown(), end="")
        return 0
    if args.feature is not None and args.feature not in FEATURES:
        return usage_error("rules", f"unknown feature {args.feature!r} (--feature); the "
                                    f"features are {', '.join(FEATURES)}")
    spec = _selected(RULES.values(), args.feature)
    wire = _selected(SSE_RULES.values(), args.feature)
    if not spec and not wire:
        print(f"feature {args.feature} has no rules of its own")
        return 0
    _print_rules(spec)
    if wire:
        print(f"{chr(10) if spec else ''}{WIRE_HEADING}")
        _print_rules(wire)
    return 0


def _selected(rules: Iterable[Rule], feature: str | None) -> list[Rule]:
    return [r for r in rules if feature in (None, r.feature)]


def _print_rules(rules: list[Rule]) -> None:
    for rule in rules:
        print(f"{rule.id:<20} {rule.feature:<18} {rule.statement}")


def render_markdown() -> str:
    """The registries as the Markdown page `docs/rules.md`."""
    lines = [
        "# Rules",
        "",
        "Generated from the rules registries (`refold/reference/_rules.py` and",
        "`refold/reference/_sse_rules.py`) by `refold rules --markdown > docs/rules.md`;",
        "a test keeps it up to date.",
        "The contract itself is the chat-fold spec; these are its rule ids, one line each.",
        "",
    ]
    for feature in FEATURES:
        lines += _table(f"## {feature}", [r for r in RULES.values() if r.feature == feature])
    lines += [
        "# Wire rules (feature `sse`)",
        "",
        f"Not part of chat-fold.md: the spec names the feature `sse` (the wire decoder) but "
        f"states no rules for it. These ids are the `sse` suite's checks of a decoder of "
        f"`text/event-stream` bytes, paraphrasing {SSE_RULES_SOURCE} (\"Parsing an event "
        f"stream\", \"Interpreting an event stream\").",
        "",
    ]
    lines += _table("## sse", list(SSE_RULES.values()))
    return "\n".join(lines)


def _table(heading: str, rules: list[Rule]) -> list[str]:
    if not rules:
        return []
    lines = [heading, "", "| id | rule |", "| --- | --- |"]
    lines += [f"| `{r.id}` | {_cell(r.statement)} |" for r in rules]
    lines.append("")
    return lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
