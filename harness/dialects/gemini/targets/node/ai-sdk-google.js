// refold target `ai-sdk-google`: the Vercel AI SDK's Google provider (`@ai-sdk/google`, the
// Gemini API), driven as a provider user drives it: the language model's `doStream(options)`
// against a custom `fetch` that answers with the chunks as `?alt=sse` bytes, so the
// provider's own decoder, chunk schema and stream transform run unmodified. Its stream parts
// are folded back into a GenerateContentResponse here (served over the exec: protocol,
// serve.js), as `streamText` builds its result from the same parts.
//
// The mapping from stream parts to the spec's GenerateContentResponse (gemini-fold.md), and
// nothing more (the provider reads `candidates[0]` only, so there is at most candidate 0):
// - `response-metadata`: `id` -> `responseId`. `modelVersion` reaches no part.
// - parts, in the order the stream parts open them:
//   `text-start`/`text-delta` (id = the block) -> {"text": the joined deltas,
//   "thoughtSignature": the last providerMetadata.google.thoughtSignature};
//   `reasoning-start`/`reasoning-delta` -> the same with "thought": true;
//   `file` -> {"inlineData": {"mimeType": mediaType, "data"}} with providerMetadata.google's
//   `thought` / `thoughtSignature`;
//   `tool-call` -> {"functionCall": {"name": toolName, "args": the input parsed when it is one
//   JSON value, else the string, "id": toolCallId}, "thoughtSignature"}; the provider's
//   `code_execution` call and result -> {"executableCode": the input parsed} and
//   {"codeExecutionResult": the result}. Server tools (`server:*` calls and results) are
//   reshaped into AI SDK tool parts and `source` parts summarise grounding: not mapped.
// - `finish`: `finishReason` = finishReason.raw; providerMetadata.google's `usageMetadata`,
//   `promptFeedback` (response) and `safetyRatings`, `groundingMetadata`,
//   `urlContextMetadata`, `finishMessage`, `continuationToken` (candidate 0). The candidate
//   exists when a part came or a raw finish reason that is not the prompt's confirmed block
//   reason (the provider reports a blocked prompt as the finish reason); its `content`
//   exists when a part came. `role` is "model": no part carries one.
// - lifecycle: each read replays the chunks so far as a stream that ended there (Gemini has
//   no terminal event, so that is what a user of the provider reads when the stream stops);
//   finished() is whether the finish part has a raw finish reason and no error part came
//   before it; error() is the Gemini error object (`data`) of the first `error` part that
//   carries the provider's APICallError for an error chunk. Any other error part (a chunk the
//   schema refused, JSON that does not parse) is the provider failing: the target raises.
"use strict";

// What every built-in Node.js target shares (refold/targets/sdk/node/index.js).
const { feed, foldedBy, parsed, providerVersion, serve } =
  require("../../../../targets/sdk/node");
const { geminiSseBytes } = require("./gemini-sse.js");

const DIALECT = "gemini-generate-content";

// The Gemini API provider (`@ai-sdk/google`), `streamGenerateContent?alt=sse`.
const GOOGLE = {
  pkg: "@ai-sdk/google",
  create: (mod, options) => mod.createGoogleGenerativeAI(options)("gemini-2.5-flash"),
};

function google(part) {
  return (part.providerMetadata || {}).google || {};
}

class Folded {
  constructor() {
    this.responseId = null; this.parts = []; this.byBlock = new Map(); this.finish = null;
    this.error = null; this.failure = null; this.finished = false;
  }

  run(id, thought) {
    if (!this.byBlock.has(id)) {
      const made = thought ? { text: "", thought: true } : { text: "" };
      this.byBlock.set(id, made);
      this.parts.push(made);
    }
    return this.byBlock.get(id);
  }

  delta(part, thought) {
    const run = this.run(part.id, thought);
    if (part.delta !== undefined) run.text += part.delta;
    const signature = google(part).thoughtSignature;
    if (signature !== undefined) run.thoughtSignature = signature;
  }

  add(part) {
    switch (part.type) {
      case "response-metadata": this.responseId ??= part.id ?? null; break;
      case "text-start": case "text-delta": this.delta(part, false); break;
      case "reasoning-start": case "reasoning-delta": this.delta(part, true); break;
      case "file": this.file(part); break;
      case "tool-call": this.toolCall(part); break;
      case "tool-result": this.toolResult(part); break;
      case "finish": this.finish = part; this.finished = this.error === null; break;
      case "error": this.errorPart(part.error); break;
      default: break; // stream-start, text-end, reasoning-end, tool-input-*, source
    }
  }

  file(part) {
    const meta = google(part);
    const made = { inlineData: { mimeType: part.mediaType, data: part.data } };
    if (meta.thought === true) made.thought = true;
    if (meta.thoughtSignature !== undefined) made.thoughtSignature = meta.thoughtSignature;
    this.parts.push(made);
  }

  toolCall(part) {
    if (part.providerExecuted) {
      if (part.toolName === "code_execution") this.parts.push({ executableCode: parsed(part.input) });
      return; // server:* tools: reshaped, not mapped
    }
    const made = { functionCall: { name: part.toolName, args: parsed(part.input),
                                   id: part.toolCallId } };
    const signature = google(part).thoughtSignature;
    if (signature !== undefined) made.thoughtSignature = signature;
    this.parts.push(made);
  }

  toolResult(part) {
    if (part.toolName === "code_execution") this.parts.push({ codeExecutionResult: part.result });
  }

  errorPart(error) {
    const data = error !== null && typeof error === "object" ? error.data : undefined;
    if (error instanceof Error && error.name === "AI_APICallError" && data !== undefined) {
      this.error ??= data !== null && typeof data === "object" ? data : {};
    } else {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
    }
  }

  candidate(meta) {
    const raw = this.finish ? this.finish.finishReason.raw : undefined;
    const blocked = meta.promptFeedback != null && raw === meta.promptFeedback.blockReason;
    if (this.parts.length === 0 && (raw == null || blocked)) return undefined;
    // no part came: no content (a SAFETY finish chunk carries none, R2)
    const candidate = this.parts.length === 0 ? {} : { content: { role: "model", parts: this.parts } };
    if (raw != null && !blocked) candidate.finishReason = raw;
    for (const key of ["safetyRatings", "groundingMetadata", "urlContextMetadata",
                       "finishMessage", "continuationToken"]) {
      if (meta[key] != null) candidate[key] = meta[key];
    }
    return candidate;
  }

  response() {
    const meta = this.finish ? google(this.finish) : {};
    const response = {};
    const candidate = this.candidate(meta);
    if (candidate !== undefined) response.candidates = [candidate];
    if (meta.promptFeedback != null) response.promptFeedback = meta.promptFeedback;
    if (meta.usageMetadata != null) response.usageMetadata = meta.usageMetadata;
    if (this.responseId !== null) response.responseId = this.responseId;
    return JSON.parse(JSON.stringify(response));
  }
}

async function replay(chunks) {
  const folded = await feed(new Folded(), GOOGLE, geminiSseBytes(chunks));
  const finished = folded.finished && folded.failure === null
    && folded.finish.finishReason.raw != null;
  return { message: chunks.length === 0 ? undefined : folded.response(), finished,
           error: folded.error, failure: folded.failure };
}

const fold = foldedBy(replay, "no chunk: no response");

serve({
  name: "ai-sdk-google", version: providerVersion(GOOGLE), dialect: DIALECT, item: "chunk",
  features: ["text", "candidates", "thinking", "tool_calls", "streamed_arguments",
             "code_execution", "media", "safety", "grounding", "usage", "robustness",
             "lifecycle"],
  empty: "GM-LIFE-EMPTY: no chunk has been folded yet", fold, replay, sse: null,
});
