/**
 * Request preparation, top to bottom: convert (images, wire form, reasoning, tool pairs: convertRequest.ts; once
 * per request) → refuse a request whose tools and instructions cannot fit → trim (core/trim/planTrim.ts) → the
 * route's body. Everything up to the trim is route-neutral (the cut is the same whatever the route); only the last
 * step asks the route.
 * Pure apart from the memo and the per-conversation state it updates; it logs what it decided.
 */
import { convertRequest, logConversion, type ReasoningMemory } from '../convert/convertRequest';
import { fitImages, SHARED_IMAGE_MEMO, type ImageFitMemo, type ImageFitStats, imageLimitsFor } from '../images/fitImages';
import type { ChatMessage, ChatTool, ToolMode } from '../types';
import { outputRoom, cutGeometry } from '../trim/budget';
import { fixedPartOverBudget, measureFixedPart, planTrim, trimBudget, type TrimContext, type TrimPlan } from '../trim/planTrim';
import { fixedPartError } from './userFacingError';
import type { WireMessage, WireTool } from '../wire/wireTypes';
import { routeById } from '../routes/registry/registry';
import type { RouteId } from '../routeId';
import type { BodyInput, Route, SamplingOptions } from '../routes/route';
import type { RequestPurpose } from './purpose';
import type { DescribingModel } from './describeImages';
import { DEFAULT_ROUTE } from '../routes/select/routeRules';
import { toolsSize } from '../trim/messageSize';
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

/** What preparing one request works with: the trim's context (core/trim/planTrim.ts) and what the body needs. */
export interface PrepareContext extends TrimContext {
  /** Reasoning of earlier tool-call answers, put back where the history lost it. */
  reasoningMemory?: ReasoningMemory;
  /** The request's route (selectRoute); chat when not given. */
  route?: Route;
  /** The model reasons (model table): Responses asks for its encrypted reasoning to pass back, Gemini for thoughts. */
  reasons?: boolean;
  /** The same flag for another route (selectRoute's rule), for a route switch. */
  reasonsOn?: (route: RouteId) => boolean;
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

/** The conversion of images already fitted (or given as they are: undefined). */
export function convertFitted(request: ChatRequest, fitted: { messages: ChatMessage[]; stats: ImageFitStats } | undefined, ctx: Pick<PrepareContext, 'reasoningMemory' | 'log'>): WireMessage[] {
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
 * user reads what takes the room and what to do (core/trim/planTrim.ts measureFixedPart, userFacingError.ts fixedPartError). Checked before the trim, so no truncation WARN
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
