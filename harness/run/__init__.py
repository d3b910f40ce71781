"""A run of the suites: the pytest plugin (`pytest --target=...`), what the suites assert
(`checks`, the `rule` mark), the Hypothesis profiles, how far a property is
searched, the rules a run selects, what is checked before it starts, a target's stated
projection, and when a run is complete.
"""
