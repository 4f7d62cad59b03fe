/**
 * What VS Code is told about a model: its limits, and what it is (window, price per 1M tokens, thinking effort,
 * free or paid, preview), from the one model table's facts. By default maxInputTokens is the trim budget itself, so
 * chat's own compaction (at ~0.8–0.9 of it) runs before our trim and the two never fight; the setting
 * opencode.reportedInputLimit = "window" reports the window less the output instead (docs/budget.md). Either way
 * maxInputTokens + maxOutputTokens never exceed the window (VS Code shows their sum as the model's context). And the
 * `[picker]` line naming the models that offer a thinking effort (EffortOffersLog).
 */
import type * as vscode from 'vscode';
import type { Settings } from '../core/config/settings';
import type { Prices } from '../core/models/modelData';
import { MODEL_TABLE } from '../core/models/modelTable';
import { effortConfigurationSchema } from '../core/routes/effortPicker';
import { computeBudget } from '../core/trim/budget';
import type { ModelEntry, ModelLimits } from '../core/types';
import type { ListFailure } from '../core/models/listFailure';
import { type ModelFacts } from '../core/models/modelFacts';

/** Reported when a model's window is unknown and the fallback is off: a conservative, common size. */
const NOMINAL_UNKNOWN_WINDOW = 128_000;

/** VS Code ≥ 1.104 shows `configurationSchema` next to the model in the picker (not yet in @types/vscode). */
export type PickerModelInformation = vscode.LanguageModelChatInformation & { configurationSchema?: Record<string, unknown> };

/** The sizes VS Code is told: input + output never exceed the window. */
export function reportedSizes(limits: ModelLimits, settings: Settings): { maxInputTokens: number; maxOutputTokens: number; budget: number | undefined } {
  const budget = computeBudget(limits, settings);
  const window = budget.contextWindow ?? NOMINAL_UNKNOWN_WINDOW;
  const output = Math.max(1, Math.min(limits.maxOutputTokens ?? budget.reserve, Math.floor(window / 2)));
  const trimmed = Number.isFinite(budget.tokens) ? budget.tokens : undefined;
  // "window": the window less the output, but never above what the model takes as input.
  const whole = Math.min(window - output, budget.inputLimit ?? Infinity);
  const input = settings.reportedInputLimit === 'window' || trimmed === undefined ? whole : Math.min(trimmed, window - 1);
  return { maxInputTokens: input, maxOutputTokens: Math.max(1, Math.min(output, window - input)), budget: trimmed };
}

export function describeModel(
  model: ModelEntry,
  limits: ModelLimits,
  settings: Settings,
  facts: ModelFacts = MODEL_TABLE.lookup({ modelId: model.id, catalog: settings.catalog, listed: model }),
  /** What the picker calls the endpoint (its label in opencode.endpoints). */
  endpoint: string = endpointLabel(settings),
  /** The endpoint's last refresh failed: the model is listed from its last good list or the model data, marked. */
  unreachable?: ListFailure,
): PickerModelInformation {
  const sizes = reportedSizes(limits, settings);
  const traits = modelTraits(facts);
  return {
    id: model.id,
    name: facts.free ? `${model.name} (free)` : model.name,
    family: model.id,
    version: facts.dataDate ?? '1',
    // Unreachable: the mark takes the place of window and price (both in the tooltip), so the row is no longer than
    // usual and a narrow chat panel still shows the model's name.
    detail: (unreachable ? [endpoint, unreachable.mark] : [endpoint, ...traits.short]).join(' · '),
    tooltip: [
      `${model.id} on ${endpoint}`,
      ...(unreachable ? [`${endpoint} is not answering: ${unreachable.what}; this model is listed from its last good list or the model data. ${unreachable.todo}`] : []),
      windowSentence(limits, facts, sizes.budget),
      `Route ${facts.route} (${facts.routeSource})`,
      ...traits.long,
    ]
      .map(sentence)
      .join('\n'),
    maxInputTokens: sizes.maxInputTokens,
    maxOutputTokens: sizes.maxOutputTokens,
    capabilities: { toolCalling: model.toolCalling, imageInput: model.imageInput },
    ...thinkingOption(facts),
  };
}

/**
 * The window, where it came from, the input limit when smaller, and the trim budget: "Context window 400K tokens
 * (snapshot); input limit 272K (snapshot); trim budget 272K." An id no data lists says "estimated from M".
 */
function windowSentence(limits: ModelLimits, facts: ModelFacts, budget: number | undefined): string {
  const source = (from: string | undefined) => (from === 'estimate' ? `estimated from ${facts.estimatedFrom}` : from);
  const window = `Context window ${limits.contextWindow ? tokensLabel(limits.contextWindow) : 'unknown'} tokens (${source(facts.windowSource)})`;
  const input = limits.inputLimit ? `; input limit ${tokensLabel(limits.inputLimit)} (${source(facts.inputSource)})` : '';
  return `${window}${input}; trim budget ${budget ? tokensLabel(budget) : 'untrimmed'}`;
}

/** A tooltip line as a sentence: the model picker of VS Code 1.139 shows the tooltip as one paragraph (line breaks collapse). */
function sentence(line: string): string {
  return /[.!?]$/.test(line) ? line : `${line}.`;
}

export function endpointLabel(settings: Pick<Settings, 'catalog' | 'baseUrl'>): string {
  if (settings.catalog === 'zen') return 'OpenCode Zen';
  if (settings.catalog === 'go') return 'OpenCode Go';
  try {
    return new URL(settings.baseUrl).host;
  } catch {
    return 'custom endpoint';
  }
}

/** Short words for the picker's detail line (endpoint, window, price, free / preview / deprecated), and sentences for its tooltip. */
export function modelTraits(facts: ModelFacts): { short: string[]; long: string[] } {
  const short: string[] = [];
  const long: string[] = [];
  // An estimated window (no data lists the id) reads as approximate: "~1.05M".
  if (facts.contextWindow) short.push(`${facts.windowSource === 'estimate' ? '~' : ''}${tokensLabel(facts.contextWindow)}`);
  if (facts.free) {
    short.push('free');
    long.push('Free tier: OpenCode serves it only to the OpenCode app.');
  } else if (facts.prices) {
    short.push(priceLabel(facts.prices));
    long.push(`Price per 1M tokens: input $${facts.prices.input}, output $${facts.prices.output}${facts.prices.cacheRead !== undefined ? `, cache read $${facts.prices.cacheRead}` : ''}${facts.prices.cacheWrite !== undefined ? `, cache write $${facts.prices.cacheWrite}` : ''}.`);
  }
  const levels = facts.offeredControl?.levels ?? [];
  if (facts.reasons || facts.offeredControl) {
    const estimated = facts.estimatedFrom ? ` (estimated from ${facts.estimatedFrom})` : '';
    long.push(levels.length ? `Reasons; thinking effort: ${levels.join(', ')}${estimated} (Language Models editor).` : `Reasons${estimated || ' (no effort levels published)'}.`);
  }
  if (facts.status === 'preview') short.push('preview');
  if (facts.status === 'deprecated') short.push('deprecated');
  if (facts.dataDate) long.push(facts.estimatedFrom ? `Model data: none for this id; ${facts.estimatedFrom} from the ${facts.cardSource} of ${facts.dataDate} stands in.` : `Model data: ${facts.cardSource} of ${facts.dataDate}.`);
  return { short, long };
}

export function tokensLabel(tokens: number): string {
  if (tokens >= 1_000_000) return `${+(tokens / 1_000_000).toFixed(2)}M`;
  return tokens >= 1_000 ? `${Math.round(tokens / 1_000)}K` : String(tokens);
}

/** Input/output dollars per 1M tokens, short: the picker gives the detail the room the name does not take (a narrow chat cuts the name first). */
function priceLabel(prices: Prices): string {
  return `$${prices.input}/$${prices.output}`;
}

/** Models with effort levels on the route they take offer them in the picker (effortPicker.ts). */
function thinkingOption(facts: ModelFacts): { configurationSchema?: Record<string, unknown> } {
  const reasoningControl = facts.offeredControl;
  const schema = reasoningControl ? effortConfigurationSchema({ id: facts.id, route: facts.route, reasoningControl }) : undefined;
  return schema ? { configurationSchema: schema } : {};
}

/**
 * One INFO line naming the models whose picker entry offers a thinking-effort choice, written when that set
 * changes (not on every listing): users can check which models have it, and the real-VS-Code suite checks that
 * the provider handed VS Code a `configurationSchema`.
 */
export class EffortOffersLog {
  private last = '';

  constructor(private readonly log: Pick<vscode.LogOutputChannel, 'info'>) {}

  note(models: readonly PickerModelInformation[]): void {
    const offers = models.flatMap((model) => {
      const property = (model.configurationSchema?.properties as Record<string, { enum?: unknown[] }> | undefined)?.reasoningEffort;
      return property?.enum ? [`${model.id}(${property.enum.join('/')})`] : [];
    });
    const line = offers.join(', ');
    if (line === this.last) return;
    this.last = line;
    if (line) this.log.info(`[picker] thinking effort: ${line}`);
  }
}
