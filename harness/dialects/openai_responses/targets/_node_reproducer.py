"""The template of a program reproducing a failure with openai-node (target
`openai-node-responses`): `refold report --upstream` (`refold.targets.sdk.reproducers`)
puts a list literal of JSON texts where `{stream}` is."""

from __future__ import annotations

__all__ = ["REPRODUCER"]

REPRODUCER = r"""// Serves a stream of events as server-sent events to
// openai-node's client.responses.stream(), in memory, and prints finalResponse().
const OpenAI = require("openai").default;

const events = {stream}.map((item) => JSON.parse(item));
const body = events.map((event) => `data: ${JSON.stringify(event)}\n\n`);
const fetch = async () => new Response(body.join(""), {
  status: 200, headers: { "content-type": "text/event-stream" } });
const client = new OpenAI({ apiKey: "offline", baseURL: "http://sdk.invalid/v1", fetch,
                            maxRetries: 0 });
client.responses.stream({ model: "gpt-offline", input: "hi" })
  .finalResponse()
  .then((response) => console.log(JSON.stringify(response, null, 2)),
        (error) => { console.error(error); process.exitCode = 1; });
"""
