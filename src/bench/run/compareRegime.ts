/**
 * All policies over one regime's session: the comparison set, then the sweep of our settings, then the
 * main rivals again with the cache model counting the text only. Each run has its own PrefixCacheModel;
 * no trimming goes first in each set because every cost is relative to it.
 */
import type { PromptBlocks, TokenCount } from '../cache/promptBlocks';
import { policyFigures, inputCost, type PolicyFigures } from '../metrics/policyFigures';
import { MAIN_POLICIES, OURS_DEFAULT, sweepPolicies, TEXT_COUNT_POLICIES } from '../policies/catalog';
import { benchBudget } from '../policies/benchSettings';
import type { Policy } from '../policies/policy';
import type { BenchSession, SessionStats } from '../sessions/sessionGenerator';
import { runPolicy, type RequestRecord } from './runPolicy';

export interface RegimeResult {
  regime: { id: string; title: string; budgetTokens: number; maxBytes: number; window: number; maxOutputTokens: number; requests: number };
  session: SessionStats;
  /** The session pre-filled by the text-only count, which the `textCount` figures ran on (if run). */
  textSession?: SessionStats;
  figures: PolicyFigures[];
  /** Our settings sweep; includes the defaults (the same run as `ours` in figures). */
  sweep: PolicyFigures[];
  /** The main rivals with the prompt counted as a chat template would (`text` count); empty if not run. */
  textCount: PolicyFigures[];
  /** Per-request cache hit and o200k prompt tokens of the comparison set, by policy id. */
  hitSeries: Record<string, number[]>;
  keptSeries: Record<string, number[]>;
}

export interface CompareOptions {
  sweep: boolean;
}

/** Runs policies (no trimming first) and turns each run into figures, costs relative to no trimming. */
function runSet(session: BenchSession, blocks: PromptBlocks, policies: readonly Policy[], count: TokenCount, reuse = new Map<string, RequestRecord[]>()) {
  const { regime } = session;
  const records = new Map<string, RequestRecord[]>();
  for (const policy of policies) records.set(policy.id, reuse.get(policy.id) ?? runPolicy(session, policy, blocks, { count }));
  const noTrimCost = inputCost(records.get(policies[0].id) ?? []);
  const figures = policies.map((policy) =>
    policyFigures({ id: policy.id, label: policy.label, params: policy.describe(regime) }, records.get(policy.id) ?? [], regime.budgetTokens, noTrimCost));
  return { records, figures };
}

export interface RegimeSessions {
  /** Pre-filled to just under B as the cache model counts (message JSON). */
  json: BenchSession;
  /** The same seed pre-filled to just under B in the text-only count (regimes with `textCount`). */
  text?: BenchSession;
}

export function compareRegime(sessions: RegimeSessions, blocks: PromptBlocks, options: CompareOptions): RegimeResult {
  const session = sessions.json;
  const { regime } = session;
  const main = runSet(session, blocks, MAIN_POLICIES, 'json');
  const sweep = options.sweep && regime.sweep
    ? runSet(session, blocks, [MAIN_POLICIES[0], OURS_DEFAULT, ...sweepPolicies()], 'json', main.records).figures.slice(1)
    : [];
  const textCount = sessions.text ? runSet(sessions.text, blocks, TEXT_COUNT_POLICIES, 'text').figures : [];
  const series = (pick: (r: RequestRecord) => number): Record<string, number[]> =>
    Object.fromEntries(MAIN_POLICIES.map((policy) => [policy.id, (main.records.get(policy.id) ?? []).map(pick)]));
  return {
    regime: { id: regime.id, title: regime.title, budgetTokens: regime.budgetTokens, maxBytes: benchBudget(regime).maxBytes, window: regime.window, maxOutputTokens: regime.maxOutputTokens, requests: regime.requests },
    session: session.stats,
    textSession: sessions.text?.stats,
    figures: main.figures,
    sweep,
    textCount,
    hitSeries: series((r) => r.cacheHit),
    keptSeries: series((r) => r.promptTokens),
  };
}
