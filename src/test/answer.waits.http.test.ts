/**
 * Stream rules through the engine over real HTTP that take a real wait, on every route: keep-alives never hold off
 * the idle timeout (1 s here), and after a finish reason the answer ends within the documented wait (AFTER_FINISH_MS)
 * whatever keeps arriving. The rules that need no wait are in answer.http.test.ts.
 */
import * as assert from 'assert';
import { askScripted } from './support/scriptedAnswer';
import { WIRE_SCRIPTS } from './support/wireScripts';
import { AFTER_FINISH_MS } from '../core/stream/answerStream';

describe('stream rules through the engine that take a real wait (real HTTP, every route)', function () {
  this.timeout(30_000);
  for (const wire of WIRE_SCRIPTS) {
    describe(wire.id, () => {
      it('keep-alives before the answer never hold off the idle timeout', async () => {
        const body = wire.start().join('');
        const { outcome, ms } = await askScripted(wire.id, { body, contentType: 'text/event-stream', tail: wire.keepAlive(), tailEveryMs: 100 }, 1_000);
        assert.ok(outcome instanceof Error);
        assert.match(outcome.message, /sent nothing for 1 s/);
        assert.ok(ms < 5_000, `${ms} ms`);
      });

      it('after the finish reason, frames arriving forever still end the answer within the documented wait', async () => {
        const done = wire.done('stop', { prompt: 10, cached: 0, output: 2 });
        // Chat and Messages: everything but the end marker (Responses' finish is its end event; Gemini has none).
        const finish = wire.id === 'chat' || wire.id === 'messages' ? done.slice(0, -1) : done;
        const body = [...wire.start({ prompt: 10, cached: 0, output: 2 }), ...wire.text('Done.'), ...finish].join('');
        const { outcome, text, ms } = await askScripted(wire.id, { body, contentType: 'text/event-stream', tail: wire.keepAlive(), tailEveryMs: 100 }, 10_000);
        assert.ok(!(outcome instanceof Error), String(outcome));
        assert.strictEqual(text, 'Done.');
        assert.ok(ms < AFTER_FINISH_MS + 1_500, `${ms} ms`);
      });
    });
  }
});
