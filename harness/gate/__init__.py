"""The release gate: a baseline of known failures (TOML), the verdict of a run against it,
`--fail-on` and the minimal streams a baseline entry records.
"""
