"""The OpenAI Chat Completions suites (dialect `openai-chat`): the rule examples, the
quirk streams, and the properties that are the chat dialect's alone.

    test_rule_examples_*.py   hand-written examples, at least one per rule id
    test_quirk_streams.py     streams real providers send, each folded as the spec decides
    test_sse.py               the wire rules (SSE-*) against the target's SSE decoder,
                              `refold_target.sse` (feature `sse`)
"""
