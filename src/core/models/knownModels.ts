/**
 * Limits of models OpenCode Go / Zen serve, for endpoints whose /models entries carry no limits. The model
 * catalogue (catalog/catalogData.ts, with the gateway's output caps) is asked first, the endpoint's catalogue
 * before the other; the older table below fills what it does not know. An endpoint's own fields always win,
 * and a limit learned from a context-length error wins over both. The table matches by exact id, then by the
 * longest known id that the served id starts with (so `kimi-k2-0905` finds `kimi-k2`).
 */
import type { Catalog } from '../routes/select/routeTable';
import type { ModelEntry, ModelLimits } from '../types';
import { catalogLimits } from './catalog/catalog';
import { CATALOG } from './catalog/catalogData';

export interface KnownModel extends ModelLimits {
  contextWindow: number;
  maxOutputTokens: number;
  imageInput?: boolean;
}

export const KNOWN_MODELS: Readonly<Record<string, KnownModel>> = {
  'deepseek-v4.1-flash': { contextWindow: 1_000_000, maxOutputTokens: 384_000 },
  'deepseek-v3.2': { contextWindow: 128_000, maxOutputTokens: 32_000 },
  'kimi-k2': { contextWindow: 262_144, maxOutputTokens: 32_768 },
  'glm-4.6': { contextWindow: 204_800, maxOutputTokens: 131_072 },
  'glm-4.5': { contextWindow: 131_072, maxOutputTokens: 98_304 },
  'qwen3-coder': { contextWindow: 262_144, maxOutputTokens: 65_536 },
  'minimax-m2': { contextWindow: 204_800, maxOutputTokens: 131_072 },
  'grok-code': { contextWindow: 256_000, maxOutputTokens: 32_000 },
  'claude-sonnet-4-5': { contextWindow: 200_000, maxOutputTokens: 64_000, imageInput: true },
  'claude-haiku-4-5': { contextWindow: 200_000, maxOutputTokens: 64_000, imageInput: true },
  'gpt-5': { contextWindow: 400_000, maxOutputTokens: 128_000, imageInput: true },
  'gemini-2.5-pro': { contextWindow: 1_048_576, maxOutputTokens: 65_536, imageInput: true },
};

export type KnownLimits = Partial<KnownModel>;

/** The catalogue's figures over the table's, field by field; undefined when neither knows the id. */
export function lookupKnownModel(id: string, catalog: Catalog = 'zen'): KnownLimits | undefined {
  const other: Catalog = catalog === 'go' ? 'zen' : 'go';
  const listed = catalogLimits(catalog, id) ?? catalogLimits(other, id);
  const table = lookupTable(id);
  if (!listed) return table;
  return {
    contextWindow: listed.contextWindow ?? table?.contextWindow,
    maxOutputTokens: listed.maxOutputTokens ?? table?.maxOutputTokens,
    imageInput: listed.imageInput ?? table?.imageInput,
  };
}

function lookupTable(id: string): KnownModel | undefined {
  const key = id.toLowerCase().replace(/^.*\//, '');
  if (KNOWN_MODELS[key]) return KNOWN_MODELS[key];
  let best: string | undefined;
  for (const known of Object.keys(KNOWN_MODELS)) {
    if (key.startsWith(known) && (!best || known.length > best.length)) best = known;
  }
  return best ? KNOWN_MODELS[best] : undefined;
}

/**
 * Shown in the picker before a key is set: the user can pick a model at once, and the first request
 * answers with the clear "set an API key" message instead of an empty picker with no hint.
 */
export function bundledModelEntries(catalog: Catalog = 'zen'): ModelEntry[] {
  return CATALOG[catalog]
    .map((entry) => {
      const known = lookupKnownModel(entry.id, catalog);
      return {
        id: entry.id,
        name: entry.id,
        contextWindow: known?.contextWindow,
        maxOutputTokens: known?.maxOutputTokens,
        toolCalling: true,
        imageInput: known?.imageInput ?? false,
        limitSource: known?.contextWindow ? ('bundled' as const) : ('unknown' as const),
      };
    })
    .sort((a, b) => a.id.localeCompare(b.id));
}
