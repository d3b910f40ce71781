// refold target `anthropic-ts`: the official TypeScript SDK's MessageStream
// (`@anthropic-ai/sdk`), driven as its users drive it: `client.messages.stream(params)`
// against a custom `fetch` that answers with the events as SSE bytes, so the SDK's own
// SSE decoder and accumulator run unmodified. Served over the exec: protocol (serve.js).
//
// Mapping to the spec's Message (anthropic-fold.md):
// - fold(events): the stream ends after the events; the result is `await
//   stream.finalMessage()`, the SDK's final snapshot ("identical to what .create()
//   returns"). A rejection (an `error` frame, no message_stop, an SDK TypeError) is the
//   target raising.
// - the lifecycle: the stream stays open after the events, as a live stream between two
//   network reads. response() is the live snapshot a user reads (`stream.currentMessage`,
//   the one `streamEvent` listeners get); finished() is whether the SDK emitted its final
//   message (the `message` event, fired on message_stop) with no error; error() is the
//   `error` member of the body of the APIError the SDK raised for an `event: error` frame
//   (`{}` when it had none). Any other throw is the SDK failing on that event.
// - a throw the SDK wrapped in a plain AnthropicError is reported as the wrapped type
//   (TypeError), so it is not mistaken for the SDK's own "stream ended" AnthropicError.
// - the Message is the snapshot as JSON, less `parsed_output` (the SDK's structured-output
//   helper, null without an output format; not a Message field). A tool block's `input` is
//   the SDK's lazily parsed value (enumerable), its raw buffer (`__json_buf`) is not JSON.
// - sse(parts): the SDK's decoder, `Stream.fromSSEResponse` (what `messages.stream` reads
//   with): the items it yields; the APIError it raises on an `error` frame is a raise.
"use strict";

// What every built-in Node.js target shares (refold/targets/sdk/node/index.js).
const {
  answeringWith, body, decodedBy, requirePinned, serve, sseBytes,
} = require("../../../../targets/sdk/node");

const Anthropic = requirePinned("@anthropic-ai/sdk").default;
const { APIError } = requirePinned("@anthropic-ai/sdk");
const { Stream } = requirePinned("@anthropic-ai/sdk/core/streaming");
const { VERSION } = requirePinned("@anthropic-ai/sdk/version");

const PARAMS = { model: "claude-sonnet-4-5", max_tokens: 1024,
                 messages: [{ role: "user", content: "Hello" }] };

function client(stream) {
  const fetch = answeringWith(stream, { "request-id": "req_refold" });
  return new Anthropic({ apiKey: "refold-offline", baseURL: "http://refold.invalid",
                         fetch, maxRetries: 0 });
}

function message(snapshot) {
  const copy = JSON.parse(JSON.stringify(snapshot));
  delete copy.parsed_output;
  return copy;
}

// The SDK wraps what its accumulator threw (a TypeError, say) in a plain AnthropicError, as
// it wraps its own "stream ended" errors: the error reply names the wrapped type, so that
// refold's crash analysis (which recognises a crash again by its type) tells them apart.
function unwrapped(error) {
  const cause = error instanceof Error ? error.cause : undefined;
  if (!(cause instanceof Error)) return error;
  const shown = new Error(`${error.name} wrapping ${cause.name}: ${error.message}`);
  shown.name = cause.name;
  return shown;
}

async function fold(events) {
  const { stream } = body(sseBytes(events), { open: false });
  const messages = client(stream).messages.stream(PARAMS);
  try {
    return message(await messages.finalMessage());
  } catch (error) {
    throw unwrapped(error);
  }
}

// The body of the APIError raised for an `event: error` frame, or null for any other throw.
function errorFrame(error) {
  if (!(error instanceof APIError) || error.status !== undefined) return null;
  const bodyValue = error.error;
  const inner = bodyValue !== null && typeof bodyValue === "object" ? bodyValue.error : undefined;
  return inner !== null && typeof inner === "object" && !Array.isArray(inner) ? inner : {};
}

async function replay(events) {
  const { stream, drained } = body(sseBytes(events), { open: true });
  const messages = client(stream).messages.stream(PARAMS);
  let snapshot;
  let emitted = false;
  let thrown = null;
  messages.on("streamEvent", (_event, current) => { snapshot = current; });
  messages.on("message", () => { emitted = true; });
  const failed = new Promise((resolve) => {
    messages.on("error", (error) => { thrown = error; resolve(); });
  });
  await Promise.race([drained, failed]);
  const recorded = thrown === null ? null : errorFrame(thrown);
  const outcome = { message: snapshot === undefined ? undefined : message(snapshot),
                    finished: emitted && thrown === null, error: recorded,
                    failure: thrown !== null && recorded === null ? unwrapped(thrown) : null };
  messages.abort(); // the user is done reading: nothing more will arrive
  return outcome;
}

const sse = (parts) => decodedBy(Stream, parts);

serve({
  name: "anthropic-ts", version: `@anthropic-ai/sdk ${VERSION}`, dialect: "anthropic-messages",
  item: "event", empty: "AM-LIFE-EMPTY: no message_start has been folded yet",
  features: ["text", "tool_use", "server_tools", "thinking", "citations", "stop_details",
             "usage", "robustness", "lifecycle", "sse"],
  fold, replay, sse,
});
