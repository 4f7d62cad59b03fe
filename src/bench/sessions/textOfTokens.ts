/**
 * Text of about N o200k tokens of a given kind, from the seeded fixture generators. The generators are
 * sized in characters, so each kind's characters-per-token ratio is measured once on a sample — counted
 * as a JSON string, since the provider (and the cache model) tokenizes the escaped request body. The
 * session generator measures real sizes with the exact count, so this only needs to be close.
 */
import { generateSample, SAMPLE_KINDS, type SampleKind, type SeededRandom } from '../../test/fixtures/textSamples';
import type { Weights } from './regimes';

export type CharsPerToken = Record<SampleKind, number>;

const CALIBRATION_SAMPLE_CHARS = 24_000;

export function measureCharsPerToken(countText: (text: string) => number): CharsPerToken {
  const ratios = {} as CharsPerToken;
  for (const kind of SAMPLE_KINDS) {
    const sample = generateSample(kind, CALIBRATION_SAMPLE_CHARS, 97);
    ratios[kind] = sample.length / Math.max(1, countText(JSON.stringify(sample)));
  }
  return ratios;
}

export class TextSource {
  private nextSeed: number;

  constructor(private readonly ratios: CharsPerToken, seed: number) {
    this.nextSeed = seed * 100_003;
  }

  text(kind: SampleKind, tokens: number): string {
    return generateSample(kind, Math.max(8, Math.round(tokens * this.ratios[kind])), this.nextSeed++);
  }
}

export function pickWeighted(rng: SeededRandom, weights: Weights): SampleKind {
  const entries = Object.entries(weights) as [SampleKind, number][];
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let roll = rng.next() * total;
  for (const [kind, weight] of entries) {
    roll -= weight;
    if (roll < 0) return kind;
  }
  return entries[entries.length - 1][0];
}
