// The npm packages of every built-in Node.js target are installed once, here (package.json,
// package-lock.json: `npm ci --prefix` this folder). A target lives in its dialect's own
// package, where Node.js would not look for them: it requires them with `requirePinned`,
// which resolves from this folder.
"use strict";

const { createRequire } = require("node:module");
const { join } = require("node:path");

module.exports = { requirePinned: createRequire(join(__dirname, "package.json")) };
