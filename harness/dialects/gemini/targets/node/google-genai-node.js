// refold target `google-genai-node`: Google's JavaScript SDK (`@google/genai`), driven as its
// users drive a streamed conversation: `ai.chats.create({model})`, then
// `chat.sendMessageStream({message})` read to its end, then `chat.getHistory()`. The SDK
// has no helper that folds `models.generateContentStream` chunks into one response; the chat
// session's history (`Chat.processStreamResponse` + `recordHistory`) is the one thing it
// accumulates from a stream, and what it sends back as the next turn. The client gets a
// custom `fetch` (`httpOptions.fetch`) answering with the chunks as `?alt=sse` bytes, so the
// SDK's own decoder (`ApiClient.processStreamResponse`, `throwIfStreamErrorChunk`) and the
// chat's validity checks run unmodified and offline. Served over the exec: protocol
// (serve.js), dialect gemini-generate-content.
//
// The mapping from the history to the spec's GenerateContentResponse (gemini-fold.md), and
// nothing more:
// - the model turn is every history entry after the user's message: one Content per valid
//   chunk (`chunk.candidates[0].content`), or the one `{role: "model", parts: []}` the SDK
//   records instead when any chunk was "invalid" (no candidate, no content, no parts, a `{}`
//   part), no chunk had a finishReason, or a content lacked `role`.
// - the response is `{candidates: [{content}]}`: content = those entries as one Content,
//   `parts` their parts in order (never joined: the SDK joins nothing), `role` the first
//   entry's, other content keys the last entry's. The history keeps no finishReason,
//   usage, safety, citations, grounding, modelVersion or responseId, and only candidate 0.
// - so the target is compared on a stated projection (docs/protocol.md, "Projection"):
//   candidates' `content`, the only places the history keeps (as the Python `google-genai`
//   target is); the rules owning only the other places are not judged.
// - automatic continuation is off (`automaticContinuation: false`): with it, a stream that
//   ends unfinished or with CONTINUATION makes the chat send another request, and one served
//   stream is one call.
// - a rejection of the stream (the SDK's ApiError for an error chunk with a 4xx/5xx code, a
//   JSON parse failure) is the target raising. No replay: the history is recorded only once
//   the stream ended, so `lifecycle` is not claimed; the decoder is internal, so no `sse`.
"use strict";

// What every built-in Node.js target shares (refold/targets/sdk/node/index.js).
const { body, pinnedVersion, requirePinned, serve } = require("../../../../targets/sdk/node");
const { geminiSseBytes } = require("./gemini-sse.js");

const { GoogleGenAI } = requirePinned("@google/genai");
const VERSION = pinnedVersion("@google/genai"); // the package exports none

const MODEL = "gemini-2.5-flash";
const MESSAGE = "Hello";
const PROJECTION = {
  pointers: ["/candidates/*/content"],
  builds: "a chat history turn: one Content per chunk (candidate 0's), read back as "
    + "candidate 0's content with the turn's parts in order",
};

function client(stream) {
  const fetch = async () => new Response(stream, {
    status: 200, headers: { "content-type": "text/event-stream" },
  });
  return new GoogleGenAI({ apiKey: "refold-offline",
                           httpOptions: { baseUrl: "http://refold.invalid", fetch } });
}

// The model turn of the history as one Content: parts in order, role of the first entry.
function joined(turn) {
  const content = Object.assign({}, ...turn);
  content.role = turn[0].role;
  content.parts = turn.flatMap((entry) => entry.parts ?? []);
  return content;
}

async function fold(chunks) {
  const { stream } = body(geminiSseBytes(chunks), { open: false });
  const chat = client(stream).chats.create({ model: MODEL,
                                            config: { automaticContinuation: false } });
  for await (const chunk of await chat.sendMessageStream({ message: MESSAGE })) void chunk;
  const turn = chat.getHistory().slice(1); // after the user's message
  return JSON.parse(JSON.stringify({ candidates: [{ content: joined(turn) }] }));
}

serve({
  name: "google-genai-node", version: `@google/genai ${VERSION}`,
  dialect: "gemini-generate-content",
  item: "chunk",
  features: ["text", "candidates", "thinking", "tool_calls", "streamed_arguments",
             "code_execution", "media", "robustness"],
  projection: PROJECTION, fold, sse: null,
});
