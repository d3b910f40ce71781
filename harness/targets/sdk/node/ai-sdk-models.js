// The Vercel AI SDK's language models as refold's Node.js targets drive them: a provider
// created with a custom `fetch` that answers every request with `stream` as the body of a
// 200 text/event-stream response, so the provider's own request code, SSE decoder, schema
// validation and stream transform run unmodified and offline. Shared by ai-sdk-anthropic.js
// (the Anthropic fold), ai-sdk-google.js (the Gemini fold) and events_ai_sdk.js (the neutral
// events of both OpenAI and Anthropic dialects).
"use strict";

const { createRequire } = require("node:module");

const requireHere = createRequire(__filename);

// What every doStream call is asked: one user turn. The reply is the stream, whatever it is.
const PROMPT = [{ role: "user", content: [{ type: "text", text: "Hello" }] }];

// Every request after the first is answered with an empty stream: the served stream is all
// the server has. (Only the Google provider asks again: a chunk whose finishReason is
// CONTINUATION with a continuationToken makes it request the rest, R11.)
function answering(stream) {
  let served = false;
  return async () => {
    const answer = served ? "" : stream;
    served = true;
    return new Response(answer, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
}

const OFFLINE = { apiKey: "refold-offline", baseURL: "http://refold.invalid/v1" };

// Each provider package is required when first used, so a target needs only its own.
const PROVIDERS = {
  "anthropic-messages": {
    pkg: "@ai-sdk/anthropic",
    model: (mod, stream) => mod.createAnthropic({ ...OFFLINE, fetch: answering(stream) })(
      "claude-sonnet-4-5"),
  },
  "openai-chat": {
    pkg: "@ai-sdk/openai",
    model: (mod, stream) => mod.createOpenAI({ ...OFFLINE, fetch: answering(stream) }).chat(
      "gpt-4o-mini"),
  },
  // Gemini's `streamGenerateContent?alt=sse` (the Gemini API provider, `@ai-sdk/google`).
  "gemini-generate-content": {
    pkg: "@ai-sdk/google",
    model: (mod, stream) => mod.createGoogleGenerativeAI({ ...OFFLINE, fetch: answering(stream) })(
      "gemini-2.5-flash"),
  },
  // The Responses API model (`POST /v1/responses`), the AI SDK's default OpenAI model.
  "openai-responses": {
    pkg: "@ai-sdk/openai",
    model: (mod, stream) => mod.createOpenAI({ ...OFFLINE, fetch: answering(stream) })
      .responses("gpt-5"),
  },
};

function provider(dialect) {
  const found = Object.hasOwn(PROVIDERS, dialect) ? PROVIDERS[dialect] : null;
  if (found === null) throw new RangeError(`no AI SDK provider for dialect ${dialect}`);
  return found;
}

// The language model of `dialect` (anthropic-messages: `createAnthropic(...)(model)`;
// gemini-generate-content: `createGoogleGenerativeAI(...)(model)`;
// openai-chat: the chat-completions model, `createOpenAI(...).chat(model)`; openai-responses:
// the Responses model, `createOpenAI(...).responses(model)`) whose every
// response body is `stream`.
function languageModel(dialect, stream) {
  const { pkg, model } = provider(dialect);
  return model(requireHere(pkg), stream);
}

// "<package> <version>" of the provider package of `dialect`.
function providerVersion(dialect) {
  const { pkg } = provider(dialect);
  return `${pkg} ${requireHere(pkg).VERSION}`;
}

module.exports = { PROMPT, languageModel, providerVersion };
