/**
 * How a model reasons and which request field carries the level the user picks (docs/effort.md). Data types and
 * the table of controls; the rule that turns a level into request fields is routes/effort.ts.
 */
import type { RouteId } from '../routeId';

/** What VS Code's picker offers. `off`/`on` are a thinking toggle; the rest are effort levels. */
export type EffortLevel = 'off' | 'on' | 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';
export const EFFORT_LEVELS: readonly EffortLevel[] = ['off', 'on', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

/**
 * Which request field carries the level:
 * - `reasoning_effort` — chat: `reasoning_effort`; `off`/`on` → `thinking: {type}` (DeepSeek, GLM);
 * - `thinking-toggle` — chat: `thinking: {type: enabled|disabled}` (Kimi, GLM); messages: `adaptive` / `disabled`;
 * - `responses-effort` — responses: `reasoning.effort`;
 * - `anthropic-budget` — messages: `thinking: {type: enabled, budget_tokens}` (older Claude, Qwen);
 * - `anthropic-adaptive` — messages: `thinking: {type: adaptive}` + `output_config.effort` (Claude ≥ 4.6);
 * - `gemini-level` / `gemini-budget` — gemini: `thinkingConfig.thinkingLevel` / `.thinkingBudget`.
 */
export type EffortField = 'reasoning_effort' | 'thinking-toggle' | 'responses-effort' | 'anthropic-budget' | 'anthropic-adaptive' | 'gemini-level' | 'gemini-budget';

export interface ReasoningControl {
  control: EffortField;
  /** The levels the picker offers (besides "default", which sends nothing). Empty: reasons, no published control. */
  levels: EffortLevel[];
  /** Budget controls: the largest budget the model takes. */
  maxBudget?: number;
}

/** The levels each control can express, and the routes it exists on. */
export const CONTROLS: Readonly<Record<EffortField, { routes: readonly RouteId[]; levels: readonly EffortLevel[] }>> = {
  reasoning_effort: { routes: ['chat'], levels: ['off', 'on', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] },
  'thinking-toggle': { routes: ['chat', 'messages'], levels: ['off', 'on'] },
  'responses-effort': { routes: ['responses'], levels: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] },
  'anthropic-budget': { routes: ['messages'], levels: ['off', 'low', 'medium', 'high', 'max'] },
  'anthropic-adaptive': { routes: ['messages'], levels: ['low', 'medium', 'high', 'xhigh', 'max'] },
  'gemini-level': { routes: ['gemini'], levels: ['minimal', 'low', 'medium', 'high'] },
  'gemini-budget': { routes: ['gemini'], levels: ['off', 'low', 'medium', 'high', 'max'] },
};

/** What the rule reads of a model: its route and, on that route, its reasoning control (modelTable.cardOn). */
export interface EffortSubject {
  id: string;
  route: RouteId;
  reasoningControl?: ReasoningControl;
  maxOutputTokens?: number;
}
