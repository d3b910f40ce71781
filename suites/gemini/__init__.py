"""Conformance suites of the Gemini dialect (`gemini-generate-content`, gemini-fold.md)."""
