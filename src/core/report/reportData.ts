/**
 * Everything the session report shows, as plain data: the observed requests and totals, the cost of the
 * same requests replayed with our trim, no trim and minimal fit, and a what-if replay with other trim
 * values next to the current ones.
 */
import type { Settings } from '../config/settings';
import { pricesFor } from '../cost/requestCost';
import { type ModelPrices } from '../cost/requestCost';
import type { TrimOverrides } from './policies';
import { promptUsd, reportDollars, type ReportDollars } from './reportDollars';
import { ConversationFigures, type PolicyId, type TrackedReplay } from './reportFigures';
import type { ConversationLog, RequestRecord } from './requestLog';
import type { SimStep, SimSummary } from './simulate';
import { DEFAULT_CACHED_PRICE, inputCost, totals, type Totals } from './totals';
import { cutGeometry } from '../trim/budget';

export interface CostRow {
  id: PolicyId;
  label: string;
  summary: SimSummary;
  /** Prompt cost in cold-token equivalents (cached tokens at `cachedPrice`). */
  cost: number;
  /** Prompt dollars at the model's list prices (cold at input, cached at cache read); undefined: no price known. */
  usd?: number;
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
  /** Dollars spent, saved by the cache, and spent warming (reportDollars.ts). */
  dollars: ReportDollars;
  /** Whether the model has list prices (the dollar columns say "no price" without). */
  priced: boolean;
  costs: CostRow[];
  /** Set when the conversation was read from a request recording: its records are replayed, not observed. */
  recordedFile?: string;
}

/** The whole report at once (tests, a recording): a fresh set of figures stepped through every request. */
export function reportData(log: ConversationLog, settings: Settings, cachedPrice = DEFAULT_CACHED_PRICE, prices = pricesFor(log.modelId)): ReportData {
  const last = log.records[log.records.length - 1];
  const figures = last ? new ConversationFigures(settings, last, log) : undefined;
  figures?.advance(log);
  return reportDataOf(log, figures, cachedPrice, prices);
}

/**
 * The report from figures already stepped (the panel keeps them incrementally); no figures, no cost rows.
 * `prices`: the model's list prices (default: looked up by its id), for the cache's savings and the replays' dollars.
 */
export function reportDataOf(log: ConversationLog, figures: ConversationFigures | undefined, cachedPrice = DEFAULT_CACHED_PRICE, prices = pricesFor(log.modelId)): ReportData {
  const t = totals(log.records);
  return {
    sessionId: log.sessionId,
    modelId: log.modelId,
    records: log.records,
    totals: t,
    observedCost: inputCost(t.coldTokens, t.cachedTokens, cachedPrice),
    cachedPrice,
    dollars: reportDollars(log, prices),
    priced: prices !== undefined,
    costs: figures ? costRows(figures, cachedPrice, prices) : [],
    ...(log.recordedFile ? { recordedFile: log.recordedFile } : {}),
  };
}

export function costComparison(log: ConversationLog, settings: Settings, cachedPrice = DEFAULT_CACHED_PRICE): CostRow[] {
  return reportData(log, settings, cachedPrice).costs;
}

const LABELS: Record<PolicyId, string> = { noTrim: 'no trim', minimalFit: 'minimal fit', ours: 'this extension' };

function costRows(figures: ConversationFigures, cachedPrice: number, prices: ModelPrices | undefined): CostRow[] {
  const budget = figures.basis.budget;
  const rows = (['noTrim', 'minimalFit', 'ours'] as const).map((id) => {
    const { replay } = figures.policies[id];
    const summary = replay.summary();
    const overBudget = replay.steps.filter((s) => s.promptTokens > budget).length;
    const usd = promptUsd(replay.steps, prices);
    return { id, label: LABELS[id], summary, cost: inputCost(summary.coldTokens, summary.cachedTokens, cachedPrice), ...(usd !== undefined ? { usd } : {}), relative: 0, overBudget };
  });
  const base = rows[0].cost;
  for (const row of rows) row.relative = base > 0 ? row.cost / base : 1;
  return rows;
}

export interface WhatIfSide {
  headroom: number;
  step: number;
  /** What was asked, when the cut geometry capped it (each is at most 10% of the budget). */
  asked?: { headroom: number; step: number };
  summary: SimSummary;
  steps: SimStep[];
  cost: number;
  /** Prompt dollars at the model's list prices; undefined: no price known. */
  usd?: number;
}

export interface WhatIf {
  current: WhatIfSide;
  chosen: WhatIfSide;
}

/** The conversation replayed with the current trim values and with the chosen ones, side by side (all at once). */
export function whatIf(log: ConversationLog, settings: Settings, chosen: TrimOverrides, cachedPrice = DEFAULT_CACHED_PRICE, prices = pricesFor(log.modelId)): WhatIf | undefined {
  const last = log.records[log.records.length - 1];
  if (!last) return undefined;
  const figures = new ConversationFigures(settings, last, log);
  const replay = figures.whatIfReplay(log, chosen);
  figures.advance(log, Infinity, [replay]);
  return whatIfOf(figures, replay, chosen, cachedPrice, prices);
}

/** The what-if from figures and a chosen replay already stepped. */
export function whatIfOf(figures: ConversationFigures, chosenReplay: TrackedReplay, chosen: TrimOverrides, cachedPrice = DEFAULT_CACHED_PRICE, prices = pricesFor(figures.basis.modelId)): WhatIf {
  const side = (tracked: TrackedReplay, overrides: TrimOverrides): WhatIfSide => {
    const budget = Number.isFinite(figures.basis.budget) ? figures.basis.budget : 0;
    const trim = { ...figures.settings.historyTrim, ...overrides };
    const geometry = cutGeometry(budget, trim);
    const summary = tracked.replay.summary();
    const asked = { headroom: Math.min(trim.headroomMaxTokens, Math.max(trim.headroomMinTokens, Math.round(trim.headroomRatio * budget))), step: trim.cutStepTokens };
    const capped = asked.headroom !== geometry.headroom || asked.step !== geometry.cutStep;
    const usd = promptUsd(tracked.replay.steps, prices);
    return {
      headroom: geometry.headroom, step: geometry.cutStep, ...(capped ? { asked } : {}), summary, steps: tracked.replay.steps,
      cost: inputCost(summary.coldTokens, summary.cachedTokens, cachedPrice), ...(usd !== undefined ? { usd } : {}),
    };
  };
  return { current: side(figures.policies.ours, {}), chosen: side(chosenReplay, chosen) };
}

/** The values a what-if choice writes to settings: a fixed headroom (ratio 0, min = max) and the step. */
export function whatIfSettings(headroomTokens: number, stepTokens: number): TrimOverrides {
  const headroom = Math.max(0, Math.round(headroomTokens));
  return { headroomRatio: 0, headroomMinTokens: headroom, headroomMaxTokens: headroom, cutStepTokens: Math.max(0, Math.round(stepTokens)) };
}
