/**
 * How close each token count is to o200k on the kinds of text a history holds: our fast estimator, our
 * exact counter, and chars/4 (with and without the leading extension's +10%). Percent error is
 * (count − o200k) / o200k; negative = under-count, which is the dangerous direction for a budget.
 */
import { generateSample, type SampleKind } from '../../test/fixtures/textSamples';
import { estimateTextTokens } from '../../core/tokens/estimate';
import { countTokens } from '../../core/tokens/tokenCounter';
import { countTextTokens as o200kCount } from '../../cacheModel/valueTokens';
import { charsToTokens } from '../policies/charsEstimate';
import { timeMs } from '../speed/timing';
import { measurePathologicalCounts, type PathologicalRow } from './pathologicalCount';

export const ACCURACY_KINDS: readonly SampleKind[] = ['english', 'typescript', 'python', 'jsonPretty', 'jsonMinified', 'chinese', 'mixed'];
const SAMPLE_CHARS = 40_000;
const SAMPLE_SEED = 11;

export interface AccuracyRow {
  kind: SampleKind;
  chars: number;
  o200k: number;
  estimateErrorPct: number;
  exactErrorPct: number;
  chars4ErrorPct: number;
  chars4Plus10ErrorPct: number;
}

export interface TokenAccuracy {
  rows: AccuracyRow[];
  /** Throughput over all samples (MB of UTF-16 text per second). */
  estimateMBps: number;
  o200kMBps: number;
  /** Cost of the extension's count on pathological text, with the bar and the path before (pathologicalCount.ts). */
  pathological: PathologicalRow[];
}

const errorPct = (count: number, truth: number): number => ((count - truth) / truth) * 100;

export function measureTokenAccuracy(): TokenAccuracy {
  const samples = ACCURACY_KINDS.map((kind) => ({ kind, text: generateSample(kind, SAMPLE_CHARS, SAMPLE_SEED) }));
  const rows = samples.map(({ kind, text }): AccuracyRow => {
    const o200k = o200kCount(text);
    return {
      kind,
      chars: text.length,
      o200k,
      estimateErrorPct: errorPct(estimateTextTokens(text), o200k),
      exactErrorPct: errorPct(countTokens(text), o200k),
      chars4ErrorPct: errorPct(Math.ceil(text.length / 4), o200k),
      chars4Plus10ErrorPct: errorPct(charsToTokens(text.length), o200k),
    };
  });
  const megabytes = samples.reduce((sum, s) => sum + s.text.length, 0) / 1e6;
  const estimateMs = timeMs(() => samples.forEach((s) => estimateTextTokens(s.text)));
  const o200kMs = timeMs(() => samples.forEach((s) => o200kCount(s.text)));
  return { rows, estimateMBps: megabytes / (estimateMs / 1000), o200kMBps: megabytes / (o200kMs / 1000), pathological: measurePathologicalCounts() };
}
