"""The conformance suites (refold.suites): properties of the chat-fold spec, stated
against whatever target `--target` names.

Suites only state properties: every test is marked with the rule ids it checks
(`@rule(...)`), receives the `check` fixture, and asserts through it. They know nothing
of how the target runs (in process, a subprocess, a service): that is the harness's job.

    test_rule_examples_*.py   hand-written examples, at least one per rule id
    test_sse.py               the wire rules (SSE-*) against the target's SSE decoder,
                              `refold_target.sse` (feature `sse`)
"""
