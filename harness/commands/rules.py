"""`refold rules`: list the rule ids with their features and statements.

Every dialect by default, one section each (`--dialect NAME` for one): its spec's rules
first; rules of a registry of its own (the chat dialect's wire rules of the `sse` suite,
from WHATWG server-sent events, not from chat-fold.md) follow under a heading of their
own. After its rules, each dialect lists the departures from the documented stream shape
its `Dialect.shapes` registers (verdicts.md §1: id, class, summary, provenance), or says in
one line that it tells no shapes. `--markdown` prints docs/rules.md, which lists every
dialect. `--target T` lists T's dialect, and says which of its rules T's stated projection
leaves unjudged (`refold.run.projection`).
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from refold.reference import Rule

from ..dialects import DIALECTS, Dialect, dialect
from ..errors import UsageError
from ..run.table import extra_heading, id_width
from ..verdicts.shapes import Departure
from ._usage import usage_error

__all__ = ["register", "render_markdown"]


def register(subparsers: Any) -> None:
    """Add `refold rules` to the parser."""
    parser = subparsers.add_parser(
        "rules", help="list the rule ids of each dialect's spec (and the chat sse wire rules)"
    )
    parser.add_argument(
        "--dialect",
        metavar="NAME",
        help=f"only this dialect's rules ({', '.join(DIALECTS)}; default: every dialect)",
    )
    parser.add_argument("--feature", help="only the rules of this feature")
    parser.add_argument(
        "--target",
        metavar="TARGET",
        help="list the dialect of this target and the rules its stated projection leaves unjudged",
    )
    parser.add_argument(
        "--markdown",
        action="store_true",
        help="print docs/rules.md (the registries as Markdown tables)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the rules."""
    if args.markdown:
        print(render_markdown(), end="")
        return 0
    try:
        listed = [dialect(args.dialect)] if args.dialect else list(DIALECTS.values())
    except UsageError as exc:
        return usage_error("rules", f"{exc} (--dialect)")
    projected: list[str] = []
    if args.target is not None:
        try:
            listed, projected = _of_target(args.target, listed[0] if args.dialect else None)
        except UsageError as exc:
            return usage_error("rules", f"{exc} (--target)")
    features = list(dict.fromkeys(f for one in listed for f in one.features))
    if args.feature is not None and args.feature not in features:
        return usage_error(
            "rules",
            f"unknown feature {args.feature!r} (--feature); the features are {', '.join(features)}",
        )
    sections = [_section(one, args.feature) for one in listed]
    printed = [lines for lines in sections if lines]
    if not printed:
        print(f"feature {args.feature} has no rules of its own")
        return 0
    print("\n\n".join("\n".join(lines) for lines in [*printed, projected] if lines))
    return 0


def _of_target(spec: str, asked: Dialect | None) -> tuple[list[Dialect], list[str]]:
    """The dialect `spec` folds, and the lines saying what its projection leaves unjudged."""
    from ..run.projection import unjudged_rules
    from ..targets import load_target

    target = load_target(spec, dialect=asked)
    try:
        projection, checked = target.projection, target.dialect
    finally:
        target.close()
    if projection is None:
        return [checked], [
            f"target {target.name} states no projection: it is compared on "
            f"the whole {checked.result}, and every rule is judged"
        ]
    unjudged = [r for r in checked.rules if r in unjudged_rules(checked, projection)]
    return [checked], [
        f"target {target.name} states a projection: {projection.describe()}",
        f"not judged ({len(unjudged)}: every place they own lies outside it): "
        f"{', '.join(unjudged) or 'none'}",
    ]


def _section(one: Dialect, feature: str | None) -> list[str]:
    """One dialect's rules as lines under its heading ([] when it has none to list)."""
    spec = _selected((r for r in one.rules.values() if r.id in one.spec_rules), feature)
    extra = _selected((r for r in one.rules.values() if r.id not in one.spec_rules), feature)
    if not spec and not extra:
        return []
    width = id_width([*spec, *extra])
    lines = [f"{one.name}: {one.title} ({one.spec})", *_lines(spec, width)]
    for group in dict.fromkeys(r.feature for r in extra):
        lines += [
            "",
            extra_heading(group, one),
            *_lines((r for r in extra if r.feature == group), width),
        ]
    if feature is None:
        lines += ["", *_departure_lines(one)]
    return lines


_NO_SHAPES = (
    "tells no stream shapes: no departure is registered, and every stream it "
    "shows reads `synthetic`"
)
_NO_DEPARTURES = "registers stream shapes but no departure from the documented shape"


def _departures(one: Dialect) -> list[Departure] | None:
    """The departures `one` registers, in order (None: it tells no shapes)."""
    return None if one.shapes is None else list(one.shapes.departures.values())


def _departure_lines(one: Dialect) -> list[str]:
    """The terminal lines listing the dialect's registered departures."""
    departures = _departures(one)
    if departures is None:
        return [f"{one.name} {_NO_SHAPES}"]
    if not departures:
        return [f"{one.name} {_NO_DEPARTURES}"]
    width = max(len(d.id) for d in departures)
    lines = [f"departures from the documented shape ({len(departures)}, verdicts.md §1):"]
    for d in departures:
        lines.append(f"{d.id:<{width}} {d.shape:<9} {d.summary}")
        lines += [f"{'':<{width}} {'':<9} from: {p}" for p in d.provenance]
    return lines


def _selected(rules: Iterable[Rule], feature: str | None) -> list[Rule]:
    return [r for r in rules if feature in (None, r.feature)]


def _lines(rules: Iterable[Rule], width: int) -> list[str]:
    return [f"{rule.id:<{width}} {rule.feature:<18} {rule.statement}" for rule in rules]


def render_markdown() -> str:
    """Every dialect's registries as the Markdown page `docs/rules.md`."""
    lines = [
        "# Rules",
        "",
        "Generated from the rules registries of each dialect (`refold.dialects`) by",
        "`refold rules --markdown > docs/rules.md`; a test keeps it up to date.",
        "Each dialect's contract is its spec; these are its rule ids, one line each.",
        "",
    ]
    for one in DIALECTS.values():
        lines += _dialect_page(one)
    return "\n".join(lines)


def _dialect_page(one: Dialect) -> list[str]:
    sources = _registry_files(one)
    registry = f"; the registry is {' and '.join(sources)}" if sources else ""
    lines = [f"## {one.title} (`{one.name}`)", "", f"The contract is {one.spec}{registry}.", ""]
    spec = [r for r in one.rules.values() if r.id in one.spec_rules]
    for feature in one.features:
        lines += _table(f"### {feature}", [r for r in spec if r.feature == feature])
    extra = [r for r in one.rules.values() if r.id not in one.spec_rules]
    for feature in dict.fromkeys(r.feature for r in extra):
        lines += [
            f"### Wire rules (feature `{feature}`)",
            "",
            one.extra_rules_explained or f"Not part of {one.spec}.",
            "",
        ]
        lines += _table("", [r for r in extra if r.feature == feature])
    return lines + _departure_table(one)


def _registry_files(one: Dialect) -> list[str]:
    """Where the dialect's rule registries live (its reference package's `*rules.py`
    modules), as the installed paths the page's readers find them at."""
    package = importlib.import_module(one.reference_package)
    folder = Path(package.__file__ or "").parent
    prefix = one.reference_package.replace(".", "/")
    return [f"`{prefix}/{path.name}`" for path in sorted(folder.glob("*rules.py"))]


def _departure_table(one: Dialect) -> list[str]:
    """The page's section listing the dialect's registered departures."""
    lines = ["### Departures from the documented shape", ""]
    departures = _departures(one)
    if not departures:
        text = _NO_SHAPES if departures is None else _NO_DEPARTURES
        return [*lines, f"`{one.name}` {text}.", ""]
    lines += ["| id | class | summary | provenance |", "| --- | --- | --- | --- |"]
    lines += [
        f"| `{d.id}` | {d.shape} | {_cell(d.summary)} | "
        f"{_cell('; '.join(d.provenance)) or '(none: synthetic)'} |"
        for d in departures
    ]
    return [*lines, ""]


def _table(heading: str, rules: list[Rule]) -> list[str]:
    if not rules:
        return []
    lines = [heading, ""] if heading else []
    lines += ["| id | rule |", "| --- | --- |"]
    lines += [f"| `{r.id}` | {_cell(r.statement)} |" for r in rules]
    lines.append("")
    return lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
