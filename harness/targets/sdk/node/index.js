// What every built-in Node.js target shares, in one place: a target in its dialect's package
// requires this folder (`require(".../targets/sdk/node")`) for the exec: server (serve.js),
// SSE framing and decoding (sse.js), the AI SDK's offline language models (ai-sdk-models.js)
// and the pinned npm packages (pinned.js).
"use strict";

module.exports = {
  ...require("./serve.js"),
  ...require("./sse.js"),
  ...require("./ai-sdk-models.js"),
  ...require("./pinned.js"),
};
