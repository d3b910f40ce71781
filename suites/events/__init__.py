"""Conformance suites of the `provider-events` dialect: event adapters against events.md.

Every test feeds the adapter the frames of one source stream (OpenAI Chat chunks, Anthropic
Messages events) and asserts through `EventsCheck`, whose failures name the rules the event
checker found broken. A stream of a source the adapter does not accept skips the test.
Each source dialect's mapping examples, written in its streams, sit in that dialect's
suites, in a folder named as these (`refold.suites.gemini.events`); the run collects them.
"""
