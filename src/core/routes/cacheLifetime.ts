/**
 * How long the provider is asked to keep the conversation's cached prefix, per route (docs/prompt-cache.md):
 * - Chat Completions and Responses, OpenAI-family models: `prompt_cache_retention: "24h"` (same price as the
 *   in-memory default, so on by default). A 400 naming the field drops it for that model (refusedParams.ts).
 * - Messages: every breakpoint's `cache_control` gets `ttl: "1h"` when asked (writes cost 2× input instead of
 *   1.25×, so off by default).
 * The choice depends only on the settings, the route and the model id, never on the history: every request of a
 * conversation carries the same fields, so the bytes before the cut stay the same.
 */
import type { BodyInput } from './route';
import { CACHE_RULES } from '../cost/cacheRules';
import { isRecord } from '../util/jsonFields';

export type OpenAiRetention = '24h' | 'default';
export type AnthropicTtl = '5m' | '1h';

/** What the settings ask for; route-neutral (each body builder takes the part its format has). */
export interface CacheLifetime {
  openaiRetention: OpenAiRetention;
  anthropicTtl: AnthropicTtl;
}

export const DEFAULT_CACHE_LIFETIME: CacheLifetime = { openaiRetention: '24h', anthropicTtl: '5m' };

/** OpenAI's own models (the id after any provider prefix): knowledge that only adds the field, never gates a request. */
export function isOpenAiFamily(modelId: string): boolean {
  return /^(gpt-|o\d|chatgpt-|codex-)/.test(modelId.toLowerCase().replace(/^.*\//, ''));
}

/** The `prompt_cache_retention` value for a Chat Completions or Responses body, or undefined for none. */
export function retentionField(input: Pick<BodyInput, 'modelId' | 'cacheLifetime'>): '24h' | undefined {
  return input.cacheLifetime?.openaiRetention === '24h' && isOpenAiFamily(input.modelId) ? '24h' : undefined;
}

/** The `cache_control` a Messages breakpoint carries. */
export function breakpointMarker(input: Pick<BodyInput, 'cacheLifetime'>): Record<string, string> {
  return input.cacheLifetime?.anthropicTtl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}

/** A Messages body whose breakpoints keep only `{"type":"ephemeral"}` (the model refused `ttl`): new objects, the input untouched. */
export function withoutTtl(body: Record<string, unknown>): Record<string, unknown> {
  const unmark = (block: unknown): unknown => {
    if (!isRecord(block) || !isRecord(block.cache_control) || !('ttl' in block.cache_control)) return block;
    const { ttl: _refused, ...marker } = block.cache_control;
    return { ...block, cache_control: marker };
  };
  const out: Record<string, unknown> = { ...body };
  if (Array.isArray(body.tools)) out.tools = body.tools.map(unmark);
  if (Array.isArray(body.system)) out.system = body.system.map(unmark);
  if (Array.isArray(body.messages)) out.messages = body.messages.map((m) => (isRecord(m) && Array.isArray(m.content) ? { ...m, content: m.content.map(unmark) } : m));
  return out;
}

/** The body marks a breakpoint with the 1-hour lifetime (its cache writes are priced at the 1-hour rate). */
export function longLivedWrites(body: Record<string, unknown>): boolean {
  const blocks: unknown[] = [];
  if (Array.isArray(body.tools)) blocks.push(...body.tools);
  if (Array.isArray(body.system)) blocks.push(...body.system);
  if (Array.isArray(body.messages)) for (const message of body.messages) if (isRecord(message) && Array.isArray(message.content)) blocks.push(...message.content);
  return blocks.some((block) => isRecord(block) && isRecord(block.cache_control) && block.cache_control.ttl === '1h');
}

/**
 * How long an OpenAI-style prefix lives unread (also Gemini's implicit cache, whose lifetime is not published: the
 * low end), ms; undefined with the 24-hour retention, which outlives any pause worth warming for.
 */
export function inMemoryPrefixMs(body: Record<string, unknown>): number | undefined {
  return body.prompt_cache_retention === '24h' ? undefined : CACHE_RULES.openaiInMemory.lifetimeMs;
}

/** Anthropic's breakpoints live 5 minutes, or an hour with `ttl: "1h"`. */
export function breakpointPrefixMs(body: Record<string, unknown>): number {
  return (longLivedWrites(body) ? CACHE_RULES.anthropic1h : CACHE_RULES.anthropic5m).lifetimeMs;
}
