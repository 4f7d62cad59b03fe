import { isRecord } from '../util/jsonFields';
/**
 * OpenCode Go's quota, as `GET <go base>/usage` (Bearer key) answers it:
 * `{ "usage": { "rolling" | "weekly" | "monthly": { "status": "ok" | "rate-limited", "percent": 0-100,
 * "resetsAt": ISO-8601 } } }`. Parsing never throws: a malformed answer is a reason, not an exception.
 */

export const WINDOW_NAMES = ['rolling', 'weekly', 'monthly'] as const;
export type WindowName = (typeof WINDOW_NAMES)[number];

export interface QuotaWindow {
  name: WindowName;
  /** 'unknown' when the endpoint sent a status this version does not know. */
  status: 'ok' | 'rate-limited' | 'unknown';
  /** 0…100. */
  percent: number;
  /** ISO-8601, or undefined when missing or not a date. */
  resetsAt?: string;
}

export type Quota =
  | { state: 'known'; windows: QuotaWindow[]; at: number }
  | { state: 'unknown'; reason: string; at: number };

export type ParsedUsage = { ok: true; windows: QuotaWindow[] } | { ok: false; reason: string };

function parseWindow(name: WindowName, raw: unknown): QuotaWindow | string {
  if (!isRecord(raw)) return `"${name}" is not an object`;
  const percent = raw.percent;
  if (typeof percent !== 'number' || !Number.isFinite(percent)) return `"${name}.percent" is not a number`;
  const status = raw.status === 'ok' || raw.status === 'rate-limited' ? raw.status : 'unknown';
  const resetsAt = typeof raw.resetsAt === 'string' && !Number.isNaN(Date.parse(raw.resetsAt)) ? raw.resetsAt : undefined;
  return { name, status, percent: Math.min(100, Math.max(0, percent)), resetsAt };
}

export function parseGoUsage(body: unknown): ParsedUsage {
  if (!isRecord(body) || !isRecord(body.usage)) return { ok: false, reason: 'the answer has no "usage" object' };
  const windows: QuotaWindow[] = [];
  const problems: string[] = [];
  for (const name of WINDOW_NAMES) {
    if (!(name in body.usage)) continue;
    const parsed = parseWindow(name, body.usage[name]);
    if (typeof parsed === 'string') problems.push(parsed);
    else windows.push(parsed);
  }
  if (windows.length === 0) return { ok: false, reason: problems.length ? problems.join('; ') : 'the answer names no quota window' };
  return { ok: true, windows };
}

/** The window that stops requests: a rate-limited one, else the fullest at 100%. */
export function limitingWindow(windows: readonly QuotaWindow[]): QuotaWindow | undefined {
  const limited = windows.filter((w) => w.status === 'rate-limited' || w.percent >= 100);
  return limited.sort((a, b) => b.percent - a.percent)[0];
}
