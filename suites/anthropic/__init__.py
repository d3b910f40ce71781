"""The conformance suites of the `anthropic-messages` dialect (anthropic-fold.md, `AM-*`)."""
