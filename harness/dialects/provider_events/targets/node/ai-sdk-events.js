// The AI SDK's stream parts as provider-neutral events (events.md §1), the turn they fold
// into, and the assistant message an AI SDK app persists. The mapping is described in the
// header of events_ai_sdk.js, which drives the provider and feeds the parts here.
"use strict";

// What every built-in Node.js target shares (refold/targets/sdk/node/index.js).
const { eventName } = require("../../../../targets/sdk/node");

const PROVIDER = "ai-sdk";

// The AI SDK's unified finish reasons (LanguageModelV3FinishReason.unified) -> StopReason.
const STOP = { "stop": "end_turn", "length": "max_tokens", "content-filter": "content_filter",
               "tool-calls": "tool_use", "error": "other", "other": "other" };

const NO_USAGE = { input_tokens: null, output_tokens: null, cached_input_tokens: null,
                   reasoning_tokens: null };

function json(value) {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

function count(value) {
  return Number.isInteger(value) ? value : null;
}

// The finish part's usage as TokenUsage, or null when the provider reported none (`raw`
// is the provider's own usage object; the totals are then undefined).
function tokenUsage(usage) {
  if (usage === undefined || usage === null || usage.raw === undefined || usage.raw === null) {
    return null;
  }
  const input = usage.inputTokens || {};
  const output = usage.outputTokens || {};
  return { input_tokens: count(input.total), output_tokens: count(output.total),
           cached_input_tokens: count(input.cacheRead), reasoning_tokens: count(output.reasoning) };
}

function parsedObject(input) {
  if (typeof input !== "string") return { ok: false };
  try {
    const value = input === "" ? {} : JSON.parse(input);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}

function stopReason(finishReason, calls) {
  const unified = finishReason && Object.hasOwn(STOP, finishReason.unified)
    ? STOP[finishReason.unified] : "other";
  return unified === "end_turn" && calls.length > 0 ? "tool_use" : unified; // EV-STOP-TOOL
}

// Folds one stream's parts, frame by frame, into neutral events; keeps what the turn and
// the persisted message need. `frameOf(n)` is the n-th object frame fed to the provider.
class Normaliser {
  constructor(dialect, frameOf) {
    this.dialect = dialect; this.frameOf = frameOf;
    this.raws = 0; this.frame = null; this.made = 0;
    this.meta = {}; this.text = ""; this.content = []; this.texts = new Map();
    this.hosted = new Set(); this.completed = [];
    this.outcome = null; this.usage = null;
  }

  // The events of `parts` (the parts the provider gave since the last call), in order; a
  // frame none of whose parts made an event gets one Opaque (EV-OPAQUE-FALLBACK).
  take(parts) {
    const events = [];
    for (const part of parts) {
      if (this.outcome !== null) break; // nothing after Completed or an error
      if (part.type === "raw") {
        this.fallback(events);
        this.frame = this.frameOf(this.raws++);
        this.made = 0;
        continue;
      }
      const made = this.part(part);
      this.made += made.filter((event) => event.type !== "Completed").length;
      events.push(...made);
    }
    this.fallback(events);
    return events;
  }

  fallback(events) {
    if (this.frame !== null && this.made === 0 && this.outcome === null) {
      events.push(this.opaque());
      this.made = 1;
    }
  }

  // EV-OPAQUE-TYPE: the frame's SSE event name, "message" when there is none (Chat) or it
  // is blank (an empty `event:` field dispatches as "message").
  opaque() {
    const name = this.dialect === "openai-chat" ? "" : eventName(this.frame).trim();
    return { type: "Opaque", event_type: name === "" ? "message" : eventName(this.frame),
             payload: this.frame };
  }

  part(part) {
    switch (part.type) {
      case "response-metadata": this.metadata(part); return [];
      case "text-start": this.textPart(part.id); return [];
      case "text-delta": return this.textDelta(part);
      case "tool-input-start": return this.toolStart(part);
      case "tool-input-delta": return this.toolDelta(part);
      case "tool-call": return this.toolCall(part);
      case "finish": return this.finish(part);
      case "error": return this.error(part.error);
      default: return []; // stream-start, text-end, tool-input-end, reasoning-*, source, ...
    }
  }

  metadata(part) {
    this.meta.id ??= part.id; this.meta.modelId ??= part.modelId;
  }

  textPart(id) {
    if (!this.texts.has(id)) {
      const made = { type: "text", text: "" };
      this.texts.set(id, made);
      this.content.push(made);
    }
    return this.texts.get(id);
  }

  textDelta(part) {
    if (typeof part.delta !== "string" || part.delta === "") return []; // EV-NO-EMPTY-DELTA
    this.textPart(part.id).text += part.delta;
    this.text += part.delta;
    return [{ type: "TextDelta", delta: part.delta, opaque: this.frame }];
  }

  toolStart(part) {
    if (part.providerExecuted) { // a server tool (EV-HOSTED-OPAQUE)
      this.hosted.add(part.id);
      return [];
    }
    return [{ type: "ToolCallStarted", id: part.id, name: part.toolName, opaque: this.frame }];
  }

  toolDelta(part) {
    if (this.hosted.has(part.id) || typeof part.delta !== "string" || part.delta === "") return [];
    return [{ type: "ToolCallArgumentsDelta", id: part.id, delta: part.delta, opaque: this.frame }];
  }

  toolCall(part) {
    if (part.providerExecuted || this.hosted.has(part.toolCallId)) return [];
    const parsed = parsedObject(part.input);
    this.content.push({ type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName,
                        input: parsed.ok ? parsed.value : part.input });
    if (!parsed.ok) {
      this.outcome = { outcome: "error", error: { kind: "invalid_tool_arguments",
        message: `tool call ${part.toolCallId} ended with arguments that are not a JSON object: ` +
                 `${JSON.stringify(part.input)}` } };
      return [];
    }
    const call = { id: part.toolCallId, name: part.toolName, arguments: parsed.value };
    this.completed.push(call);
    return [{ type: "ToolCallCompleted", call, opaque: this.frame }];
  }

  finish(part) {
    const events = [];
    this.usage = tokenUsage(part.usage);
    if (this.usage !== null) events.push({ type: "Usage", usage: this.usage, opaque: this.frame });
    if (events.length === 0 && this.made === 0 && this.frame !== null) {
      events.push(this.opaque()); // the frame's own Opaque before Completed, which has none
    }
    events.push({ type: "Completed", turn: this.turn(part) });
    this.outcome = { outcome: "completed" };
    return events;
  }

  error(error) {
    const shown = (error instanceof Error ? `${error.name}: ${error.message}` : JSON.stringify(error))
      .split("\n")[0].slice(0, 300); // a validation error's first line names the value
    this.outcome = { outcome: "error",
                     error: { kind: "provider_error", message: `the AI SDK's error part: ${shown}` } };
    return this.frame === null ? [] : [this.opaque()];
  }

  // T. Its calls are in completion order, the provider's (the chat tracker completes them
  // sorted by index, the chat fold's order), as the reference adapter's turn has them.
  turn(finish) {
    const calls = [...this.completed];
    return { provider: PROVIDER, model: this.meta.modelId ?? "", // a string, "" when unnamed
             response_id: this.meta.id ?? null, output_text: this.text, tool_calls: calls,
             stop_reason: stopReason(finish.finishReason, calls),
             usage: this.usage ?? { ...NO_USAGE },
             opaque: json({ finishReason: finish.finishReason, usage: finish.usage,
                            providerMetadata: finish.providerMetadata }) };
  }

  // What an AI SDK app persists for the turn: `response.messages`, the ModelMessage list
  // (one assistant message: its text and tool-call parts in stream order, empty texts out).
  persisted() {
    const content = this.content.filter((p) => p.type !== "text" || p.text.length > 0);
    return json([{ role: "assistant", content }]);
  }
}

// The adapter's fold of given events into a ProviderTurn (§5.5): text, calls and usage
// from the events; provider, model, response id and stop reason from the Completed turn.
function foldEvents(events) {
  const list = Array.isArray(events) ? events.filter((e) => e && typeof e === "object") : [];
  const completed = list.filter((e) => e.type === "Completed").map((e) => e.turn || {}).pop() || {};
  const usages = list.filter((e) => e.type === "Usage").map((e) => e.usage);
  const turn = { provider: PROVIDER, model: completed.model ?? "",
                 output_text: list.filter((e) => e.type === "TextDelta").map((e) => e.delta).join(""),
                 tool_calls: list.filter((e) => e.type === "ToolCallCompleted").map((e) => e.call),
                 stop_reason: completed.stop_reason ?? "other",
                 usage: usages.length > 0 ? usages[usages.length - 1] : { ...NO_USAGE },
                 opaque: completed.opaque ?? null };
  if (Object.hasOwn(completed, "response_id")) turn.response_id = completed.response_id;
  return turn;
}

module.exports = { Normaliser, PROVIDER, foldEvents };
