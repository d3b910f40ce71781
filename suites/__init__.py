"""The conformance suites (refold.suites): properties of each dialect's spec, stated
against whatever target `--target` names.

Suites only state properties: every test is marked with the rule ids it checks
(`@rule(...)`), receives the `check` fixture, and asserts through it; which rules a
failure is charged to is the harness's (`refold.run.checks`). They know nothing of how the
target runs (in process, a subprocess, a service): that is the harness's job.

    openai_chat/, anthropic/, responses/, events/   each dialect's own suites
                                                    (`Dialect.suites`)
    corpus/                                         the recorded cases of `--corpus`
"""
