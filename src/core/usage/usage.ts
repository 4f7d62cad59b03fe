/**
 * Usage, route-neutral: what a route's reading of its usage object yields (each route reads its own format: its
 * folder's usage conversion), the one finishing rule every reading goes through, the merge of usage frames, and the
 * two ways usage leaves the extension (the `[usage]` log line users grep for, and the payload of the final `usage`
 * data part that VS Code chat reads for its context indicator and its compaction trigger).
 *
 * Counts may arrive as numbers or numeric strings. A record that contradicts itself (cache reads above the whole
 * prompt) is never clamped into looking consistent: it is read the way that makes it consistent and the reading says
 * so (`anomaly`), for one WARN line.
 */
import { costField, type RequestCost } from '../cost/requestCost';
import type { NormalizedUsage, UsageShape } from '../types';
import { isRecord } from '../util/jsonFields';

export type RawUsage = Record<string, unknown>;

/** A route's reading of one usage object, before the finishing rule (usageReading). */
export interface UsageParts {
  shape: Exclude<UsageShape, 'none'>;
  contextTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  completionTokens: number;
  /** The provider's own total, 0 when it sent none. */
  reportedTotal: number;
  /** The record contradicted its shape's usual reading. */
  anomaly?: string;
}

export interface UsageReading {
  usage: NormalizedUsage;
  /** Set when the record contradicted itself; says what it claimed and how it was read. */
  anomaly?: string;
}

/**
 * A route's usage conversion (its folder's): the usage object (merged frames) read as a NormalizedUsage, or undefined
 * when it is not a usage object at all (an empty `usage: {}` included). The usage event names it (wireEvent.ts).
 */
export type UsageRead = (raw: RawUsage) => UsageReading | undefined;

/** A token count from an untrusted value: a number or a numeric string; anything else, NaN, infinities and negatives count as 0. */
function tokenCount(value: unknown): number {
  const number = typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number > 0 ? Math.round(number) : 0;
}

/** Any of the fields is present (not null). */
export function hasUsageField(raw: RawUsage, ...keys: string[]): boolean {
  return keys.some((key) => raw[key] !== undefined && raw[key] !== null);
}

export function countField(raw: RawUsage, key: string): number {
  return tokenCount(raw[key]);
}

export function nestedCount(raw: RawUsage, outer: string, inner: string): number {
  const nested = raw[outer];
  return isRecord(nested) ? tokenCount(nested[inner]) : 0;
}

/** The finishing rule of every reading: cache reads above the prompt, and the total. */
export function usageReading(parts: UsageParts): UsageReading {
  const { shape, cachedTokens, completionTokens } = parts;
  let contextTokens = parts.contextTokens;
  let anomaly = parts.anomaly;
  if (cachedTokens > contextTokens) {
    // Cache reads are part of the prompt; more reads than prompt means the prompt count left them out.
    anomaly = `${shape}-shaped usage reports more cache reads (${cachedTokens}) than prompt tokens (${contextTokens}); ` +
      `reading the prompt as excluding them: context = ${contextTokens + cachedTokens}`;
    contextTokens += cachedTokens;
  }
  const computedTotal = contextTokens + completionTokens;
  const usage: NormalizedUsage = {
    shape,
    contextTokens,
    cachedTokens,
    cacheWriteTokens: parts.cacheWriteTokens,
    completionTokens,
    totalTokens: anomaly ? Math.max(parts.reportedTotal, computedTotal) : parts.reportedTotal || computedTotal,
  };
  return anomaly ? { usage, anomaly } : { usage };
}

/**
 * Usage can arrive in several frames: Anthropic-style gateways send the prompt side first and a trailing frame
 * with only the output tokens; Gemini-style gateways repeat cumulative usageMetadata on every chunk. Each new
 * frame updates the fields it carries and keeps the others, so a trailing `{output_tokens}` never resets the
 * context to 0. Pure, on the raw objects (the route's reading runs on the merged record).
 */
export function mergeUsage(earlier: RawUsage | undefined, next: RawUsage): RawUsage {
  const merged: RawUsage = { ...earlier };
  for (const [key, value] of Object.entries(next)) {
    // A null or absent field says nothing; a present one is the newest (cumulative) value.
    if (value !== null && value !== undefined) merged[key] = value;
  }
  return merged;
}

/** Share of the prompt served from cache, in percent: 0 for an empty prompt, never above 100. */
export function cacheHitPercent(u: NormalizedUsage): number {
  if (u.contextTokens <= 0) return 0;
  return Math.min(100, (Math.max(0, u.cachedTokens) / u.contextTokens) * 100);
}

/**
 * `[usage] prompt=P completion=C total=T cached=K cacheHit=X.X%[ cost=$D| cost≈$D][ purpose=U]`, prompt being all
 * context tokens; the cost is OpenCode's (`=`) or computed from the model's prices (`≈`), and absent when neither is
 * known; the purpose (core/request/purpose.ts) is named for every request that is not a conversation turn.
 */
export function formatUsageLine(u: NormalizedUsage, cost?: RequestCost, purpose?: string): string {
  return `[usage] prompt=${u.contextTokens} completion=${u.completionTokens} total=${u.totalTokens} ` +
    `cached=${u.cachedTokens} cacheHit=${cacheHitPercent(u).toFixed(1)}%${cost ? ` ${costField(cost)}` : ''}${purpose && purpose !== 'conversation' ? ` purpose=${purpose}` : ''}`;
}

/** What VS Code chat parses from a data part with mime type `usage` (OpenAI's field names). */
export interface UsageDataPartPayload {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

export function usageDataPartPayload(u: NormalizedUsage): UsageDataPartPayload {
  return {
    // Context tokens, not Anthropic's bare input_tokens: chat compares this number with the window.
    prompt_tokens: u.contextTokens,
    completion_tokens: u.completionTokens,
    total_tokens: u.totalTokens,
    prompt_tokens_details: { cached_tokens: u.cachedTokens },
  };
}
