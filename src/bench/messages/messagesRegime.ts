/**
 * The Messages regime: one ceiling session on an Anthropic-style model, trimmed by our policy (the extension's
 * planTrim, the same cut on every route), sent as our Messages body twice over Anthropic's breakpoint cache
 * (src/cacheModel/breakpointCache.ts): once with our breakpoints (last tool, last system block, the newest
 * block, and where the previous request's newest block was) and once with the markers on the first 4 blocks
 * (the leading extension's and OpenCode's converter's rule). Per request: cache hit, tokens billed as cache
 * writes, reads and uncached input, and the cost relative to sending the same prompt with no caching, at
 * Anthropic's prices (cache write 1.25×, cache read 0.1× of the input price).
 */
import { BreakpointCache, type MessagesPrompt } from '../../cacheModel/breakpointCache';
import { countTextTokens } from '../../cacheModel/valueTokens';
import type { Logger } from '../../core/log';
import { repairedHistory } from '../../core/convert/convertRequest';
import { accountUsage } from '../../core/request/accountUsage';
import { anthropicUsage } from '../../core/routes/messages/messagesStream';
import { routeById } from '../../core/routes/registry/registry';
import { SizeMemo } from '../../core/trim/messageSize';
import { PromptBlocks } from '../cache/promptBlocks';
import { benchLimits, benchSettings } from '../policies/benchSettings';
import { type RegimeSpec } from '../sessions/regimes';
import { generateSession, requestAt } from '../sessions/sessionGenerator';
import { measureCharsPerToken } from '../sessions/textOfTokens';
import { planTrim } from '../../core/trim/planTrim';
import { regimeById } from '../sessions/regimes';
import { Calibrations, ConversationStates } from '../../core/trim/trimState';

/** Anthropic's prices relative to plain input: a 5-minute cache write costs 1.25×, a cache read 0.1×. */
export const WRITE_PRICE = 1.25;
export const READ_PRICE = 0.1;

/** Regime (c)'s session shape on a Claude-size model: 200K window, 32K max output, 140K budget. */
export const MESSAGES_REGIME: RegimeSpec = {
  ...regimeById('c'),
  id: 'm',
  title: 'Messages (Claude-size): ~800-token units, ~1K growth, 200K window',
  requests: 200,
  window: 200_000,
  maxOutputTokens: 32_000,
  budgetTokens: 140_000,
  systemTokens: 6_000,
  toolCount: 24,
  toolTokens: 16_000,
  sweep: false,
  textCount: false,
};

export interface MessagesRequestFigures {
  i: number;
  promptTokens: number;
  read: number;
  write: number;
  uncached: number;
  hit: number;
  /** Cost of this request relative to the same prompt with no caching (1 = no saving). */
  relativeCost: number;
}

export interface MessagesVariant {
  id: 'ours' | 'first4';
  label: string;
  requests: MessagesRequestFigures[];
  totals: { prompt: number; read: number; write: number; uncached: number; meanHit: number; relativeCost: number };
}

export interface MessagesRegimeResult {
  regime: RegimeSpec;
  cutMoves: number;
  variants: [MessagesVariant, MessagesVariant];
}

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const MODEL_ID = 'bench-messages';
const SESSION = 'ses_bench_messages';

export function runMessagesRegime(regime: RegimeSpec = MESSAGES_REGIME): MessagesRegimeResult {
  const session = generateSession(regime, new PromptBlocks().sizer('json'), measureCharsPerToken(countTextTokens));
  const settings = benchSettings(regime);
  const limits = benchLimits(regime);
  const state = { log: quiet, calibrations: new Calibrations(), states: new ConversationStates() };
  const memo = new SizeMemo();
  const caches = { ours: new BreakpointCache(), first4: new BreakpointCache() };
  const figures: Record<'ours' | 'first4', MessagesRequestFigures[]> = { ours: [], first4: [] };
  let cutMoves = 0;
  for (let i = 0; i < regime.requests; i++) {
    const request = requestAt(session, i);
    const plan = planTrim(repairedHistory(request.messages, quiet), request.tools, { settings, limits, calibration: state.calibrations.factor(MODEL_ID), memo, states: state.states, log: quiet });
    if (plan.trim.removed > 0 && plan.cutMoved && i > 0) cutMoves++;
    const body = routeById('messages').buildBody({ modelId: MODEL_ID, messages: plan.trim.messages, tools: plan.tools, sessionId: SESSION, maxOutputTokens: regime.maxOutputTokens }) as unknown as MessagesPrompt;
    figures.ours.push(observe(caches.ours, body, i));
    figures.first4.push(observe(caches.first4, markFirstFour(body), i));
    const ours = figures.ours[i];
    const usage = anthropicUsage({ input_tokens: ours.uncached, cache_read_input_tokens: ours.read, cache_creation_input_tokens: ours.write, output_tokens: 0 });
    if (usage) accountUsage(state, MODEL_ID, plan, usage);
  }
  return {
    regime,
    cutMoves,
    variants: [variant('ours', 'ours: tools, system, newest block, previous newest block', figures.ours), variant('first4', 'first 4 blocks (leading extension, OpenCode converter)', figures.first4)],
  };
}

function observe(cache: BreakpointCache, body: MessagesPrompt, i: number): MessagesRequestFigures {
  const result = cache.observe(SESSION, body);
  if (!result.ok) throw new Error(`request ${i}: ${result.breakpoints} cache breakpoints (at most 4)`);
  const { input_tokens: uncached, cache_read_input_tokens: read, cache_creation_input_tokens: write } = result.usage;
  const prompt = result.promptTokens;
  return { i, promptTokens: prompt, read, write, uncached, hit: prompt > 0 ? read / prompt : 0, relativeCost: prompt > 0 ? cost(uncached, read, write) / prompt : 1 };
}

export function cost(uncached: number, read: number, write: number): number {
  return uncached + READ_PRICE * read + WRITE_PRICE * write;
}

/** The same body with every marker removed and the first 4 blocks (system, then message content) marked. */
export function markFirstFour(body: MessagesPrompt): MessagesPrompt {
  let left = 4;
  const mark = (block: unknown): unknown => {
    const { cache_control: _dropped, ...rest } = block as Record<string, unknown>;
    if (left <= 0) return rest;
    left--;
    return { ...rest, cache_control: { type: 'ephemeral' } };
  };
  const tools = (body.tools ?? []).map((tool) => {
    const { cache_control: _dropped, ...rest } = tool as Record<string, unknown>;
    return rest;
  });
  const system = Array.isArray(body.system) ? body.system.map(mark) : body.system;
  const messages = body.messages.map((m) => ({ ...m, content: Array.isArray(m.content) ? m.content.map(mark) : m.content }));
  return { ...body, tools, system, messages };
}

function variant(id: 'ours' | 'first4', label: string, requests: MessagesRequestFigures[]): MessagesVariant {
  const sum = (pick: (r: MessagesRequestFigures) => number) => requests.reduce((t, r) => t + pick(r), 0);
  const prompt = sum((r) => r.promptTokens);
  const read = sum((r) => r.read);
  const write = sum((r) => r.write);
  const uncached = sum((r) => r.uncached);
  return { id, label, requests, totals: { prompt, read, write, uncached, meanHit: sum((r) => r.hit) / Math.max(1, requests.length), relativeCost: prompt > 0 ? cost(uncached, read, write) / prompt : 1 } };
}
