// Events as the bytes of a text/event-stream response in named frames: `event: <type>` then
// `data: <the event as one line of JSON>` then a blank line (as Anthropic and OpenAI's
// Responses API frame them); a dialect framed otherwise frames its items in its own package.
"use strict";

// The frame's name is the data's `type` when that is a one-line string; otherwise (a wrong
// type, an event that is not an object) `message`, the WHATWG default name, so the SDK's
// decoder still hands the data on instead of the framing deciding.
function eventName(event) {
  const type = event !== null && typeof event === "object" ? event.type : undefined;
  return typeof type === "string" && !/[\r\n]/.test(type) ? type : "message";
}

function frame(event) {
  return `event: ${eventName(event)}\ndata: ${JSON.stringify(event)}\n\n`;
}

function sseBytes(events) {
  return new TextEncoder().encode(events.map(frame).join(""));
}

// A response body that delivers `bytes`, then ends (`open`: false) or stays open, as a live
// stream does between two network reads. `drained` settles once the reader asked for more
// than there is: by then the SDK has handled every event of `bytes`.
function body(bytes, { open }) {
  let settle;
  const drained = new Promise((resolve) => { settle = resolve; });
  let sent = false;
  const stream = new ReadableStream({
    pull(controller) {
      if (!sent) {
        sent = true;
        if (bytes.length > 0) {
          controller.enqueue(bytes);
          return undefined;
        }
      }
      settle();
      if (!open) {
        controller.close();
        return undefined;
      }
      return new Promise(() => {}); // never more data: the stream stays open
    },
  }, { highWaterMark: 0 });
  return { stream, drained };
}

// The items the SSE decoder of a Stainless-generated SDK (`Stream.fromSSEResponse`, as
// @anthropic-ai/sdk and openai-node have it) yields for the byte `parts` of a response body.
async function decodedBy(Stream, parts) {
  const controller = new AbortController();
  const readable = new ReadableStream({
    start(c) {
      for (const part of parts) c.enqueue(new Uint8Array(part));
      c.close();
    },
  });
  const answer = new Response(readable, { headers: { "content-type": "text/event-stream" } });
  const items = [];
  for await (const item of Stream.fromSSEResponse(answer, controller)) items.push(item);
  return items;
}

// An offline `fetch` for an SDK client: every request is answered with `stream` as the body
// of a 200 text/event-stream response carrying `headers` too (a request id, say).
function answeringWith(stream, headers) {
  return async () => new Response(stream, {
    status: 200, headers: { "content-type": "text/event-stream", ...headers },
  });
}

module.exports = { answeringWith, body, decodedBy, eventName, frame, sseBytes };
