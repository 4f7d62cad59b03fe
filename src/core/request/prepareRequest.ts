/**
 * Request preparation, top to bottom: convert (images, wire form, reasoning, tool pairs: convertRequest.ts; once
 * per request) → trim → the route's body. Everything up to
 * the trim is route-neutral (the cut is the same whatever the route); only the last step asks the route.
 * Pure apart from the memo and the per-conversation state it updates; it logs what it decided.
 */
import type { Settings } from '../config/settings';
import { convertRequest, logConversion, type ReasoningMemory } from '../convert/convertRequest';
import { fitImages, SHARED_IMAGE_MEMO, type ImageFitMemo, type ImageFitStats } from '../images/fitImages';
import { imageLimitsFor } from '../images/imageLimits';
import type { Logger } from '../log';
import { conversationSessionId, type SessionIds } from '../session/sessionId';
import type { ChatMessage, ChatTool, ModelLimits, ToolMode } from '../types';
import { computeBudget, outputRoom, type Budget } from '../trim/budget';
import type { ConversationStates } from '../trim/conversationState';
import { cutGeometry, gridFor, type CutGeometry } from '../trim/cutPolicy';
import { pruneSettingsOf, trimWithPrunes, type TrimOptions, type TrimResult } from '../trim/historyTrim';
import { shrinkOversized } from '../trim/truncateOversized';
import { DEFAULT_KEEP_RECENT_ROUNDS, splitHistory } from '../trim/units';
import { measureTools, type MessageSize, type SizeMemo } from '../trim/messageSize';
import { BoundedMap } from '../util/boundedMap';
import { historyTrimLine, overCeilingLine } from '../trim/trimLog';
import { fixedPartError, fixedPartOverBudget, measureFixedPart } from './fixedPartFit';
import type { WireMessage, WireTool } from '../wire/wireTypes';
import { recordedNativeOf, type NativeSizeMap } from '../trim/nativeSizes';
import { DEFAULT_ROUTE, routeById } from '../routes/registry/registry';
import { layoutLookup, type NativeReplay } from '../answer/nativeReplay';
import type { RouteId } from '../routeId';
import type { BodyInput, Route, SamplingOptions } from '../routes/route';
import type { RequestPurpose } from './purpose';
import type { DescribingModel } from './describeImages';
import { toWireTools } from '../convert/toWireMessages';

export interface ChatRequest {
  /** What the request is for (purpose.ts): decides which after-request hooks it feeds. */
  purpose: RequestPurpose;
  modelId: string;
  messages: readonly ChatMessage[];
  tools: readonly ChatTool[];
  toolMode?: ToolMode;
  /** VS Code's modelOptions; only the known sampling options below are forwarded. */
  modelOptions?: Record<string, unknown>;
  /** The thinking effort the model picker set for this request, unvalidated (core/request/sendBody.ts). */
  effort?: unknown;
  /** The model accepts images (not given: it does); when false each image is replaced by a note before the trim. */
  imageInput?: boolean;
  /** For a model without image input: the vision model that describes its images (describeImages.ts), if any. */
  describeWith?: DescribingModel;
}

export interface PrepareContext {
  settings: Settings;
  limits: ModelLimits;
  calibration: number;
  /** The model's calibration spread (Calibrations.spread): the cut's safety margin follows it. 0 when unknown. */
  calibrationSpread?: number;
  memo: SizeMemo;
  states: ConversationStates;
  log: Logger;
  /** Reasoning of earlier tool-call answers, put back where the history lost it. */
  reasoningMemory?: ReasoningMemory;
  /** Tells conversations with the same opening apart (sessionId.ts); without it, the opening alone is the id. */
  sessionIds?: SessionIds;
  /** The request's route (selectRoute); chat when not given. */
  route?: Route;
  /** The model reasons (model table): Responses asks for its encrypted reasoning to pass back, Gemini for thoughts. */
  reasons?: boolean;
  /** The same flag for another route (selectRoute's rule), for a route switch. */
  reasonsOn?: (route: RouteId) => boolean;
  /** Native items of earlier answers, passed back verbatim by the native routes. */
  replay?: NativeReplay;
  /** A replay of a recording: what each message's native items added when it was recorded (nativeSizes.ts). */
  recordedNative?: NativeSizeMap;
}

export interface PreparedRequest extends TrimPlan {
  /** The request's purpose, carried to every hook that receives the prepared request. */
  purpose: RequestPurpose;
  route: Route;
  /** What the route built the body from: a route switch rebuilds only the body (bodyFor), never the trim. */
  bodyInput: BodyInput;
  body: Record<string, unknown>;
  /** The picker's thinking effort, folded in at send time (sendBody.ts). */
  effort?: unknown;
  /** Whether the model reasons on another route (bodyFor); without it a switch keeps this body's flag. */
  reasonsOn?: (route: RouteId) => boolean;
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
  /** Tool results sent as a placeholder (pruneResults.ts) and the calibrated tokens that saves. */
  pruned: { results: number; tokens: number };
  /** The calibration and its spread this trim used (the report's replay uses them, to land on the same cut). */
  calibration: number;
  calibrationSpread: number;
}

/** Synchronous, for tests and tools: the request's images as given (the engine fits them first: convertForRequest). */
export function prepareRequest(request: ChatRequest, ctx: PrepareContext): PreparedRequest {
  return prepareConverted(request, convertFitted(request, undefined, ctx), ctx);
}

/**
 * The conversion step: the images fitted to the model's limits (off the host thread: fitImages.ts), then
 * convertRequest, and their `[images] …` / `[request] …` lines. Once per request: the engine keeps the result for
 * a re-trim after a context-length 400, so those lines are not logged again (a failed attempt changes nothing the
 * conversion reads).
 */
export async function convertForRequest(request: ChatRequest, ctx: Pick<PrepareContext, 'reasoningMemory' | 'log'> & { imageMemo?: ImageFitMemo }): Promise<WireMessage[]> {
  const fitted = request.imageInput !== false ? await fitImages(request.messages, imageLimitsFor(request.modelId), ctx.imageMemo ?? SHARED_IMAGE_MEMO) : undefined;
  return convertFitted(request, fitted, ctx);
}

function convertFitted(request: ChatRequest, fitted: { messages: ChatMessage[]; stats: ImageFitStats } | undefined, ctx: Pick<PrepareContext, 'reasoningMemory' | 'log'>): WireMessage[] {
  const { messages, ...changed } = convertRequest(fitted?.messages ?? request.messages, { imageInput: request.imageInput !== false, imageFit: fitted?.stats, reasoningMemory: ctx.reasoningMemory });
  logConversion(request.modelId, changed, ctx.log);
  return messages;
}

/** Trim and the route's body from an already-converted history (convertForRequest). */
export function prepareConverted(request: ChatRequest, messages: WireMessage[], ctx: PrepareContext): PreparedRequest {
  const tools = toWireTools(request.tools);
  refuseUnfitFixedPart(request.modelId, messages, tools, ctx);
  const plan = planTrim(messages, tools, ctx);
  const route = ctx.route ?? routeById(DEFAULT_ROUTE);
  const bodyInput: BodyInput = {
    modelId: request.modelId,
    messages: plan.trim.messages,
    tools: plan.tools,
    toolChoice: request.toolMode === 'required' ? 'required' : undefined,
    options: forwardedOptions(request.modelOptions),
    sessionId: plan.sessionId,
    maxOutputTokens: ctx.limits.maxOutputTokens,
    outputRoom: outputRoom(plan.budget, plan.geometry.ceiling, plan.trim.estTokens),
    reasons: ctx.reasons,
    replay: ctx.replay,
    cacheLifetime: ctx.settings.promptCache,
  };
  return { ...plan, purpose: request.purpose, route, bodyInput, body: route.buildBody(bodyInput), effort: request.effort, reasonsOn: ctx.reasonsOn };
}

/**
 * Tools and instructions over the budget: no cut can help, so nothing is cut to a stub and nothing is sent; the
 * user reads what takes the room and what to do (fixedPartFit.ts). Checked before the trim, so no truncation WARN
 * and no "Over budget" ERROR describe a request that never goes.
 */
function refuseUnfitFixedPart(modelId: string, messages: readonly WireMessage[], tools: WireTool[], ctx: PrepareContext): void {
  const budget = trimBudget(ctx);
  if (!Number.isFinite(budget.tokens)) return;
  const ceiling = cutGeometry(budget.tokens, ctx.settings.historyTrim, ctx.calibrationSpread ?? 0).ceiling;
  const part = measureFixedPart({ modelId, messages, toolCount: tools.length, toolsSize: toolsSize(tools), budgetTokens: budget.tokens, ceilingTokens: ceiling, maxBytes: budget.maxBytes }, ctx);
  if (!fixedPartOverBudget(part)) return;
  const error = fixedPartError(part);
  ctx.log.warn(`[history-trim] Not sent: ${error.detail}. ${error.message}`);
  error.logged = true;
  throw error;
}

/** The same prepared request on another route: the trim (and so the cut) unchanged, only the body rebuilt. */
export function bodyFor(prepared: PreparedRequest, route: Route): PreparedRequest {
  const bodyInput = prepared.reasonsOn ? { ...prepared.bodyInput, reasons: prepared.reasonsOn(route.id) } : prepared.bodyInput;
  return { ...prepared, route, bodyInput, body: route.buildBody(bodyInput) };
}

/**
 * The extension's whole trim path for an already-converted (tool pairs repaired) history: budget, cut,
 * truncate, log. The replay tool and the bench call exactly this, after the same repair (repairedHistory).
 */
export function planTrim(messages: WireMessage[], tools: WireTool[], ctx: PrepareContext): TrimPlan {
  const input = messages;
  const sessionId = ctx.sessionIds ? ctx.sessionIds.idFor(input) : conversationSessionId(input);
  const budget = trimBudget(ctx);
  const geometry = cutGeometry(Number.isFinite(budget.tokens) ? budget.tokens : 0, ctx.settings.historyTrim, ctx.calibrationSpread ?? 0);
  // While the history only grows, the last cut, its grid and its truncations still bind (never move back).
  const grew = ctx.states.grew(sessionId, input.length);
  const prior = ctx.states.get(sessionId);
  const grid = gridFor(geometry, budget.tokens, ctx.calibration, grew ? ctx.states.frozenGrid(sessionId) : undefined);
  const keepRounds = ctx.settings.historyTrim.keepRecentRounds ?? DEFAULT_KEEP_RECENT_ROUNDS;
  // Split once per request: the trim and the truncation read the same parts.
  const parts = splitHistory(input, keepRounds);
  // Native items (encrypted reasoning, signed thinking, thought signatures) count in their message's size on every route alike.
  const layoutOf = layoutLookup(ctx.replay);
  const options: TrimOptions = {
    budget,
    geometry,
    calibration: ctx.calibration,
    rawGrid: grid.rawGrid,
    extraGridMoves: prior.extraSteps,
    minFirstKept: grew ? prior.lastFirstKept : 0,
    lastRemoved: grew ? prior.lastRemoved : 0,
    keepRounds,
    parts,
    memo: ctx.memo,
    layoutOf,
    tools: toolsSize(tools),
    recordedNativeOf: ctx.recordedNative && recordedNativeOf(ctx.recordedNative),
  };
  // Pruned results are re-applied as they were; more are pruned only when the cut must move (historyTrim.ts, trimWithPrunes).
  const pruning = trimWithPrunes(input, options, { prune: pruneSettingsOf(ctx.settings.historyTrim), held: grew ? (prior.prunedAt ?? []) : [], heldFirstKept: grew ? prior.lastFirstKept : 0, parts, truncatedThrough: grew ? prior.truncatedThrough : 0 });
  const { trim, sentInput } = pruning;
  const sticky = grew ? prior.truncatedThrough : 0;
  const prefixChanged = grew && prior.lastExactAt > 0 && trim.sentIndices.includes(prior.lastExactAt - 1);
  const moving = !grew || prefixChanged || trim.removed !== prior.lastRemoved || (trim.removed > 0 && trim.firstKept !== prior.lastFirstKept) || pruning.prunedAt.length !== (prior.prunedAt ?? []).length;
  const shrunk = trim.overCeiling || sticky > 0 ? shrinkOversized(sentInput, trim, { budget, geometry, sticky, sessionId, moving, headEnd: parts.headEnd, layoutOf }, ctx) : { trim, truncatedThrough: 0, exactAt: 0 };
  const sent = shrunk.trim;
  const cutMoved = ctx.states.recordCut(sessionId, {
    removed: trim.removed,
    gridMoves: trim.gridMoves,
    firstKept: trim.firstKept,
    grid,
    truncatedThrough: shrunk.truncatedThrough,
    lastExactAt: shrunk.exactAt,
    prefixChanged,
    inputLength: input.length,
    prunedAt: pruning.prunedAt,
  });
  const pruned = { results: pruning.prunedAt.length, tokens: pruning.prunedTokens };
  if (trim.removed > 0 || shrunk.truncatedThrough > 0 || pruned.results > 0) ctx.log.info(historyTrimLine(sent, budget, geometry, cutMoved, pruned));
  if (sent.overCeiling) ctx.log.error(overCeilingLine(sent, budget));
  return { input, tools, sessionId, budget, geometry, trim: sent, cutMoved, pruned, calibration: ctx.calibration, calibrationSpread: ctx.calibrationSpread ?? 0 };
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
