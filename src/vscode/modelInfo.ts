/**
 * What VS Code is told about a model. By default maxInputTokens is the trim budget itself, so chat's own
 * compaction (at ~0.8–0.9 of it) runs before our trim and the two never fight; the setting
 * opencode.reportedInputLimit = "window" reports the window instead (docs/budget.md).
 */
import type * as vscode from 'vscode';
import type { Settings } from '../core/config/settings';
import { entryFor } from '../core/request/sendBody';
import { effortConfigurationSchema } from '../core/routes/effortPicker';
import { computeBudget } from '../core/trim/budget';
import type { ModelEntry, ModelLimits } from '../core/types';

/** Reported when a model's window is unknown and the fallback is off: a conservative, common size. */
const NOMINAL_UNKNOWN_WINDOW = 128_000;

/** VS Code ≥ 1.104 shows `configurationSchema` next to the model in the picker (not yet in @types/vscode). */
export type PickerModelInformation = vscode.LanguageModelChatInformation & { configurationSchema?: Record<string, unknown> };

export function describeModel(model: ModelEntry, limits: ModelLimits, settings: Settings): PickerModelInformation {
  const budget = computeBudget(limits, settings);
  const contextWindow = budget.contextWindow ?? NOMINAL_UNKNOWN_WINDOW;
  const reportedInputLimit = settings.reportedInputLimit === 'window' || !Number.isFinite(budget.tokens) ? contextWindow : budget.tokens;
  return {
    id: model.id,
    name: model.name,
    family: model.id,
    version: '1',
    detail: 'OpenCode',
    tooltip: `${model.id} — window ${limits.contextWindow ?? 'unknown'} tokens (${model.limitSource}), budget ${Number.isFinite(budget.tokens) ? budget.tokens : 'untrimmed'}`,
    maxInputTokens: reportedInputLimit,
    maxOutputTokens: limits.maxOutputTokens ?? budget.reserve,
    capabilities: { toolCalling: model.toolCalling, imageInput: model.imageInput },
    ...thinkingOption(model.id, settings.baseUrl),
  };
}

/** The catalogue's reasoning models offer their effort levels in the picker (effortPicker.ts). */
function thinkingOption(modelId: string, baseUrl: string): { configurationSchema?: Record<string, unknown> } {
  const entry = entryFor(modelId, baseUrl);
  const schema = entry ? effortConfigurationSchema(entry) : undefined;
  return schema ? { configurationSchema: schema } : {};
}
