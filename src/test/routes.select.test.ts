import * as assert from 'assert';
import fc from 'fast-check';
import { validateModelOverrides } from '../core/models/modelOverrides';
import { LearnedRoutes } from '../core/routes/select/learnedRoutes';
import { classifyOpenCodeError, formatDuration, parseWrongRoute } from '../core/routes/select/openCodeErrors';
import { ROUTE_IDS, type RouteId } from '../core/routeId';
import { routeChoiceLine, routeSwitchLine } from '../core/routes/select/routeLog';
import { runs } from './support/propertyRuns';
import { nextRoute, selectRoute } from '../core/models/modelTable';
import { FAMILIES } from '../core/routes/select/routeRules';
import { catalogOf } from '../core/config/endpoints';

/** selectRoute's choice without its per-route rule (a function), for comparing. */
const choiceOf = (query: Parameters<typeof selectRoute>[0]) => {
  const { reasonsOn: _rule, ...choice } = selectRoute(query);
  return choice;
};

describe('routes: selection', () => {
  it('setting, then learned, then the bundled table, else chat', () => {
    assert.deepStrictEqual(choiceOf({ modelId: 'claude-opus-4-7', catalog: 'zen' }), { route: 'messages', source: 'snapshot', reasons: true });
    assert.deepStrictEqual(choiceOf({ modelId: 'gpt-5.5', catalog: 'zen' }), { route: 'responses', source: 'snapshot', reasons: true });
    assert.deepStrictEqual(choiceOf({ modelId: 'gpt-9-unlisted', catalog: 'zen' }), { route: 'responses', source: 'family', reasons: true });
    assert.strictEqual(selectRoute({ modelId: 'minimax-m3', catalog: 'go' }).route, 'messages');
    assert.strictEqual(selectRoute({ modelId: 'minimax-m3', catalog: 'zen' }).route, 'chat', 'MiniMax is chat on Zen, Messages on Go');
    assert.strictEqual(selectRoute({ modelId: 'qwen3.7-max', catalog: 'go' }).route, 'messages');
    assert.strictEqual(selectRoute({ modelId: 'glm-5.3', catalog: 'go' }).route, 'chat');
    assert.strictEqual(selectRoute({ modelId: 'claude-opus-4-7' }).route, 'chat', 'a custom endpoint has no table');
    assert.deepStrictEqual(choiceOf({ modelId: 'gpt-5.5', catalog: 'zen', learned: 'chat' }), { route: 'chat', source: 'learned', reasons: true });
    assert.strictEqual(selectRoute({ modelId: 'gpt-5.5', catalog: 'zen', learned: 'chat', override: { api: 'messages' } }).source, 'setting');
  });

  it('knows the catalogue from OpenCode URLs only', () => {
    assert.strictEqual(catalogOf('https://opencode.ai/zen/go/v1'), 'go');
    assert.strictEqual(catalogOf('https://opencode.ai/zen/v1'), 'zen');
    assert.strictEqual(catalogOf('http://127.0.0.1:4000/v1'), undefined);
    assert.strictEqual(catalogOf('https://evil.example/zen/v1'), undefined);
    assert.strictEqual(catalogOf('not a url'), undefined);
  });

  it('after a wrong-route answer, the next route is the table\'s, never one already tried, and the tries end', () => {
    assert.strictEqual(nextRoute('qwen3.7-max', 'chat', [], 'go'), 'messages');
    assert.strictEqual(nextRoute('grok-4.5', 'responses', [], 'zen'), 'chat', 'Zen\'s own page says chat for grok');
    assert.strictEqual(nextRoute('minimax-m3', 'chat', [], 'zen'), 'messages', 'the other catalogue knows the family');
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...ROUTE_IDS), fc.constantFrom<('go' | 'zen' | undefined)>('go', 'zen', undefined), (id, first, catalog) => {
        const tried: RouteId[] = [first];
        for (let next = nextRoute(id, first, [], catalog); next; next = nextRoute(id, next, tried, catalog)) {
          assert.ok(!tried.includes(next));
          tried.push(next);
        }
        assert.strictEqual(tried.length, ROUTE_IDS.length, 'every route is tried once, then it stops');
      }),
    );
  });

  it('writes the [route] lines', () => {
    assert.strictEqual(routeSwitchLine('qwen3.8-max', 'chat', 'messages', 'oa-compat', true), '[route] model=qwen3.8-max from=chat to=messages refused=oa-compat remembered');
    assert.strictEqual(routeChoiceLine('gpt-5.5', 'responses', 'table'), '[route] model=gpt-5.5 api=responses source=table');
  });

  it('the family rule routes only to routes that exist', () => {
    for (const f of FAMILIES) assert.ok(ROUTE_IDS.includes(f.route), f.prefix);
  });

  it('on a custom endpoint the first wrong-format refusal reaches the family\'s route (Gemini after one, not three)', () => {
    assert.strictEqual(nextRoute('gemini-9-flash', 'chat', []), 'gemini');
    assert.strictEqual(nextRoute('claude-unlisted-9', 'chat', []), 'messages');
    assert.strictEqual(nextRoute('gpt-unlisted-9', 'chat', []), 'responses');
    assert.strictEqual(nextRoute('gemini-3.1-pro', 'chat', []), 'gemini', 'a snapshot card counts on a custom endpoint too');
  });
});

describe('routes: the opencode.models setting', () => {
  it('keeps valid entries and explains each ignored one', () => {
    const { byModel, problems } = validateModelOverrides({ 'qwen3.7-max': { api: 'messages' }, 'gpt-x': { api: 'vertex' }, k: 'chat', 'grok-4.5': { api: 'responses', effort: 'high' }, '': { api: 'chat' } });
    assert.deepStrictEqual([...byModel], [['qwen3.7-max', { api: 'messages' }], ['grok-4.5', { api: 'responses' }]]);
    assert.strictEqual(problems.length, 4);
    assert.match(problems.join('\n'), /"gpt-x"\]\.api must be one of "chat", "responses", "messages", "gemini", not "vertex"/);
    assert.deepStrictEqual(validateModelOverrides(undefined), { byModel: new Map(), problems: [] });
    assert.strictEqual(validateModelOverrides([1]).problems.length, 1);
  });

  it('never throws and never keeps an invalid route, whatever the value (property)', () => {
    // Settings-shaped values most of the time (entries whose api is a route, another string or anything), so
    // both assertions are reached in most runs; fc.anything() for the rest. The counts below check that.
    const api = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...ROUTE_IDS) }, fc.string({ maxLength: 10 }), fc.anything());
    const entry = fc.oneof({ weight: 4, arbitrary: fc.record({ api, contextWindow: fc.anything(), imageInput: fc.anything() }, { requiredKeys: ['api'] }) }, { weight: 1, arbitrary: fc.anything() });
    const value = fc.oneof({ weight: 4, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), entry, { maxKeys: 5 }) }, { weight: 1, arbitrary: fc.anything() });
    let kept = 0;
    let refused = 0;
    fc.assert(
      fc.property(value, (raw) => {
        const { byModel, problems } = validateModelOverrides(raw);
        for (const override of byModel.values()) assert.ok(override.api === undefined || ROUTE_IDS.includes(override.api), `kept api ${JSON.stringify(override.api)}`);
        if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return;
        for (const [id, e] of Object.entries(raw as Record<string, unknown>)) {
          const given = e !== null && typeof e === 'object' && !Array.isArray(e) ? (e as { api?: unknown }).api : undefined;
          if (!id.trim() || given === undefined) continue;
          if (ROUTE_IDS.includes(given as RouteId)) {
            kept++;
            assert.strictEqual(byModel.get(id)?.api, given, `a valid route is kept for "${id}"`);
          } else {
            refused++;
            assert.strictEqual(byModel.get(id)?.api, undefined, `the invalid route ${JSON.stringify(given)} is dropped`);
            assert.ok(problems.some((p) => p.includes(`["${id}"].api`)), `and said: ${problems.join(' | ')}`);
          }
        }
      }),
      { numRuns: runs(300) },
    );
    assert.ok(kept >= runs(300) / 4 && refused >= runs(300) / 4, `the assertions ran: ${kept} valid and ${refused} invalid routes checked`);
  });
});

describe('routes: learned routes record', () => {
  it('round-trips through JSON, keyed by endpoint and model', () => {
    const learned = new LearnedRoutes();
    assert.ok(learned.learn('https://opencode.ai/zen/go/v1', 'qwen3.8-max', 'messages', 1000));
    assert.ok(!learned.learn('https://opencode.ai/zen/go/v1', 'qwen3.8-max', 'messages', 2000), 'nothing new');
    const restored = LearnedRoutes.fromJSON(JSON.parse(JSON.stringify(learned)));
    assert.strictEqual(restored.get('https://opencode.ai/zen/go/v1', 'qwen3.8-max'), 'messages');
    assert.strictEqual(restored.get('https://opencode.ai/zen/v1', 'qwen3.8-max'), undefined);
  });

  it('loads any stored value without throwing and keeps only well-formed entries (property)', () => {
    const entry = fc.tuple(fc.oneof(fc.string(), fc.integer()), fc.oneof(fc.string(), fc.constant(null)), fc.oneof(fc.record({ route: fc.oneof(fc.constantFrom(...ROUTE_IDS), fc.string()), learnedAt: fc.oneof(fc.double(), fc.string()) }), fc.anything()));
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.record({ version: fc.constantFrom(1, 2), entries: fc.array(fc.oneof(entry, fc.anything())) })), (value) => {
        const learned = LearnedRoutes.fromJSON(value);
        for (const [endpoint, model, record] of learned.toJSON().entries) {
          assert.ok(typeof endpoint === 'string' && model && ROUTE_IDS.includes(record.route) && Number.isFinite(record.learnedAt));
        }
      }),
    );
  });
});

describe('routes: OpenCode errors', () => {
  const body = (type: string, message: string) => ({ type: 'error', error: { type, message } });

  it('the wrong-format 401 is "wrong route", never a key problem', () => {
    const error = classifyOpenCodeError(401, body('ModelError', 'Model qwen3.7-max is not supported for format oa-compat'));
    assert.strictEqual(error?.kind, 'wrong-route');
    assert.strictEqual(error?.refusedRoute, 'chat');
    assert.deepStrictEqual(parseWrongRoute(JSON.stringify(body('ModelError', 'Model grok-4.6 is not supported for format openai'))), { model: 'grok-4.6', format: 'openai', refusedRoute: 'responses' });
    assert.strictEqual(parseWrongRoute(body('ModelError', 'Model x is not supported')), undefined, 'an unknown model is not a route problem');
    assert.doesNotMatch(error!.message, /key/i);
  });

  it('free tier, credits, Go usage limit (with its reset time), region, missing session, and only AuthError says "key"', () => {
    const free = classifyOpenCodeError(403, { type: 'FreeTierError', message: "Error from provider (Console): OpenCode's free tier can only be used from within OpenCode" });
    assert.strictEqual(free?.kind, 'free-tier');
    assert.strictEqual(free!.message, "Error from provider (Console): OpenCode's free tier can only be used from within OpenCode", 'exactly what OpenCode says');
    assert.match(classifyOpenCodeError(403, { type: 'FreeTierError', message: 'Error from provider (Console): OpenCode 1.18.0 or newer is required to use the free tier' })!.message, /1\.18\.0 or newer/);
    const credits = classifyOpenCodeError(401, body('CreditsError', 'Insufficient balance. Manage your billing here: https://opencode.ai/workspace/abc/billing'));
    assert.strictEqual(credits?.kind, 'credits');
    assert.match(credits!.message, /at https:\/\/opencode\.ai\/workspace\/abc\/billing, then/);
    const limit = classifyOpenCodeError(429, body('GoUsageLimitError', '5-hour usage limit reached. Resets in 2h 13m.'), '7980');
    assert.deepStrictEqual([limit?.kind, limit?.resetSeconds], ['usage-limit', 7980]);
    assert.match(limit!.message, /5-hour usage limit; it resets in 2h 13m/);
    assert.match(classifyOpenCodeError(429, body('GoUsageLimitError', 'Weekly usage limit reached.'), '90')!.message, /weekly usage limit; it resets in 2 min/);
    assert.strictEqual(classifyOpenCodeError(403, body('RegionError', 'The latest version of this model is only available hosted in China'))?.kind, 'region');
    assert.strictEqual(classifyOpenCodeError(400, body('MissingSessionID', 'Request is missing x-opencode-session'))?.kind, 'missing-session');
    const auth = classifyOpenCodeError(401, body('AuthError', 'Invalid API key.'));
    assert.strictEqual(auth?.kind, 'auth');
    assert.match(auth!.message, /rejected the API key \(Invalid API key\.\)/);
    assert.strictEqual(classifyOpenCodeError(500, { error: { message: 'boom', type: 'server_error' } }), undefined, 'not an OpenCode error: the caller words it');
    for (const e of [free, credits, limit]) assert.doesNotMatch(e!.message, /key/i);
  });

  it('formats reset durations', () => {
    assert.deepStrictEqual([formatDuration(30), formatDuration(3599), formatDuration(3600), formatDuration(7980)], ['1 min', '1 h', '1 h', '2 h 13 min']);
  });
});
