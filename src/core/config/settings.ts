/**
 * Every `opencode.*` setting, read through one pure function so it runs without VS Code. A value that is
 * not usable (wrong type, NaN, out of range) never throws: it is replaced by the default or clamped, and
 * a warning names the setting and the value actually used.
 */

import { validateModelOverrides, type ModelOverride } from '../models/modelOverrides';
import { parsedHttpUrl, urlProblem } from './endpointUrl';
import { defaultEndpoint, resolveEndpoints, type EndpointConfig, catalogOf } from './endpoints';
import { resolveEditorSettings, type EditorSettings } from './editorSettings';
import { type AnthropicTtl, type CacheLifetime, type OpenAiRetention } from '../routes/requestParts';
import { type EndpointCatalog } from '../routeId';

export const PRESET_URLS = {
  go: 'https://opencode.ai/zen/go/v1',
  zen: 'https://opencode.ai/zen/v1',
} as const;
export type Preset = keyof typeof PRESET_URLS;

export interface HistoryTrimSettings {
  enabled: boolean;
  headroomRatio: number;
  headroomMinTokens: number;
  headroomMaxTokens: number;
  cutStepTokens: number;
  /** Newest rounds of the current turn that are never dropped (default 2; docs/history-trim.md). */
  keepRecentRounds?: number;
  /** Prune old tool results at cut moves (core/trim/pruneResults.ts); absent (tests' literal settings): off. */
  pruneToolResults?: boolean;
  /** The newest tool output (API tokens) pruning never touches (DEFAULT_PRUNE_PROTECT_TOKENS when absent). */
  pruneProtectTokens?: number;
}

/** What the trim reads of `opencode.historyTrim.pruneToolResults` and `pruneProtectTokens` (trim/pruneResults.ts pruneSettingsOf). */
export interface PruneSettings {
  enabled: boolean;
  /** The newest tool output (API tokens) never pruned, except a file read a newer read of the same file supersedes. */
  protectTokens: number;
}

export const DEFAULT_PRUNE_PROTECT_TOKENS = 40_000;

/** Whether pruning is on when the setting is not set (docs/history-trim.md, "Pruning in epochs": the decision). */
export const PRUNE_BY_DEFAULT = true;

/** `opencode.promptCache.*` (docs/prompt-cache.md). */
export interface PromptCacheSettings extends CacheLifetime {
  warming: {
    enabled: boolean;
    /** Warming requests per idle pause, at most. */
    maxRequests: number;
  };
}

export interface Settings {
  /** The default endpoint's URL (opencode.preset / opencode.baseUrl); an engine's settings carry its own endpoint's. */
  baseUrl: string;
  /** Every endpoint the picker lists, the default first (endpoints.ts); absent in tests' literal settings: the default alone. */
  endpoints?: readonly EndpointConfig[];
  /** Whose model data applies to the endpoint (opencode.endpointCatalog; "auto" resolved from the URL). */
  catalog?: EndpointCatalog;
  /** Fetch models.dev's data once a day in the background (opencode.liveModelData). */
  liveModelData?: boolean;
  /** List OpenCode's free-tier models in the picker (opencode.showFreeModels). */
  showFreeModels?: boolean;
  reservedOutputTokens: number;
  /** opencode.maxInputTokens (the budget override): > 0 replaces the budget; 0 = derive it from the window. */
  budgetOverrideTokens: number;
  /** 0 = derive from the token budget. */
  maxRequestBytes: number;
  historyTrim: HistoryTrimSettings;
  contextLimitFallback: number;
  reportedInputLimit: 'budget' | 'window';
  streamIdleTimeoutSeconds: number;
  maxRetries: number;
  recordRequests: boolean;
  /** Per-model overrides (`opencode.models`): route, limits, image input, thinking effort (modelOverrides.ts). */
  models?: Readonly<Record<string, ModelOverride>>;
  /** Inline suggestions and commit messages (editorSettings.ts). */
  editor?: EditorSettings;
  /**
   * `opencode.imageDescription.model`: the model that describes images for a model without image input; '' (or
   * absent) = a vision model of the same endpoint, `none` = never (the note stays). models/modelTable.ts describingModel.
   */
  imageDescriptionModel?: string;
  /** Cache lifetimes and warming; absent (tests' literal settings) means the defaults. */
  promptCache?: PromptCacheSettings;
}

export type ReadSetting = (key: string) => unknown;
export type Warn = (message: string) => void;

export function resolveSettings(read: ReadSetting, warn: Warn): Settings {
  const num = (key: string, fallback: number, min: number, max: number, integer = true): number =>
    readNumber(read, warn, key, fallback, min, max, integer);
  const headroomMinTokens = num('historyTrim.headroomMinTokens', 8_192, 0, 1_000_000);
  let headroomMaxTokens = num('historyTrim.headroomMaxTokens', 32_768, 0, 1_000_000);
  if (headroomMaxTokens < headroomMinTokens) {
    warn(`opencode.historyTrim.headroomMaxTokens (${headroomMaxTokens}) is below headroomMinTokens; using ${headroomMinTokens}.`);
    headroomMaxTokens = headroomMinTokens;
  }
  const baseUrl = resolveBaseUrl(read, warn);
  const catalogSetting = readChoice(read, warn, 'endpointCatalog', ['auto', 'zen', 'go', 'none'], 'auto');
  const catalog = catalogSetting === 'auto' ? catalogOf(baseUrl) : catalogSetting === 'none' ? undefined : catalogSetting;
  return {
    baseUrl,
    catalog,
    endpoints: resolveEndpoints(read('endpoints'), defaultEndpoint(baseUrl, catalog), warn),
    liveModelData: readBoolean(read, warn, 'liveModelData', true),
    showFreeModels: readBoolean(read, warn, 'showFreeModels', false),
    reservedOutputTokens: num('reservedOutputTokens', 20_000, 0, 1_000_000),
    budgetOverrideTokens: num('maxInputTokens', 0, 0, 100_000_000),
    maxRequestBytes: num('maxRequestBytes', 0, 0, 1_000_000_000),
    historyTrim: {
      enabled: readBoolean(read, warn, 'historyTrim.enabled', true),
      headroomRatio: num('historyTrim.headroomRatio', 0.03, 0, 0.5, false),
      headroomMinTokens,
      headroomMaxTokens,
      cutStepTokens: num('historyTrim.cutStepTokens', 32_768, 0, 1_000_000),
      keepRecentRounds: num('historyTrim.keepRecentRounds', 2, 1, 1_000),
      pruneToolResults: readBoolean(read, warn, 'historyTrim.pruneToolResults', PRUNE_BY_DEFAULT),
      pruneProtectTokens: num('historyTrim.pruneProtectTokens', DEFAULT_PRUNE_PROTECT_TOKENS, 0, 10_000_000),
    },
    contextLimitFallback: num('contextLimitFallback', 128_000, 0, 100_000_000),
    reportedInputLimit: readChoice(read, warn, 'reportedInputLimit', ['budget', 'window'], 'budget'),
    streamIdleTimeoutSeconds: num('streamIdleTimeoutSeconds', 120, 5, 3_600),
    maxRetries: num('maxRetries', 3, 0, 10),
    recordRequests: readBoolean(read, warn, 'recordRequests', false),
    models: readModelOverrides(read, warn),
    editor: resolveEditorSettings(read, warn),
    imageDescriptionModel: readText(read, warn, 'imageDescription.model', ''),
    promptCache: {
      openaiRetention: readChoice<OpenAiRetention>(read, warn, 'promptCache.openaiRetention', ['24h', 'default'], '24h'),
      anthropicTtl: readChoice<AnthropicTtl>(read, warn, 'promptCache.anthropicTtl', ['5m', '1h'], '5m'),
      warming: {
        enabled: readBoolean(read, warn, 'promptCache.warming.enabled', false),
        maxRequests: num('promptCache.warming.maxRequests', 3, 1, 20),
      },
    },
  };
}

/** Valid entries kept; each ignored value explained in one warning (modelOverrides.ts). */
function readModelOverrides(read: ReadSetting, warn: Warn): Record<string, ModelOverride> {
  const { byModel, problems } = validateModelOverrides(read('models'));
  for (const problem of problems) warn(problem);
  return Object.fromEntries(byModel);
}

/** opencode.baseUrl, or the preset's URL when it is empty or unusable (endpointUrl.ts says why, redacted). */
function resolveBaseUrl(read: ReadSetting, warn: Warn): string {
  const preset = readChoice(read, warn, 'preset', Object.keys(PRESET_URLS) as Preset[], 'go');
  const raw = read('baseUrl');
  if (raw === undefined || raw === null || raw === '') return PRESET_URLS[preset];
  const problem = urlProblem(raw);
  if (!problem) return parsedHttpUrl(raw as string) as string;
  warn(`opencode.baseUrl ${problem}; using the ${preset} preset ${PRESET_URLS[preset]}.`);
  return PRESET_URLS[preset];
}

export function readNumber(read: ReadSetting, warn: Warn, key: string, fallback: number, min: number, max: number, integer: boolean): number {
  const raw = read(key);
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw !== 'number' || !Number.isFinite(raw)) {
    // String(), not JSON.stringify: NaN and Infinity must read as themselves, not as "null".
    warn(`opencode.${key} ${typeof raw === 'number' ? String(raw) : JSON.stringify(raw)} is not a number; using ${fallback}.`);
    return fallback;
  }
  let value = integer ? Math.round(raw) : raw;
  if (value < min || value > max) {
    value = Math.min(max, Math.max(min, value));
    warn(`opencode.${key} ${raw} is outside ${min}…${max}; using ${value}.`);
  }
  return value;
}

export function readBoolean(read: ReadSetting, warn: Warn, key: string, fallback: boolean): boolean {
  const raw = read(key);
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw === 'boolean') return raw;
  warn(`opencode.${key} ${JSON.stringify(raw)} is not true or false; using ${fallback}.`);
  return fallback;
}

/** A free-form string, trimmed. */
export function readText(read: ReadSetting, warn: Warn, key: string, fallback: string): string {
  const raw = read(key);
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw === 'string') return raw.trim();
  warn(`opencode.${key} ${JSON.stringify(raw)} is not a string; using ${JSON.stringify(fallback)}.`);
  return fallback;
}

function readChoice<T extends string>(read: ReadSetting, warn: Warn, key: string, choices: readonly T[], fallback: T): T {
  const raw = read(key);
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw === 'string' && (choices as readonly string[]).includes(raw)) return raw as T;
  warn(`opencode.${key} ${JSON.stringify(raw)} is not one of ${choices.join(', ')}; using ${fallback}.`);
  return fallback;
}
