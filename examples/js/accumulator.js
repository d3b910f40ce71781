// A chat-completion stream accumulator in plain JavaScript: every rule of the refold
// chat-fold spec (docs/rules.md), with no dependencies. `target.js` serves it to the
// refold harness over the exec: protocol (docs/protocol.md).
//
// Numbers follow JSON as JavaScript reads it: integers beyond 2**53 lose precision
// before this code sees them, so streams carrying such values cannot round-trip.
"use strict";

// Python's str.isspace(), which the spec's "blank" follows (not JavaScript's \s).
const SPACE = /^[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const nonBlank = (v) => (typeof v === "string" && v !== "" && !SPACE.test(v) ? v : null);
const isInteger = (v) => typeof v === "number" && Number.isInteger(v);
const nonNegativeInt = (v) => (isInteger(v) && v >= 0 ? v : null);
const positiveInt = (v) => (isInteger(v) && v > 0 ? v : null);
const copy = (v) => (v === undefined ? null : JSON.parse(JSON.stringify(v)));

function jsonEqual(a, b) {
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length &&
      keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
  }
  return a === b;
}

// "Complete arguments": trimmed of JSON whitespace, one JSON object (NaN is not JSON).
function parseComplete(text) {
  const stripped = text.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, "");
  if (!(stripped.startsWith("{") && stripped.endsWith("}"))) return null;
  try {
    const value = JSON.parse(stripped);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

class Fragment {
  constructor(entry) {
    const fn = isObject(entry.function) ? entry.function : {};
    this.id = nonBlank(entry.id);
    this.type = nonBlank(entry.type);
    this.name = nonBlank(fn.name);
    this.arguments = typeof fn.arguments === "string" ? fn.arguments : null;
    this.parsed = this.arguments ? parseComplete(this.arguments) : null;
  }
}

class Call {
  constructor(fragment) {
    this.id = fragment.id;
    this.type = fragment.type; // TOOL-TYPE: a new call never inherits a type
    this.name = fragment.name;
    this.arguments = fragment.arguments || "";
  }
  append(fragment) { // TOOL-5-APPEND with TOOL-ADOPT-ID, TOOL-NAME, TOOL-TYPE
    if (this.id === null) this.id = fragment.id;
    if (this.name === null) this.name = fragment.name;
    if (this.type === null) this.type = fragment.type;
    if (fragment.arguments) this.arguments += fragment.arguments;
  }
  completeValue() { return this.arguments ? parseComplete(this.arguments) : null; }
  output(finished) { // TOOL-OUTPUT, TOOL-EMPTY-ARGS
    const args = finished && this.arguments === "" ? "{}" : this.arguments;
    return { id: this.id, type: this.type || "function",
             function: { name: this.name, arguments: args } };
  }
}

class ToolCalls {
  constructor() { this.byIndex = new Map(); this.lastIndex = 0; }
  add(entries) {
    if (!Array.isArray(entries)) return;
    for (const entry of entries) if (isObject(entry)) this.addFragment(entry);
  }
  addFragment(entry) {
    let index = nonNegativeInt(entry.index); // TOOL-INDEX
    if (index === null) index = this.lastIndex; // TOOL-NO-INDEX
    this.lastIndex = index;
    const fragment = new Fragment(entry);
    const calls = this.byIndex.get(index);
    if (!calls) { this.byIndex.set(index, [new Call(fragment)]); return; } // TOOL-1-OPEN
    const current = calls[calls.length - 1];
    if (fragment.id !== null && current.id !== null && fragment.id !== current.id) {
      calls.push(new Call(fragment)); // TOOL-2-NEW-ID
      return;
    }
    const currentValue = fragment.parsed !== null ? current.completeValue() : null;
    if (currentValue !== null) {
      const resend = fragment.id !== null ? fragment.id === current.id
        : fragment.name === null && jsonEqual(fragment.parsed, currentValue);
      if (!resend) calls.push(new Call(fragment)); // TOOL-4-SPLIT (TOOL-3-RESEND: nothing)
      return;
    }
    current.append(fragment);
  }
  output(finished) {
    const indexes = [...this.byIndex.keys()].sort((a, b) => a - b);
    return indexes.flatMap((i) => this.byIndex.get(i).map((call) => call.output(finished)));
  }
}

const JOINED = { "reasoning.text": "text", "reasoning.summary": "summary" };

class Merged {
  constructor(type, index) {
    this.type = type; this.index = index; this.joined = JOINED[type];
    this.parts = null; this.fields = Object.create(null); this.closed = false;
  }
  merge(entry) {
    for (const [key, value] of Object.entries(entry)) {
      if (key === this.joined) {
        if (typeof value === "string") (this.parts ||= []).push(value); // RD-MERGE
      } else if (key === "type" || key === "index") {
        continue;
      } else if (typeof value === "string") {
        if (nonBlank(value) !== null) this.fields[key] = value; // RD-FIELDS
      } else if (value !== null) {
        this.fields[key] = value;
      }
    }
    if (this.index === null && nonBlank(entry.signature) !== null) this.closed = true;
  }
  output() {
    const segment = { type: this.type, ...copy(this.fields) };
    if (this.parts !== null) segment[this.joined] = this.parts.join("");
    if (this.index !== null) segment.index = this.index; // RD-ORDER
    return segment;
  }
}

class ReasoningDetails {
  constructor() { this.segments = []; this.indexed = new Map(); this.open = new Map(); }
  add(entries) {
    if (!Array.isArray(entries)) return;
    for (const entry of entries) if (isObject(entry)) this.addSegment(entry);
  }
  addSegment(entry) {
    const type = nonBlank(entry.type);
    if (type === null || !Object.hasOwn(JOINED, type)) { this.segments.push(entry); return; }
    const index = nonNegativeInt(entry.index);
    const key = `${type}\u0000${index}`;
    let segment = index !== null ? this.indexed.get(key) : this.open.get(type);
    if (segment === undefined || segment.closed) { // RD-INDEXLESS
      segment = new Merged(type, index);
      this.segments.push(segment);
      if (index === null) this.open.set(type, segment); else this.indexed.set(key, segment);
    }
    segment.merge(entry);
  }
  output() {
    return this.segments.map((s) => (s instanceof Merged ? s.output() : copy(s)));
  }
}

const TEXT_FIELDS = ["content", "refusal", "reasoning", "reasoning_content"];

class Choice {
  constructor(index) {
    this.index = index; this.role = null; this.finishReason = null; this.native = null;
    this.text = new Map(); this.annotations = null; this.logprobs = false;
    this.lpContent = []; this.lpRefusal = null;
    this.toolCalls = new ToolCalls(); this.reasoningDetails = new ReasoningDetails();
  }
  get finished() { return this.finishReason !== null && this.finishReason !== "error"; }
  add(entry) {
    const finish = nonBlank(entry.finish_reason);
    if (finish !== null) this.finishReason = finish; // CHOICE-FINISH
    const native = nonBlank(entry.native_finish_reason);
    if (native !== null) this.native = native; // PROV-NATIVE-FINISH
    this.addLogprobs(entry.logprobs);
    const delta = entry.delta;
    if (!isObject(delta)) return; // CHOICE-DELTA-NULL
    for (const [key, value] of Object.entries(delta)) this.addField(key, value);
  }
  addField(key, value) {
    if (key === "role") {
      if (this.role === null) this.role = nonBlank(value); // CHOICE-ROLE
    } else if (TEXT_FIELDS.includes(key)) {
      if (typeof value === "string" && value !== "") {
        if (!this.text.has(key)) this.text.set(key, []);
        this.text.get(key).push(value); // TEXT-JOIN, TEXT-REFUSAL, TEXT-REASONING
      }
    } else if (key === "annotations") {
      if (Array.isArray(value)) (this.annotations ||= []).push(...value.filter(isObject));
    } else if (key === "tool_calls") {
      this.toolCalls.add(value);
    } else if (key === "reasoning_details") {
      this.reasoningDetails.add(value);
    } // ROB-UNKNOWN-KEYS: anything else is ignored
  }
  addLogprobs(value) {
    if (!isObject(value)) return; // LP-SKIP
    this.logprobs = true;
    if (Array.isArray(value.content)) this.lpContent.push(...value.content.filter(isObject));
    if (Array.isArray(value.refusal)) {
      const entries = value.refusal.filter(isObject);
      if (entries.length) (this.lpRefusal ||= []).push(...entries);
    }
  }
  output(finished) {
    const message = { role: this.role || "assistant", content: null };
    for (const [key, parts] of this.text) message[key] = parts.join("");
    const details = this.reasoningDetails.output();
    if (details.length) message.reasoning_details = details;
    const calls = this.toolCalls.output(finished);
    if (calls.length) message.tool_calls = calls;
    if (this.annotations !== null) message.annotations = copy(this.annotations);
    const choice = {
      index: this.index, message, finish_reason: this.finishReason,
      logprobs: this.logprobs ? { content: copy(this.lpContent), refusal: copy(this.lpRefusal) }
        : null, // LP-SHAPE
    };
    if (this.native !== null) choice.native_finish_reason = this.native;
    return choice;
  }
}

const PROVIDER_FIELDS = ["provider", "system_fingerprint", "service_tier"];

class Accumulator {
  constructor() {
    this.received = 0; this.folded = 0; this.done = false;
    this.id = null; this.model = null; this.created = null;
    this.provider = {}; this.usage = null; this.choices = new Map();
  }
  add(chunk) {
    const number = this.received++;
    if (!isObject(chunk)) { // ROB-NOT-OBJECT
      const kind = chunk === null ? "null" : Array.isArray(chunk) ? "array" : typeof chunk;
      throw new TypeError(`ROB-NOT-OBJECT: chunk ${number} is a JSON ${kind}, expected a ` +
                          `JSON object`);
    }
    this.folded++;
    if (this.id === null) this.id = nonBlank(chunk.id); // ENV-ID
    if (this.model === null) this.model = nonBlank(chunk.model); // ENV-MODEL
    if (this.created === null) this.created = positiveInt(chunk.created); // ENV-CREATED
    for (const key of PROVIDER_FIELDS) { // PROV-LAST
      const value = nonBlank(chunk[key]);
      if (value !== null) this.provider[key] = value;
    }
    if (isObject(chunk.usage)) this.usage = chunk.usage; // USAGE-LAST
    if (!Array.isArray(chunk.choices)) return;
    for (const entry of chunk.choices) {
      if (!isObject(entry)) continue; // ROB-NULL-ENTRIES
      let index = nonNegativeInt(entry.index);
      if (index === null) index = 0; // CHOICE-KEY
      if (!this.choices.has(index)) this.choices.set(index, new Choice(index));
      this.choices.get(index).add(entry);
    }
  }
  markDone() { this.done = true; } // LIFE-DONE
  get finished() { // LIFE-FINISHED
    if (this.done) return true;
    const choices = [...this.choices.values()];
    return choices.length > 0 && choices.every((c) => c.finished);
  }
  response() {
    if (this.folded === 0) {
      throw new RangeError("LIFE-EMPTY: no chunk has been folded yet; call add(chunk) first");
    }
    const finished = this.finished;
    const indexes = [...this.choices.keys()].sort((a, b) => a - b);
    const response = {
      id: this.id, object: "chat.completion", created: this.created, model: this.model,
      ...this.provider,
      choices: indexes.map((i) => this.choices.get(i).output(finished)), // CHOICE-ORDER
    };
    if (this.usage !== null) response.usage = copy(this.usage);
    return response;
  }
}

function fold(chunks) {
  const accumulator = new Accumulator();
  for (const chunk of chunks) accumulator.add(chunk);
  return accumulator.response();
}

module.exports = { Accumulator, ToolCalls, fold, parseComplete };
