/**
 * What an endpoint taught about a model's limits, per model (each endpoint's engine keeps its own, persisted under
 * its scope): the window its error named ("maximum context length is N tokens"), or — from a refusal that names no
 * number (OpenAI's "Your input exceeds the context window of this model") — that the limit is below the refused
 * prompt N, while the largest prompt it accepted (M) is known to fit. The trim then aims under an input ceiling:
 * M, or half of N while nothing near N is known to fit (a guess, which a second refusal corrects). A later accepted
 * prompt well above the ceiling, or one at least N, revises it; new model data that explains the refusal replaces
 * it (learnedInputLimit). Prompt sizes are in the endpoint's tokens (reported usage; the trim's calibrated
 * estimate for a refused prompt). The model table applies them (modelTable.ts); the engine teaches them.
 */
import * as v from 'valibot';
import { integer, validator } from '../state/persisted';
import { MAX_TOKEN_LIMIT } from '../util/tokenLimit';
import { PerModel } from '../util/boundedMap';

/** No real model has a smaller window: a smaller number in an error (parseContextLimit) or in saved state is not a window. */
export const MIN_CONTEXT_WINDOW = 1_000;
/** The one bound (util/tokenLimit.ts): the /models fetch clamps to it, so a saved list never fails this check. */
export const MAX_CONTEXT_WINDOW = MAX_TOKEN_LIMIT;

/**
 * What an endpoint taught about one model's limits (models/learnedLimits.ts): the window its error named, the
 * smallest prompt it refused as too long without naming one, the input ceiling the trim aims under since, and the
 * largest prompt it accepted. Prompt sizes are in the endpoint's tokens.
 */
export interface LearnedLimitRecord {
  window?: number;
  refused?: number;
  ceiling?: number;
  fits?: number;
}

const limitField = v.optional(integer(MIN_CONTEXT_WINDOW, MAX_CONTEXT_WINDOW));

/**
 * A learned limit: a bare number is a window (as versions before refusals without a number saved it), else the
 * record; a ceiling only with the refusal it stays below, and below it. Unknown fields are left out.
 */
export const validLearnedLimit = validator<LearnedLimitRecord>(
  v.union([
    v.pipe(integer(MIN_CONTEXT_WINDOW, MAX_CONTEXT_WINDOW), v.transform((window) => ({ window }))),
    v.pipe(
      v.object({ window: limitField, refused: limitField, ceiling: limitField, fits: v.optional(integer(1, MAX_CONTEXT_WINDOW)) }),
      v.check((r) => (r.ceiling === undefined) === (r.refused === undefined) && (r.ceiling === undefined || r.ceiling < (r.refused ?? 0))),
      v.check((r) => Object.values(r).some((value) => value !== undefined)),
      v.transform((r) => Object.fromEntries(Object.entries(r).filter(([, value]) => value !== undefined)) as LearnedLimitRecord),
    ),
  ]),
);

export type LearnedLimit = Readonly<LearnedLimitRecord>;

/**
 * An accepted prompt at most this share above the ceiling does not move it: that is the trim's estimate error, and
 * following it would creep the ceiling up into the next refusal.
 */
export const REVISE_ABOVE = 0.02;

/**
 * "Too long" refusals retried in one request: one always; more only while each re-trim aimed at a guess (the
 * refusal named no number and nothing near its size was known to fit), halving toward what fits.
 */
export const MAX_CONTEXT_RETRIES = 3;

/** Whether a request refused as too long after `retries` re-trims is trimmed and sent again. */
export function mayRetryTooLong(retries: number, guessed: boolean): boolean {
  return retries === 0 || (guessed && retries < MAX_CONTEXT_RETRIES);
}

/** What a refusal without a number changed. */
export interface Refusal {
  /** The ceiling the trim now aims under. */
  ceiling: number;
  /** Nothing this large is known to fit: the ceiling is a guess, and a refusal of it may be retried again. */
  guess: boolean;
}

/** Under what is known to fit (the largest accepted prompt below N), else under half of N; always below N. */
export function ceilingAfter(refused: number, fits: number | undefined): number {
  const known = fits !== undefined && fits < refused ? fits : 0;
  return Math.min(refused - 1, Math.max(MIN_CONTEXT_WINDOW, known, Math.floor(refused / 2)));
}

/**
 * The input limit a request is trimmed under, from the published one (model data, estimate) and the window: the
 * learned ceiling while the published figures would still let the refused prompt through; once they would not (new
 * data, a smaller window), they explain the refusal and stand alone.
 */
export function learnedInputLimit(inputLimit: number | undefined, contextWindow: number | undefined, learned: LearnedLimit | undefined): { inputLimit?: number; learned: boolean } {
  const { refused, ceiling } = learned ?? {};
  if (refused === undefined || ceiling === undefined) return { inputLimit, learned: false };
  const allowed = inputLimit ?? contextWindow;
  if ((allowed !== undefined && allowed < refused) || (inputLimit !== undefined && inputLimit <= ceiling)) return { inputLimit, learned: false };
  return { inputLimit: ceiling, learned: true };
}

export class LearnedLimits {
  private readonly limits: PerModel<LearnedLimit>;

  /** From the persisted map, already validated on load (validLearnedLimit below): no second check here. */
  constructor(saved: Readonly<Record<string, LearnedLimit>> = {}) {
    this.limits = new PerModel(saved);
  }

  get(model: string): LearnedLimit | undefined {
    return this.limits.get(model);
  }

  /** A window the endpoint named. True when this changes what we knew. */
  learnWindow(model: string, contextWindow: number): boolean {
    const prior = this.limits.get(model);
    if (prior?.window === contextWindow) return false;
    this.limits.set(model, { ...prior, window: contextWindow });
    return true;
  }

  /**
   * A prompt of `tokens` refused as too long, no number named. Undefined when it teaches nothing new (no larger
   * than a refusal already known, or too small to be a real limit): the caller then cuts one grid move more.
   */
  refuse(model: string, tokens: number): Refusal | undefined {
    const prior = this.limits.get(model) ?? {};
    if (!Number.isFinite(tokens) || tokens <= MIN_CONTEXT_WINDOW || (prior.refused !== undefined && tokens >= prior.refused)) return undefined;
    // A refusal below a prompt accepted before: what fitted then no longer does (the endpoint changed).
    const fits = prior.fits !== undefined && prior.fits < tokens ? prior.fits : undefined;
    const ceiling = ceilingAfter(Math.round(tokens), fits);
    this.limits.set(model, withoutUndefined({ ...prior, refused: Math.round(tokens), ceiling, fits }));
    return { ceiling, guess: fits === undefined || ceiling > fits };
  }

  /**
   * A prompt of `tokens` the endpoint answered. `ceiling` when that moved the learned ceiling (one at least the
   * refused size drops it), `fits` when only the largest accepted prompt grew, else undefined.
   */
  accept(model: string, tokens: number): 'ceiling' | 'fits' | undefined {
    if (!Number.isFinite(tokens) || tokens < 1) return undefined;
    const prior = this.limits.get(model) ?? {};
    const size = Math.round(tokens);
    const fits = Math.max(prior.fits ?? 0, size);
    if (prior.refused !== undefined && prior.ceiling !== undefined) {
      if (size >= prior.refused) return this.set(model, { window: prior.window, fits }, 'ceiling');
      if (size > prior.ceiling * (1 + REVISE_ABOVE)) return this.set(model, { ...prior, ceiling: size, fits }, 'ceiling');
    }
    return fits > (prior.fits ?? 0) ? this.set(model, { ...prior, fits }, 'fits') : undefined;
  }

  toJSON(): Record<string, LearnedLimit> {
    return this.limits.toJSON();
  }

  static fromJSON(value: Readonly<Record<string, LearnedLimit>>): LearnedLimits {
    return new LearnedLimits(value);
  }

  private set<T>(model: string, limit: LearnedLimit, result: T): T {
    this.limits.set(model, withoutUndefined(limit));
    return result;
  }
}

function withoutUndefined(limit: LearnedLimitRecord): LearnedLimit {
  return Object.fromEntries(Object.entries(limit).filter(([, value]) => value !== undefined)) as LearnedLimit;
}
