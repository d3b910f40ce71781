"""refold: a property-based conformance suite and harness for streaming LLM clients.

This folder is the `refold` package itself: the harness, the only layer that knows
about pytest, subprocesses and HTTP (targets, the pytest plugin, baselines, results,
the `refold` command). The other layers are its subpackages:

    refold.reference   the reference fold, the canonical comparison, the rules registry
    refold.strategies  Hypothesis strategies: known completions and their chunk splits
    refold.suites      the conformance suites, run with `pytest --target=...`
    refold.reports     renderers of results (HTML, JSON, JUnit XML, Markdown)

Importing `refold` imports nothing else, so `refold.reference` stays standard-library only.

PYTEST_DONT_REWRITE: the `refold` command imports this package before it starts pytest,
which then marks every package of a pytest11 distribution for assertion rewriting; the
marker tells pytest this module (no asserts) needs none, instead of a warning that the
checkout's `filterwarnings = ["error"]` turns into a crash. Submodules imported later
(the plugin, the suites) are rewritten as usual.
"""

__version__ = "0.1.0"
