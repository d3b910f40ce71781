// Events as the bytes of a text/event-stream response, framed as Anthropic frames them:
// `event: <type>` then `data: <the event as one line of JSON>` then a blank line (and Chat
// Completions chunks as OpenAI frames them, `chatFrame`).
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

// A Chat Completions frame: `data: <the chunk as one line of JSON>` with no `event:` line
// (OpenAI sends none), and the sentinel `"[DONE]"` as `data: [DONE]`.
function chatFrame(chunk) {
  return `data: ${chunk === "[DONE]" ? "[DONE]" : JSON.stringify(chunk)}\n\n`;
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

module.exports = { body, chatFrame, eventName, frame, sseBytes };
