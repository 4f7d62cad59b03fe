/**
 * The wire route in the status bar tooltip and the session report: an optional field of the request record,
 * shown when present (the engine fills it once PreparedRequest carries `route`), absent otherwise; a route
 * name never brings markup or table syntax into the tooltip or the page.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { resolveSettings } from '../core/config/settings';
import { RequestLog } from '../core/report/requestLog';
import { reportHtml } from '../core/report/reportHtml';
import { reportData } from '../core/report/reportData';
import { routeLabel, statusTooltip } from '../core/report/statusText';
import { SizeMemo } from '../core/trim/messageSize';
import type { NormalizedUsage } from '../core/types';
import { planTrim } from '../core/trim/planTrim';
import { ConversationStates } from '../core/trim/trimState';

const settings = resolveSettings(() => undefined, () => undefined);
const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const usage: NormalizedUsage = { shape: 'openai', contextTokens: 1_200, cachedTokens: 1_000, cacheWriteTokens: 0, completionTokens: 40, totalTokens: 1_240 };

function logWith(routes: (string | undefined)[]): RequestLog {
  const log = new RequestLog();
  const messages = [{ role: 'user' as const, content: 'hello' }];
  const states = new ConversationStates();
  for (const route of routes) {
    const plan = planTrim(messages, [], { settings, limits: { contextWindow: 8_192, maxOutputTokens: 2_048 }, calibration: 1, memo: new SizeMemo(), states, log: quiet });
    log.add('fake-small', plan, usage, 0, route);
  }
  return log;
}

describe('route in the status bar and the report', () => {
  it('a record keeps the route it was given, and has none otherwise', () => {
    const log = logWith(['responses', undefined]);
    const [conversation] = log.list();
    assert.strictEqual(conversation.records[0].route, 'responses');
    assert.ok(!('route' in conversation.records[1]));
  });

  it('the tooltip shows the route row only when the request had one', () => {
    const [withRoute, without] = logWith(['messages', undefined]).list()[0].records;
    assert.ok(statusTooltip(withRoute, settings.historyTrim).includes('\n| route | messages (/messages) |\n'));
    assert.ok(!statusTooltip(without, settings.historyTrim).includes('| route |'));
    assert.deepStrictEqual(['chat', 'responses', 'messages', 'gemini'].map(routeLabel), ['chat (/chat/completions)', 'responses (/responses)', 'messages (/messages)', 'gemini (:streamGenerateContent)']);
  });

  it('the report names the routes in its headline and per request; a page without routes has no route column', () => {
    const [conversation] = logWith(['chat', 'chat', 'responses']).list();
    const html = reportHtml({ data: reportData(conversation, settings), chosen: { headroom: 1, step: 1 }, nonce: 'n' });
    assert.ok(html.includes('route <code>chat (/chat/completions)</code>, <code>responses (/responses)</code></p>'), html.slice(0, 2_000));
    assert.strictEqual((html.match(/<td>responses \(\/responses\)<\/td>/g) ?? []).length, 1);
    assert.ok(html.includes('<th scope="col">route</th>'));
    const plain = reportHtml({ data: reportData(logWith([undefined]).list()[0], settings), chosen: { headroom: 1, step: 1 }, nonce: 'n' });
    assert.ok(!plain.includes('route'), 'no route anywhere on a page whose requests carry none');
  });

  it('any route text stays plain: no markup, no table syntax, never empty', () => {
    fc.assert(fc.property(fc.string({ maxLength: 60 }), (route) => {
      const label = routeLabel(route);
      assert.ok(label.length > 0 && label.length <= 40);
      assert.ok(!/[<>|`*_[\]\n]/.test(label.replace(/ \([^)]*\)$/, '')), label);
    }));
  });
});
