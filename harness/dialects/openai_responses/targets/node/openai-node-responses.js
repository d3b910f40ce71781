// refold target `openai-node-responses`: the official TypeScript SDK's ResponseStream
// (`openai`), driven as its users drive it: `client.responses.stream(params)` against a custom
// `fetch` that answers with the events as SSE bytes, so the SDK's own SSE decoder
// (`Stream.fromSSEResponse`), its `error`-event raise, `accumulateResponseWithContext` (the
// snapshot, replaced by every lifecycle response, item identity and event type validated)
// and `finalizeResponse` run unmodified. Served over the exec: protocol (serve.js), dialect
// openai-responses.
//
// Mapping to the spec's Response (responses-fold.md):
// - fold(events): the stream ends after the events; the result is `await
//   stream.finalResponse()`, the SDK's latest accumulated response (documented: "A clean end
//   after at least one response event resolves even when the response is incomplete"). A
//   rejection (an `error` event's APIError, an OpenAIError of the accumulator's checks, an
//   unhandled event type) is the target raising.
// - the Response is that object as JSON, less the SDK's structured-output additions
//   (`output_parsed` on the response, `parsed` on each output_text part: null without a text
//   format, which the target never sends) and the `output_text` convenience (not a wire key).
// - no replay: `lifecycle` is not claimed (the adapter serves fold and sse only).
// - sse(parts): the SDK's decoder, `Stream.fromSSEResponse` (what `responses.stream` reads
//   with): the items it yields; a raise is a raise.
"use strict";

// What every built-in Node.js target shares (refold/targets/sdk/node/index.js).
const {
  answeringWith, body, decodedBy, requirePinned, serve, sseBytes,
} = require("../../../../targets/sdk/node");

const OpenAI = requirePinned("openai").default;
const { Stream } = requirePinned("openai/streaming");
const { VERSION } = requirePinned("openai/version");

const PARAMS = { model: "gpt-refold-offline", input: "refold" };
const SDK_ADDITIONS = new Set(["parsed", "output_parsed"]);

function client(stream) {
  const fetch = answeringWith(stream, { "x-request-id": "req_refold" });
  return new OpenAI({ apiKey: "sk-refold-offline", baseURL: "http://refold.invalid/v1",
                      fetch, maxRetries: 0 });
}

function withoutAdditions(value) {
  if (Array.isArray(value)) return value.map(withoutAdditions);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value)
    .filter(([key]) => !SDK_ADDITIONS.has(key))
    .map(([key, item]) => [key, withoutAdditions(item)]));
}

function response(final) {
  const copy = JSON.parse(JSON.stringify(final));
  delete copy.output_text;
  return withoutAdditions(copy);
}

async function fold(events) {
  const { stream } = body(sseBytes(events), { open: false });
  return response(await client(stream).responses.stream(PARAMS).finalResponse());
}

const sse = (parts) => decodedBy(Stream, parts);

serve({
  name: "openai-node-responses", version: `openai ${VERSION}`, dialect: "openai-responses",
  item: "event",
  features: ["text", "tool_calls", "refusal", "reasoning", "annotations", "usage",
             "robustness", "sse"],
  fold, sse,
});
