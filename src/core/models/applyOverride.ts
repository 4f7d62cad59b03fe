/**
 * `opencode.models["<id>"]` applied to a listed model: each field the user set wins over the catalogue and the
 * endpoint's /models answer (a limit the endpoint enforced still wins later, in ChatEngine.limitsFor). Pure.
 */
import type { ModelOverride } from '../routes/select/modelOverrides';
import type { ModelEntry } from '../types';

export function withOverride(entry: ModelEntry, override: ModelOverride | undefined): ModelEntry {
  if (!override) return entry;
  const { contextWindow, maxOutputTokens, imageInput } = override;
  if (contextWindow === undefined && maxOutputTokens === undefined && imageInput === undefined) return entry;
  return {
    ...entry,
    contextWindow: contextWindow ?? entry.contextWindow,
    maxOutputTokens: maxOutputTokens ?? entry.maxOutputTokens,
    imageInput: imageInput ?? entry.imageInput,
    limitSource: contextWindow !== undefined ? 'setting' : entry.limitSource,
  };
}
