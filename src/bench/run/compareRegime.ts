/**
 * All policies over one regime's session: the comparison set, then the sweep of our settings. Each
 * run has its own PrefixCacheModel; the no-trimming run goes first because every cost is relative to it.
 */
import type { PromptBlocks } from '../cache/promptBlocks';
import { policyFigures, inputCost, type PolicyFigures } from '../metrics/policyFigures';
import { MAIN_POLICIES, OURS_DEFAULT, sweepPolicies } from '../policies/catalog';
import { benchBudget } from '../policies/benchSettings';
import type { Policy } from '../policies/policy';
import type { BenchSession, SessionStats } from '../sessions/sessionGenerator';
import { runPolicy, type RequestRecord } from './runPolicy';

export interface RegimeResult {
  regime: { id: string; title: string; budgetTokens: number; maxBytes: number; window: number; maxOutputTokens: number; requests: number };
  session: SessionStats;
  figures: PolicyFigures[];
  /** Our settings sweep; includes the defaults (the same run as `ours` in figures). */
  sweep: PolicyFigures[];
  /** Per-request cache hit and o200k prompt tokens of the comparison set, by policy id. */
  hitSeries: Record<string, number[]>;
  keptSeries: Record<string, number[]>;
}

export interface CompareOptions {
  sweep: boolean;
}

export function compareRegime(session: BenchSession, blocks: PromptBlocks, options: CompareOptions): RegimeResult {
  const { regime } = session;
  const records = new Map<string, RequestRecord[]>();
  for (const policy of MAIN_POLICIES) records.set(policy.id, runPolicy(session, policy, blocks));
  const noTrimCost = inputCost(records.get(MAIN_POLICIES[0].id) ?? []);
  const figuresOf = (policy: Policy, runRecords: RequestRecord[]): PolicyFigures =>
    policyFigures({ id: policy.id, label: policy.label, params: policy.describe(regime) }, runRecords, regime.budgetTokens, noTrimCost);

  const figures = MAIN_POLICIES.map((policy) => figuresOf(policy, records.get(policy.id) ?? []));
  const sweep = options.sweep && regime.sweep
    ? [OURS_DEFAULT, ...sweepPolicies()].map((policy) => figuresOf(policy, records.get(policy.id) ?? runPolicy(session, policy, blocks)))
    : [];
  const series = (pick: (r: RequestRecord) => number): Record<string, number[]> =>
    Object.fromEntries(MAIN_POLICIES.map((policy) => [policy.id, (records.get(policy.id) ?? []).map(pick)]));
  return {
    regime: { id: regime.id, title: regime.title, budgetTokens: regime.budgetTokens, maxBytes: benchBudget(regime).maxBytes, window: regime.window, maxOutputTokens: regime.maxOutputTokens, requests: regime.requests },
    session: session.stats,
    figures,
    sweep,
    hitSeries: series((r) => r.cacheHit),
    keptSeries: series((r) => r.promptTokens),
  };
}
