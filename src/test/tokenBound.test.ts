/**
 * Counting tokens is bounded work whatever the text. The exact encoder (gpt-tokenizer) is
 * quadratic in one pre-token's length, so no pre-token longer than MAX_PIECE_CHARS may reach it, and random-looking
 * text (DNA, base64, one character repeated) is mostly estimated from exact samples. Checked on the encoder's
 * input (a spy on the o200k module), not on time: speed targets are in `npm run bench`. Ordinary text keeps its
 * exact count; pathological text stays within a few percent of it.
 */
import * as assert from 'assert';
import * as path from 'path';
import fc from 'fast-check';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- same spelling as src/core/tokens/o200k.ts
import o200kReference = require('gpt-tokenizer/cjs/encoding/o200k_base');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the library's own pre-token rule, to measure what it is fed
import splitRule = require('gpt-tokenizer/cjs/encodingParams/constants');
import { countTokens, MAX_PIECE_CHARS } from '../core/tokens/tokenCounter';
import { BASE64_ALPHABET, SAMPLE_KINDS, generateSample, randomText } from './fixtures/textSamples';
import { runs } from './support/propertyRuns';

const o200kPath = path.join(__dirname, '..', 'core', 'tokens', 'o200k.js');
const reference = (text: string): number => o200kReference.countTokens(text, { disallowedSpecial: new Set() });

function longestPreToken(text: string): number {
  let longest = 0;
  for (const [match] of text.matchAll(splitRule.O200K_TOKEN_SPLIT_REGEX)) longest = Math.max(longest, match.length);
  return longest;
}

/** What countTokens hands the exact encoder while `run` runs. */
function fedDuring<T>(run: () => T): { result: T; fed: string[] } {
  countTokens('load the tokenizer');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module object tokenCounter calls, to spy on it
  const o200k = require(o200kPath) as { countTextTokens(text: string): number };
  const original = o200k.countTextTokens;
  const fed: string[] = [];
  o200k.countTextTokens = (text: string): number => {
    fed.push(text);
    return original(text);
  };
  try {
    return { result: run(), fed };
  } finally {
    o200k.countTextTokens = original;
  }
}

const PATHOLOGICAL: [string, (n: number, seed: number) => string, boolean][] = [
  ['one letter', (n) => 'a'.repeat(n), true],
  ['spaces', (n) => ' '.repeat(n), false],
  ['a DNA line', (n, seed) => randomText(n, 'ACGT', seed), true],
  ['base64', (n, seed) => randomText(n, BASE64_ALPHABET, seed), true],
  ['base64 in 76-character lines', (n, seed) => randomText(n, BASE64_ALPHABET, seed).replace(/(.{76})/g, '$1\n'), true],
  ['one digit', (n) => '7'.repeat(n), false],
  ['a symbol', (n) => '='.repeat(n), false],
];

describe('token counting is bounded work whatever the text', function () {
  // Generous: the old encoder path takes 30 s on the first of these texts alone (a secondary check).
  this.timeout(30_000);

  for (const [name, make, random] of PATHOLOGICAL) {
    it(`${name} ×160K: no pre-token over ${MAX_PIECE_CHARS} characters reaches the exact encoder${random ? ', and little of it' : ''}`, () => {
      const text = make(160_000, 7);
      const { result, fed } = fedDuring(() => countTokens(text));
      assert.ok(result > 0);
      const longest = Math.max(...fed.map(longestPreToken));
      assert.ok(longest <= MAX_PIECE_CHARS, `a ${longest}-character pre-token went to the encoder`);
      const share = fed.reduce((sum, piece) => sum + piece.length, 0) / text.length;
      if (random) assert.ok(share <= 0.15, `${Math.round(share * 100)}% of the text went through the exact encoder`);
    });
  }

  it('pathological text: the count is within 5% of the exact one (at sizes the exact one can afford)', () => {
    for (const [name, make] of PATHOLOGICAL) {
      for (const seed of [1, 2]) {
        const text = make(4_096, seed);
        const exact = reference(text);
        const counted = countTokens(text);
        assert.ok(Math.abs(counted - exact) <= Math.max(2, 0.05 * exact), `${name}: ${counted} vs exact ${exact}`);
      }
    }
  });

  it('ordinary text of every sample kind keeps its exact count, at any size (JSON full of hashes and ids: within 1%)', () => {
    fc.assert(fc.property(fc.constantFrom(...SAMPLE_KINDS), fc.integer({ min: 200, max: 40_000 }), fc.integer({ min: 1, max: 1_000 }), (kind, length, seed) => {
      const text = generateSample(kind, length, seed);
      const [counted, exact] = [countTokens(text), reference(text)];
      // Hashes and UUIDs look random (and are costly to encode): those pieces are sampled, not all counted.
      if (kind.startsWith('json')) assert.ok(Math.abs(counted - exact) <= Math.max(1, 0.01 * exact), `${kind}, ${length} chars, seed ${seed}: ${counted} vs ${exact}`);
      else assert.strictEqual(counted, exact, `${kind}, ${length} chars, seed ${seed}`);
    }), { numRuns: runs(40), seed: 212 });
  });
});
