/**
 * The refusal regime in the benchmark's reports (src/bench/refusals/refusalRegime.ts): the rule before, the learned
 * ceiling and the data's input limit, side by side, conversation by conversation.
 */
import type { ConversationFigures, RefusalRegimeResult, RefusalVariant } from '../refusals/refusalRegime';

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const thousands = (x: number): string => `${Math.round(x / 1000).toLocaleString('en-US')}K`;
const each = (v: RefusalVariant, pick: (c: ConversationFigures) => number | string): string => v.conversations.map(pick).join(' / ');
const total = (v: RefusalVariant, pick: (c: ConversationFigures) => number): number => v.conversations.reduce((sum, c) => sum + pick(c), 0);

/** The Markdown section: what was simulated, one row per rule. */
export function refusalsMarkdown(result: RefusalRegimeResult): string {
  const s = result.spec;
  const rows = result.variants.map((v) => `| ${v.label} | ${total(v, (c) => c.refusals)} (${each(v, (c) => c.refusals)}) | ${total(v, (c) => c.failed)} | ${each(v, (c) => c.cutMoves)} | ${each(v, (c) => pct(c.meanHit))} | ${each(v, (c) => thousands(c.meanPrompt))} |`);
  return [
    '## Refusal regime: a true input limit below the data',
    '',
    `${s.title}. The data says a ${s.window.toLocaleString('en-US')}-token window (max output ${s.maxOutputTokens.toLocaleString('en-US')}, so`,
    `a budget of window − 20,000 reserve); the endpoint refuses every prompt above ${s.trueInputLimit.toLocaleString('en-US')} tokens with a refusal that`,
    `names no number (nothing cached, nothing answered). ${s.conversations} conversations one after the other on the same model, each`,
    `pre-filled to ${thousands(s.prefillTokens)} and growing ~${s.growthTokens.toLocaleString('en-US')} tokens a request for ${s.requests} requests, on the prefix`,
    'cache model. "before": the rule this extension had (one extra grid move and one retry per refusal, a second',
    'refusal fails the request, nothing remembered); "learned": the ceiling from the refused size and the largest',
    'accepted prompt (core/models/learnedLimits.ts), kept for later conversations; "data": models.dev gives the input',
    'limit. Figures per conversation are separated by " / ".',
    '',
    '| rule | refusals | failed requests | cut moves | mean cache hit | mean prompt |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** The same figures for stdout. */
export function refusalsText(result: RefusalRegimeResult): string {
  return result.variants
    .map((v) => `  ${v.label}: refusals ${each(v, (c) => c.refusals)}, failed ${total(v, (c) => c.failed)}, cut moves ${each(v, (c) => c.cutMoves)}, hit ${each(v, (c) => pct(c.meanHit))}, mean prompt ${each(v, (c) => thousands(c.meanPrompt))}`)
    .join('\n');
}
