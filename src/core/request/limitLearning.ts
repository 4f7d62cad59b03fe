/**
 * What the engine learns of a model's limits from its endpoint (models/learnedLimits.ts): from a "too long" refusal —
 * the window it names, else (no number) a ceiling below the refused prompt — and from every answered prompt (the
 * largest known to fit, which may revise that ceiling). Each change is saved and told to VS Code once; a refusal that
 * teaches nothing new cuts one grid move more, as before.
 */
import type { Logger } from '../log';
import { parseContextLimit } from '../models/contextRefusal';
import type { LearnedLimits } from '../models/learnedLimits';
import type { TrimPlan } from './prepareRequest';
import { outsideText } from '../util/excerpt';
import { type ConversationStates } from '../trim/trimState';

export interface LimitLearning {
  learned: LearnedLimits;
  states: ConversationStates;
  log: Logger;
  /** Persists the learned limits. */
  save(): void;
  /** What VS Code is told about the model changed (EngineDeps.onLimitsChanged). */
  changed(): void;
}

/** After a refusal of `refused` as too long; `guessed`: the re-trim aims under a guess, not a size known to fit. */
export function learnTooLong(ctx: LimitLearning, modelId: string, message: string, refused: Pick<TrimPlan, 'sessionId' | 'trim'>): { guessed: boolean } {
  const namedWindow = parseContextLimit(message);
  const refusal = namedWindow === undefined ? ctx.learned.refuse(modelId, refused.trim.estTokens) : undefined;
  const learned = namedWindow !== undefined ? ctx.learned.learnWindow(modelId, namedWindow) : refusal !== undefined;
  if (learned) {
    ctx.save();
    ctx.changed();
  } else ctx.states.addExtraGridMove(refused.sessionId);
  const taught = namedWindow
    ? ` (limit ${namedWindow} tokens, now remembered)`
    : refusal
      ? ` (no limit named: below ~${refused.trim.estTokens} tokens; now trimming under ${refusal.ceiling}${refusal.guess ? ', a guess' : ', known to fit'}, remembered)`
      : '';
  ctx.log.warn(`[history-trim] ${outsideText(modelId)} rejected the request as too long${taught}; trimming again and retrying.`);
  return { guessed: refusal?.guess === true };
}

/** After an answered prompt of `promptTokens` (reported): the largest known to fit, maybe a revised ceiling. */
export function learnAnswered(ctx: LimitLearning, modelId: string, promptTokens: number): void {
  const moved = ctx.learned.accept(modelId, promptTokens);
  if (!moved) return;
  ctx.save();
  if (moved === 'ceiling') ctx.changed();
}
