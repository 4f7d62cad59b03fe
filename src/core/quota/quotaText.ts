/** How the quota reads: three meters for the tooltip and the report, a warning, and the limit sentence. */
import { limitingWindow, type Quota, type QuotaWindow } from './goUsage';

/** Above this share of any window the status bar turns to the warning colour. */
export const WARN_PERCENT = 90;
const METER_CELLS = 10;

export function meter(percent: number): string {
  const full = Math.round((Math.min(100, Math.max(0, percent)) / 100) * METER_CELLS);
  return '█'.repeat(full) + '░'.repeat(METER_CELLS - full);
}

/** "2026-12-01 14:05 UTC"; the raw text when it is not a date. */
export function formatReset(resetsAt: string | undefined): string {
  if (!resetsAt) return 'unknown';
  const t = Date.parse(resetsAt);
  if (Number.isNaN(t)) return resetsAt;
  return `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function windowLine(w: QuotaWindow): string {
  const status = w.status === 'rate-limited' ? ' **rate-limited**' : w.status === 'unknown' ? ' (status unknown)' : '';
  return `\`${w.name.padEnd(7)} ${meter(w.percent)} ${String(Math.round(w.percent)).padStart(3)}%\`${status} · resets ${formatReset(w.resetsAt)}`;
}

export function quotaLines(quota: Quota): string[] {
  if (quota.state === 'unknown') return [`OpenCode Go quota: unknown (${quota.reason}).`];
  return ['OpenCode Go quota:', '', ...quota.windows.map((w) => `${windowLine(w)}  `)];
}

export function quotaWarning(quota: Quota): string | undefined {
  if (quota.state !== 'known') return undefined;
  const high = quota.windows.filter((w) => w.percent > WARN_PERCENT || w.status === 'rate-limited');
  if (high.length === 0) return undefined;
  return `OpenCode Go quota: ${high.map((w) => `${w.name} ${Math.round(w.percent)}%`).join(', ')} used.`;
}

/** For a request refused by the Go usage limit: which window, and when it resets. */
export function limitSentence(quota: Quota | undefined): string | undefined {
  if (!quota || quota.state !== 'known') return undefined;
  const w = limitingWindow(quota.windows);
  if (!w) return undefined;
  return `Your OpenCode Go ${w.name} usage limit is reached (${Math.round(w.percent)}%); it resets ${formatReset(w.resetsAt)}.`;
}
