/**
 * Issue 29 item 3 on all four routes, through the provider over real HTTP (fake OpenCode server faults): one
 * progress rule, frames that add nothing (empty text or thinking deltas, usage-only frames, pings) never restart the
 * idle timeout, before any text or after some. Each case waits out a real 1 s idle timeout; item 4 (a cut answer is
 * an error after its text) is in streamRules.routes.test.ts.
 */
import * as assert from 'assert';
import type { RouteId } from '../core/routeId';
import type { FaultSpec } from '../fakeServer';
import { askCut, user } from './support/activatedExtension';
import { askError } from './support/providerHarness';
import { ROUTE_MODEL, routeStreamSuite } from './support/routeStreamSuite';


for (const route of ['chat', 'responses', 'messages', 'gemini'] as RouteId[]) {
  const model = ROUTE_MODEL[route];
  describe(`the idle timeout on the ${route} route: frames that add nothing do not hold it off (provider, real HTTP)`, () => {
    const { server, ext, answers, expected, warnings } = routeStreamSuite();

    async function cut(fault: FaultSpec, prompt: string) {
      server().enqueueFault(fault);
      const started = Date.now();
      const result = await askCut(ext(), model, [user(prompt)]);
      return { ...result, ms: Date.now() - started };
    }

    it('empty-deltas before any text (frames that add nothing): the idle timeout fires (not held off), one request', async () => {
      server().enqueueFault({ name: 'empty-deltas', afterChunks: 0, everyMs: 50, ms: 30_000 });
      const started = Date.now();
      const error = await askError(ext(), model, 'nothing please');
      const ms = Date.now() - started;
      assert.match(error.message, new RegExp(`^${model} sent nothing for 1 s, so the request was stopped\\.`));
      assert.ok(ms < 10_000, `ended after ${ms} ms, not after the 30 s of empty frames`);
      assert.strictEqual(answers().length, 1);
    });

    it('empty-deltas after text (frames that add nothing): the idle timeout fires; the text is kept and the request fails saying so', async () => {
      const { text, error, ms } = await cut({ name: 'empty-deltas', afterChunks: 4, everyMs: 50, ms: 30_000 }, 'trickle please');
      assert.ok(text.length > 0 && expected('trickle please').startsWith(text) && text.length < expected('trickle please').length, JSON.stringify(text));
      assert.strictEqual(error.message, `The answer from ${model} was cut off: the model sent nothing for 1 s. What arrived is kept above; try again for the whole answer.`);
      assert.ok(ms < 10_000, `${ms} ms`);
      assert.deepStrictEqual(warnings(), [`[stream] ${model} sent nothing for 1 s in the middle of its answer; stopped waiting. The answer is incomplete: kept what arrived.`]);
    });
  });
}
