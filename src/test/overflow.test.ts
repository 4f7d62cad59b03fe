import * as assert from 'assert';
import type { NormalizedUsage } from '../core/types';
import { normalizeUsage } from '../core/routes/chat/chatChunk';
import { DEFAULT_RESERVED_OUTPUT_TOKENS, overflowLine, isOverflowing, usableTokens } from '../core/trim/budget';

function usage(raw: object): NormalizedUsage {
  const normalized = normalizeUsage(raw);
  assert.ok(normalized, `recognised: ${JSON.stringify(raw)}`);
  return normalized;
}

const LIMIT = 200_000;
const USABLE = LIMIT - DEFAULT_RESERVED_OUTPUT_TOKENS; // 180,000

describe('usableTokens', () => {
  it('keeps the default 20,000-token output reserve free', () => {
    assert.strictEqual(DEFAULT_RESERVED_OUTPUT_TOKENS, 20_000);
    assert.strictEqual(usableTokens(LIMIT), 180_000);
    assert.strictEqual(usableTokens(LIMIT, 50_000), 150_000);
  });

  it('is 0, not negative, when the window is smaller than the reserve', () => {
    assert.strictEqual(usableTokens(8_000), 0);
    assert.strictEqual(usableTokens(20_000), 0);
    const empty = usage({ prompt_tokens: 0, completion_tokens: 0 });
    assert.strictEqual(isOverflowing(empty, 8_000), true);
  });
});

describe('context tokens used', () => {
  it('counts Anthropic cache reads and writes, never output', () => {
    const u = usage({ input_tokens: 40_000, cache_read_input_tokens: 60_000, cache_creation_input_tokens: 80_000, output_tokens: 9_000 });
    assert.strictEqual(u.contextTokens, 180_000);
    assert.strictEqual(isOverflowing(u, 200_000), true, '180K used of 180K usable');
    assert.strictEqual(isOverflowing(usage({ input_tokens: 40_000, cache_read_input_tokens: 60_000, cache_creation_input_tokens: 79_999, output_tokens: 9_000 }), 200_000), false);
  });
});

describe('isOverflowing', () => {
  const justUnder = USABLE - 1;

  const shapes: Array<[string, (used: number) => object]> = [
    ['openai', (used) => ({ prompt_tokens: used, completion_tokens: 5_000, prompt_tokens_details: { cached_tokens: used / 2 } })],
    ['kimi', (used) => ({ prompt_tokens: used, completion_tokens: 5_000, cached_tokens: 1_024 })],
    ['deepseek', (used) => ({ prompt_cache_hit_tokens: used - 1_000, prompt_cache_miss_tokens: 1_000, completion_tokens: 5_000 })],
    ['anthropic', (used) => ({ input_tokens: used - 140_000, cache_read_input_tokens: 60_000, cache_creation_input_tokens: 80_000, output_tokens: 5_000 })],
    ['responses', (used) => ({ input_tokens: used, input_tokens_details: { cached_tokens: 4_096 }, output_tokens: 5_000, total_tokens: used + 5_000 })],
    ['gemini', (used) => ({ prompt_token_count: used, cached_content_token_count: 10_000, candidates_token_count: 5_000 })],
  ];

  for (const [name, rawWithContext] of shapes) {
    it(`${name}: compacts at exactly the usable size (>=), not one token before`, () => {
      assert.strictEqual(isOverflowing(usage(rawWithContext(USABLE)), LIMIT), true);
      assert.strictEqual(isOverflowing(usage(rawWithContext(justUnder)), LIMIT), false);
      assert.strictEqual(isOverflowing(usage(rawWithContext(USABLE + 1)), LIMIT), true);
    });
  }

  it('anthropic: sees the cache that input_tokens alone would hide', () => {
    // input_tokens is only 40,000, far under 180,000: a naive check would not compact.
    const u = usage({ input_tokens: 40_000, cache_read_input_tokens: 60_000, cache_creation_input_tokens: 80_000, output_tokens: 100 });
    assert.strictEqual(isOverflowing(u, LIMIT), true);
  });

  it('ignores output tokens, however many', () => {
    const u = usage({ input_tokens: justUnder, input_tokens_details: { cached_tokens: 0 }, output_tokens: 100_000, total_tokens: justUnder + 100_000 });
    assert.strictEqual(isOverflowing(u, LIMIT), false);
  });

  it('honours a custom reserve', () => {
    const u = usage({ prompt_tokens: 150_000, completion_tokens: 1 });
    assert.strictEqual(isOverflowing(u, LIMIT), false);
    assert.strictEqual(isOverflowing(u, LIMIT, 50_000), true);
  });
});

describe('overflowLine', () => {
  it('prints used, usable, limit and reserve', () => {
    assert.strictEqual(overflowLine(180_500, 180_000, 200_000, 20_000), '[overflow] used=180500 usable=180000 limit=200000 reserved=20000');
  });
});
