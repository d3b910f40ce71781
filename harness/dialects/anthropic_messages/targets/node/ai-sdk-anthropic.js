// refold target `ai-sdk-anthropic`: the Vercel AI SDK's Anthropic provider
// (`@ai-sdk/anthropic`), driven as a provider user drives it: the language model's
// `doStream(options)` against a custom `fetch` that answers with the events as SSE bytes, so
// the provider's own decoder, validation and stream transform run unmodified. Its stream
// parts are folded back into a Message here (served over the exec: protocol, serve.js).
//
// The mapping from stream parts to the spec's Message (anthropic-fold.md), and nothing more:
// - `response-metadata`: `id`, `modelId` -> `id`, `model`. `type` is "message", `role`
//   "assistant" (the only values; no part carries them). No other message_start key
//   reaches a part.
// - content, in the order the parts open the blocks:
//   `text-start`/`text-delta`/`text-end` (id = the block index) -> {"type": "text", "text":
//   the joined deltas, "citations": the text-end's providerMetadata.anthropic.citations};
//   `reasoning-start`/`reasoning-delta` -> {"type": "thinking", "thinking": the joined
//   deltas, "signature": the last providerMetadata.anthropic.signature}, or, when the start
//   carries providerMetadata.anthropic.redactedData, {"type": "redacted_thinking", "data"};
//   `tool-input-start`/`tool-input-delta`/`tool-call` (id = the tool_use id) ->
//   {"type": "tool_use" ("server_tool_use" when providerExecuted), "id", "name", "input":
//   the tool-call's input (the joined tool-input deltas before it), parsed when it is one
//   JSON value, else the string}. `tool-result` and `source` parts have no Anthropic block
//   shape (server results are reshaped): not mapped, and `server_tools` is not claimed.
// - `finish`: `stop_reason` = finishReason.raw, `stop_sequence` =
//   providerMetadata.anthropic.stopSequence, `usage` = providerMetadata.anthropic.usage
//   (the raw Anthropic usage). Before a finish part there are none (the provider holds
//   them back). stop_details and container are reshaped (camelCase, keys dropped):
//   `stop_details` is not claimed.
// - lifecycle: finished() is whether a finish part came with no error part before it;
//   error() is the error object of the first `error` part that carries an Anthropic error
//   (the provider's part for an `error` event). An error part carrying an Error (a failed
//   validation, a second message), or a throw from doStream (the provider turns an error
//   part first in the stream into a thrown APICallError), is the provider failing: the
//   target raises.
"use strict";

// What every built-in Node.js target shares (refold/targets/sdk/node/index.js).
const { feed, foldedBy, parsed, providerVersion, serve, sseBytes } =
  require("../../../../targets/sdk/node");

// The Anthropic provider (`@ai-sdk/anthropic`): `createAnthropic(...)(model)`.
const ANTHROPIC = {
  pkg: "@ai-sdk/anthropic",
  create: (mod, options) => mod.createAnthropic(options)("claude-sonnet-4-5"),
};

class Folded {
  constructor() {
    this.meta = null; this.blocks = []; this.byKey = new Map(); this.finish = null;
    this.error = null; this.failure = null; this.finished = false;
  }

  block(key, make) {
    if (!this.byKey.has(key)) {
      const made = make();
      this.byKey.set(key, made);
      this.blocks.push(made);
    }
    return this.byKey.get(key);
  }

  text(id) { return this.block(`text:${id}`, () => ({ type: "text", text: "" })); }
  reasoning(id) { return this.block(`reasoning:${id}`, () => ({ type: "thinking", thinking: "" })); }
  tool(id, name) {
    return this.block(`tool:${id}`, () => ({ type: "tool_use", id, name, raw: "" }));
  }

  add(part) {
    const anthropic = (part.providerMetadata || {}).anthropic || {};
    switch (part.type) {
      case "response-metadata": this.meta ||= { id: part.id ?? null, model: part.modelId ?? null }; break;
      case "text-start": this.text(part.id); break;
      case "text-delta": this.text(part.id).text += part.delta; break;
      case "text-end": if (anthropic.citations) this.text(part.id).citations = anthropic.citations; break;
      case "reasoning-start": this.reasoningStart(part.id, anthropic); break;
      case "reasoning-delta": this.reasoningDelta(part, anthropic); break;
      case "tool-input-start": this.tool(part.id, part.toolName); break;
      case "tool-input-delta": this.tool(part.id).raw += part.delta; break;
      case "tool-call": this.toolCall(part); break;
      case "finish": this.finish = part; this.finished = this.error === null; break;
      case "error": this.errorPart(part.error); break;
      default: break; // stream-start, tool-input-end, reasoning-end, tool-result, source
    }
  }

  reasoningStart(id, anthropic) {
    const block = this.reasoning(id);
    if (anthropic.redactedData !== undefined) {
      block.type = "redacted_thinking";
      delete block.thinking;
      block.data = anthropic.redactedData;
    }
  }

  reasoningDelta(part, anthropic) {
    const block = this.reasoning(part.id);
    if (block.type === "thinking") block.thinking += part.delta;
    if (anthropic.signature !== undefined) block.signature = anthropic.signature;
  }

  toolCall(part) {
    const block = this.tool(part.toolCallId, part.toolName);
    block.name = part.toolName;
    block.raw = part.input;
    if (part.providerExecuted) block.type = "server_tool_use";
  }

  errorPart(error) {
    if (error instanceof Error || error === null || typeof error !== "object") {
      this.failure ||= error instanceof Error ? error : new Error(String(error));
    } else if (this.error === null) {
      this.error = error;
    }
  }

  message() {
    if (this.meta === null) return undefined;
    const anthropic = this.finish ? (this.finish.providerMetadata || {}).anthropic || {} : {};
    const content = this.blocks.map(({ raw, ...block }) =>
      (raw === undefined ? block : { ...block, input: raw === "" ? {} : parsed(raw) }));
    const message = { id: this.meta.id, type: "message", role: "assistant", model: this.meta.model,
                      content, stop_reason: this.finish ? this.finish.finishReason.raw ?? null : null,
                      stop_sequence: anthropic.stopSequence ?? null };
    if (anthropic.usage) message.usage = anthropic.usage;
    return JSON.parse(JSON.stringify(message));
  }
}

async function replay(events) {
  const folded = await feed(new Folded(), ANTHROPIC, sseBytes(events));
  return { message: folded.message(), finished: folded.finished && folded.failure === null,
           error: folded.error, failure: folded.failure };
}

const fold = foldedBy(replay, "no response-metadata part: no message");

serve({
  name: "ai-sdk-anthropic", version: providerVersion(ANTHROPIC), dialect: "anthropic-messages",
  item: "event", empty: "AM-LIFE-EMPTY: no message_start has been folded yet",
  features: ["text", "tool_use", "thinking", "citations", "usage", "robustness", "lifecycle"],
  fold, replay, sse: null,
});
