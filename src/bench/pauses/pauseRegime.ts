/**
 * The pause regime: when a longer cache lifetime or warming pays. One ceiling session (the Messages regime's:
 * Claude-size, trimmed by our policy) with a pause before every turn drawn from pauseDistribution.ts, sent to the
 * cache models on a simulated clock (src/cacheModel: a prefix cached at t is gone at t + lifetime unless read):
 * Anthropic's breakpoint cache with the 5-minute and the 1-hour lifetime and 5 minutes with warming, and OpenAI's
 * prefix cache in memory (5 minutes), with `prompt_cache_retention: "24h"` and in memory with warming. Each is priced
 * in dollars by the model's list prices and the provider's cache rules (core/cost/cacheRules.ts), input side only:
 * the answers' output tokens are the same in every column (warming's one output token is left out).
 */
import { BreakpointCache, type MessagesPrompt } from '../../cacheModel/breakpointCache';
import { PrefixCacheModel } from '../../cacheModel/prefixCache';
import { countTextTokens } from '../../cacheModel/valueTokens';
import { repairedHistory } from '../../core/convert/convertRequest';
import { CACHE_RULES, type CacheRule } from '../../core/cost/cacheRules';
import { pricesFor, requestCost, type ModelPrices } from '../../core/cost/requestCost';
import type { Logger } from '../../core/log';
import { routeById } from '../../core/routes/registry/registry';
import { SizeMemo } from '../../core/trim/messageSize';
import type { NormalizedUsage } from '../../core/types';
import { WARM_LEAD_MS } from '../../core/warming/lifetimes';
import type { WireMessage, WireTool } from '../../core/wire/wireTypes';
import { PromptBlocks } from '../cache/promptBlocks';
import { benchLimits, benchSettings } from '../policies/benchSettings';
import type { RegimeSpec } from '../sessions/regimes';
import { generateSession, requestAt } from '../sessions/sessionGenerator';
import { measureCharsPerToken } from '../sessions/textOfTokens';
import { drawPauses } from './pauseDistribution';
import { type AnthropicTtl } from '../../core/routes/requestParts';
import { planTrim } from '../../core/trim/planTrim';
import { MESSAGES_REGIME } from '../messages/messagesRegime';
import { ConversationStates } from '../../core/trim/trimState';

/** Warming requests per pause (the setting's default). */
export const BENCH_WARM_MAX = 3;
export const PAUSE_SEED = 2_300;
/** The models whose list prices the dollars use. */
export const PRICED_MODELS = { anthropic: 'claude-sonnet-4-5', openai: 'gpt-5.5' } as const;

export const PAUSE_REGIME: RegimeSpec = { ...MESSAGES_REGIME, id: 'p', title: 'Pauses between turns (Claude-size ceiling session)', requests: 120 };

type Provider = keyof typeof PRICED_MODELS;
export type PauseVariantId = 'anthropic-5m' | 'anthropic-1h' | 'anthropic-5m-warm' | 'openai-memory' | 'openai-24h' | 'openai-memory-warm';

interface VariantSpec {
  id: PauseVariantId;
  provider: Provider;
  label: string;
  rule: CacheRule;
  warm: boolean;
}

const VARIANTS: VariantSpec[] = [
  { id: 'anthropic-5m', provider: 'anthropic', label: 'Anthropic, 5-minute breakpoints (default)', rule: CACHE_RULES.anthropic5m, warm: false },
  { id: 'anthropic-1h', provider: 'anthropic', label: 'Anthropic, ttl "1h"', rule: CACHE_RULES.anthropic1h, warm: false },
  { id: 'anthropic-5m-warm', provider: 'anthropic', label: `Anthropic, 5 minutes + warming (≤ ${BENCH_WARM_MAX} per pause)`, rule: CACHE_RULES.anthropic5m, warm: true },
  { id: 'openai-memory', provider: 'openai', label: 'OpenAI, in memory (5 minutes)', rule: CACHE_RULES.openaiInMemory, warm: false },
  { id: 'openai-24h', provider: 'openai', label: 'OpenAI, prompt_cache_retention "24h" (default)', rule: CACHE_RULES.openai24h, warm: false },
  { id: 'openai-memory-warm', provider: 'openai', label: `OpenAI, in memory + warming (≤ ${BENCH_WARM_MAX} per pause)`, rule: CACHE_RULES.openaiInMemory, warm: true },
];

export interface PauseVariant {
  id: PauseVariantId;
  provider: Provider;
  label: string;
  /** Dollars of the user's requests, and of the warming requests apart. */
  requestsUsd: number;
  warmingUsd: number;
  warmingRequests: number;
  /** Requests after the first that found less than half their prompt cached. */
  coldRequests: number;
  meanHit: number;
}

export interface PauseRegimeResult {
  regime: RegimeSpec;
  pauses: { count: number; medianMs: number; longerThan5m: number; longestMs: number };
  variants: PauseVariant[];
  breakEven: BreakEven;
}

export interface BreakEven {
  /** The longest pause that warming (unbounded) still bridges more cheaply than writing the prefix again, ms. */
  warmAnthropicMs: number;
  warmOpenAiMs: number;
  /** Pauses longer than this go cold even with warming at BENCH_WARM_MAX per pause. */
  warmReachMs: number;
  /** ttl "1h" pays when more than this share of pauses falls between 5 minutes and an hour (this session's figures). */
  longTtlShare: number;
}

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const SESSION = 'ses_bench_pauses';

/**
 * The longest pause warming bridges more cheaply than a rewrite: k warms at `read` each against one rewrite at
 * `write` (the read it replaces is paid either way), one warm every lifetime − lead after the first lifetime.
 */
export function warmBreakEvenMs(rule: CacheRule): number {
  return Math.round(rule.lifetimeMs + ((rule.writeMultiplier - rule.readMultiplier) / rule.readMultiplier) * (rule.lifetimeMs - WARM_LEAD_MS));
}

/** When the warming of a pause of `pauseMs` fires, relative to its start (at most `max`). */
export function warmTimes(pauseMs: number, lifetimeMs: number, max: number): number[] {
  const times: number[] = [];
  for (let t = lifetimeMs - WARM_LEAD_MS; t < pauseMs && times.length < max; t += lifetimeMs - WARM_LEAD_MS) times.push(t);
  return times;
}

interface Sent {
  messages: WireMessage[];
  tools: WireTool[];
}

/** One variant's cache on the shared clock: observe a request, get its usage. */
function cacheFor(spec: VariantSpec, clock: () => number): (sent: Sent) => NormalizedUsage {
  if (spec.provider === 'anthropic') {
    const cache = new BreakpointCache({ clock });
    const ttl: AnthropicTtl = spec.rule === CACHE_RULES.anthropic1h ? '1h' : '5m';
    return (sent) => {
      const body = routeById('messages').buildBody({ modelId: PRICED_MODELS.anthropic, messages: sent.messages, tools: sent.tools, sessionId: SESSION, cacheLifetime: { openaiRetention: 'default', anthropicTtl: ttl } });
      const result = cache.observe(SESSION, body as unknown as MessagesPrompt);
      if (!result.ok) throw new Error(`${result.breakpoints} cache breakpoints`);
      const u = result.usage;
      return usageOf(result.promptTokens, u.cache_read_input_tokens, u.cache_creation_input_tokens);
    };
  }
  const cache = new PrefixCacheModel({ clock });
  return (sent) => {
    const seen = cache.observe(SESSION, { messages: sent.messages, tools: sent.tools }, spec.rule.lifetimeMs);
    return usageOf(seen.promptTokens, seen.cachedTokens, 0);
  };
}

function usageOf(prompt: number, read: number, write: number): NormalizedUsage {
  return { shape: 'none', contextTokens: prompt, cachedTokens: read, cacheWriteTokens: write, completionTokens: 0, totalTokens: prompt };
}

export function runPauseRegime(regime: RegimeSpec = PAUSE_REGIME, seed = PAUSE_SEED): PauseRegimeResult {
  const sent = trimmedRequests(regime);
  const pauses = drawPauses(sent.length - 1, seed);
  let now = 0;
  const clock = (): number => now;
  const variants = VARIANTS.map((spec) => {
    const observe = cacheFor(spec, clock);
    const prices = pricesFor(PRICED_MODELS[spec.provider]) as ModelPrices;
    const usd = (usage: NormalizedUsage): number => requestCost({ usage, prices, longCacheWrites: spec.rule === CACHE_RULES.anthropic1h })?.usd ?? 0;
    const figures: PauseVariant = { id: spec.id, provider: spec.provider, label: spec.label, requestsUsd: 0, warmingUsd: 0, warmingRequests: 0, coldRequests: 0, meanHit: 0 };
    let start = 0;
    sent.forEach((request, i) => {
      if (i > 0) {
        const pause = pauses[i - 1];
        for (const at of spec.warm ? warmTimes(pause, spec.rule.lifetimeMs, BENCH_WARM_MAX) : []) {
          now = start + at;
          figures.warmingUsd += usd(observe(sent[i - 1]));
          figures.warmingRequests++;
        }
        start += pause;
      }
      now = start;
      const usage = observe(request);
      const hit = usage.contextTokens > 0 ? usage.cachedTokens / usage.contextTokens : 0;
      if (i > 0 && hit < 0.5) figures.coldRequests++;
      figures.meanHit += hit / sent.length;
      figures.requestsUsd += usd(usage);
    });
    return figures;
  });
  return { regime, pauses: pauseStats(pauses), variants, breakEven: breakEven(sent) };
}

/** What our trim sends on each request of the regime's session (the same on every route). */
function trimmedRequests(regime: RegimeSpec): Sent[] {
  const session = generateSession(regime, new PromptBlocks().sizer('json'), measureCharsPerToken(countTextTokens));
  const settings = benchSettings(regime);
  const limits = benchLimits(regime);
  const states = new ConversationStates();
  const memo = new SizeMemo();
  return Array.from({ length: regime.requests }, (_, i) => {
    const request = requestAt(session, i);
    const plan = planTrim(repairedHistory(request.messages, quiet), request.tools, { settings, limits, calibration: 1, memo, states, log: quiet });
    return { messages: plan.trim.messages, tools: plan.tools };
  });
}

function pauseStats(pauses: number[]) {
  const sorted = [...pauses].sort((a, b) => a - b);
  return { count: pauses.length, medianMs: sorted[Math.floor(sorted.length / 2)], longerThan5m: pauses.filter((p) => p > 5 * 60_000).length / pauses.length, longestMs: sorted[sorted.length - 1] };
}

/**
 * ttl "1h" adds (2 − 1.25) × input on every written token, every turn; it saves (1.25 − 0.1) × input on the whole
 * prefix once per pause between 5 minutes and an hour. So it pays above the share written ÷ prefix × 0.75 ÷ 1.15,
 * with this session's mean prompt and mean tokens written per turn (the growth, read with the 1-hour cache).
 */
function breakEven(sent: Sent[]): BreakEven {
  let now = 0;
  const long = VARIANTS.find((v) => v.id === 'anthropic-1h') as VariantSpec;
  const observe = cacheFor(long, () => now);
  let prompt = 0;
  let written = 0;
  for (const request of sent) {
    const usage = observe(request);
    prompt += usage.contextTokens;
    written += usage.cacheWriteTokens;
    now += 1;
  }
  const a5 = CACHE_RULES.anthropic5m;
  const longTtlShare = ((CACHE_RULES.anthropic1h.writeMultiplier - a5.writeMultiplier) * written) / ((a5.writeMultiplier - a5.readMultiplier) * prompt);
  const reach = a5.lifetimeMs + BENCH_WARM_MAX * (a5.lifetimeMs - WARM_LEAD_MS);
  return { warmAnthropicMs: warmBreakEvenMs(a5), warmOpenAiMs: warmBreakEvenMs(CACHE_RULES.openaiInMemory), warmReachMs: reach, longTtlShare };
}
