/** The `[inline]` line, one per suggestion request: how it ended, its latency and the prompt cache's share. */
import type { InlineAnswer } from './inlineRequest';
import type { Scheduled } from './inlineScheduler';
import { outsideText } from '../util/excerpt';

export function inlineLogLine(modelId: string, result: Scheduled<InlineAnswer>): string | undefined {
  if (result.kind === 'skipped') return undefined;
  if (result.kind === 'cancelled') return `[inline] ${outsideText(modelId)}: cancelled after ${result.latencyMs} ms (the user typed on).`;
  if (result.kind === 'timeout') return `[inline] ${outsideText(modelId)}: dropped after ${result.latencyMs} ms (over the latency budget).`;
  if (result.kind === 'failed') return `[inline] ${outsideText(modelId)}: failed after ${result.latencyMs} ms (${result.error instanceof Error ? result.error.message : String(result.error)}).`;
  if (result.kind !== 'done') return undefined;
  const { text, usage, route } = result.value;
  const cache = usage && usage.contextTokens > 0
    ? `cache hit ${usage.cachedTokens}/${usage.contextTokens} tokens (${((100 * usage.cachedTokens) / usage.contextTokens).toFixed(1)}%)`
    : 'cache hit unknown (no usage)';
  return `[inline] ${outsideText(modelId)} via ${route ?? '?'}: ${result.latencyMs} ms, ${text.length} chars, ${cache}.`;
}
