// A provider-events adapter in plain Node.js (no dependencies): OpenAI Chat chunks and
// Anthropic Messages events in, provider-neutral events out, as events.md §4.1 and §4.3 map
// them, served over the subprocess protocol of events.md §5 (JSON lines on stdin/stdout):
//
//     refold check --dialect provider-events --target "exec:node examples/js/events_adapter.js"
//
// or by hand: `node examples/js/events_adapter.js`, then type
//     {"op": "begin", "stream": 1, "dialect": "openai-chat"}
//     {"op": "frame", "stream": 1, "seq": 0, "frame": {"choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": "stop"}]}}
//     {"op": "end", "stream": 1}
//
// The Chat mapping folds every chunk with accumulator.js (its chat.completion is the turn's
// opaque, EV-TURN-OPAQUE) and decides each tool-call fragment with a second copy of its
// TOOL-1…5 ladder, as refold.reference.events does; the Anthropic mapping
// (events_anthropic.js) folds the events into the Message with its own fold of the AM rules.
// One limit is the language's: numbers beyond 2**53 lose precision when parsed, so a frame
// carrying one is echoed as JavaScript prints it. Nothing but protocol lines is written to
// stdout; problems go to stderr.
"use strict";

const readline = require("node:readline");
const { Accumulator, ToolCalls, parseComplete } = require("./accumulator.js");
const { AnthropicMapping } = require("./events_anthropic.js");
const ev = require("./events_base.js");

const PROVIDER = "refold-js-events";
const STOP = { stop: "end_turn", tool_calls: "tool_use", function_call: "tool_use",
               length: "max_tokens", content_filter: "content_filter" };

function chatUsage(value) { // §4.1: cached ⊂ input, reasoning ⊂ output, as OpenAI reports
  const prompt = ev.isObject(value.prompt_tokens_details) ? value.prompt_tokens_details : {};
  const completion = ev.isObject(value.completion_tokens_details)
    ? value.completion_tokens_details : {};
  return { input_tokens: ev.count(value.prompt_tokens),
           output_tokens: ev.count(value.completion_tokens),
           cached_input_tokens: ev.count(prompt.cached_tokens),
           reasoning_tokens: ev.count(completion.reasoning_tokens) };
}

function choiceZero(chunk) { // EV-CHOICE0: entries without a valid index are choice 0
  if (!Array.isArray(chunk.choices)) return [];
  return chunk.choices.filter((e) => ev.isObject(e) && (ev.count(e.index) || 0) === 0);
}

class ChatMapping extends ev.Mapping {
  constructor() {
    super();
    this.fold = new Accumulator();
    this.ladder = new ToolCalls();
    this.calls = new Map(); // the ladder's call object -> its PendingCall
    this.order = []; // [call, pending], in arrival order
    this.ids = new Set();
    this.finished = false; // choice 0 has a finish reason other than "error"
    this.last = null; // the last chunk read
  }
  opaque(frame) { return ev.opaque("message", frame); } // Chat lines have no `event:` name
  mapFrame(frame) {
    if (frame === "[DONE]") return this.done();
    this.last = frame; // the end of the body's frame
    if (!ev.isObject(frame)) return []; // EV-UNKNOWN: it becomes Opaque
    this.fold.add(frame);
    if (ev.isObject(frame.error)) { // EV-ERROR-FRAME
      this.fail("provider_error", "EV-ERROR-FRAME: the provider sent an error chunk");
      return [this.opaque(frame)];
    }
    const events = [];
    let finishes = false;
    for (const entry of choiceZero(frame)) {
      events.push(...this.entry(entry, frame));
      if (this.outcome !== null) return events;
      const reason = ev.nonBlank(entry.finish_reason);
      finishes = finishes || (reason !== null && reason !== "error");
    }
    if (finishes) {
      // EV-CHAT-COMPLETE-AT-FINISH: the finish frame is one unit, so a call a later entry
      // of it opens completes too
      events.push(...this.finish(frame));
      if (this.outcome !== null) return events;
    }
    if (ev.isObject(frame.usage)) events.push(ev.usage(chatUsage(frame.usage), frame));
    return events;
  }
  entry(entry, frame) {
    const events = [];
    const delta = ev.isObject(entry.delta) ? entry.delta : null;
    if (delta !== null) {
      if (typeof delta.content === "string" && delta.content !== "") {
        events.push(ev.textDelta(delta.content, frame)); // EV-TEXT, verbatim
      }
      if (Array.isArray(delta.tool_calls)) {
        for (const fragment of delta.tool_calls) {
          if (ev.isObject(fragment) && this.outcome === null) {
            events.push(...this.fragment(fragment, frame));
          }
        }
      }
    }
    return events;
  }
  fragment(fragment, frame) {
    this.ladder.add([fragment]); // TOOL-1 … TOOL-5 decide, exactly as the fold does
    const index = this.ladder.lastIndex;
    const calls = this.ladder.byIndex.get(index);
    const call = calls[calls.length - 1]; // a fragment always goes to the current call
    const fn = ev.isObject(fragment.function) ? fragment.function : {};
    const text = typeof fn.arguments === "string" ? fn.arguments : "";
    let pending = this.calls.get(call);
    let appended = text; // TOOL-1/2/4 (a new call) and TOOL-5-APPEND
    if (pending === undefined) {
      pending = new ev.PendingCall(index);
      this.calls.set(call, pending);
      this.order.push([call, pending]);
    } else if (text && parseComplete(text) !== null && call.arguments.length === pending.length) {
      appended = ""; // TOOL-3-RESEND: the ladder changed nothing
    }
    if (pending.completed && appended) {
      this.fail("inconsistent_tool_arguments",
                "EV-NO-DELTA-AFTER-COMPLETED: a tool call changed after choice 0 finished");
      return [];
    }
    const events = pending.take(appended, call.id, call.name, frame, this.ids);
    if (events === null) {
      this.fail("unsupported", "EV-IDS-SINGLE-USE: two tool calls of the turn share an id");
      return [];
    }
    return events;
  }
  finish(frame) {
    this.finished = true;
    const events = [];
    const ordered = [...this.order].sort((a, b) => a[1].index - b[1].index); // stable
    for (const [call, pending] of ordered) {
      if (pending.completed) continue;
      if (!pending.started) {
        this.fail("unsupported", "EV-CALL-STARTED: a tool call never got both an id and a " +
                  "name before choice 0 finished");
        return events;
      }
      const args = call.arguments === "" ? {} : parseComplete(call.arguments);
      if (args === null) {
        this.fail("invalid_tool_arguments", "EV-ARGS-INVALID: a tool call's arguments are " +
                  "not a JSON object at choice 0's finish");
        return events;
      }
      events.push(pending.complete(args, frame));
    }
    return events;
  }
  done() { // EV-CHAT-DONE
    if (!this.finished) {
      this.fail("truncated", "EV-TRUNCATED: [DONE] arrived before choice 0 finished");
      return [];
    }
    this.fold.markDone();
    return this.completion("[DONE]");
  }
  mapEnd() { // EV-CHAT-EOF, else EV-TRUNCATED
    return this.finished ? this.completion(this.last) : super.mapEnd();
  }
  completion(frame) {
    // a call opened after choice 0's last finish reason completes here, right before
    // Completed, by the rules of a finish (the reference's decision, reference/events/_chat.py)
    const events = this.finish(frame);
    if (this.outcome !== null) return events;
    const response = this.fold.response();
    const first = response.choices[0];
    const reason = first && first.index === 0 ? first.finish_reason : null;
    const stop = typeof reason === "string" && Object.hasOwn(STOP, reason) ? STOP[reason]
      : "other";
    return [...events, this.complete({ model: response.model, response_id: response.id,
                                       stop_reason: stop, opaque: response })];
  }
}

const MAPPINGS = { "openai-chat": ChatMapping, "anthropic-messages": AnthropicMapping };

// One stream at a time; `persisted` is what this runtime would write: its events and
// outcome, stripped (PERSIST-STRIP).
let current = null;

function send(message) { process.stdout.write(JSON.stringify(message) + "\n"); }

const handlers = {
  begin(m) {
    const Mapping = Object.hasOwn(MAPPINGS, m.dialect) ? MAPPINGS[m.dialect] : null;
    current = { stream: m.stream, mapping: Mapping ? new Mapping() : null, kept: [] };
    if (current.mapping) current.mapping.provider = PROVIDER; // EV-TURN-FIELDS
    if (!Mapping) process.stderr.write(`unsupported dialect ${JSON.stringify(m.dialect)}\n`);
  },
  frame(m) {
    const events = current.mapping ? current.mapping.frame(m.frame) : [];
    for (const event of events) send({ stream: m.stream, event });
    current.kept.push(...events.map(ev.strip));
    send({ stream: m.stream, ack: m.seq });
  },
  end(m) {
    const mapping = current.mapping;
    const events = mapping ? mapping.end() : [];
    for (const event of events) send({ stream: m.stream, event });
    current.kept.push(...events.map(ev.strip));
    const outcome = mapping ? mapping.outcome
      : ev.errorOutcome("unsupported", "this adapter normalises " +
                        Object.keys(MAPPINGS).join(", "));
    send({ stream: m.stream, ...outcome });
    send({ stream: m.stream, persisted: { events: current.kept, outcome } });
  },
  fold(m) {
    try {
      send({ stream: m.stream, turn: ev.foldTurn(m.events) });
    } catch (error) {
      send({ stream: m.stream, error: { kind: "no_turn", message: error.message } });
    }
  },
};

function handle(line) {
  let message;
  try {
    message = JSON.parse(line);
  } catch (error) {
    process.stderr.write(`not JSON: ${error.message}\n`);
    return;
  }
  const handler = ev.isObject(message) && Object.hasOwn(handlers, message.op)
    ? handlers[message.op] : null;
  if (handler === null) {
    process.stderr.write(`unknown op in ${line.slice(0, 200)}\n`);
  } else if (current === null && message.op !== "begin" && message.op !== "fold") {
    process.stderr.write(`${message.op} before any begin\n`);
  } else {
    handler(message);
  }
}

send({ hello: { protocol: "refold-events/1", provider: PROVIDER, dialects: Object.keys(MAPPINGS),
                features: ["events", "events.turn_opaque"] } });
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => { if (line.trim() !== "") handle(line); });
