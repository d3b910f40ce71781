"""The template of a program reproducing a failure with @anthropic-ai/sdk (target `anthropic-ts`):
`refold report --upstream` (`refold.targets.sdk.reproducers`) puts a list literal of
JSON texts where `{stream}` is."""

from __future__ import annotations

__all__ = ["REPRODUCER"]

REPRODUCER = r"""// Serves a stream of events as server-sent events to
// @anthropic-ai/sdk's client.messages.stream(), in memory, and prints finalMessage().
const Anthropic = require("@anthropic-ai/sdk").default;

const events = {stream}.map((item) => JSON.parse(item));
const body = events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
const fetch = async () => new Response(body.join(""), {
  status: 200, headers: { "content-type": "text/event-stream" } });
const client = new Anthropic({ apiKey: "offline", baseURL: "http://sdk.invalid", fetch,
                               maxRetries: 0 });
client.messages.stream({ model: "claude-sonnet-4-5", max_tokens: 1024,
                         messages: [{ role: "user", content: "Hello" }] })
  .finalMessage()
  .then((message) => console.log(JSON.stringify(message, null, 2)),
        (error) => { console.error(error); process.exitCode = 1; });
"""
