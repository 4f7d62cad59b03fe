/**
 * Input + max output never exceeds the window, on any route (the body's max output is clamped
 * to what the window leaves after the trimmed input, core/trim/budget.ts outputRoom), and every provider's
 * context-length wording is read as one: the named limit learned, one re-trim (real HTTP, all four routes).
 */
import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import fc from 'fast-check';
import { prepareConverted } from '../core/request/prepareRequest';
import { routeById } from '../core/routes/registry/registry';
import { ROUTE_IDS, type RouteId } from '../core/routeId';
import { SizeMemo } from '../core/trim/messageSize';
import type { WireMessage } from '../core/wire/wireTypes';
import { chat, engineFor, runOnce } from './support/engineHarness';
import { defaultSettings, filler } from './support/trimHarness';
import { ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';
import { runs } from './support/propertyRuns';

/** The max output a route's body asks for, if it asks for one. */
function maxOutputOf(route: RouteId, body: Record<string, unknown>): number | undefined {
  if (route === 'gemini') return (body.generationConfig as { maxOutputTokens?: number } | undefined)?.maxOutputTokens;
  return (route === 'responses' ? body.max_output_tokens : body.max_tokens) as number | undefined;
}

function history(turns: number, tokensPerTurn: number): WireMessage[] {
  const out: WireMessage[] = [{ role: 'system', content: 'You are a coding assistant.' }];
  for (let i = 0; i < turns; i++) out.push({ role: 'user', content: `question ${i} ${filler(tokensPerTurn, i)}` }, { role: 'assistant', content: `answer ${i} ${filler(tokensPerTurn, i + 1)}` });
  out.push({ role: 'user', content: 'current question' });
  return out;
}

function prepared(route: RouteId, contextWindow: number, maxOutputTokens: number, messages: WireMessage[], requested?: number, settings = defaultSettings) {
  return prepareConverted({ purpose: 'conversation', modelId: 'm', messages: [], tools: [], modelOptions: requested ? { max_tokens: requested } : undefined }, messages, {
    settings, limits: { contextWindow, maxOutputTokens }, calibration: 1, memo: new SizeMemo(), states: new ConversationStates(), log: new MemoryLogger(), route: routeById(route),
  });
}

describe('the output reservation', function () {
  this.timeout(120_000);

  it('a 200K-window model with 64K max output, history at the budget: Messages asks for what the window leaves, not 64,000', () => {
    // A paste over the budget is truncated to the ceiling: the input is as large as the trim lets it be.
    const p = prepared('messages', 200_000, 64_000, [{ role: 'system', content: 'You are a coding assistant.' }, { role: 'user', content: filler(300_000, 3) }], undefined, { ...defaultSettings, maxRequestBytes: 1e9 });
    assert.ok(p.trim.estTokens > 0.95 * p.geometry.ceiling, `the trim fills the budget (~${p.trim.estTokens} of ${p.geometry.ceiling})`);
    const max = maxOutputOf('messages', p.body)!;
    assert.ok(p.trim.estTokens + max <= 200_000, `input ~${p.trim.estTokens} + max_tokens ${max} > 200,000`);
    assert.ok(max >= p.budget.reserve, `the reserve (${p.budget.reserve}) is always left for the answer, got ${max}`);
    // A short conversation keeps the model's whole max output.
    assert.strictEqual(maxOutputOf('messages', prepared('messages', 200_000, 64_000, history(2, 100)).body), 64_000);
  });

  it('any window, max output, request and history, every route: input + the body\'s max output ≤ the window', () => {
    fc.assert(fc.property(
      fc.constantFrom(...ROUTE_IDS), fc.integer({ min: 16_000, max: 1_000_000 }), fc.integer({ min: 1_000, max: 128_000 }), fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: undefined }),
      fc.integer({ min: 1, max: 60 }), fc.integer({ min: 50, max: 4_000 }),
      (route, window, modelMax, requested, turns, perTurn) => {
        const p = prepared(route, window, modelMax, history(turns, Math.min(perTurn, Math.floor(window / 8))), requested);
        const max = maxOutputOf(route, p.body);
        if (max === undefined) return; // chat and Responses send none unless asked: the endpoint's default applies.
        assert.ok(!p.trim.overCeiling);
        assert.ok(p.trim.estTokens + max <= window, `${route}: ~${p.trim.estTokens} + ${max} > ${window}`);
        const wanted = Math.min(requested ?? modelMax, modelMax);
        assert.ok(max >= Math.min(wanted, p.budget.reserve), `${route}: ${max} is below the reserve ${p.budget.reserve}`);
      },
    ), { numRuns: runs(60), seed: 214 });
  });
});

interface Wording {
  name: string;
  route: RouteId;
  message: string;
  /** The limit it names, learned. */
  limit?: number;
}

const WORDINGS: Wording[] = [
  { name: 'Anthropic, input + max_tokens', route: 'messages', message: 'input length and `max_tokens` exceed context limit: 180000 + 64000 > 200000, decrease input length or `max_tokens` and try again', limit: 200_000 },
  { name: 'Anthropic, prompt too long', route: 'messages', message: 'prompt is too long: 210000 tokens > 200000 maximum', limit: 200_000 },
  { name: 'Gemini', route: 'gemini', message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', limit: 1_048_576 },
  { name: 'OpenAI', route: 'responses', message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.", limit: 128_000 },
  { name: 'OpenAI Responses (no number)', route: 'responses', message: 'Your input exceeds the context window of this model. Please adjust your input and try again.' },
  { name: 'Mistral', route: 'chat', message: 'Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length', limit: 32_768 },
  { name: 'llama.cpp', route: 'chat', message: 'the request (40000 tokens) exceeds the available context size (32768 tokens), try increasing it', limit: 32_768 },
  { name: 'TGI', route: 'chat', message: 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 32768. Given: 40000 `inputs` tokens and 2000 `max_new_tokens`', limit: 32_768 },
  { name: 'xAI', route: 'chat', message: "This model's maximum prompt length is 131072 but the request contains 150000 tokens.", limit: 131_072 },
];

function errorBody(route: RouteId, message: string): unknown {
  if (route === 'messages') return { type: 'error', error: { type: 'invalid_request_error', message } };
  if (route === 'gemini') return { error: { code: 400, message, status: 'INVALID_ARGUMENT' } };
  return { error: { message, type: 'invalid_request_error', code: null } };
}

describe('every provider\'s context-length wording: the limit learned, one re-trim (real HTTP)', function () {
  this.timeout(60_000);
  for (const wording of WORDINGS) {
    it(`${wording.name} (${wording.route})`, async () => {
      let posts = 0;
      const server = http.createServer((req, res) => {
        req.resume();
        if (req.method !== 'POST') return void res.writeHead(404).end();
        posts++;
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(errorBody(wording.route, wording.message)));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { engine, log, store } = engineFor(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, { maxRetries: 0, models: { m: { api: wording.route } } });
        await assert.rejects(runOnce(engine, 'm', chat('hello', 'hi', 'next'), { contextWindow: 2_000_000, maxOutputTokens: 8_000 }));
        assert.strictEqual(posts, 2, 'one re-trim and one retry, no more');
        assert.ok(log.messages('warn').some((m) => m.includes('rejected the request as too long')), log.messages().join('\n'));
        assert.deepStrictEqual(store.values.get('opencode.learnedLimits'), wording.limit ? { m: { window: wording.limit } } : undefined);
      } finally {
        server.close();
      }
    });
  }
});
