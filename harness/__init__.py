"""refold: a property-based conformance suite and harness for streaming LLM clients.

This folder is the `refold` package itself: the harness, the only layer that knows
about pytest, subprocesses and HTTP (targets, the pytest plugin, baselines, results,
the `refold` command). The other layers are its subpackages:

    refold.reference   the kernel of the reference folds, and one fold per dialect
    refold.strategies  Hypothesis strategies: known results and their lossless splits
    refold.suites      the conformance suites, run with `pytest --target=...`
    refold.reports     renderers of results (HTML, JSON, JUnit XML, Markdown)

The public API is importable from here (`from refold import Check, rule`); each name is
imported when first used, so importing `refold` (or `refold.reference`, which stays
standard-library only) imports nothing else.

PYTEST_DONT_REWRITE: the `refold` command imports this package before it starts pytest,
which then marks every package of a pytest11 distribution for assertion rewriting; the
marker tells pytest this module (no asserts) needs none, instead of a warning that the
checkout's `filterwarnings = ["error"]` turns into a crash. Submodules imported later
(the plugin, the suites) are rewritten as usual.
"""

__version__ = "0.1.0"

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .dialects import DIALECTS, Dialect, dialect
    from .errors import UsageError
    from .run.checks import Check, ConformanceFailure
    from .run.marks import rule

__all__ = [
    "DIALECTS",
    "Check",
    "ConformanceFailure",
    "Dialect",
    "UsageError",
    "__version__",
    "dialect",
    "rule",
]

_HOME = {
    "Check": "run.checks",
    "ConformanceFailure": "run.checks",
    "DIALECTS": "dialects",
    "Dialect": "dialects",
    "dialect": "dialects",
    "UsageError": "errors",
    "rule": "run.marks",
}


def __getattr__(name: str) -> Any:
    """Import a public name's module when the name is first read (PEP 562)."""
    if name not in _HOME:
        raise AttributeError(f"module 'refold' has no attribute {name!r}")
    value = getattr(import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value
    return value
