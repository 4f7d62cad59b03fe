/**
 * `<session id>.meta.json`, written beside a recording (src/vscode/requestRecorderFile.ts) and read by the session
 * report (core/report/recordedConversation.ts): what the recorder knew that the replay JSONL does not say — the
 * model and the budget the conversation had, so its replay lands on the real run's cuts. Writer and reader live
 * here together so a budget the writer can produce is always one the reader accepts: with the trim off the
 * budget and the byte ceiling are unbounded, written as null and read as "none" (the meta is still valid: the
 * model and the factors are kept).
 */
import type { Budget } from '../trim/budget';
import { isNonNegative, isRecord } from '../util/jsonFields';

export interface RecordingMeta {
  model: string;
  contextWindow?: number;
  /** The model's input limit, when below what the window leaves (absent in older files). */
  inputLimit?: number;
  reserve: number;
  /** Tokens the trim allowed; undefined when the trim was off (no budget). */
  budget?: number;
  /** The byte ceiling; undefined when the trim was off. */
  maxBytes?: number;
  /** Per request (JSONL line): API tokens per raw estimate the endpoint reported; null when it reported none. */
  factors: (number | null)[];
  /** Per request: the calibration and spread its trim used; null (or absent, in older files) when not known. */
  calibrations: ([number, number] | null)[];
}

/** The file's JSON form: unbounded numbers as null (JSON has no Infinity). */
export interface WrittenRecordingMeta {
  model: string;
  contextWindow?: number;
  /** The model's input limit, when below what the window leaves (absent in older files). */
  inputLimit?: number;
  reserve: number;
  budget: number | null;
  maxBytes: number | null;
  factors: (number | null)[];
  calibrations: ([number, number] | null)[];
}

const bounded = (n: number): number | null => (Number.isFinite(n) ? n : null);

/** The meta's fields for a request prepared with this budget (factors are the caller's). */
export function metaFields(model: string, budget: Pick<Budget, 'contextWindow' | 'inputLimit' | 'reserve' | 'tokens' | 'maxBytes'>): Omit<WrittenRecordingMeta, 'factors' | 'calibrations'> {
  return { model, contextWindow: budget.contextWindow, ...(budget.inputLimit !== undefined ? { inputLimit: budget.inputLimit } : {}), reserve: budget.reserve, budget: bounded(budget.tokens), maxBytes: bounded(budget.maxBytes) };
}

/** Absent or null (unbounded), else a finite number; false when it is neither. */
const optional = (v: unknown): number | undefined | false => (v === undefined || v === null ? undefined : isNonNegative(v) ? v : false);

export function parseRecordingMeta(text: string | undefined): RecordingMeta | undefined {
  let value: unknown;
  try {
    value = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || typeof value.model !== 'string' || !isNonNegative(value.reserve)) return undefined;
  const budget = optional(value.budget);
  const maxBytes = optional(value.maxBytes);
  const contextWindow = optional(value.contextWindow);
  const inputLimit = optional(value.inputLimit);
  if (budget === false || maxBytes === false || contextWindow === false || inputLimit === false) return undefined;
  const factors = Array.isArray(value.factors) ? value.factors.map((f) => (isNonNegative(f) && f > 0 ? f : null)) : [];
  const pair = (c: unknown): [number, number] | null => (Array.isArray(c) && c.length === 2 && isNonNegative(c[0]) && c[0] > 0 && isNonNegative(c[1]) ? [c[0], c[1]] : null);
  const calibrations = Array.isArray(value.calibrations) ? value.calibrations.map(pair) : [];
  return { model: value.model.slice(0, 200), contextWindow, ...(inputLimit ? { inputLimit } : {}), reserve: value.reserve, budget, maxBytes, factors, calibrations };
}
