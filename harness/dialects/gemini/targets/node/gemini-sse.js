// Gemini chunks as the bytes of a `?alt=sse` response body, framed as Google frames them:
// `data: <the chunk as one line of JSON>` then a blank line, with no `event:` line and no
// terminal sentinel (gemini-fold.md GM-WIRE-SSE). Shared by the Gemini targets only.
"use strict";

function geminiFrame(chunk) {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

function geminiSseBytes(chunks) {
  return new TextEncoder().encode(chunks.map(geminiFrame).join(""));
}

module.exports = { geminiFrame, geminiSseBytes };
