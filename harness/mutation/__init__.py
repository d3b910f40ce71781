"""Mutation runs (`refold mutate`): how strong the suites are, measured with mutmut 3.

The target's Python source is copied into a scratch work dir with the suites, the
suites must pass on it unmutated, then mutmut runs them against each mutant. The
result is a JSON document (format `refold-mutation/1`, see docs/mutation.md) with the
score, every mutant's verdict and, for each survivor, its diff and the rule ids of
the tests that reach its function. Shards (mutant-name filters) merge into one.
"""

from ._equivalents import Equivalent, apply_equivalents, change_of, load_equivalents
from ._results import FORMAT, counts, merge, score
from ._run import MutationError, MutationOptions, run_mutation
from ._source import MutationSource, locate_source, reference_source

__all__ = [
    "FORMAT",
    "Equivalent",
    "MutationError",
    "MutationOptions",
    "MutationSource",
    "apply_equivalents",
    "change_of",
    "counts",
    "load_equivalents",
    "locate_source",
    "merge",
    "reference_source",
    "run_mutation",
    "score",
]
