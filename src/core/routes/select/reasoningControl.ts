/**
 * How a model reasons and which request field carries the level the user picks (docs/effort.md): the controls, the
 * routes each exists on and the levels it can carry, and the control a model's models.dev `reasoning_options` map
 * to on its route (models/fromModelsDev.ts converts the rest of the card). The rule that turns a level into request
 * fields is routes/effort.ts.
 */
import type { RouteId } from '../../routeId';
import { clampedTokenLimit } from '../../util/tokenLimit';
import { isRecord } from '../../util/jsonFields';

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

/**
 * `reasoning_options` → the control our route speaks and the levels to offer. `effort` values are levels as such;
 * `toggle` adds off/on (or just off beside effort levels); `budget_tokens` is a budget control. Levels a control
 * cannot express are dropped, so a card never offers what the request cannot carry.
 */
export function reasoningControlOf(route: RouteId, options: unknown): ReasoningControl {
  const list = Array.isArray(options) ? options.filter(isRecord) : [];
  const effort = list.find((o) => o.type === 'effort');
  const values = Array.isArray(effort?.values) ? effort.values.filter((v): v is EffortLevel => EFFORT_LEVELS.includes(v as EffortLevel)) : [];
  const toggle = list.some((o) => o.type === 'toggle');
  const budget = list.find((o) => o.type === 'budget_tokens');
  const max: unknown = budget?.max;
  const maxBudget = typeof max === 'number' && Number.isInteger(max) && max > 0 ? clampedTokenLimit(max) : undefined;
  const pick = (control: EffortField, levels: EffortLevel[], withBudget = false): ReasoningControl => {
    const allowed = CONTROLS[control].levels;
    const out: ReasoningControl = { control, levels: [...new Set(levels)].filter((l) => allowed.includes(l)) };
    if (withBudget && maxBudget !== undefined) out.maxBudget = maxBudget;
    return out;
  };
  switch (route) {
    case 'responses':
      return pick('responses-effort', values);
    case 'gemini':
      return values.length || !budget ? pick('gemini-level', values) : pick('gemini-budget', ['off', 'low', 'medium', 'high', 'max'], true);
    case 'messages':
      if (values.length) return pick('anthropic-adaptive', values);
      if (budget) return pick('anthropic-budget', ['off', 'low', 'medium', 'high'], true);
      return pick('thinking-toggle', toggle ? ['off', 'on'] : []);
    case 'chat':
      if (values.length) return pick('reasoning_effort', toggle ? ['off', ...values] : values);
      return toggle ? pick('thinking-toggle', ['off', 'on']) : pick('reasoning_effort', []);
  }
}
