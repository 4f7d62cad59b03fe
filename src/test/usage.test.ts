import * as assert from 'assert';
import type { NormalizedUsage } from '../core/types';
import { normalizeUsage } from '../core/routes/chat/chatChunk';
import { cacheHitPercent, formatUsageLine, usageDataPartPayload } from '../core/usage/usage';

function usage(raw: unknown): NormalizedUsage {
  const normalized = normalizeUsage(raw);
  assert.ok(normalized, `recognised: ${JSON.stringify(raw)}`);
  return normalized;
}

describe('normalizeUsage', () => {
  it('reads OpenAI chat completions (cached inside prompt_tokens)', () => {
    assert.deepStrictEqual(
      usage({ prompt_tokens: 614077, completion_tokens: 812, total_tokens: 614889, prompt_tokens_details: { cached_tokens: 69888 } }),
      { shape: 'openai', contextTokens: 614077, cachedTokens: 69888, cacheWriteTokens: 0, completionTokens: 812, totalTokens: 614889 },
    );
  });

  it('reads GLM / Qwen, which look like OpenAI, including a null details object', () => {
    const glm = usage({ prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500, prompt_tokens_details: { cached_tokens: 1024 } });
    assert.deepStrictEqual([glm.shape, glm.contextTokens, glm.cachedTokens], ['openai', 1200, 1024]);
    const qwen = usage({ prompt_tokens: 900, completion_tokens: 100, total_tokens: 1000, prompt_tokens_details: null });
    assert.deepStrictEqual([qwen.shape, qwen.contextTokens, qwen.cachedTokens], ['openai', 900, 0]);
  });

  it('reads Kimi cached_tokens at the top level', () => {
    const kimi = usage({ prompt_tokens: 5000, completion_tokens: 100, total_tokens: 5100, cached_tokens: 4096 });
    assert.deepStrictEqual([kimi.shape, kimi.contextTokens, kimi.cachedTokens], ['openai', 5000, 4096]);
  });

  it('reads DeepSeek hit/miss: hit is the cached part', () => {
    assert.deepStrictEqual(
      usage({ prompt_tokens: 10000, completion_tokens: 500, total_tokens: 10500, prompt_cache_hit_tokens: 9000, prompt_cache_miss_tokens: 1000 }),
      { shape: 'deepseek', contextTokens: 10000, cachedTokens: 9000, cacheWriteTokens: 0, completionTokens: 500, totalTokens: 10500 },
    );
    const withoutPromptTokens = usage({ prompt_cache_hit_tokens: 7000, prompt_cache_miss_tokens: 3000, completion_tokens: 20 });
    assert.deepStrictEqual([withoutPromptTokens.contextTokens, withoutPromptTokens.totalTokens], [10000, 10020]);
  });

  it('reads Anthropic: context = input + cache read + cache write, cached = read', () => {
    assert.deepStrictEqual(
      usage({ input_tokens: 20, cache_read_input_tokens: 150000, cache_creation_input_tokens: 3000, output_tokens: 700 }),
      { shape: 'anthropic', contextTokens: 153020, cachedTokens: 150000, cacheWriteTokens: 3000, completionTokens: 700, totalTokens: 153720 },
    );
    const noCache = usage({ input_tokens: 1000, output_tokens: 50 });
    assert.deepStrictEqual([noCache.shape, noCache.contextTokens, noCache.totalTokens], ['anthropic', 1000, 1050]);
  });

  it('reads an OpenAI-compatible gateway in front of Anthropic: prompt_tokens is already inclusive', () => {
    const wrapped = usage({ prompt_tokens: 50000, completion_tokens: 10, cache_read_input_tokens: 45000, cache_creation_input_tokens: 2000 });
    assert.deepStrictEqual(
      [wrapped.shape, wrapped.contextTokens, wrapped.cachedTokens, wrapped.cacheWriteTokens],
      ['openai', 50000, 45000, 2000],
    );
  });

  it('reads the Responses API (input includes cached)', () => {
    assert.deepStrictEqual(
      usage({
        input_tokens: 8000, input_tokens_details: { cached_tokens: 6144 },
        output_tokens: 900, output_tokens_details: { reasoning_tokens: 600 }, total_tokens: 8900,
      }),
      { shape: 'responses', contextTokens: 8000, cachedTokens: 6144, cacheWriteTokens: 0, completionTokens: 900, totalTokens: 8900 },
    );
  });

  it('reads Gemini, snake_case and camelCase, thinking counted as output', () => {
    assert.deepStrictEqual(
      usage({ prompt_token_count: 12000, cached_content_token_count: 8000, candidates_token_count: 400, total_token_count: 12400 }),
      { shape: 'gemini', contextTokens: 12000, cachedTokens: 8000, cacheWriteTokens: 0, completionTokens: 400, totalTokens: 12400 },
    );
    const camel = usage({ promptTokenCount: 3000, cachedContentTokenCount: 1000, candidatesTokenCount: 200, thoughtsTokenCount: 100 });
    assert.deepStrictEqual([camel.contextTokens, camel.cachedTokens, camel.completionTokens, camel.totalTokens], [3000, 1000, 300, 3300]);
  });

  it('treats missing, negative, NaN, infinite and non-numeric values as 0', () => {
    assert.deepStrictEqual(
      usage({ prompt_tokens: -5, completion_tokens: NaN, total_tokens: Infinity, prompt_tokens_details: { cached_tokens: 'twelve' } }),
      { shape: 'openai', contextTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 0, totalTokens: 0 },
    );
    assert.deepStrictEqual(usage({ completion_tokens: 7 }).totalTokens, 7);
  });

  it('never lets cached exceed the context, and never by clamping the reads: the prompt is read as excluding them', () => {
    const openai = usage({ prompt_tokens: 100, prompt_tokens_details: { cached_tokens: 500 } });
    assert.deepStrictEqual([openai.contextTokens, openai.cachedTokens], [600, 500]);
    const deepseek = usage({ prompt_tokens: 100, prompt_cache_hit_tokens: 400, prompt_cache_miss_tokens: 0 });
    assert.deepStrictEqual([deepseek.contextTokens, deepseek.cachedTokens], [500, 400]);
  });

  it('computes the total when none is given', () => {
    assert.strictEqual(usage({ prompt_tokens: 1000, completion_tokens: 234 }).totalTokens, 1234);
  });

  it('returns undefined for non-objects and objects without a usage field', () => {
    for (const raw of [undefined, null, 42, 'usage', true, [], [{ prompt_tokens: 1 }], {}, { foo: 1 }, { prompt_tokens: null }]) {
      assert.strictEqual(normalizeUsage(raw), undefined, JSON.stringify(raw));
    }
  });
});

describe('formatUsageLine', () => {
  it('prints the exact line users grep for', () => {
    const u = usage({ prompt_tokens: 614077, completion_tokens: 812, total_tokens: 614889, prompt_tokens_details: { cached_tokens: 69888 } });
    assert.strictEqual(formatUsageLine(u), '[usage] prompt=614077 completion=812 total=614889 cached=69888 cacheHit=11.4%');
  });

  it('divides Anthropic reads by all context tokens, so a large read stays under 100%', () => {
    // Dividing by input_tokens alone (20) would print 750000.0%.
    const u = usage({ input_tokens: 20, cache_read_input_tokens: 150000, cache_creation_input_tokens: 3000, output_tokens: 700 });
    assert.strictEqual(formatUsageLine(u), '[usage] prompt=153020 completion=700 total=153720 cached=150000 cacheHit=98.0%');
  });

  it('prints 0.0% for an empty prompt and caps a malformed record at 100.0%', () => {
    const empty: NormalizedUsage = { shape: 'openai', contextTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 5, totalTokens: 5 };
    assert.strictEqual(formatUsageLine(empty), '[usage] prompt=0 completion=5 total=5 cached=0 cacheHit=0.0%');
    const malformed: NormalizedUsage = { ...empty, contextTokens: 10, cachedTokens: 30 };
    assert.strictEqual(cacheHitPercent(malformed), 100);
    assert.match(formatUsageLine(malformed), /cacheHit=100\.0%$/);
  });

  it('prints 100.0% for a fully cached prompt', () => {
    assert.match(formatUsageLine(usage({ prompt_tokens: 4096, prompt_tokens_details: { cached_tokens: 4096 } })), /cacheHit=100\.0%$/);
  });
});

describe('usageDataPartPayload', () => {
  it('reports context tokens as prompt_tokens in OpenAI field names', () => {
    const u = usage({ input_tokens: 20, cache_read_input_tokens: 150000, cache_creation_input_tokens: 3000, output_tokens: 700 });
    assert.deepStrictEqual(usageDataPartPayload(u), {
      prompt_tokens: 153020,
      completion_tokens: 700,
      total_tokens: 153720,
      prompt_tokens_details: { cached_tokens: 150000 },
    });
  });
});
