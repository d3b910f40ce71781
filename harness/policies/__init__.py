"""The catalogue of known fold policies, per dialect (`refold.policies`).

A policy is a small, named variation of a dialect's reference fold that real libraries
apply ("sums usage across chunks", as langchain-core 1.8.3 does): `Policy` (name, the
rules it breaks, the libraries known to apply it, its fold). Each dialect registers its
catalogue as `Dialect.policies`; `refold.verdicts.diagnosis` names the policies that reproduce a
failing target's output. The catalogue is `docs/policies.md`.
"""

from collections.abc import Iterable, Sequence

from ._policy import Policy, PolicyRaised

__all__ = [
    "Policy",
    "PolicyRaised",
    "catalogue_markdown",
]


def catalogue_markdown(catalogues: Iterable[tuple[str, Sequence[Policy]]]) -> str:
    """The catalogue as docs/policies.md lists it: a table per dialect, given each dialect's
    name and policies, skipping a dialect with none (a test keeps the page's tables equal
    to this for the registered dialects)."""
    lines: list[str] = []
    for name, policies in catalogues:
        if not policies:
            continue
        lines += [
            f"### {name}",
            "",
            "| policy | breaks | applied by | example |",
            "| --- | --- | --- | --- |",
        ]
        lines += [
            f"| {p.name} | {', '.join(p.rules)} | {', '.join(p.libraries)} | "
            f"`examples/broken/{p.example}.py` |"
            for p in policies
        ]
        lines.append("")
    return "\n".join(lines)
