"""refold: a property-based conformance suite and harness for streaming LLM clients.

This folder is the `refold` package itself: the harness, the only layer that knows
about pytest, subprocesses and HTTP (targets, the pytest plugin, baselines, results,
the `refold` command). The other layers are its subpackages:

    refold.reference   the reference fold, the canonical comparison, the rules registry
    refold.strategies  Hypothesis strategies: known completions and their chunk splits
    refold.suites      the conformance suites, run with `pytest --target=...`
    refold.reports     renderers of results (HTML, JSON, JUnit XML, Markdown)

Importing `refold` imports nothing else, so `refold.reference` stays standard-library only.
"""

__version__ = "0.1.0"
