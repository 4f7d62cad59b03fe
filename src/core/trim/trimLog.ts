/**
 * The log lines users verify the trim with. Their format is a documented contract (README, "Log lines"):
 * the first sentence of the [history-trim] line is worded exactly as the leading extension writes it, so
 * existing habits and log checks written for it keep working; our fields follow it.
 */
import { type Budget, type CutGeometry } from './budget';
import { OnceKeys } from '../util/onceKeys';
import type { TrimResult } from './historyTrim';
import type { Truncation } from './truncateOversized';

export function historyTrimLine(result: TrimResult, budget: Budget, geometry: CutGeometry, cutMoved: boolean, pruned = { results: 0, tokens: 0 }): string {
  return (
    `[history-trim] Dropped ${result.removed} old message(s) to fit context window ` +
    `(budget=${budget.tokens}, maxBytes=${budget.maxBytes}); ` +
    `estimated payload now ~${result.estTokens} tokens / ${result.bytes} bytes. ` +
    `headroom=${geometry.headroom} step=${geometry.cutStep} cut=${cutMoved ? 'moved' : 'held'}` +
    estimatedField(budget) +
    prunedField(pruned)
  );
}

/** ` pruned=R prunedTokens=T` while tool results are sent as placeholders (R results, T tokens saved); absent otherwise. */
function prunedField(pruned: { results: number; tokens: number }): string {
  return pruned.results > 0 ? ` pruned=${pruned.results} prunedTokens=${pruned.tokens}` : '';
}

/** ` limits=estimated(M)` when the budget rests on the limits of M, the newest of the model's family (no data lists the model). */
function estimatedField(budget: Budget): string {
  return budget.estimatedFrom ? ` limits=estimated(${budget.estimatedFrom})` : '';
}

/** Written at ERROR level when even the smallest safe history does not fit: never sent silently. */
export function overCeilingLine(result: TrimResult, budget: Budget): string {
  const b = result.breakdown;
  return (
    `[history-trim] Over budget: no safe cut fits. Sending ~${result.estTokens} tokens / ${result.bytes} bytes ` +
    `against budget=${budget.tokens} maxBytes=${budget.maxBytes} ` +
    `(system=${b.system} anchor=${b.anchor} tools=${b.tools} history=${b.history} currentTurn=${b.currentTurn} reserve=${budget.reserve}).`
  );
}

const warned = new OnceKeys(4_096);

/**
 * True the first time this message of this conversation is truncated this way: the WARN is written once,
 * not on every later request that sends the same cut (a stable cut is the same on every request).
 */
export function firstTruncation(sessionId: string, inputIndex: number, originalText: string, truncation: Truncation): boolean {
  const sample = `${originalText.length}:${originalText.slice(0, 64)}…${originalText.slice(-64)}`;
  const key = `${sessionId}|${inputIndex}|${sample}|${truncation.stable ? 'stable' : truncation.toTokens}`;
  return warned.first(key);
}
