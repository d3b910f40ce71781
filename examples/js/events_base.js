// What every dialect mapping of events_adapter.js shares (events.md §1, §2, §3): the event
// shapes, the outcome latch, one tool call on its way to ToolCallCompleted, the turn fold
// and strip. A mapping extends `Mapping` with `mapFrame(frame)` and, if its end of body is
// not simply a truncation, `mapEnd()`.
"use strict";

// The code points with Unicode's White_Space property: "blank" as refold's reference reads it.
const BLANK = /^[\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;
const JSON_SPACE = /^[ \t\n\r]*$/;

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const nonBlank = (v) => (typeof v === "string" && !BLANK.test(v) ? v : null);
const count = (v) => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : null);
const unreported = () => ({ input_tokens: null, output_tokens: null, cached_input_tokens: null,
                            reasoning_tokens: null });

const textDelta = (delta, frame) => ({ type: "TextDelta", delta, opaque: frame });
const opaque = (eventType, frame) => ({ type: "Opaque", event_type: eventType, payload: frame });
const usage = (value, frame) => ({ type: "Usage", usage: value, opaque: frame });
const errorOutcome = (kind, message) => ({ outcome: "error", error: { kind, message } });

const STRIPPED = new Set(["opaque", "payload", "response_id"]);

// strip(x) of §3: every opaque, payload and response_id key removed at any depth; a tool
// call's `arguments` is the model's data and is kept verbatim.
function strip(value) {
  if (Array.isArray(value)) return value.map(strip);
  if (!isObject(value)) return value;
  const out = {};
  for (const [key, item] of Object.entries(value)) {
    if (!STRIPPED.has(key)) out[key] = key === "arguments" ? item : strip(item);
  }
  return out;
}

class PendingCall { // EV-CALL-STARTED, EV-ARGS-BUFFER, EV-IDS-SINGLE-USE
  constructor(index) {
    this.index = index; this.id = null; this.name = null; this.completed = false;
    this.length = 0; this.blank = true; this.holding = false; this.held = [];
  }
  get started() { return this.id !== null; }
  take(appended, callId, name, frame, startedIds) {
    if (appended) { // EV-NO-EMPTY-DELTA: an empty fragment is no delta
      this.length += appended.length;
      this.blank = this.blank && JSON_SPACE.test(appended);
      this.held.push([appended, frame]);
    }
    const events = [];
    if (this.id === null && callId !== null && name !== null) {
      if (startedIds.has(callId)) return null;
      startedIds.add(callId);
      this.id = callId; this.name = name;
      events.push({ type: "ToolCallStarted", id: callId, name, opaque: frame });
    }
    this.holding = this.id === null && this.held.length > 0;
    if (this.id !== null) {
      for (const [delta, held] of this.held) {
        events.push({ type: "ToolCallArgumentsDelta", id: this.id, delta, opaque: held });
      }
      this.held = [];
    }
    return events;
  }
  complete(args, frame) {
    this.completed = true;
    return { type: "ToolCallCompleted", call: { id: this.id, name: this.name, arguments: args },
             opaque: frame };
  }
}

class TurnFold { // EV-TEXT-CONSERVE, EV-TURN-CALLS, EV-USAGE-LAST; never reads an opaque
  constructor() { this.text = []; this.calls = []; this.usage = null; this.header = null; }
  add(event) {
    if (!isObject(event)) return;
    if (event.type === "TextDelta" && typeof event.delta === "string") this.text.push(event.delta);
    else if (event.type === "ToolCallCompleted" && isObject(event.call)) this.calls.push(event.call);
    else if (event.type === "Usage" && isObject(event.usage)) this.usage = event.usage;
    else if (event.type === "Completed" && isObject(event.turn)) this.header = event.turn;
  }
  turn({ provider, model, response_id, stop_reason, opaque: payload }) {
    const calls = JSON.parse(JSON.stringify(this.calls));
    return { provider, model, response_id, output_text: this.text.join(""), tool_calls: calls,
             stop_reason: calls.length && stop_reason === "end_turn" ? "tool_use" : stop_reason,
             usage: this.usage === null ? unreported() : JSON.parse(JSON.stringify(this.usage)),
             opaque: payload };
  }
}

// The turn of given events (the protocol's fold op): the last Completed's fields no delta
// carries, the portable ones refolded; keys that Completed lacks (stripped) stay absent.
function foldTurn(events) {
  const fold = new TurnFold();
  for (const event of Array.isArray(events) ? events : []) fold.add(event);
  const header = fold.header;
  if (header === null) throw new RangeError("EV-COMPLETED-LAST: the events hold no Completed");
  const turn = fold.turn({ provider: header.provider, model: header.model,
                           response_id: header.response_id, stop_reason: header.stop_reason,
                           opaque: header.opaque });
  for (const key of ["response_id", "opaque"]) if (!Object.hasOwn(header, key)) delete turn[key];
  return turn;
}

class Mapping { // the outcome latch and the frame cover, whatever the dialect
  constructor() { this.outcome = null; this.turnFold = new TurnFold(); this.header = null; }
  frame(frame) {
    if (this.outcome !== null) return []; // EV-NOTHING-AFTER-ERROR, EV-COMPLETED-LAST
    let events = this.mapFrame(frame);
    // EV-OPAQUE-FALLBACK: a frame whose only content is a fragment held for a call without
    // an id yet (EV-ARGS-BUFFER) gives its Opaque now; its delta follows the call's start
    if (events.length === 0 && frame !== "[DONE]") {
      events = [this.opaque(frame)];
    }
    return this.folded(events);
  }
  end() { return this.outcome !== null ? [] : this.folded(this.mapEnd()); }
  mapEnd() {
    this.fail("truncated", "EV-TRUNCATED: the body ended before the stream's terminal");
    return [];
  }
  folded(events) {
    for (const event of events) {
      if (event.type === "Completed") event.turn = this.turnFold.turn(this.header);
      this.turnFold.add(event);
    }
    return events;
  }
  opaque(frame) {
    const name = isObject(frame) ? nonBlank(frame.type) : null;
    return opaque(name || "message", frame);
  }
  fail(kind, message) { if (this.outcome === null) this.outcome = errorOutcome(kind, message); }
  complete({ model, response_id, stop_reason, opaque: payload }) { // EV-COMPLETED-LAST
    this.outcome = { outcome: "completed" };
    this.header = { provider: this.provider, model: typeof model === "string" ? model : "",
                    response_id, stop_reason, opaque: payload };
    return { type: "Completed", turn: {} };
  }
}

module.exports = { Mapping, PendingCall, TurnFold, count, errorOutcome, foldTurn, isObject,
                   nonBlank, opaque, strip, textDelta, unreported, usage };
