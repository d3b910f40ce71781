// The Vercel AI SDK's language models as refold's Node.js targets drive them: a provider
// created with a custom `fetch` that answers every request with `stream` as the body of a
// 200 text/event-stream response, so the provider's own request code, SSE decoder, schema
// validation and stream transform run unmodified and offline. Shared by the AI SDK targets
// in the dialects' packages, each naming its provider.
"use strict";

const { requirePinned } = require("./pinned.js");
const { body } = require("./sse.js");

// What every doStream call is asked: one user turn. The reply is the stream, whatever it is.
const PROMPT = [{ role: "user", content: [{ type: "text", text: "Hello" }] }];

// Every request after the first is answered with an empty stream: the served stream is all
// the server has (a provider may ask again for the rest of a stream it was told goes on).
function answering(stream) {
  let served = false;
  return async () => {
    const answer = served ? "" : stream;
    served = true;
    return new Response(answer, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
}

const OFFLINE = { apiKey: "refold-offline", baseURL: "http://refold.invalid/v1" };

// A provider is `{pkg, create}`: the provider package, required when first used so that a
// target needs only its own, and `create(module, options)` -> its language model, given the
// provider options (`apiKey`, `baseURL`, `fetch`). Each target names its own.

// The language model of `provider` whose every response body is `stream`.
function languageModel(provider, stream) {
  return provider.create(requirePinned(provider.pkg), { ...OFFLINE, fetch: answering(stream) });
}

// "<package> <version>" of `provider`'s package.
function providerVersion(provider) {
  return `${provider.pkg} ${requirePinned(provider.pkg).VERSION}`;
}

// The stream parts `provider`'s `doStream` yields for a response body of `bytes`, in order.
async function streamedParts(provider, bytes) {
  const { stream } = body(bytes, { open: false });
  const result = await languageModel(provider, stream).doStream({ prompt: PROMPT });
  const found = [];
  for await (const part of result.stream) found.push(part);
  return found;
}

// A tool input as a provider hands it over: JSON text, parsed when it parses.
function parsed(input) {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

// Feeds the parts `provider` yields for `bytes` to `folded.add`, in order; a throw (from the
// provider or from `add`) is kept as `folded.failure` when there is none yet.
async function feed(folded, provider, bytes) {
  try {
    for (const part of await streamedParts(provider, bytes)) folded.add(part);
  } catch (error) {
    folded.failure ??= error;
  }
  return folded;
}

// A target's `fold`: its `replay` of the whole stream, raising the failure the replay met, or
// a RangeError saying `missing` when the stream built no result.
function foldedBy(replay, missing) {
  return async (items) => {
    const found = await replay(items);
    if (found.failure !== null) throw found.failure;
    if (found.message === undefined) throw new RangeError(missing);
    return found.message;
  };
}

module.exports = { PROMPT, feed, foldedBy, languageModel, parsed, providerVersion, streamedParts };
