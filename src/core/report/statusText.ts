/**
 * The status bar item's text, tooltip (markdown) and warning state, from the last observed request, the
 * settings in force and the OpenCode Go quota. Pure: the adapter (src/vscode/statusBar.ts) only copies these
 * strings onto a StatusBarItem.
 */
import type { HistoryTrimSettings } from '../config/settings';
import type { Quota } from '../quota/goUsage';
import { quotaLines, quotaWarning } from '../quota/quotaText';
import { formatUsd } from '../cost/requestCost';
import type { ConversationLog, RequestRecord } from './requestLog';
import { ROUTE_TRAITS } from '../routes/select/routeTraits';

export interface StatusView {
  text: string;
  tooltip: string;
  /** Why the item is in the warning colour, or undefined. */
  warning?: string;
}

/** A hit this low on a request whose cut held means the prefix changed (something broke the cache). */
export const COLLAPSED_HIT = 0.5;

/** 412_000 → "412K", 1_250_000 → "1.3M", 950 → "950". */
export function compactTokens(n: number): string {
  if (!Number.isFinite(n)) return '∞';
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
  if (n >= 1_000) return `${Math.round(n / 1_000)}K`;
  return String(Math.round(n));
}

export function percent(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}

/**
 * Text from outside (a model id comes from the endpoint) as Markdown that shows exactly that text: every ASCII
 * punctuation character backslash-escaped (CommonMark allows it before any of them), so a backtick, a bracket,
 * `![…](…)`, `<…>` or a table bar cannot open a code span, a link, a remote image or a cell; `https:`/`www.` lose
 * their autolink (the colon and dot are escaped); line breaks become spaces.
 */
export function markdownText(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ').replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}

/** Text from outside for a status bar label: `$(name)` would render as an icon; a backslash keeps it literal. */
export function labelText(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}

/** The model's short name: the id after its last slash, at most 24 characters. */
export function shortModelName(modelId: string): string {
  const short = modelId.slice(modelId.lastIndexOf('/') + 1);
  return short.length > 24 ? `${short.slice(0, 23)}…` : short;
}

const ROUTE_LABELS = new Map<string, string>(Object.entries(ROUTE_TRAITS).map(([route, traits]) => [route, traits.label]));

/** A route name for the tooltip and the report: the known four by name, anything else only its safe characters. */
export function routeLabel(route: string): string {
  return ROUTE_LABELS.get(route) ?? (route.replace(/[^A-Za-z0-9.-]/g, '').slice(0, 24) || 'unknown');
}

export function statusWarning(last: RequestRecord, previous: RequestRecord | undefined, quota?: Quota): string | undefined {
  if (last.overCeiling) return 'The last request was sent over budget (see the [history-trim] ERROR line).';
  if (previous && !last.cutMoved && last.cacheHit < COLLAPSED_HIT && previous.cacheHit >= COLLAPSED_HIT) {
    return `The cache hit fell to ${percent(last.cacheHit)} while the cut held: something changed the start of the prompt.`;
  }
  return quota ? quotaWarning(quota) : undefined;
}

export function statusText(last: RequestRecord): string {
  const fill = Number.isFinite(last.budget) ? `${compactTokens(last.promptTokens)}/${compactTokens(last.budget)}` : compactTokens(last.promptTokens);
  return `OpenCode ${labelText(shortModelName(last.modelId))} ${percent(last.cacheHit)} · ${fill}`;
}

/** `$0.0123`, or `≈$0.0123` when computed from list prices (the `[usage]` line's marks). */
function dollars(usd: number, computed: boolean): string {
  return `${computed ? '≈' : ''}${formatUsd(usd)}`;
}

/** The tooltip's money rows: the last request, the conversation so far, and warming apart (none when nothing is known). */
export function costRows(last: RequestRecord, conversation?: Pick<ConversationLog, 'spent' | 'warming'>): string[] {
  const rows: string[] = [];
  if (last.costUsd !== undefined) rows.push(`| cost | ${dollars(last.costUsd, last.costSource === 'computed')} |`);
  if (conversation?.spent) rows.push(`| conversation so far | ${dollars(conversation.spent.usd, conversation.spent.computed)} |`);
  if (conversation?.warming) rows.push(`| warming (${conversation.warming.requests} requests) | ${formatUsd(conversation.warming.costUsd)} |`);
  return rows;
}

export function statusTooltip(last: RequestRecord, trim: HistoryTrimSettings, quota?: Quota, warning?: string, conversation?: Pick<ConversationLog, 'spent' | 'warming'>): string {
  const lines = [
    `**OpenCode** · ${markdownText(last.modelId)}`,
    '',
    `| last request | |`,
    `|---|---:|`,
    `| prompt | ${last.promptTokens.toLocaleString('en-US')} |`,
    `| cached | ${last.cachedTokens.toLocaleString('en-US')} (${percent(last.cacheHit)}) |`,
    `| completion | ${last.completionTokens.toLocaleString('en-US')} |`,
    `| budget | ${Number.isFinite(last.budget) ? last.budget.toLocaleString('en-US') : 'no trim'} |`,
    `| headroom · cut step | ${last.headroom.toLocaleString('en-US')} · ${last.cutStep.toLocaleString('en-US')} |`,
    ...(last.route ? [`| route | ${routeLabel(last.route)} |`] : []),
    ...costRows(last, conversation),
    '',
    last.removed > 0
      ? `Cut ${last.cutMoved ? '**moved**' : 'held'}: ${last.removed} older message(s) not sent.`
      : 'Whole history sent.',
    `Settings now: headroom ratio ${trim.headroomRatio} (${trim.headroomMinTokens}…${trim.headroomMaxTokens}), cut step ${trim.cutStepTokens}${trim.enabled ? '' : ', trim **off**'}.`,
  ];
  if (quota) lines.push('', ...quotaLines(quota));
  if (warning) lines.push('', `⚠ ${warning}`);
  lines.push('', 'Click for the session report.');
  return lines.join('\n');
}

export function statusView(last: RequestRecord, previous: RequestRecord | undefined, trim: HistoryTrimSettings, quota?: Quota, conversation?: Pick<ConversationLog, 'spent' | 'warming'>): StatusView {
  const warning = statusWarning(last, previous, quota);
  return { text: statusText(last), tooltip: statusTooltip(last, trim, quota, warning, conversation), warning };
}
