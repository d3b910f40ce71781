// refold events target `ai-sdk-events`: the Vercel AI SDK's stream parts as the
// provider-neutral events of events.md, over the refold-events/1 protocol (events.md §5,
// JSON lines on stdin/stdout; stdout carries protocol lines only). Both dialects run through
// the provider's language model `doStream({prompt, includeRawChunks: true})`:
// openai-chat through `@ai-sdk/openai`'s chat-completions model (`openai.chat(...)`),
// openai-responses through its Responses model (`openai.responses(...)`, the Responses API
// path), anthropic-messages through `@ai-sdk/anthropic`'s messages model, each against a
// custom `fetch` (ai-sdk-models.js) whose response body is a ReadableStream this program
// enqueues one SSE frame into per `frame` op (sse.js framing: Chat `data:` lines, Responses
// and Anthropic `event: <type>` + `data:`). After each frame it reads stream parts until the reader would block (the
// microtask queue is drained and no part came in the last turn of the event loop), emits
// their events, then acks: events of frame k come before ack k wherever the provider hands
// the parts out then. Where it holds them back, they come later, and the ack shows it.
//
// Frames: `includeRawChunks` makes the provider emit a `raw` part before the parts of every
// chunk it parsed; the n-th raw part opens the parts of the n-th object frame fed. The
// `opaque` (an Opaque's `payload`) of every event is that frame, the frame as it was fed;
// parts after the last raw part (those the provider emits when the body ends) carry the
// last frame fed.
//
// Stream parts -> neutral events (ai-sdk-events.js):
//   text-delta (non-empty)           -> TextDelta {delta}
//   tool-input-start                 -> ToolCallStarted {id, name: toolName}
//   tool-input-delta (non-empty)     -> ToolCallArgumentsDelta {id, delta}
//   tool-call                        -> ToolCallCompleted {call: {id: toolCallId, name:
//                                       toolName, arguments: input parsed, "" -> {}}};
//                                       input that is not a JSON object -> outcome error
//                                       (invalid_tool_arguments), no ToolCallCompleted
//   finish                           -> Usage {usage: inputTokens.total, outputTokens.total,
//                                       inputTokens.cacheRead, outputTokens.reasoning}, only
//                                       when the provider reported usage (usage.raw), then
//                                       Completed {turn}; stop_reason from the unified
//                                       finishReason (stop -> end_turn, length -> max_tokens,
//                                       content-filter, tool-calls -> tool_use, else other;
//                                       end_turn with calls -> tool_use)
//   error                            -> Opaque of its frame; outcome error (provider_error);
//                                       no event after it, nor after Completed
//   raw, stream-start, response-metadata, text-start/end, tool-input-end, reasoning-*,
//   source and any other part       -> nothing by itself; a frame whose parts made no event
//                                       gets one Opaque {event_type: the Responses or
//                                       Anthropic `type`,
//                                       Chat "message"} (EV-OPAQUE-FALLBACK), decided when the
//                                       parts are read; provider-executed tool parts make
//                                       none (EV-HOSTED-OPAQUE)
//   the parts end without finish     -> outcome error (truncated)
//   doStream rejects with the provider's APICallError (an error frame before any output)
//                                    -> Opaque of the last frame fed; outcome error
//                                       (provider_error). Any other throw of the provider is
//                                       the target failing: the message goes to stderr and
//                                       the process exits 1 (never swallowed).
// T: provider "ai-sdk", model/response_id = response-metadata modelId/id, output_text = the
// TextDeltas, tool_calls = the completed calls in completion order, T.opaque = the finish part
// (finishReason, usage, providerMetadata) as JSON; `events.turn_opaque` is not claimed.
//
// Persisted: the ModelMessage list of `streamText`'s `response.messages`, built from the
// parts the way its toResponseMessages builds it (the `ai` package is not needed for that):
// [{"role": "assistant", "content": [{"type": "text", "text"}, {"type": "tool-call",
// "toolCallId", "toolName", "input"}]}] (text parts joined per text block, empty ones out,
// in stream order; input parsed, the raw string when it does not parse; reasoning parts are
// left out). ModelMessage and not UIMessage: this target is the model layer with no UI, and
// ModelMessages are what AI SDK Core gives a server for the turn (`streamText`'s `onFinish`
// and `response.messages`) and what a server-side loop appends to its history and stores
// (`messages.push(...response.messages)`). The docs' useChat persistence stores UIMessages
// instead, derived from the same parts plus what the UI layer invents (message ids from
// generateId, tool part states): nothing more of the provider stream. Neither carries a
// response id, usage or a provider frame. An error outcome persists the same message (the
// partial turn).
"use strict";

const readline = require("node:readline");
// What every built-in Node.js target shares (refold/targets/sdk/node/index.js).
const { frame, languageModel, PROMPT, providerVersion } = require("../../../../targets/sdk/node");
const { Normaliser, PROVIDER, foldEvents } = require("./ai-sdk-events.js");

// The AI SDK language model of each source dialect it adapts: the chat-completions model
// (`createOpenAI(...).chat(model)`), the Responses model (`.responses(model)`, the AI SDK's
// default OpenAI model) and the Anthropic model (`createAnthropic(...)(model)`).
const PROVIDERS = {
  "openai-chat": {
    pkg: "@ai-sdk/openai",
    create: (mod, options) => mod.createOpenAI(options).chat("gpt-4o-mini"),
  },
  "openai-responses": {
    pkg: "@ai-sdk/openai",
    create: (mod, options) => mod.createOpenAI(options).responses("gpt-5"),
  },
  "anthropic-messages": {
    pkg: "@ai-sdk/anthropic",
    create: (mod, options) => mod.createAnthropic(options)("claude-sonnet-4-5"),
  },
};
const DIALECTS = Object.keys(PROVIDERS);

// A Chat Completions frame: `data: <the chunk as one line of JSON>` with no `event:` line
// (OpenAI sends none), and the sentinel `"[DONE]"` as `data: [DONE]`.
function chatFrame(chunk) {
  return `data: ${chunk === "[DONE]" ? "[DONE]" : JSON.stringify(chunk)}\n\n`;
}
// `operations: ["fold"]` offers §5.5's optional fold op (the harness's client reads it there).
const HELLO = { protocol: "refold-events/1", provider: PROVIDER, dialects: DIALECTS,
                features: ["events"], operations: ["fold"],
                description: `ai-sdk: ${DIALECTS.map((d) => `${providerVersion(PROVIDERS[d])} (${d})`)
                  .join(", ")}: doStream stream parts as neutral events` };

const turnOfLoop = () => new Promise((resolve) => setImmediate(resolve));

// A response body this program writes into; once the provider cancels it (it stopped
// reading: an error frame before any output), what is written is dropped, as the network
// would have it.
function incrementalBody() {
  let controller;
  let open = true;
  const stream = new ReadableStream({ start(c) { controller = c; }, cancel() { open = false; } });
  return {
    stream,
    push: (text) => { if (open) controller.enqueue(new TextEncoder().encode(text)); },
    close: () => { if (open) controller.close(); open = false; },
  };
}

class Failure extends Error {}

// One stream: the provider reading a body this session feeds frame by frame.
class Session {
  constructor(dialect) {
    this.dialect = dialect;
    this.body = incrementalBody();
    this.fed = [];
    this.parts = [];
    this.failure = null;
    this.normaliser = new Normaliser(dialect, (n) => (n < this.fed.length ? this.fed[n] : null));
    this.reading = this.read();
  }

  async read() {
    try {
      const model = languageModel(PROVIDERS[this.dialect], this.body.stream);
      const { stream } = await model.doStream({ prompt: PROMPT, includeRawChunks: true });
      for await (const part of stream) this.parts.push(part);
    } catch (error) {
      this.failure = error;
    }
  }

  // The parts that came since the last call, once the provider would block.
  async settled() {
    let seen;
    do {
      seen = this.parts.length;
      await turnOfLoop();
    } while (this.parts.length !== seen);
    return this.parts.splice(0);
  }

  async frame(value) {
    this.body.push(this.dialect === "openai-chat" ? chatFrame(value) : frame(value));
    if (value !== "[DONE]" || this.dialect !== "openai-chat") this.fed.push(value);
    const events = this.normaliser.take(await this.settled());
    this.check();
    if (this.rejectedNow()) events.push(...this.rejected());
    return events;
  }

  async end() {
    this.body.close();
    await this.reading;
    const events = this.normaliser.take(await this.settled());
    this.check();
    if (this.rejectedNow()) events.push(...this.rejected());
    const outcome = this.normaliser.outcome ?? { outcome: "error", error: {
      kind: "truncated", message: "the stream parts ended without a finish part" } };
    return { events, outcome, persisted: this.normaliser.persisted() };
  }

  rejectedNow() {
    return this.failure !== null && this.normaliser.outcome === null;
  }

  // doStream's APICallError for an error frame before any output is the provider's error.
  rejected() {
    const normaliser = this.normaliser;
    normaliser.frame = this.fed.length > 0 ? this.fed[this.fed.length - 1] : null;
    return normaliser.error(this.failure);
  }

  check() {
    const failure = this.failure;
    if (failure !== null && (failure === undefined || failure.name !== "AI_APICallError")) {
      throw new Failure(`the AI SDK's ${this.dialect} stream failed: ` +
                        `${failure instanceof Error ? `${failure.name}: ${failure.message}` : failure}`);
    }
  }
}

function main() {
  const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
  let session = null;
  const ops = {
    begin: (m) => {
      if (!DIALECTS.includes(m.dialect)) throw new Failure(`unsupported dialect ${m.dialect}`);
      session = new Session(m.dialect);
    },
    frame: async (m) => {
      if (session === null) throw new Failure(`frame ${m.seq} of stream ${m.stream} before begin`);
      for (const event of await session.frame(m.frame)) write({ stream: m.stream, event });
      write({ stream: m.stream, ack: m.seq });
    },
    end: async (m) => {
      if (session === null) throw new Failure(`end of stream ${m.stream} before begin`);
      const { events, outcome, persisted } = await session.end();
      for (const event of events) write({ stream: m.stream, event });
      write({ stream: m.stream, ...outcome });
      write({ stream: m.stream, persisted });
      session = null;
    },
    fold: (m) => write({ stream: m.stream, turn: foldEvents(m.events) }),
  };
  process.on("unhandledRejection", (reason) => {
    process.stderr.write(`unhandled rejection: ${reason}\n`);
  });
  write({ hello: HELLO });
  let queue = Promise.resolve();
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    queue = queue.then(() => answer(ops, line)).catch((error) => {
      process.stderr.write(`${error instanceof Error ? error.message : error}\n`);
      process.exit(1);
    });
  });
}

async function answer(ops, line) {
  const message = JSON.parse(line);
  const op = message !== null && typeof message === "object" && Object.hasOwn(ops, message.op)
    ? ops[message.op] : null;
  if (op === null) throw new Failure(`not a refold-events/1 request: ${line.slice(0, 200)}`);
  await op(message);
}

main();
