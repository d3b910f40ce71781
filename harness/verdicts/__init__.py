"""Verdicts and ablation (verdicts.md): which rule a failure is charged to and on which shape
of stream it was found: the departures undone (`ablation`, `difference_ablation`, `undone`),
crashes located, the policies that reproduce an output (`diagnosis`), stream and wire
shapes, and the fingerprints a baseline knows a failure by.
"""
