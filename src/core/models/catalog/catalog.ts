/**
 * Reading the bundled catalogue (catalogData.ts): an entry by catalogue and id, and the consistency rules every
 * entry must keep (checked by the tests, and usable at runtime to drop a bad entry with a reason).
 */
import { isRouteId, type RouteId } from '../../routes/route';
import type { Catalog } from '../../routes/select/routeTable';
import { CATALOG } from './catalogData';
import { EFFORT_LEVELS, type CatalogEntry, type EffortLevel, type ReasoningControl } from './catalogTypes';

/** The levels each control can express, and the routes it exists on. */
export const CONTROLS: Readonly<Record<ReasoningControl, { routes: readonly RouteId[]; levels: readonly EffortLevel[] }>> = {
  reasoning_effort: { routes: ['chat'], levels: ['off', 'on', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] },
  'thinking-toggle': { routes: ['chat', 'messages'], levels: ['off', 'on'] },
  'responses-effort': { routes: ['responses'], levels: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] },
  'anthropic-budget': { routes: ['messages'], levels: ['off', 'low', 'medium', 'high', 'max'] },
  'anthropic-adaptive': { routes: ['messages'], levels: ['low', 'medium', 'high', 'xhigh', 'max'] },
  'gemini-level': { routes: ['gemini'], levels: ['minimal', 'low', 'medium', 'high'] },
  'gemini-budget': { routes: ['gemini'], levels: ['off', 'low', 'medium', 'high', 'max'] },
};

export function catalogEntry(catalog: Catalog, modelId: string): CatalogEntry | undefined {
  const id = modelId.toLowerCase().replace(/^.*\//, '');
  return CATALOG[catalog].find((entry) => entry.id === id);
}

/** What the route table needs (phase B: `tableFamily` tries this before its prefix families). */
export function catalogRoute(catalog: Catalog, modelId: string): { route: RouteId; reasoning: boolean } | undefined {
  const entry = catalogEntry(catalog, modelId);
  return entry ? { route: entry.route, reasoning: entry.reasoning !== undefined } : undefined;
}

/** What the limits table needs (phase B: `lookupKnownModel` tries this first); the gateway's cap wins over the card. */
export function catalogLimits(catalog: Catalog, modelId: string): { contextWindow?: number; maxOutputTokens?: number; imageInput?: boolean } | undefined {
  const entry = catalogEntry(catalog, modelId);
  if (!entry) return undefined;
  const max = entry.gatewayMaxOutput !== undefined && entry.maxOutputTokens !== undefined ? Math.min(entry.gatewayMaxOutput, entry.maxOutputTokens) : entry.maxOutputTokens ?? entry.gatewayMaxOutput;
  return { contextWindow: entry.contextWindow, maxOutputTokens: max, imageInput: entry.imageInput };
}

const positive = (n: number | undefined): boolean => n === undefined || (Number.isInteger(n) && n > 0);

/** What is wrong with an entry, one sentence each (empty when it is consistent). */
export function entryProblems(entry: CatalogEntry): string[] {
  const problems: string[] = [];
  const at = `"${entry.id}"`;
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(entry.id)) problems.push(`${at}: the id must be lowercase letters, digits, dots and dashes.`);
  if (!isRouteId(entry.route)) problems.push(`${at}: route "${String(entry.route)}" is not a known route.`);
  if (!positive(entry.contextWindow) || !positive(entry.maxOutputTokens) || !positive(entry.gatewayMaxOutput)) problems.push(`${at}: limits must be positive integers.`);
  if (entry.contextWindow !== undefined && entry.maxOutputTokens !== undefined && entry.maxOutputTokens > entry.contextWindow) problems.push(`${at}: max output ${entry.maxOutputTokens} exceeds the window ${entry.contextWindow}.`);
  if (entry.gatewayMaxOutput !== undefined && entry.maxOutputTokens !== undefined && entry.gatewayMaxOutput >= entry.maxOutputTokens) problems.push(`${at}: a gateway cap must be below the model's max output.`);
  if (!/\b\d{4}-\d{2}(-\d{2})?\b/.test(entry.source)) problems.push(`${at}: the source must carry the date of its figures.`);
  if (entry.echoReasoningContent && entry.route !== 'chat') problems.push(`${at}: echoing reasoning_content only exists on the chat route.`);
  problems.push(...reasoningProblems(entry, at));
  return problems;
}

function reasoningProblems(entry: CatalogEntry, at: string): string[] {
  const reasoning = entry.reasoning;
  if (!reasoning) return [];
  const control = CONTROLS[reasoning.control];
  if (!control) return [`${at}: unknown reasoning control "${String(reasoning.control)}".`];
  const problems: string[] = [];
  if (!control.routes.includes(entry.route)) problems.push(`${at}: ${reasoning.control} does not exist on the ${entry.route} route.`);
  for (const level of reasoning.levels) {
    if (!EFFORT_LEVELS.includes(level) || !control.levels.includes(level)) problems.push(`${at}: level "${level}" is not valid for ${reasoning.control}.`);
  }
  if (new Set(reasoning.levels).size !== reasoning.levels.length) problems.push(`${at}: a level is listed twice.`);
  if (reasoning.maxBudget !== undefined && !reasoning.control.endsWith('budget')) problems.push(`${at}: maxBudget only applies to budget controls.`);
  return problems;
}

/** Every problem in the whole catalogue, including ids listed twice in one catalogue. */
export function catalogueProblems(): string[] {
  const problems: string[] = [];
  for (const catalog of ['zen', 'go'] as const) {
    const seen = new Set<string>();
    for (const entry of CATALOG[catalog]) {
      if (seen.has(entry.id)) problems.push(`${catalog}: "${entry.id}" is listed twice.`);
      seen.add(entry.id);
      problems.push(...entryProblems(entry).map((p) => `${catalog}: ${p}`));
    }
  }
  return problems;
}
