// The exec: protocol (docs/protocol.md) of refold's built-in Node.js targets, of the dialect
// the adapter names (`adapter.dialect`): one JSON request per stdin line, one reply per
// stdout line, in order.
// stdout carries protocol lines only; nothing else may write to it.
//
// An adapter folds with its SDK, the way a user of the SDK does:
//   fold(events)   -> Promise<Message>   the whole stream, ended: what the user gets at the end
//   replay(events) -> Promise<Outcome>   the stream so far, still open: what a user reads live,
//     Outcome = {message: Message|undefined, finished: bool, error: object|null,
//                failure: Error|null}  (failure: the SDK threw or reported a failure)
// An adapter without `replay` serves `fold` (and `sse`) only: it claims no `lifecycle`.
// An adapter whose SDK builds something else than the dialect's result says which places
// are compared with `projection` ({pointers, builds}, docs/protocol.md), sent in `hello`.
// An accumulator keeps the events it was given and replays them through a fresh SDK stream
// on every call: the SDKs are deterministic, so this is the live stream's state after the
// same bytes, and no call depends on when the SDK's promises settle.
"use strict";

const readline = require("node:readline");

const INCREMENTAL = ["new", "add", "response", "finished", "error"];

function serve(adapter) {
  // What a request calls the dialect's stream items (docs/protocol.md): `fold` carries
  // `<item>s`, `add` carries `<item>` ("event" or "chunk"); the adapter names it, and its
  // dialect. `adapter.empty` is the message of reading a response before there is one (the
  // rule's), which an adapter with `replay` names too.
  for (const key of ["name", "dialect", "item", ...(adapter.replay ? ["empty"] : [])]) {
    if (typeof adapter[key] !== "string") throw new TypeError(`serve: the adapter names no ${key}`);
  }
  const item = adapter.item;
  const items = `${item}s`;
  const accumulators = new Map();
  let nextId = 1;

  function accumulator(id) {
    const found = accumulators.get(id);
    if (found === undefined) {
      throw new ReferenceError(`no accumulator with id ${JSON.stringify(id)}`);
    }
    return found;
  }

  async function outcome(entry) {
    if (entry.outcome === null) entry.outcome = await adapter.replay(entry.events);
    return entry.outcome;
  }

  const handlers = {
    hello: () => ({ protocol: 2, name: adapter.name, version: adapter.version,
                    dialect: adapter.dialect, features: adapter.features,
                    operations: ["fold", ...(adapter.replay ? INCREMENTAL : []),
                                 ...(adapter.sse ? ["sse"] : [])],
                    ...(adapter.projection ? { projection: adapter.projection } : {}) }),
    fold: async (m) => ({ response: await adapter.fold(m[items]) }),
    sse: async (m) => ({ events: await adapter.sse(m.parts.map((p) => Buffer.from(p, "base64"))) }),
    new: (m) => {
      for (const id of m.release || []) accumulators.delete(id);
      const id = `a${nextId++}`;
      accumulators.set(id, { events: [], outcome: null });
      return { id };
    },
    add: async (m) => {
      const entry = accumulator(m.id);
      const before = entry.events.length === 0 ? null : (await outcome(entry)).failure;
      entry.events.push(m[item]);
      entry.outcome = null;
      const after = (await outcome(entry)).failure;
      // The SDK failed on this event (or had already failed: its stream is dead).
      if (after !== null) throw before === null ? after : dead(before);
      return {};
    },
    response: async (m) => {
      const found = await outcome(accumulator(m.id));
      if (found.failure !== null) throw dead(found.failure);
      if (found.message === undefined) {
        throw new RangeError(adapter.empty);
      }
      return { response: found.message };
    },
    finished: async (m) => ({ finished: (await outcome(accumulator(m.id))).finished }),
    error: async (m) => ({ error: (await outcome(accumulator(m.id))).error }),
  };

  function dead(failure) {
    const error = new Error(`the SDK's stream already failed: ${failure.message}`);
    error.name = failure.name;
    return error;
  }

  async function answer(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch (error) {
      return { ok: false, error: { type: "ProtocolError", message: `not JSON: ${error.message}` } };
    }
    if (message === null || typeof message !== "object") {
      return { ok: false, error: { type: "ProtocolError", message: "a request is a JSON object" } };
    }
    return { ...(await reply(message)), seq: message.seq };
  }

  async function reply(message) {
    const handler = Object.hasOwn(handlers, message.op) ? handlers[message.op] : null;
    const served = message.op === "sse" ? adapter.sse
      : INCREMENTAL.includes(message.op) ? adapter.replay : true;
    if (handler === null || !served) {
      return { ok: false, error: { type: "ProtocolError", message: `unknown op ${message.op}` } };
    }
    try {
      return { ok: true, ...(await handler(message)) };
    } catch (error) {
      const name = error instanceof Error ? error.name : typeof error;
      const text = error instanceof Error ? error.message : String(error);
      return { ok: false, error: { type: name, message: text } };
    }
  }

  // A promise the SDK leaves rejected must not end the process: the call that caused it has
  // already answered (or will) with what the SDK reported.
  process.on("unhandledRejection", (reason) => {
    process.stderr.write(`unhandled rejection: ${reason}\n`);
  });

  // One request at a time, in order: each reply is written before the next request is read.
  let queue = Promise.resolve();
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    queue = queue.then(async () => {
      process.stdout.write(JSON.stringify(await answer(line)) + "\n");
    });
  });
}

module.exports = { serve };
