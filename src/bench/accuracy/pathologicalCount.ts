/**
 * Token counting on pathological text: what `provideTokenCount`'s exact count costs per 100K
 * characters through the extension's path (countTokensUnmemoized, tokenCounter.ts), against the bar of 50 ms, side
 * by side with the path before (the whole text handed to gpt-tokenizer), timed on a shorter text because it is
 * quadratic there (its 100K figure would be minutes for the whole table). Each timing is a fresh seed, so neither
 * path is helped by the encoder's merge cache.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the encoder itself, as the old path called it
import o200k = require('gpt-tokenizer/cjs/encoding/o200k_base');
import { countTokensUnmemoized } from '../../core/tokens/tokenCounter';
import { BASE64_ALPHABET, generateSample, randomText } from '../../test/fixtures/textSamples';
import { median } from '../metrics/stats';
import { timeMs } from '../speed/timing';

export const COUNT_BAR_MS_PER_100K = 50;
const CHARS = 100_000;
/** The old path's text: long enough to show the quadratic, short enough to time. */
export const BEFORE_CHARS = 20_000;
const RUNS = 3;

export interface PathologicalRow {
  text: string;
  /** Median ms per 100K characters through the extension's count. */
  msPer100K: number;
  pass: boolean;
  /** The old path: ms for BEFORE_CHARS characters. */
  beforeMs: number;
  /** Ours vs the exact count on the BEFORE_CHARS text (percent). */
  errorPct: number;
}

const words = (n: number, seed: number): string => randomText(n, 'abcdefghijklmnopqrstuvwxyz    ', seed).replace(/ {2,}/g, ' ');

const KINDS: [string, (n: number, seed: number) => string][] = [
  ['one letter repeated', (n, seed) => String.fromCharCode(97 + (seed % 26)).repeat(n)],
  ['spaces', (n, seed) => ' '.repeat(n - 1) + String.fromCharCode(97 + (seed % 26))],
  ['DNA line (ACGT)', (n, seed) => randomText(n, 'ACGT', seed)],
  ['base64, one line', (n, seed) => randomText(n, BASE64_ALPHABET, seed)],
  ['base64, 76-char lines', (n, seed) => randomText(n, BASE64_ALPHABET, seed).replace(/(.{76})/g, '$1\n')],
  ['random words', words],
  ['TypeScript (ordinary)', (n, seed) => generateSample('typescript', n, seed)],
  ['pretty JSON (ordinary)', (n, seed) => generateSample('jsonPretty', n, seed)],
];

const exactWhole = (text: string): number => o200k.countTokens(text, { disallowedSpecial: new Set<string>() });

export function measurePathologicalCounts(): PathologicalRow[] {
  countTokensUnmemoized('warm the tokenizer up');
  return KINDS.map(([text, make]) => {
    const times = Array.from({ length: RUNS }, (_, run) => {
      const sample = make(CHARS, 100 + run);
      return (timeMs(() => countTokensUnmemoized(sample)) * 100_000) / sample.length;
    });
    const short = make(BEFORE_CHARS, 7);
    let exact = 0;
    const beforeMs = timeMs(() => (exact = exactWhole(short)));
    const ours = countTokensUnmemoized(short);
    const msPer100K = median(times);
    return { text, msPer100K, pass: msPer100K <= COUNT_BAR_MS_PER_100K, beforeMs, errorPct: exact > 0 ? ((ours - exact) / exact) * 100 : 0 };
  });
}
