"""Conformance suites of the OpenAI Responses dialect (`openai-responses`, responses-fold.md)."""
