"""Built-in targets for real SDKs (`--target openai|litellm|langchain`, and of the Anthropic
dialect `--target langchain-anthropic|litellm-anthropic`) and their SSE decoders.

Each adapter feeds chunks (or events) to the SDK's own accumulation, built with the SDK's own
types, and maps the SDK's result to the spec's `chat.completion` (or Anthropic `Message`) shape
without repairing anything: an SDK defect shows as a failure of the rule it breaks, and a field
the SDK cannot represent is covered by not claiming its feature. The SDKs are optional extras
(`refold[openai]`, `refold[litellm]`, `refold[langchain]`, `refold[langchain-anthropic]`);
importing an adapter without its SDK raises a `UsageError` that names the extra to install.

Anthropic dialect: `--target anthropic|anthropic-stream` (`refold[anthropic]`), mapped to
the spec's `Message` (`anthropic.py`, `anthropic_stream.py`, `_anthropic_wire.py`).
The Node.js targets (`--target anthropic-ts|ai-sdk-anthropic`, `nodejs`) are JavaScript files
of `node/` that drive a JavaScript SDK the same way and serve it over the `exec:` protocol;
their npm packages are pinned by `node/package-lock.json` (`npm ci --prefix` that folder).

Responses dialect (`openai-responses`): `--target openai-responses` (openai-python's
`responses.stream()`, `openai_responses.py`, `_responses_wire.py`), `langchain-openai-responses`
and `litellm-responses` (a library that builds no Response, checked on the stated projection
its module documents), and the Node.js `openai-node-responses`.
"""
