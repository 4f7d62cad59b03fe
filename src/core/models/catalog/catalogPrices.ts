/**
 * OpenCode's list prices per model, as data: USD per million tokens, `[input, output, cache read, cache write]`
 * (a missing cache price is not charged apart: reads and writes then cost the input price, see core/cost/prices.ts).
 * `above`/`tier`: the prices of a request whose prompt is above that many tokens (the whole request, as
 * Anthropic, OpenAI and Google bill long contexts). Copied from models.dev (`providers/opencode/models/*.toml` and
 * `providers/opencode-go/models/*.toml`, `[cost]` and the first `[[cost.tiers]]`) at commit f3fc6922 (2026-07-02);
 * models listed after that date have no price here, so their cost is shown only when OpenCode reports it.
 * Kept apart from catalogData.ts so the model table can absorb it without a merge of every line.
 */
import type { Catalog } from '../../routes/select/routeTable';

/** `[input, output, cacheRead?, cacheWrite?]`, USD per million tokens. */
export type PriceTuple = readonly [number, number, number?, number?];

export interface PriceRow {
  base: PriceTuple;
  /** Prompt tokens above which `tier` applies to the whole request. */
  above?: number;
  tier?: PriceTuple;
}

type PriceRows = Readonly<Record<string, PriceRow>>;

export const PRICES_SOURCE = 'anomalyco/models.dev @f3fc6922 (2026-07-02)';

const ZEN: PriceRows = {
  'big-pickle': { base: [0,0,0,0] },
  'claude-3-5-haiku': { base: [0.8,4,0.08,1] },
  'claude-fable-5': { base: [10,50,1,12.5] },
  'claude-haiku-4-5': { base: [1,5,0.1,1.25] },
  'claude-opus-4-1': { base: [15,75,1.5,18.75] },
  'claude-opus-4-5': { base: [5,25,0.5,6.25] },
  'claude-opus-4-6': { base: [5,25,0.5,6.25] },
  'claude-opus-4-7': { base: [5,25,0.5,6.25] },
  'claude-opus-4-8': { base: [5,25,0.5,6.25] },
  'claude-sonnet-4-5': { base: [3,15,0.3,3.75], above: 200000, tier: [6,22.5,0.6,7.5] },
  'claude-sonnet-4-6': { base: [3,15,0.3,3.75] },
  'claude-sonnet-4': { base: [3,15,0.3,3.75], above: 200000, tier: [6,22.5,0.6,7.5] },
  'claude-sonnet-5': { base: [2,10,0.2,2.5] },
  'deepseek-v4-flash-free': { base: [0,0,0] },
  'deepseek-v4-flash': { base: [0.14,0.28,0.028] },
  'deepseek-v4-pro': { base: [1.74,3.84,0.145] },
  'gemini-3-flash': { base: [0.5,3,0.05] },
  'gemini-3-pro': { base: [2,12,0.2], above: 200000, tier: [4,18,0.4] },
  'gemini-3.1-pro': { base: [2,12,0.2], above: 200000, tier: [4,18,0.4] },
  'gemini-3.5-flash': { base: [1.5,9,0.15] },
  'glm-4.6': { base: [0.6,2.2,0.1] },
  'glm-4.7-free': { base: [0,0,0] },
  'glm-4.7': { base: [0.6,2.2,0.1] },
  'glm-5-free': { base: [0,0,0] },
  'glm-5.1': { base: [1.4,4.4,0.26] },
  'glm-5.2': { base: [1.4,4.4,0.26] },
  'glm-5': { base: [1,3.2,0.2] },
  'gpt-5-codex': { base: [1.07,8.5,0.107] },
  'gpt-5-nano': { base: [0.05,0.4,0.005] },
  'gpt-5.1-codex-max': { base: [1.25,10,0.125] },
  'gpt-5.1-codex-mini': { base: [0.25,2,0.025] },
  'gpt-5.1-codex': { base: [1.07,8.5,0.107] },
  'gpt-5.1': { base: [1.07,8.5,0.107] },
  'gpt-5.2-codex': { base: [1.75,14,0.175] },
  'gpt-5.2': { base: [1.75,14,0.175] },
  'gpt-5.3-codex-spark': { base: [1.75,14,0.175] },
  'gpt-5.3-codex': { base: [1.75,14,0.175] },
  'gpt-5.4-mini': { base: [0.75,4.5,0.075] },
  'gpt-5.4-nano': { base: [0.2,1.25,0.02] },
  'gpt-5.4-pro': { base: [30,180,30] },
  'gpt-5.4': { base: [2.5,15,0.25], above: 272000, tier: [5,22.5,0.5] },
  'gpt-5.5-pro': { base: [30,180,30] },
  'gpt-5.5': { base: [5,30,0.5], above: 272000, tier: [10,45,1] },
  'gpt-5': { base: [1.07,8.5,0.107] },
  'grok-build-0.1': { base: [1,2,0.2] },
  'grok-code': { base: [0,0,0,0] },
  'hy3-preview-free': { base: [0,0,0] },
  'kimi-k2-thinking': { base: [0.4,2.5,0.4] },
  'kimi-k2.5-free': { base: [0,0,0] },
  'kimi-k2.5': { base: [0.6,3,0.08] },
  'kimi-k2.6': { base: [0.95,4,0.16] },
  'kimi-k2.7-code': { base: [0.95,4,0.19] },
  'kimi-k2': { base: [0.4,2.5,0.4] },
  'ling-2.6-flash-free': { base: [0,0] },
  'mimo-v2-flash-free': { base: [0,0,0] },
  'mimo-v2-omni-free': { base: [0,0,0] },
  'mimo-v2-pro-free': { base: [0,0,0] },
  'mimo-v2.5-free': { base: [0,0,0] },
  'minimax-m2.1-free': { base: [0,0,0] },
  'minimax-m2.1': { base: [0.3,1.2,0.1] },
  'minimax-m2.5-free': { base: [0,0,0] },
  'minimax-m2.5': { base: [0.3,1.2,0.06] },
  'minimax-m2.7': { base: [0.3,1.2,0.06] },
  'minimax-m3-free': { base: [0,0,0] },
  'minimax-m3': { base: [0.3,1.2,0.06] },
  'nemotron-3-super-free': { base: [0,0,0] },
  'nemotron-3-ultra-free': { base: [0,0,0] },
  'north-mini-code-free': { base: [0,0] },
  'qwen3-coder': { base: [0.45,1.8] },
  'qwen3.5-plus': { base: [0.2,1.2,0.02,0.25] },
  'qwen3.6-plus-free': { base: [0,0,0] },
  'qwen3.6-plus': { base: [0.5,3,0.05,0.625] },
  'ring-2.6-1t-free': { base: [0,0] },
  'trinity-large-preview-free': { base: [0,0] },
};

const GO: PriceRows = {
  'deepseek-v4-flash': { base: [0.14,0.28,0.0028] },
  'deepseek-v4-pro': { base: [1.74,3.48,0.0145] },
  'glm-5.1': { base: [1.4,4.4,0.26] },
  'glm-5.2': { base: [1.4,4.4,0.26] },
  'glm-5': { base: [1,3.2,0.2] },
  'kimi-k2.5': { base: [0.6,3,0.1] },
  'kimi-k2.6': { base: [0.95,4,0.16] },
  'kimi-k2.7-code': { base: [0.95,4,0.19] },
  'mimo-v2-omni': { base: [0.4,2,0.08] },
  'mimo-v2-pro': { base: [1,3,0.2], above: 256000, tier: [2,6,0.4] },
  'mimo-v2.5-pro': { base: [1.74,3.48,0.0145] },
  'mimo-v2.5': { base: [0.14,0.28,0.0028] },
  'minimax-m2.5': { base: [0.3,1.2,0.03] },
  'minimax-m2.7': { base: [0.3,1.2,0.06] },
  'minimax-m3': { base: [0.3,1.2,0.06], above: 512000, tier: [0.6,2.4,0.12] },
  'qwen3.5-plus': { base: [0.2,1.2,0.02,0.25] },
  'qwen3.6-plus': { base: [0.5,3,0.05,0.625], above: 256000, tier: [2,6,0.2,2.5] },
  'qwen3.7-max': { base: [2.5,7.5,0.5,3.125] },
  'qwen3.7-plus': { base: [0.4,1.6,0.04,0.5], above: 256000, tier: [1.2,4.8,0.12,1.5] },
};

export const CATALOG_PRICES: Readonly<Record<Catalog, PriceRows>> = { zen: ZEN, go: GO };
