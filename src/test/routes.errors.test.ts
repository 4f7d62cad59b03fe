/**
 * OpenCode's own refusals reach the user as what is true (userFacingError.ts before the 401/403 → "key" rule),
 * are never retried, and a refused parameter is dropped under each route's own field name.
 */
import * as assert from 'assert';
import { APIError } from 'openai';
import { toUserFacingError } from '../core/request/userFacingError';
import { failureClass, nextRetryDelayMs } from '../core/request/retryPolicy';
import { resolveSettings } from '../core/config/settings';
import { refusedParamOf, withoutParams } from '../core/request/sendBody';

const context = { baseUrl: 'https://opencode.ai/zen/go/v1', model: 'glm-5' };
const apiError = (status: number, body: object, headers: Record<string, string> = {}) => new APIError(status, body, undefined, new Headers(headers));
const opencode = (type: string, message: string) => ({ type: 'error', error: { type, message } });

describe('OpenCode errors say what is true', () => {
  it('the wrong-format 401 is about the model\'s route, never the key', () => {
    const error = toUserFacingError(apiError(401, opencode('ModelError', 'Model claude-x is not supported for format oa-compat')), context);
    assert.notStrictEqual(error.kind, 'key');
    assert.match(error.message, /refused claude-x on every route the extension tried \(last: the "oa-compat" format\)/);
    assert.doesNotMatch(error.message, /another route/, 'every route was tried: "go to another route" would be false');
  });

  it('the free-tier 403 says it is usable only from the OpenCode app', () => {
    const error = toUserFacingError(apiError(403, opencode('FreeTierError', 'The free tier can only be used from within OpenCode')), context);
    assert.strictEqual(error.kind, 'model');
    assert.strictEqual(error.message, 'The free tier can only be used from within OpenCode', 'exactly what OpenCode says');
    assert.ok(!/API key/.test(error.message));
  });

  it('CreditsError says to add credits; GoUsageLimitError says when it resets, and neither is retried', () => {
    const credits = apiError(402, opencode('CreditsError', 'Insufficient balance. Add credits at https://opencode.ai/billing.'));
    assert.match(toUserFacingError(credits, context).message, /Add credits at https:\/\/opencode\.ai\/billing/);
    const limit = apiError(429, opencode('GoUsageLimitError', 'Weekly usage limit reached.'), { 'retry-after': '7200' });
    const sentence = toUserFacingError(limit, context);
    assert.strictEqual(sentence.kind, 'quota');
    assert.match(sentence.message, /weekly usage limit; it resets in 2 h/);
    assert.strictEqual(failureClass(limit), 'final');
    assert.strictEqual(nextRetryDelayMs(limit, { attempt: 1, maxRetries: 3, badAnswerRetries: 0 }), undefined);
    // A plain rate limit is still retried.
    assert.notStrictEqual(nextRetryDelayMs(apiError(429, { error: { message: 'slow down' } }, { 'retry-after': '1' }), { attempt: 1, maxRetries: 3, badAnswerRetries: 0 }), undefined);
  });

  it('only a real AuthError (or a 401 about the API key) says "key"', () => {
    assert.strictEqual(toUserFacingError(apiError(401, opencode('AuthError', 'Invalid API key.')), context).kind, 'key');
    assert.notStrictEqual(toUserFacingError(apiError(401, opencode('ModelError', 'Model m is not supported for format anthropic')), context).kind, 'key');
  });
});

describe('refused parameters on every route', () => {
  it('drops a native route\'s own field names, never max_tokens on Messages', () => {
    const refused = apiError(400, { error: { message: 'Unsupported parameter: max_output_tokens', param: 'max_output_tokens' } });
    assert.strictEqual(refusedParamOf(refused), 'max_output_tokens');
    const responses = { model: 'gpt', max_output_tokens: 100, include: ['reasoning.encrypted_content'], reasoning: { summary: 'auto' }, input: [] };
    assert.deepStrictEqual(withoutParams(responses, new Set(['max_output_tokens', 'include', 'reasoning']), 'responses'), { model: 'gpt', input: [] });
    const messages = { model: 'claude', max_tokens: 100, stop_sequences: ['x'], temperature: 1, messages: [] };
    assert.deepStrictEqual(withoutParams(messages, new Set(['max_tokens', 'stop_sequences', 'temperature']), 'messages'), { model: 'claude', max_tokens: 100, messages: [] });
    const chat = { model: 'glm', max_tokens: 100, stream_options: { include_usage: true }, messages: [{ role: 'assistant', content: 'a', reasoning_content: 'r' }] };
    assert.deepStrictEqual(withoutParams(chat, new Set(['max_tokens', 'stream_options', 'reasoning_content']), 'chat'), { model: 'glm', messages: [{ role: 'assistant', content: 'a' }] });
  });
});

describe('the opencode.models setting', () => {
  it('keeps valid entries and warns once per ignored value, naming it', () => {
    const warnings: string[] = [];
    const raw = { 'claude-x': { api: 'messages' }, 'gpt-y': { api: 'soap' }, 'glm-z': 'chat', 'kimi-k': { api: 'chat', colour: 'blue' } };
    const settings = resolveSettings((key) => (key === 'models' ? raw : undefined), (m) => warnings.push(m));
    assert.deepStrictEqual(settings.models, { 'claude-x': { api: 'messages' }, 'kimi-k': { api: 'chat' } });
    assert.strictEqual(warnings.length, 3, warnings.join('\n'));
    assert.ok(warnings.every((w) => w.startsWith('opencode.models')));
    assert.deepStrictEqual(resolveSettings((key) => (key === 'models' ? 'messages' : undefined), () => undefined).models, {});
  });
});
