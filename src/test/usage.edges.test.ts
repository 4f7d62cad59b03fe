/**
 * Usage edge cases found by the adversarial probe and the gateways that pass Anthropic's cache
 * fields through an OpenAI-compatible route: numeric strings, Gemini's tool-use prompt,
 * chunk-level usageMetadata, trailing usage frames that merge, and prompt_tokens that exclude the cache reads.
 */
import * as assert from 'assert';
import { routeById } from '../core/routes/registry/registry';
import type { NormalizedUsage } from '../core/types';
import { mergeUsage, formatUsageLine } from '../core/usage/usage';
import { normalizeUsage, readUsage } from '../core/routes/chat/chatChunk';

function usage(raw: unknown): NormalizedUsage {
  const normalized = normalizeUsage(raw);
  assert.ok(normalized, `no usage read from ${JSON.stringify(raw)}`);
  return normalized;
}

/** The answer's usage after a stream of payloads, read as the transport reads them (the chat route's reader). */
function streamedUsage(...chunks: Record<string, unknown>[]): NormalizedUsage | undefined {
  const reader = routeById('chat').newReader();
  for (const chunk of chunks) reader.push(JSON.stringify(chunk));
  return reader.result().usage;
}

describe('usage edge cases', () => {
  it('counts numeric strings as numbers (they counted as 0)', () => {
    const u = usage({ prompt_tokens: '1200', completion_tokens: ' 34 ', prompt_tokens_details: { cached_tokens: '1024' } });
    assert.deepStrictEqual([u.contextTokens, u.completionTokens, u.cachedTokens, u.totalTokens], [1200, 34, 1024, 1234]);
    assert.strictEqual(usage({ prompt_tokens: '12abc', completion_tokens: '1e3' }).contextTokens, 0);
  });

  it("counts Gemini's toolUsePromptTokenCount as prompt (it is reported apart from promptTokenCount)", () => {
    const u = usage({ promptTokenCount: 1000, toolUsePromptTokenCount: 250, candidatesTokenCount: 40, cachedContentTokenCount: 600, totalTokenCount: 1290 });
    assert.deepStrictEqual([u.contextTokens, u.cachedTokens, u.completionTokens, u.totalTokens], [1250, 600, 40, 1290]);
    assert.strictEqual(usage({ tool_use_prompt_token_count: 7 }).contextTokens, 7);
  });

  it('reads chunk-level usageMetadata (a Gemini-style gateway) as the usage of the chunk', () => {
    const u = streamedUsage({ choices: [], usageMetadata: { promptTokenCount: 900, candidatesTokenCount: 12 } });
    assert.deepStrictEqual(u && [u.shape, u.contextTokens, u.completionTokens], ['gemini', 900, 12]);
  });

  it('merges a trailing usage frame with only output tokens instead of replacing (the context stayed, not 0)', () => {
    const u = streamedUsage(
      { choices: [{ delta: { content: 'hi' } }], usage: { input_tokens: 30, cache_read_input_tokens: 5000, cache_creation_input_tokens: 70, output_tokens: 1 } },
      { choices: [{ delta: {}, finish_reason: 'stop' }] },
      { choices: [], usage: { output_tokens: 42 } },
    );
    assert.deepStrictEqual(u && [u.contextTokens, u.cachedTokens, u.completionTokens], [5100, 5000, 42]);
  });

  it('merge: a null or absent field keeps the earlier value; a present one replaces it (cumulative counts)', () => {
    assert.deepStrictEqual(mergeUsage({ a: 1, b: 2 }, { b: 3, c: null }), { a: 1, b: 3 });
    assert.deepStrictEqual(mergeUsage(undefined, { a: 1 }), { a: 1 });
  });
});

describe('prompt_tokens that exclude the cache reads (OpenAI-compatible gateways passing Anthropic fields through)', () => {
  it('reads reads above the prompt as excluded: the real context, cacheHit below 100%, and an anomaly to warn about', () => {
    // Before: context 2,000, cached clamped to 2,000, cacheHit=100.0%: the overflow sensor saw 2% of the context.
    const reading = readUsage({ prompt_tokens: 2000, completion_tokens: 300, cache_read_input_tokens: 95_000, cache_creation_input_tokens: 1000 });
    assert.ok(reading);
    assert.deepStrictEqual([reading.usage.contextTokens, reading.usage.cachedTokens, reading.usage.cacheWriteTokens], [98_000, 95_000, 1000]);
    assert.match(formatUsageLine(reading.usage), /prompt=98000 .* cached=95000 cacheHit=96\.9%$/);
    assert.match(reading.anomaly ?? '', /more cache reads and writes \(96000\) than prompt tokens \(2000\).*context = 98000/);
  });

  it('reads a prompt that provably excludes the cache (total = prompt + reads + writes + completion) as excluding it, with no anomaly', () => {
    const reading = readUsage({ prompt_tokens: 2000, completion_tokens: 300, total_tokens: 2000 + 1500 + 500 + 300, cache_read_input_tokens: 1500, cache_creation_input_tokens: 500 });
    assert.deepStrictEqual(reading && [reading.usage.contextTokens, reading.usage.cachedTokens, reading.anomaly], [4000, 1500, undefined]);
  });

  it('keeps an inclusive prompt (the usual gateway) as it is', () => {
    const reading = readUsage({ prompt_tokens: 5000, completion_tokens: 300, total_tokens: 5300, cache_read_input_tokens: 4000 });
    assert.deepStrictEqual(reading && [reading.usage.contextTokens, reading.usage.cachedTokens, reading.anomaly], [5000, 4000, undefined]);
  });
});
