/**
 * Request preparation, top to bottom: convert → repair tool pairs → trim → the route's body. Everything up to
 * the trim is route-neutral (the cut is the same whatever the route); only the last step asks the route.
 * Pure apart from the memo and the per-conversation state it updates; it logs what it decided.
 */
import type { Settings } from '../config/settings';
import type { ReasoningMemory } from '../convert/reasoningMemory';
import { repairToolPairs } from '../convert/repairToolPairs';
import { toWireMessages } from '../convert/toWireMessages';
import { toWireTools } from '../convert/toWireTools';
import type { Logger } from '../log';
import { conversationSessionId, type SessionIds } from '../session/sessionId';
import type { ChatMessage, ChatTool, ModelLimits, ToolMode } from '../types';
import { computeBudget, type Budget } from '../trim/budget';
import type { ConversationStates } from '../trim/conversationState';
import { cutGeometry, rawGridSize, type CutGeometry } from '../trim/cutPolicy';
import { trimHistory, type TrimResult } from '../trim/historyTrim';
import { truncateOversized } from '../trim/truncateOversized';
import { layoutHistory } from '../trim/units';
import { measureTools, type MessageSize, type SizeMemo } from '../trim/messageSize';
import { BoundedMap } from '../util/boundedMap';
import { historyTrimLine, overBudgetLine } from '../trim/trimLog';
import type { WireMessage, WireTool } from '../wire/wireTypes';
import { chatRoute } from '../routes/chat/chatRoute';
import type { NativeReplay } from '../routes/nativeReplay';
import type { BodyInput, Route, SamplingOptions } from '../routes/route';

export interface ChatRequest {
  modelId: string;
  messages: readonly ChatMessage[];
  tools: readonly ChatTool[];
  toolMode?: ToolMode;
  /** VS Code's modelOptions; only the known sampling options below are forwarded. */
  modelOptions?: Record<string, unknown>;
}

export interface PrepareContext {
  settings: Settings;
  limits: ModelLimits;
  calibration: number;
  memo: SizeMemo;
  states: ConversationStates;
  log: Logger;
  /** Reasoning of earlier tool-call answers, put back where the history lost it. */
  reasoning?: ReasoningMemory;
  /** Tells conversations with the same opening apart (sessionId.ts); without it, the opening alone is the id. */
  sessions?: SessionIds;
  /** The request's route (selectRoute); chat when not given. */
  route?: Route;
  /** A Responses reasoning model (route table): ask for its encrypted reasoning to pass back. */
  reasoningModel?: boolean;
  /** Native items of earlier answers, passed back verbatim by the native routes. */
  replay?: NativeReplay;
}

export interface PreparedRequest extends TrimPlan {
  route: Route;
  /** What the route built the body from: a route switch rebuilds only the body (bodyFor), never the trim. */
  bodyInput: BodyInput;
  body: Record<string, unknown>;
}

export interface TrimPlan {
  /** The full (repaired) history before trimming, as the replay tool and the request recorder see it. */
  input: WireMessage[];
  tools: WireTool[];
  sessionId: string;
  budget: Budget;
  geometry: CutGeometry;
  trim: TrimResult;
  cutMoved: boolean;
}

export function prepareRequest(request: ChatRequest, ctx: PrepareContext): PreparedRequest {
  let wire = toWireMessages(request.messages);
  if (ctx.reasoning) {
    const restored = ctx.reasoning.restore(wire);
    if (restored.restored > 0) ctx.log.debug(`[request] Restored the reasoning of ${restored.restored} tool-call answer(s) the history had lost.`);
    wire = restored.messages;
  }
  const plan = planTrim(wire, toWireTools(request.tools), ctx);
  const route = ctx.route ?? chatRoute;
  const bodyInput: BodyInput = {
    modelId: request.modelId,
    messages: plan.trim.messages,
    tools: plan.tools,
    toolChoice: request.toolMode === 'required' ? 'required' : undefined,
    options: forwardedOptions(request.modelOptions),
    sessionId: plan.sessionId,
    maxOutputTokens: ctx.limits.maxOutputTokens,
    reasoning: ctx.reasoningModel,
    replay: ctx.replay,
  };
  return { ...plan, route, bodyInput, body: route.buildBody(bodyInput) };
}

/** The same prepared request on another route: the trim (and so the cut) unchanged, only the body rebuilt. */
export function bodyFor(prepared: PreparedRequest, route: Route): PreparedRequest {
  return { ...prepared, route, body: route.buildBody(prepared.bodyInput) };
}

/**
 * The extension's whole trim path for OpenAI-shaped messages: repair tool pairs, budget, cut, log.
 * The replay tool calls exactly this.
 */
export function planTrim(messages: WireMessage[], tools: WireTool[], ctx: PrepareContext): TrimPlan {
  const repaired = repairToolPairs(messages);
  if (repaired.droppedOrphanResults || repaired.addedMissingResults) {
    ctx.log.warn(`[request] Repaired tool pairs: dropped ${repaired.droppedOrphanResults} orphaned tool result(s), closed ${repaired.addedMissingResults} call(s) that had no result.`);
  }
  const input = repaired.messages;
  const sessionId = ctx.sessions ? ctx.sessions.idFor(input) : conversationSessionId(input);
  const budget = trimBudget(ctx);
  const geometry = cutGeometry(Number.isFinite(budget.tokens) ? budget.tokens : 0, ctx.settings.historyTrim);
  const tokensBudgeted = Number.isFinite(budget.tokens);
  const grid = rawGridSize(geometry, ctx.calibration);
  const trim = trimHistory(input, {
    budget,
    geometry,
    calibration: ctx.calibration,
    extraSteps: ctx.states.get(sessionId).extraSteps,
    minSteps: tokensBudgeted ? ctx.states.minSteps(sessionId, input.length, grid) : 0,
    memo: ctx.memo,
    tools: toolsSize(tools),
  });
  const cutMoved = ctx.states.recordCut(sessionId, { removed: trim.removed, steps: trim.steps, grid, inputLength: input.length });
  if (trim.removed > 0) ctx.log.info(historyTrimLine(trim, budget, geometry, cutMoved));
  const sent = trim.overBudget ? shrinkOversized(trim, budget, geometry, layoutHistory(input).headEnd, ctx) : trim;
  if (sent.overBudget) ctx.log.error(overBudgetLine(sent, budget));
  return { input, tools, sessionId, budget, geometry, trim: sent, cutMoved };
}

/** Over budget with nothing left to drop: truncate the largest kept messages, and say which. */
function shrinkOversized(trim: TrimResult, budget: Budget, geometry: CutGeometry, headEnd: number, ctx: PrepareContext): TrimResult {
  const excess = { tokens: trim.estTokens - geometry.ceiling, bytes: trim.bytes - budget.maxBytes };
  const headCount = trim.sentIndices.filter((i) => i < headEnd).length;
  const { messages, truncations } = truncateOversized(trim.messages, excess, ctx.calibration, headCount);
  if (truncations.length === 0) return trim;
  let estTokens = trim.estTokens;
  let bytes = trim.bytes;
  for (const t of truncations) {
    estTokens -= t.fromTokens - t.toTokens;
    bytes -= Buffer.byteLength(JSON.stringify(trim.messages[t.index])) - Buffer.byteLength(JSON.stringify(messages[t.index]));
    ctx.log.warn(`[history-trim] Truncated a ${t.role} message (input #${trim.sentIndices[t.index]}) from ~${t.fromTokens} to ~${t.toTokens} tokens to fit the budget; a marker shows where text was removed.`);
  }
  return { ...trim, messages, estTokens, bytes, overBudget: estTokens > geometry.ceiling || bytes > budget.maxBytes };
}

export function trimBudget(ctx: Pick<PrepareContext, 'settings' | 'limits'>): Budget {
  const budget = computeBudget(ctx.limits, ctx.settings);
  if (!ctx.settings.historyTrim.enabled) return { ...budget, tokens: Infinity, maxBytes: Infinity };
  return budget;
}

/** VS Code puts internal fields into modelOptions; only these sampling options reach the endpoint. */
export function forwardedOptions(options: Record<string, unknown> | undefined): SamplingOptions {
  const out: SamplingOptions = {};
  if (!options) return out;
  if (typeof options.temperature === 'number') out.temperature = options.temperature;
  if (typeof options.top_p === 'number') out.top_p = options.top_p;
  const maxTokens = options.max_tokens ?? options.maxTokens;
  if (typeof maxTokens === 'number' && maxTokens > 0) out.max_tokens = Math.floor(maxTokens);
  if (Array.isArray(options.stop) && options.stop.every((s) => typeof s === 'string')) out.stop = options.stop as string[];
  return out;
}

const toolsSizes = new BoundedMap<string, MessageSize>(32);

/**
 * The tools block is the same on almost every request, and serializing 300 KB of schemas per request
 * would cost more than the rest of the trim. It is measured once per fingerprint (names, description
 * lengths, parameter names); a collision could only misjudge its size, never change what is sent.
 */
function toolsSize(tools: WireTool[]): MessageSize {
  if (tools.length === 0) return { tokens: 0, bytes: 0 };
  const key = tools.map((t) => `${t.function.name}:${t.function.description.length}:${Object.keys((t.function.parameters as { properties?: object }).properties ?? {}).join(',')}`).join('|');
  let size = toolsSizes.get(key);
  if (!size) {
    size = measureTools(tools);
    toolsSizes.set(key, size);
  }
  return size;
}
