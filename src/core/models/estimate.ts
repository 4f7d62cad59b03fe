/**
 * An estimate for a model id the data does not list yet (OpenCode adds models weekly; the bundled data is older and
 * the live fetch may be blocked, off or not arrived): the card of the newest model of the same family and variant
 * on that endpoint. An id is read as a family word, version tokens and variant words — `gpt-5.4-mini` is family
 * `gpt`, variant `mini`; `claude-opus-4-7` is `claude`, `opus`; `qwen3.6-plus` is `qwen`, `plus` — and the same
 * reading of the data's ids gives the candidates: the same family; of them the ones sharing most of the id's variant
 * words (a word no model of the family has, like a code name, says nothing), then the fewest other words, then the
 * newest (release date, then version). Only what limits and shapes a request is taken over (window, input limit,
 * max output, reasoning and its effort levels, temperature quirk), never prices, free tier or status. Pure; the
 * reading of each data set is kept per data object.
 */
import type { ModelCard, ModelData } from './modelData';
import { bareId } from './modelTable';
import type { EndpointCatalog } from '../routeId';

export interface IdReading {
  /** The family word: the id's first token without its digits (`qwen3.6` → `qwen`); empty when it has none. */
  family: string;
  /** Its other words, versions left out (`mini`, `codex`, `flash`, `free`…), sorted, each once. */
  variant: string[];
  /** The numbers of its version tokens, in order (`5.4` → [5, 4]; `k2.6` → [2, 6]). */
  version: number[];
}

export interface Estimate {
  /** The card standing in: only what limits and shapes a request. */
  card: ModelCard;
  /** The id whose card it is. */
  from: string;
  source: 'live' | 'snapshot';
  date: string;
}

/** A token that is a version or a size (5, 5.4, v4, k2.6, m2.5, 4o, 30b, 1t, 2025), not a word. */
const VERSION_TOKEN = /^[a-z]?\d+(?:\.\d+)*[a-z]?$/;

export function readId(modelId: string): IdReading {
  const [first = '', ...rest] = bareId(modelId).split(/[-_:]+/).filter(Boolean);
  const family = /^[a-z]+/.exec(first)?.[0] ?? '';
  const version: number[] = (first.slice(family.length).match(/\d+/g) ?? []).map(Number);
  const words = new Set<string>();
  for (const token of rest) {
    if (VERSION_TOKEN.test(token)) version.push(...(token.match(/\d+/g) ?? []).map(Number));
    else words.add(token);
  }
  return { family, variant: [...words].sort(), version };
}

interface Candidate {
  id: string;
  card: ModelCard;
  reading: IdReading;
  source: 'live' | 'snapshot';
  date: string;
}

/** Per data set and endpoint: its models by family word (live data and the snapshot are each read once). */
const readings = new WeakMap<ModelData, Partial<Record<EndpointCatalog, Map<string, Candidate[]>>>>();

function byFamily(data: ModelData, catalog: EndpointCatalog, source: 'live' | 'snapshot'): Map<string, Candidate[]> {
  const cached = readings.get(data) ?? {};
  let families = cached[catalog];
  if (!families) {
    families = new Map();
    for (const [id, card] of Object.entries(data[catalog])) {
      const reading = readId(id);
      if (!reading.family) continue;
      families.set(reading.family, [...(families.get(reading.family) ?? []), { id, card, reading, source, date: data.date }]);
    }
    cached[catalog] = families;
    readings.set(data, cached);
  }
  return families;
}

/**
 * The estimate for `modelId` on an endpoint from its data sets (live first: a model both list is live's), or
 * undefined when no model of its family is listed there. The caller asks only for ids no data lists.
 */
export function estimateFor(modelId: string, catalog: EndpointCatalog, sets: readonly { data: ModelData | undefined; source: 'live' | 'snapshot' }[]): Estimate | undefined {
  const wanted = readId(modelId);
  if (!wanted.family) return undefined;
  const candidates = new Map<string, Candidate>();
  for (const { data, source } of sets) {
    if (!data) continue;
    for (const candidate of byFamily(data, catalog, source).get(wanted.family) ?? []) if (!candidates.has(candidate.id)) candidates.set(candidate.id, candidate);
  }
  const self = bareId(modelId);
  const pool = [...candidates.values()].filter((c) => c.id !== self);
  if (pool.length === 0) return undefined;
  const known = new Set(pool.flatMap((c) => c.reading.variant));
  const words = wanted.variant.filter((word) => known.has(word));
  const best = pool.map((c) => ({ c, shared: c.reading.variant.filter((w) => words.includes(w)).length })).sort((a, b) => b.shared - a.shared || a.c.reading.variant.length - a.shared - (b.c.reading.variant.length - b.shared) || newerFirst(a.c, b.c))[0].c;
  return { card: standIn(best.card), from: best.id, source: best.source, date: best.date };
}

/** Newest first: release date, then version, then id (so the choice never depends on the data's order). */
function newerFirst(a: Candidate, b: Candidate): number {
  const released = (b.card.released ?? '').localeCompare(a.card.released ?? '');
  if (released !== 0) return released;
  const length = Math.max(a.reading.version.length, b.reading.version.length);
  for (let i = 0; i < length; i++) {
    const difference = (b.reading.version[i] ?? -1) - (a.reading.version[i] ?? -1);
    if (difference !== 0) return difference;
  }
  return a.id.localeCompare(b.id);
}

/** What of a sibling's card stands in for the new model: its limits and request shape, nothing it is billed or named by. */
function standIn(card: ModelCard): ModelCard {
  const { route, contextWindow, inputLimit, maxOutputTokens, reasoningControl, echoReasoningContent, noTemperature } = card;
  const out: ModelCard = { route };
  if (contextWindow !== undefined) out.contextWindow = contextWindow;
  if (inputLimit !== undefined) out.inputLimit = inputLimit;
  if (maxOutputTokens !== undefined) out.maxOutputTokens = maxOutputTokens;
  if (reasoningControl) out.reasoningControl = { ...reasoningControl, levels: [...reasoningControl.levels] };
  if (echoReasoningContent) out.echoReasoningContent = true;
  if (noTemperature) out.noTemperature = true;
  return out;
}
