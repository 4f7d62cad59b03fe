/**
 * Everything the session report shows, as plain data: the observed requests and totals, the cost of the
 * same requests replayed with our trim, no trim and minimal fit, and a what-if replay with other trim
 * values next to the current ones.
 */
import type { Settings } from '../config/settings';
import { cutGeometry } from '../trim/cutPolicy';
import { minimalFitRunner, noTrimRunner, oursRunner, replayLimits, replaySettings, type TrimOverrides } from './policies';
import type { ConversationLog, RequestRecord } from './requestLog';
import { conversationRequests, simulate, summarizeSim, type SimStep, type SimSummary } from './simulate';
import { DEFAULT_CACHED_PRICE, inputCost, totals, type Totals } from './totals';

export interface CostRow {
  id: 'ours' | 'noTrim' | 'minimalFit';
  label: string;
  summary: SimSummary;
  /** Prompt cost in cold-token equivalents (cached tokens at `cachedPrice`). */
  cost: number;
  /** Cost relative to no trimming (1 = the same). */
  relative: number;
  /** Requests that would have exceeded the budget (no trim: the endpoint would have refused them). */
  overBudget: number;
}

export interface ReportData {
  sessionId: string;
  modelId: string;
  records: RequestRecord[];
  totals: Totals;
  /** Observed cost, cold-token equivalents. */
  observedCost: number;
  cachedPrice: number;
  costs: CostRow[];
  /** Set when the conversation was read from a request recording: its records are replayed, not observed. */
  recordedFile?: string;
}

export function reportData(log: ConversationLog, settings: Settings, cachedPrice = DEFAULT_CACHED_PRICE): ReportData {
  const t = totals(log.records);
  return {
    sessionId: log.sessionId,
    modelId: log.modelId,
    records: log.records,
    totals: t,
    observedCost: inputCost(t.coldTokens, t.cachedTokens, cachedPrice),
    cachedPrice,
    costs: costComparison(log, settings, cachedPrice),
    ...(log.recordedFile ? { recordedFile: log.recordedFile } : {}),
  };
}

export function costComparison(log: ConversationLog, settings: Settings, cachedPrice = DEFAULT_CACHED_PRICE): CostRow[] {
  const last = log.records[log.records.length - 1];
  if (!last) return [];
  const requests = conversationRequests(log);
  const runs: [CostRow['id'], string, SimStep[]][] = [
    ['noTrim', 'no trim', simulate(requests, noTrimRunner())],
    ['minimalFit', 'minimal fit', simulate(requests, minimalFitRunner(last.budget, last.maxBytes))],
    ['ours', 'this extension', simulate(requests, oursRunner(replaySettings(settings, last), replayLimits(last)))],
  ];
  const rows = runs.map(([id, label, steps]) => {
    const summary = summarizeSim(steps);
    const overBudget = steps.filter((s) => s.promptTokens > last.budget).length;
    return { id, label, summary, cost: inputCost(summary.coldTokens, summary.cachedTokens, cachedPrice), relative: 0, overBudget };
  });
  const base = rows[0].cost;
  for (const row of rows) row.relative = base > 0 ? row.cost / base : 1;
  return rows;
}

export interface WhatIfSide {
  headroom: number;
  step: number;
  summary: SimSummary;
  steps: SimStep[];
  cost: number;
}

export interface WhatIf {
  current: WhatIfSide;
  chosen: WhatIfSide;
}

/** The conversation replayed with the current trim values and with the chosen ones, side by side. */
export function whatIf(log: ConversationLog, settings: Settings, chosen: TrimOverrides, cachedPrice = DEFAULT_CACHED_PRICE): WhatIf | undefined {
  const last = log.records[log.records.length - 1];
  if (!last) return undefined;
  const requests = conversationRequests(log);
  const side = (overrides: TrimOverrides): WhatIfSide => {
    const pinned = replaySettings(settings, last, overrides);
    const steps = simulate(requests, oursRunner(pinned, replayLimits(last)));
    const summary = summarizeSim(steps);
    const geometry = cutGeometry(Number.isFinite(last.budget) ? last.budget : 0, pinned.historyTrim);
    return { headroom: geometry.headroom, step: geometry.cutStep, summary, steps, cost: inputCost(summary.coldTokens, summary.cachedTokens, cachedPrice) };
  };
  return { current: side({}), chosen: side(chosen) };
}

/** The values a what-if choice writes to settings: a fixed headroom (ratio 0, min = max) and the step. */
export function whatIfSettings(headroomTokens: number, stepTokens: number): TrimOverrides {
  const headroom = Math.max(0, Math.round(headroomTokens));
  return { headroomRatio: 0, headroomMinTokens: headroom, headroomMaxTokens: headroom, cutStepTokens: Math.max(0, Math.round(stepTokens)) };
}
