// The npm packages of every built-in Node.js target are installed once, here (package.json,
// package-lock.json: `npm ci --prefix` this folder). A target lives in its dialect's own
// package, where Node.js would not look for them: it requires them with `requirePinned`,
// which resolves from this folder.
"use strict";

const { readFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { join } = require("node:path");

const requirePinned = createRequire(join(__dirname, "package.json"));

// The installed version of package `pkg`, read from its package.json (which a package's
// `exports` may keep `require` from).
function pinnedVersion(pkg) {
  return JSON.parse(readFileSync(join(__dirname, "node_modules", pkg, "package.json"), "utf8")).version;
}

module.exports = { pinnedVersion, requirePinned };
