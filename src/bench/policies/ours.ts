/**
 * Our trim, exactly as the extension runs it: the repair step (repairedHistory) and planTrim for every request
 * (budget, cut, log) and accountUsage after it (calibration against the reported prompt tokens, overflow sensor), the same calls
 * replaySession makes.
 */
import type { Logger } from '../../core/log';
import { repairedHistory } from '../../core/convert/convertRequest';
import { accountUsage } from '../../core/request/accountUsage';
import { SizeMemo } from '../../core/trim/messageSize';
import type { RegimeSpec } from '../sessions/regimes';
import { benchLimits, benchSettings, type HistoryTrimOverrides } from './benchSettings';
import type { Policy, PolicyRun } from './policy';
import { normalizeUsage } from '../../core/routes/chat/chatChunk';
import { planTrim, type TrimPlan } from '../../core/trim/planTrim';
import { Calibrations, ConversationStates } from '../../core/trim/trimState';
import { cutGeometry } from '../../core/trim/budget';

const MODEL_ID = 'bench-model';

/** Keeps only a count of ERROR lines: 300 requests of log text are not needed. */
class CountingLogger implements Logger {
  errors = 0;
  info(): void {}
  warn(): void {}
  debug(): void {}
  error(): void {
    this.errors++;
  }
}

export function oursPolicy(id: string, label: string, overrides: HistoryTrimOverrides = {}): Policy {
  return {
    id,
    label,
    describe: (regime) => {
      const g = cutGeometry(regime.budgetTokens, benchSettings(regime, overrides).historyTrim);
      return `H=${g.headroom} S=${g.cutStep} grid=${g.grid} ceiling=${g.ceiling}`;
    },
    start: (regime) => startOurs(regime, overrides),
  };
}

function startOurs(regime: RegimeSpec, overrides: HistoryTrimOverrides): PolicyRun {
  const settings = benchSettings(regime, overrides);
  const limits = benchLimits(regime);
  const log = new CountingLogger();
  const state = { log, calibrations: new Calibrations(), states: new ConversationStates() };
  const memo = new SizeMemo();
  let lastPlan: TrimPlan | undefined;
  return {
    decide(request) {
      lastPlan = planTrim(repairedHistory(request.messages, log), request.tools, { settings, limits, calibration: state.calibrations.factor(MODEL_ID), calibrationSpread: state.calibrations.spread(MODEL_ID), memo, states: state.states, log });
      if (lastPlan.input.length !== request.messages.length) throw new Error('bench sessions must not need tool-pair repair');
      // With results pruned, what was sent (the placeholders); otherwise the messages at sentIndices, as before.
      const pruned = lastPlan.pruned.results > 0 ? lastPlan.trim.messages : undefined;
      return { sentIndices: lastPlan.trim.sentIndices, estimate: lastPlan.trim.estTokens, ...(pruned ? { messages: pruned } : {}) };
    },
    observe(report) {
      const usage = normalizeUsage({ prompt_tokens: report.promptTokens, completion_tokens: 0, prompt_tokens_details: { cached_tokens: report.cachedTokens } });
      if (usage && lastPlan) accountUsage(state, MODEL_ID, lastPlan, usage);
    },
  };
}
