/**
 * What the benchmark asks of a trim policy: which messages of a request to send, and (for policies that
 * learn, like ours) what the provider then reported. A policy starts fresh state for every run.
 */
import type { ReplayRequest } from '../../core/replay/replayFile';
import type { RegimeSpec } from '../sessions/regimes';
import type { PolicyDecision } from '../../core/report/unitCut';

export interface ProviderReport {
  promptTokens: number;
  cachedTokens: number;
}

export interface PolicyRun {
  decide(request: ReplayRequest): PolicyDecision;
  observe(report: ProviderReport): void;
}

export interface Policy {
  /** Stable key in results.json, e.g. `ours`, `leading`, `ours-step16k-h0.03`. */
  id: string;
  label: string;
  start(regime: RegimeSpec): PolicyRun;
  /** The policy's parameters at this regime's budget, for the table. */
  describe(regime: RegimeSpec): string;
}
