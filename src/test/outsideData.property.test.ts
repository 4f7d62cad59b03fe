/**
 * Outside data, bounded (docs/reliability.md "Validating outside data"): a `/models` window of any size keeps its
 * model (clamped to the one bound the saved list checks too), a cost frame of any size prints as plain dollars or
 * is no cost, and an outside id or label in a log line or message is one escaped, bounded piece of text.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { formatUsd } from '../core/cost/requestCost';
import { resolveEndpoints, defaultEndpoint } from '../core/config/endpoints';
import { parseModelList } from '../core/models/parseModelList';
import { retryLine, truncationLine } from '../core/request/streamLog';
import { errorLogLine, toUserFacingError } from '../core/request/userFacingError';
import { EmptyAnswerError } from '../core/request/streamErrors';
import { validModelList } from '../core/models/cachedModelList';
import { MAX_TOKEN_LIMIT } from '../core/util/tokenLimit';
import { OUTSIDE_TEXT_MAX, outsideList, outsideText } from '../core/util/excerpt';
import { reportedCostOf, MAX_REPORTED_USD } from '../core/answer/answerReader';

// eslint-disable-next-line no-control-regex -- what must never reach a line
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;
const HOSTILE_ID = fc.oneof(
  fc.string({ maxLength: 300, unit: 'binary' }),
  fc.constantFrom('gpt-x\n[usage] prompt=1 completion=1 total=2 cached=0 cacheHit=100.0%', 'a\r\nb', '\u202eevil', 'x'.repeat(50_000), 'model\u0000id'),
);

describe('outside data, bounded', () => {
  it('a /models window of any size keeps its model, clamped to the bound the saved list checks too', () => {
    const window = fc.oneof(fc.integer({ min: 1, max: 2 * MAX_TOKEN_LIMIT }), fc.double({ min: 1, max: 1e308, noNaN: true }), fc.constantFrom(1e12, 1e300, '1e999', '250000000', Number.MAX_SAFE_INTEGER));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/), window, window), { minLength: 1, maxLength: 8 }), (rows) => {
        const body = { data: rows.map(([id, context, output]) => ({ id, context_length: context, max_output_tokens: output })) };
        const listed = parseModelList(body);
        assert.strictEqual(listed.length, new Set(rows.map(([id]) => id)).size, 'no model vanished');
        for (const model of listed) {
          assert.ok(model.contextWindow !== undefined && model.contextWindow >= 1 && model.contextWindow <= MAX_TOKEN_LIMIT);
          assert.ok(model.maxOutputTokens !== undefined && model.maxOutputTokens <= MAX_TOKEN_LIMIT);
        }
        const saved = validModelList(JSON.parse(JSON.stringify({ fetchedAt: Date.now(), models: listed })));
        assert.strictEqual(saved.dropped, 0, 'the saved list accepts what the fetch accepted');
        assert.deepStrictEqual(saved.value?.models, listed);
      }),
    );
  });

  it('the window above 100,000,000 of the repro is listed at the bound', () => {
    const [model] = parseModelList({ data: [{ id: 'huge', context_length: 100_000_001 }] });
    assert.strictEqual(model.contextWindow, MAX_TOKEN_LIMIT);
    assert.strictEqual(validModelList({ fetchedAt: Date.now(), models: [model] }).dropped, 0);
  });

  it('cost frames: a believable cost is read, a larger one is no cost; any number prints as plain dollars', () => {
    assert.strictEqual(reportedCostOf('{"type":"ping","cost":"0.0123"}'), 0.0123);
    for (const cost of ['1e30', '"1e30"', '1e308', '"1e308"', String(MAX_REPORTED_USD * 2)]) {
      assert.strictEqual(reportedCostOf(`{"type":"ping","cost":${cost}}`), undefined, cost);
      assert.strictEqual(reportedCostOf(`{"choices":[],"cost":${cost}}`), undefined, cost);
    }
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.constantFrom(1e30, 1e308 + 1e308, Infinity, -Infinity, NaN, 2 * 1e308)), (usd) => {
        assert.match(formatUsd(usd), /^\$\d+\.\d{4,6}$/, String(usd));
      }),
    );
    assert.strictEqual(formatUsd(1e308 + 1e308), '$1000000000000000.0000');
  });

  it('an outside id is one escaped, bounded piece of text: no control character, no new line, at most the cap', () => {
    fc.assert(
      fc.property(HOSTILE_ID, (id) => {
        const shown = outsideText(id);
        assert.ok(!UNSAFE.test(shown), JSON.stringify(shown));
        assert.ok(shown.length <= OUTSIDE_TEXT_MAX * 6 + 40, `${shown.length} characters`);
        if (!UNSAFE.test(id) && id.length <= OUTSIDE_TEXT_MAX) assert.strictEqual(shown, id, 'safe text is left as it is');
        assert.strictEqual(outsideText(id), shown, 'deterministic');
      }),
    );
  });

  it('log lines and messages that quote an id stay one line of bounded length', () => {
    fc.assert(
      fc.property(HOSTILE_ID, (id) => {
        const lines = [
          retryLine(id, new Error('boom'), 2, 3, 500),
          truncationLine(new Error('cut'), id),
          errorLogLine(id, toUserFacingError(new EmptyAnswerError(undefined, true), { baseUrl: 'https://a.example/v1', model: id })),
          toUserFacingError(new EmptyAnswerError(undefined, true), { baseUrl: 'https://a.example/v1', model: id }).message,
        ];
        for (const line of lines) {
          assert.ok(!UNSAFE.test(line), JSON.stringify(line).slice(0, 200));
          assert.ok(line.length < 2_000, `${line.length} characters`);
        }
      }),
    );
  });

  it('50,000 ids make a bounded [models] list, and an endpoint label from settings is escaped', () => {
    const ids = Array.from({ length: 50_000 }, (_, i) => `vendor/model-${i}-${'x'.repeat(10)}`);
    assert.ok(outsideList(ids).length < 4_000);
    assert.match(outsideList(ids), /… and 49960 more$/);
    const [, item] = resolveEndpoints([{ id: 'e', baseUrl: 'https://e.example/v1', label: 'Mine\n[usage] forged' }], defaultEndpoint('https://opencode.ai/zen/v1', 'zen'), assert.fail);
    assert.strictEqual(item.label, 'Mine\\n[usage] forged');
  });
});
