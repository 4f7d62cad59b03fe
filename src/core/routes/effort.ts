/**
 * The thinking level a user chose → the request fields that carry it, per route and family (docs/effort.md).
 * Pure: the result is a patch that `mergeEffort` folds into a route's body (objects merged one key at a time,
 * so `reasoning.summary` or `generationConfig.maxOutputTokens` stay). "default" sends nothing; a level the
 * model does not offer returns undefined (the caller drops it and logs why).
 */
import { type EffortLevel, type EffortSubject } from './select/reasoningControl';
import { isRecord } from '../util/jsonFields';

export type EffortChoice = EffortLevel | 'default';
type Patch = Record<string, unknown>;

/** Anthropic thinking budgets per level (≥ 1,024, always below max_tokens). */
const ANTHROPIC_BUDGET: Partial<Record<EffortLevel, number>> = { low: 4_096, medium: 16_384, high: 32_768, max: 65_536 };
/** Gemini 2.5-style budgets (0 = off). */
const GEMINI_BUDGET: Partial<Record<EffortLevel, number>> = { off: 0, low: 1_024, medium: 8_192, high: 24_576, max: 32_768 };
const MIN_ANTHROPIC_BUDGET = 1_024;

export interface EffortContext {
  /** The request's max_tokens (Messages): a budget must stay below it. */
  maxTokens?: number;
}

export function effortFields(entry: EffortSubject, choice: EffortChoice, context: EffortContext = {}): Patch | undefined {
  if (choice === 'default') return {};
  const reasoningControl = entry.reasoningControl;
  if (!reasoningControl || !reasoningControl.levels.includes(choice)) return undefined;
  switch (reasoningControl.control) {
    case 'reasoning_effort':
      return choice === 'off' || choice === 'on' ? { thinking: { type: choice === 'off' ? 'disabled' : 'enabled' } } : { reasoning_effort: choice };
    case 'thinking-toggle':
      if (entry.route === 'messages') return { thinking: { type: choice === 'off' ? 'disabled' : 'adaptive' } };
      return { thinking: { type: choice === 'off' ? 'disabled' : 'enabled' } };
    case 'responses-effort':
      return { reasoning: { effort: choice } };
    case 'anthropic-adaptive':
      return { thinking: { type: 'adaptive' }, output_config: { effort: choice } };
    case 'anthropic-budget':
      return choice === 'off' ? { thinking: { type: 'disabled' } } : anthropicBudget(choice, reasoningControl.maxBudget, context, entry.maxOutputTokens);
    case 'gemini-level':
      return { generationConfig: { thinkingConfig: { thinkingLevel: choice.toUpperCase() } } };
    case 'gemini-budget':
      return { generationConfig: { thinkingConfig: { thinkingBudget: Math.min(GEMINI_BUDGET[choice] ?? 0, reasoningControl.maxBudget ?? Infinity) } } };
  }
}

function anthropicBudget(level: EffortLevel, maxBudget: number | undefined, context: EffortContext, modelMax: number | undefined): Patch | undefined {
  const ceiling = Math.min(maxBudget ?? Infinity, (context.maxTokens ?? modelMax ?? Infinity) - 1);
  const budget = Math.min(ANTHROPIC_BUDGET[level] ?? MIN_ANTHROPIC_BUDGET, ceiling);
  // Anthropic refuses budgets under 1,024: with max_tokens that small, thinking cannot be asked for.
  return budget >= MIN_ANTHROPIC_BUDGET ? { thinking: { type: 'enabled', budget_tokens: budget } } : undefined;
}

/** The body with the patch folded in: nested objects merged key by key, everything else replaced. */
export function mergeEffort(body: Record<string, unknown>, patch: Patch): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const [key, value] of Object.entries(patch)) out[key] = isRecord(value) && isRecord(out[key]) ? mergeEffort(out[key] as Patch, value) : value;
  return out;
}
