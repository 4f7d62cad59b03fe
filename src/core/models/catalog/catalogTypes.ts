/**
 * The shape of the bundled model catalogue (catalogData.ts): what OpenCode Go and Zen serve, per model, with
 * where each figure came from. Data only; the rules that read it live in catalog.ts and routes/effort.ts.
 */
import type { RouteId } from '../../routes/route';

/** What VS Code's picker offers. `off`/`on` are a thinking toggle; the rest are effort levels. */
export type EffortLevel = 'off' | 'on' | 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';
export const EFFORT_LEVELS: readonly EffortLevel[] = ['off', 'on', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

/**
 * Which request field carries the level (docs/effort.md):
 * - `reasoning_effort` — chat: `reasoning_effort`; `off`/`on` → `thinking: {type}` (DeepSeek, GLM);
 * - `thinking-toggle` — chat: `thinking: {type: enabled|disabled}` (Kimi, GLM); messages: `adaptive` / `disabled`;
 * - `responses-effort` — responses: `reasoning.effort`;
 * - `anthropic-budget` — messages: `thinking: {type: enabled, budget_tokens}` (older Claude, Qwen);
 * - `anthropic-adaptive` — messages: `thinking: {type: adaptive}` + `output_config.effort` (Claude ≥ 4.6);
 * - `gemini-level` / `gemini-budget` — gemini: `thinkingConfig.thinkingLevel` / `.thinkingBudget`.
 */
export type ReasoningControl = 'reasoning_effort' | 'thinking-toggle' | 'responses-effort' | 'anthropic-budget' | 'anthropic-adaptive' | 'gemini-level' | 'gemini-budget';

export interface CatalogReasoning {
  control: ReasoningControl;
  /** The levels the picker offers (besides "default", which sends nothing). Empty: reasons, no verified control. */
  levels: EffortLevel[];
  /** Budget controls: the largest budget the model takes. */
  maxBudget?: number;
}

export interface CatalogEntry {
  id: string;
  route: RouteId;
  contextWindow?: number;
  maxOutputTokens?: number;
  imageInput?: boolean;
  /** Present when the model reasons. */
  reasoning?: CatalogReasoning;
  /** Chat: the model's reasoning_content must be echoed on assistant turns (400 otherwise). */
  echoReasoningContent?: boolean;
  /** The model refuses `temperature`. */
  noTemperature?: boolean;
  /** The gateway refuses max output above this, below the model card's figure. */
  gatewayMaxOutput?: number;
  /** Source keys (see CATALOG.sources) and the date of the figures, e.g. "ZEN MD 2026-07-02". */
  source: string;
  note?: string;
}

export interface Catalogue {
  /** When this file was last checked against its sources. */
  updated: string;
  sources: Record<string, string>;
  zen: CatalogEntry[];
  go: CatalogEntry[];
}
