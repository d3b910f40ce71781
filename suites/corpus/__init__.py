"""The corpus suite: recorded streams (`refold capture`) replayed against the target.

Collected only in a run given `--corpus DIR`; each case file is one test, marked with the
rules of its dialect that decide what its expectation holds (`refold.capture.corpus.case_rules`).
"""
