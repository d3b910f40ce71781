// Anthropic Messages events -> neutral events (events.md §4.3), for events_adapter.js.
//
// `MessageFold` folds the events into the Message as /work/shared/spec/anthropic-fold.md
// says (the AM rules named below); `AnthropicMapping` reads what the fold decided, as
// refold.reference.events does: which index holds a block, each tool block's settled input,
// the cumulative usage, the stop reason.
"use strict";

const { parseComplete } = require("./accumulator.js");
const ev = require("./events_base.js");

const STOPS = new Set(["end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn",
                       "refusal"]);
const TOOL_TYPES = new Set(["tool_use", "server_tool_use", "mcp_tool_use"]);
const JSON_SPACE = /^[ \t\n\r]*$/;
const copy = (v) => (v === undefined ? null : JSON.parse(JSON.stringify(v)));
const isNumber = (v) => typeof v === "number";
const USAGE_KINDS = { input_tokens: isNumber, output_tokens: isNumber,
                      cache_creation_input_tokens: isNumber, cache_read_input_tokens: isNumber,
                      server_tool_use: ev.isObject, cache_creation: ev.isObject,
                      service_tier: (v) => ev.nonBlank(v) !== null };

class Block { // AM-TEXT-JOIN, AM-THINK-*, AM-TOOL-*, AM-RESULT-AS-SENT
  constructor(start) {
    this.start = start; this.type = ev.nonBlank(start.type);
    const first = this.type === "text" ? start.text : this.type === "thinking" ? start.thinking
      : null;
    this.parts = typeof first === "string" ? [first] : [];
    this.citations = []; this.signature = null; this.input = "";
  }
  apply(kind, delta) { // AM-DELTA-MATCH: only the deltas defined for the block's type
    if (this.type === "text" && kind === "text_delta" && typeof delta.text === "string") {
      this.parts.push(delta.text);
    } else if (this.type === "text" && kind === "citations_delta" &&
               ev.isObject(delta.citation)) {
      this.citations.push(delta.citation);
    } else if (this.type === "thinking" && kind === "thinking_delta" &&
               typeof delta.thinking === "string") {
      this.parts.push(delta.thinking);
    } else if (this.type === "thinking" && kind === "signature_delta" &&
               typeof delta.signature === "string") {
      this.signature = delta.signature; // AM-THINK-SIGNATURE: the last one wins
    } else if (TOOL_TYPES.has(this.type) && kind === "input_json_delta" &&
               typeof delta.partial_json === "string") {
      this.input += delta.partial_json; // AM-TOOL-JOIN
    }
  }
  output() {
    const block = copy(this.start);
    if (this.type === "text") {
      block.text = this.parts.join("");
      if (this.citations.length) {
        block.citations = [...(Array.isArray(block.citations) ? block.citations : []),
                           ...copy(this.citations)];
      }
    } else if (this.type === "thinking") {
      block.thinking = this.parts.join("");
      if (this.signature !== null) block.signature = this.signature;
    } else if (TOOL_TYPES.has(this.type) && !JSON_SPACE.test(this.input)) {
      const parsed = parseComplete(this.input); // AM-TOOL-NO-DELTA when only whitespace
      block.input = parsed !== null ? parsed : this.input; // AM-TOOL-INVALID: raw
    }
    return block;
  }
}

class MessageFold { // AM-BEFORE-START, AM-START-ONCE, AM-LIFE-*, AM-USAGE-*, AM-STOP-*
  constructor() {
    this.message = null; this.blocks = new Map(); this.usage = null; this.reason = null;
    this.sequence = undefined; this.details = null; this.container = null;
    this.stopped = false; this.error = null;
  }
  add(event) {
    if (this.error !== null || this.stopped) return;
    const type = ev.nonBlank(event.type);
    if (type === "error") {
      this.error = ev.isObject(event.error) ? event.error : {};
    } else if (this.message === null) {
      if (type === "message_start" && ev.isObject(event.message)) this.begin(event.message);
    } else if (type === "content_block_start") {
      const index = ev.count(event.index);
      if (index !== null) this.open(index, event.content_block);
    } else if (type === "content_block_delta") {
      const block = this.blocks.get(ev.count(event.index));
      if (block !== undefined && ev.isObject(event.delta)) {
        block.apply(ev.nonBlank(event.delta.type), event.delta);
      }
    } else if (type === "message_delta") {
      this.messageDelta(event);
    } else if (type === "message_stop") {
      this.stopped = true;
    }
  }
  begin(message) {
    this.message = message;
    if (Array.isArray(message.content)) message.content.forEach((b, i) => this.open(i, b));
    this.reason = ev.nonBlank(message.stop_reason);
    if (ev.isObject(message.usage)) this.usage = { ...message.usage };
  }
  open(index, start) { // AM-BLOCK-OPEN; AM-BLOCK-REOPEN: the first start wins
    if (ev.isObject(start) && !this.blocks.has(index)) this.blocks.set(index, new Block(start));
  }
  messageDelta(event) {
    const delta = ev.isObject(event.delta) ? event.delta : null;
    if (delta !== null) {
      const reason = ev.nonBlank(delta.stop_reason);
      if (reason !== null) {
        this.reason = reason;
        this.sequence = typeof delta.stop_sequence === "string" ? delta.stop_sequence : null;
      }
      if (ev.isObject(delta.stop_details)) this.details = delta.stop_details;
      if (ev.isObject(delta.container)) this.container = delta.container;
    }
    if (!ev.isObject(event.usage)) return;
    for (const [key, value] of Object.entries(event.usage)) { // AM-USAGE-REPLACE, never sum
      const known = Object.hasOwn(USAGE_KINDS, key) ? USAGE_KINDS[key] : (v) => v !== null;
      if (known(value)) (this.usage ||= {})[key] = value;
    }
  }
  response() {
    const message = copy(this.message);
    message.content = [...this.blocks.keys()].sort((a, b) => a - b)
      .map((i) => this.blocks.get(i).output()); // AM-BLOCK-ORDER
    if (ev.nonBlank(message.type) === null) message.type = "message"; // AM-TYPE-ROLE
    if (ev.nonBlank(message.role) === null) message.role = "assistant";
    message.stop_reason = this.reason;
    if (this.sequence !== undefined) message.stop_sequence = this.sequence;
    if (this.details !== null) message.stop_details = copy(this.details);
    if (this.container !== null) message.container = copy(this.container);
    if (this.usage === null) delete message.usage; else message.usage = copy(this.usage);
    return message;
  }
}

function anthropicUsage(value) { // §4.3: the disjoint cache buckets are added into input
  const v = value || {};
  const buckets = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"]
    .map((key) => ev.count(v[key]));
  const reported = buckets.filter((n) => n !== null);
  return { input_tokens: reported.length ? reported.reduce((a, b) => a + b, 0) : null,
           output_tokens: ev.count(v.output_tokens), cached_input_tokens: buckets[2],
           reasoning_tokens: null };
}

class AnthropicMapping extends ev.Mapping {
  constructor() {
    super();
    this.fold = new MessageFold();
    this.kinds = new Map(); // block index -> its type
    this.calls = new Map(); // client tool_use blocks by index
    this.ids = new Set();
    this.wasOpen = false;
  }
  mapFrame(frame) {
    if (!ev.isObject(frame)) return []; // EV-UNKNOWN: Opaque
    const started = this.fold.message !== null;
    this.wasOpen = this.fold.blocks.has(ev.count(frame.index));
    this.fold.add(frame);
    if (this.fold.error !== null) { // EV-ERROR-FRAME, wherever it arrives
      this.fail("provider_error", "EV-ERROR-FRAME: the provider sent an error event");
      return [this.opaque(frame)];
    }
    if (!started) return this.fold.message !== null ? this.messageStart(frame) : [];
    const type = ev.nonBlank(frame.type);
    const handler = type !== null && Object.hasOwn(HANDLERS, type) ? HANDLERS[type] : null;
    return handler ? handler.call(this, frame) : []; // ping, unknown types: Opaque
  }
  messageStart(frame) { // Usage, then the blocks message_start already holds
    const message = this.fold.response();
    const events = "usage" in message ? [ev.usage(anthropicUsage(message.usage), frame)] : [];
    const content = Array.isArray(frame.message.content) ? frame.message.content : [];
    for (const [index, block] of content.entries()) {
      if (!ev.isObject(block) || !this.fold.blocks.has(index)) continue;
      events.push(...this.opened(index, block, frame));
      if (this.outcome !== null) return events;
      if (this.calls.has(index)) events.push(...this.stop(index, frame));
    }
    return events;
  }
  blockStart(frame) {
    const index = ev.count(frame.index);
    if (index === null || this.wasOpen || !this.fold.blocks.has(index)) return [];
    return this.opened(index, ev.isObject(frame.content_block) ? frame.content_block : {}, frame);
  }
  opened(index, block, frame) {
    const kind = ev.nonBlank(block.type) || "";
    this.kinds.set(index, kind);
    if (kind === "text") {
      return typeof block.text === "string" && block.text ? [ev.textDelta(block.text, frame)] : [];
    }
    if (kind !== "tool_use") return []; // EV-HOSTED-OPAQUE, thinking: Opaque
    const pending = new ev.PendingCall(index);
    this.calls.set(index, pending);
    const events = pending.take("", ev.nonBlank(block.id), ev.nonBlank(block.name), frame,
                                this.ids);
    if (events === null || !pending.started) {
      this.fail("unsupported", "EV-CALL-STARTED, EV-IDS-SINGLE-USE: a tool_use block without " +
                "an id and a name, or with an id already used in the turn");
      return [];
    }
    return events;
  }
  blockDelta(frame) {
    const index = ev.count(frame.index);
    const delta = ev.isObject(frame.delta) ? frame.delta : {};
    const kind = ev.nonBlank(delta.type);
    if (kind === "text_delta" && this.kinds.get(index) === "text") {
      return typeof delta.text === "string" && delta.text ? [ev.textDelta(delta.text, frame)] : [];
    }
    const pending = this.calls.get(index);
    const fragment = delta.partial_json;
    if (kind !== "input_json_delta" || pending === undefined || typeof fragment !== "string") {
      return []; // thinking, signature, citations, hosted tools: Opaque
    }
    if (pending.completed && fragment) {
      this.fail("inconsistent_tool_arguments",
                "EV-NO-DELTA-AFTER-COMPLETED: input arrived after its block stopped");
      return [];
    }
    return pending.take(fragment, pending.id, pending.name, frame, this.ids) || [];
  }
  blockStop(frame) {
    const index = ev.count(frame.index);
    const pending = this.calls.get(index);
    return pending === undefined || pending.completed ? [] : this.stop(index, frame);
  }
  stop(index, frame) { // ToolCallCompleted with the input the fold settled on
    const pending = this.calls.get(index);
    const input = this.fold.blocks.get(index).output().input;
    const args = input === undefined || input === null || input === "" ? {}
      : ev.isObject(input) ? input : null;
    if (args === null) {
      this.fail("invalid_tool_arguments", "EV-ARGS-INVALID: a tool_use block's input is not " +
                "a JSON object at its content_block_stop");
      return [];
    }
    if (pending.length && pending.blank && Object.keys(args).length) {
      this.fail("inconsistent_tool_arguments", "EV-ARGS-CONSERVE: a tool_use block streamed " +
                "only whitespace after a start carrying input");
      return [];
    }
    return [pending.complete(args, frame)];
  }
  messageDelta(frame) {
    if (!ev.isObject(frame.usage)) return [];
    return [ev.usage(anthropicUsage(this.fold.response().usage), frame)]; // cumulative
  }
  messageStop(frame) {
    if (!this.fold.stopped) return [];
    const events = [];
    for (const index of [...this.calls.keys()].sort((a, b) => a - b)) {
      if (this.calls.get(index).completed) continue;
      events.push(...this.stop(index, frame)); // EV-STARTED-COMPLETED
      if (this.outcome !== null) return events;
    }
    const message = this.fold.response();
    events.push(this.opaque(frame)); // EV-FRAME-COVER: message_stop may carry data
    events.push(this.complete({ model: message.model, response_id: message.id,
                                stop_reason: STOPS.has(message.stop_reason)
                                  ? message.stop_reason : "other",
                                opaque: message }));
    return events;
  }
}

const HANDLERS = {
  content_block_start: AnthropicMapping.prototype.blockStart,
  content_block_delta: AnthropicMapping.prototype.blockDelta,
  content_block_stop: AnthropicMapping.prototype.blockStop,
  message_delta: AnthropicMapping.prototype.messageDelta,
  message_stop: AnthropicMapping.prototype.messageStop,
};

module.exports = { AnthropicMapping, MessageFold };
