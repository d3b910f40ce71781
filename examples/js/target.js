// Serves accumulator.js to the refold harness: `refold check --target "exec:node target.js"`.
// The exec: protocol (docs/protocol.md): one JSON request per stdin line, one JSON reply
// per stdout line. Nothing else may be written to stdout; logs go to stderr.
"use strict";

const readline = require("node:readline");
const { Accumulator, fold } = require("./accumulator.js");

const OPERATIONS = ["fold", "new", "add", "response", "finished", "mark_done"];
const accumulators = new Map();
let nextId = 1;

function accumulator(id) {
  const found = accumulators.get(id);
  if (found === undefined) throw new ReferenceError(`no accumulator with id ${JSON.stringify(id)}`);
  return found;
}

const handlers = {
  hello: () => ({ protocol: 2, name: "refold-js-example", version: "0.1.0",
                  operations: OPERATIONS }),
  fold: (m) => ({ response: fold(m.chunks) }),
  new: (m) => {
    for (const id of m.release || []) accumulators.delete(id);
    const id = `a${nextId++}`;
    accumulators.set(id, new Accumulator());
    return { id };
  },
  add: (m) => { accumulator(m.id).add(m.chunk); return {}; },
  response: (m) => ({ response: accumulator(m.id).response() }),
  finished: (m) => ({ finished: accumulator(m.id).finished }),
  mark_done: (m) => { accumulator(m.id).markDone(); return {}; },
};

// Every reply echoes its request's `seq` (protocol 2), so none is charged to another.
function answer(line) {
  let message;
  try {
    message = JSON.parse(line);
  } catch (error) {
    return { ok: false, error: { type: "ProtocolError", message: `not JSON: ${error.message}` } };
  }
  if (message === null || typeof message !== "object") {
    return { ok: false, error: { type: "ProtocolError", message: "a request is a JSON object" } };
  }
  return { ...reply(message), seq: message.seq };
}

function reply(message) {
  const handler = Object.hasOwn(handlers, message.op) ? handlers[message.op] : null;
  if (handler === null) {
    return { ok: false, error: { type: "ProtocolError", message: `unknown op ${message.op}` } };
  }
  try {
    return { ok: true, ...handler(message) };
  } catch (error) {
    return { ok: false, error: { type: error.name, message: error.message } };
  }
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (line.trim() !== "") process.stdout.write(JSON.stringify(answer(line)) + "\n");
});
