/**
 * The refusal regime: a model whose true input limit is below what the data says (gpt-5.4-mini's case: the data of
 * 2026-07-02 gave a 400,000 window and no input limit, OpenAI takes 272,000 and refuses more without naming a
 * number). Several conversations one after the other on that model, each growing from below the limit to well past
 * it, on the prefix cache model; an endpoint stand-in refuses every prompt over the true limit (nothing cached, not
 * answered). Three rules side by side, each driving the extension's own planTrim and accountUsage:
 *
 * - before: the rule this extension had — a refusal without a number makes one extra grid move and one retry; a
 *   second refusal fails the request; nothing is remembered, so every conversation meets the limit again;
 * - learned: models/learnedLimits.ts through the model table — the refused size and the largest accepted prompt
 *   give a ceiling the trim lands under, for every later conversation (the engine's rule: mayRetryTooLong);
 * - data: the data gives the input limit (models.dev's `limit.input`): no refusal at all.
 */
import { countTextTokens } from '../../cacheModel/valueTokens';
import { PrefixCacheModel } from '../../cacheModel/prefixCache';
import { resolveSettings } from '../../core/config/settings';
import { repairedHistory } from '../../core/convert/convertRequest';
import type { Logger } from '../../core/log';
import { LearnedLimits, mayRetryTooLong } from '../../core/models/learnedLimits';
import type { ModelCard } from '../../core/models/modelData';
import { ModelTable, limitsOf } from '../../core/models/modelTable';
import { accountUsage } from '../../core/request/accountUsage';
import { SizeMemo } from '../../core/trim/messageSize';
import { PromptBlocks } from '../cache/promptBlocks';
import { type RegimeSpec } from '../sessions/regimes';
import { generateSession, requestAt, type BenchSession } from '../sessions/sessionGenerator';
import { measureCharsPerToken } from '../sessions/textOfTokens';
import { normalizeUsage } from '../../core/routes/chat/chatChunk';
import { planTrim, type TrimPlan } from '../../core/trim/planTrim';
import { regimeById } from '../sessions/regimes';
import { Calibrations, ConversationStates } from '../../core/trim/trimState';

export interface RefusalRegimeSpec {
  title: string;
  /** What the data says: window and max output. */
  window: number;
  maxOutputTokens: number;
  /** What the endpoint takes: prompts above this are refused without a number. */
  trueInputLimit: number;
  /** Each conversation's session: pre-filled to `budgetTokens` (below the limit), then growing per request. */
  session: RegimeSpec;
  conversations: number;
}

/** Regime (c)'s session shape, pre-filled to 200K and growing ~1.3K a request: past the limit after ~55 requests. */
export const REFUSAL_REGIME: RefusalRegimeSpec = {
  title: 'true input limit 272K below the data (400K window, no input limit), 3 conversations',
  window: 400_000,
  maxOutputTokens: 128_000,
  trueInputLimit: 272_000,
  session: { ...regimeById('c'), id: 'r', title: 'refusals', requests: 130, budgetTokens: 200_000, growthTokens: 1_300, sweep: false, textCount: false },
  conversations: 3,
};

export type RefusalVariantId = 'before' | 'learned' | 'data';

export interface ConversationFigures {
  refusals: number;
  /** Requests whose retries were refused too: the user got an error. */
  failed: number;
  /** Answered requests whose cut differs from the previous answered one's. */
  cutMoves: number;
  meanHit: number;
  /** Mean prompt tokens of the answered requests (the context the model saw). */
  meanPrompt: number;
}

export interface RefusalVariant {
  id: RefusalVariantId;
  label: string;
  conversations: ConversationFigures[];
}

export interface RefusalRegimeResult {
  spec: Omit<RefusalRegimeSpec, 'session'> & { requests: number; growthTokens: number; prefillTokens: number };
  variants: RefusalVariant[];
}

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const MODEL_ID = 'bench-refusal';

const LABELS: Record<RefusalVariantId, string> = {
  before: 'before: one grid move and one retry per refusal, nothing remembered',
  learned: 'learned: ceiling from the refused and the largest accepted prompt, kept',
  data: 'data gives the input limit (limit.input)',
};

/** One rule's state across the conversations (the extension's per-endpoint engine state). */
class Rule {
  readonly calibrations = new Calibrations();
  readonly states = new ConversationStates();
  readonly learned = new LearnedLimits();
  private readonly table: ModelTable;
  private readonly settings = resolveSettings(() => undefined, () => undefined);

  constructor(
    readonly id: RefusalVariantId,
    spec: RefusalRegimeSpec,
    private readonly memo: SizeMemo,
  ) {
    const card: ModelCard = { route: 'chat', contextWindow: spec.window, maxOutputTokens: spec.maxOutputTokens };
    if (id === 'data') card.inputLimit = spec.trueInputLimit;
    this.table = new ModelTable({ date: '2026-07-02', source: 'bench', zen: { [MODEL_ID]: card }, go: {} });
  }

  plan(request: ReturnType<typeof requestAt>): TrimPlan {
    // The model table's facts, with what the refusals taught when this rule learns (the engine's ChatEngine.factsFor).
    const learned = this.id === 'before' ? undefined : this.learned.get(MODEL_ID);
    const limits = limitsOf(this.table.lookup({ modelId: MODEL_ID, catalog: 'zen', learned }));
    return planTrim(repairedHistory(request.messages, quiet), request.tools, { settings: this.settings, limits, calibration: this.calibrations.factor(MODEL_ID), calibrationSpread: this.calibrations.spread(MODEL_ID), memo: this.memo, states: this.states, log: quiet });
  }

  /** After a refusal: whether to retry, having learned (or moved the cut). */
  refused(plan: TrimPlan, retries: number, guessed: boolean): { retry: boolean; guessed: boolean } {
    if (this.id === 'before') {
      if (retries > 0) return { retry: false, guessed: false };
      this.states.addExtraGridMove(plan.sessionId);
      return { retry: true, guessed: false };
    }
    if (!mayRetryTooLong(retries, guessed)) return { retry: false, guessed };
    const refusal = this.learned.refuse(MODEL_ID, plan.trim.estTokens);
    if (!refusal) this.states.addExtraGridMove(plan.sessionId);
    return { retry: true, guessed: refusal?.guess === true };
  }

  answered(plan: TrimPlan, promptTokens: number, cachedTokens: number): void {
    const usage = normalizeUsage({ prompt_tokens: promptTokens, completion_tokens: 0, prompt_tokens_details: { cached_tokens: cachedTokens } });
    if (usage) accountUsage({ log: quiet, calibrations: this.calibrations, states: this.states }, MODEL_ID, plan, usage);
    if (this.id !== 'before') this.learned.accept(MODEL_ID, promptTokens);
  }
}

export function runRefusalRegime(spec: RefusalRegimeSpec = REFUSAL_REGIME): RefusalRegimeResult {
  const blocks = new PromptBlocks();
  const ratios = measureCharsPerToken(countTextTokens);
  const sessions = Array.from({ length: spec.conversations }, (_, k) => generateSession({ ...spec.session, seed: spec.session.seed + 100 * k }, blocks.sizer('json'), ratios));
  const memo = new SizeMemo();
  const variants = (['before', 'learned', 'data'] as const).map((id): RefusalVariant => {
    const rule = new Rule(id, spec, memo);
    const cache = new PrefixCacheModel();
    return { id, label: LABELS[id], conversations: sessions.map((session) => converse(rule, session, cache, blocks, spec.trueInputLimit)) };
  });
  const { session } = spec;
  return { spec: { title: spec.title, window: spec.window, maxOutputTokens: spec.maxOutputTokens, trueInputLimit: spec.trueInputLimit, conversations: spec.conversations, requests: session.requests, growthTokens: session.growthTokens, prefillTokens: sessions[0].stats.prefillTokens }, variants };
}

function converse(rule: Rule, session: BenchSession, cache: PrefixCacheModel, blocks: PromptBlocks, limit: number): ConversationFigures {
  const figures = { refusals: 0, failed: 0, cutMoves: 0, hits: 0, prompts: 0, answered: 0 };
  let lastRemoved: number | undefined;
  for (let i = 0; i < session.requestEnds.length; i++) {
    const request = requestAt(session, i);
    let plan = rule.plan(request);
    let retries = 0;
    let guessed = false;
    for (;;) {
      const measure = blocks.measureRequest(plan.trim.messages, request.tools);
      if (measure.promptTokens <= limit) {
        const seen = cache.observeMeasured(plan.sessionId, measure);
        rule.answered(plan, seen.promptTokens, seen.cachedTokens);
        if (lastRemoved !== undefined && plan.trim.removed !== lastRemoved) figures.cutMoves++;
        lastRemoved = plan.trim.removed;
        figures.answered++;
        figures.hits += seen.promptTokens > 0 ? seen.cachedTokens / seen.promptTokens : 0;
        figures.prompts += seen.promptTokens;
        break;
      }
      // Refused: nothing cached, nothing answered.
      figures.refusals++;
      const next = rule.refused(plan, retries, guessed);
      if (!next.retry) {
        figures.failed++;
        break;
      }
      retries++;
      guessed = next.guessed;
      plan = rule.plan(request);
    }
  }
  const answered = Math.max(1, figures.answered);
  return { refusals: figures.refusals, failed: figures.failed, cutMoves: figures.cutMoves, meanHit: figures.hits / answered, meanPrompt: figures.prompts / answered };
}
