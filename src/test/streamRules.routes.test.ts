/**
 * Issue 29 item 4 on all four routes, through the provider over real HTTP (fake OpenCode server faults): a cut
 * answer is an error after the text that arrived (never a note in the text). Item 3 (frames that add nothing never
 * restart the idle timeout) takes a real 1 s idle timeout per case: streamRules.idle.routes.test.ts.
 */
import * as assert from 'assert';
import type { RouteId } from '../core/routeId';
import type { FaultSpec } from '../fakeServer';
import { askCut, user } from './support/activatedExtension';
import { ROUTE_MODEL, routeStreamSuite } from './support/routeStreamSuite';


for (const route of ['chat', 'responses', 'messages', 'gemini'] as RouteId[]) {
  const model = ROUTE_MODEL[route];
  describe(`stream rules on the ${route} route (provider, real HTTP)`, () => {
    const { server, ext, answers, expected, warnings } = routeStreamSuite();

    async function cut(fault: FaultSpec, prompt: string) {
      server().enqueueFault(fault);
      return askCut(ext(), model, [user(prompt)]);
    }

    it('error-after-text (a provider error after text, overloaded): the text is kept, then the request fails with the provider\'s words; no retry', async () => {
      const { text, error } = await cut({ name: 'error-after-text', afterChunks: 4 }, 'overload me');
      assert.ok(text.length > 0 && expected('overload me').startsWith(text), JSON.stringify(text));
      assert.strictEqual(error.message, `The answer from ${model} was cut off: the provider reported an error: Overloaded. What arrived is kept above; try again for the whole answer.`);
      assert.doesNotMatch(text, /cut off/, 'no note inside the text');
      assert.strictEqual(answers().length, 1, 'not retried: the text would show twice');
      assert.strictEqual(warnings().filter((l) => l.startsWith('[stream]')).length, 1);
    });

    it('a connection break after text: the text is kept, then the request fails saying the connection broke', async () => {
      const { text, error } = await cut({ name: 'cut-after-text', afterChunks: 4 }, 'cut me off');
      assert.ok(text.length > 0 && expected('cut me off').startsWith(text), JSON.stringify(text));
      assert.strictEqual(error.message, `The answer from ${model} was cut off: the connection broke. What arrived is kept above; try again for the whole answer.`);
      assert.strictEqual(answers().length, 1);
    });
  });
}
