/**
 * Stream rules through the engine over real HTTP, on every route: an error after text keeps the text and fails
 * after it, saying why; OpenCode's cost reaches the outcome; a 200 body that is not an event stream is read for
 * what it is; [stream] lines are redacted with the key in use. The rules that need a real wait (keep-alives and the
 * idle timeout, the wait after a finish reason) are in answer.waits.http.test.ts.
 */
import * as assert from 'assert';
import { askScripted, KEY } from './support/scriptedAnswer';
import { WIRE_SCRIPTS } from './support/wireScripts';

describe('stream rules through the engine (real HTTP, every route)', function () {
  this.timeout(30_000);
  for (const wire of WIRE_SCRIPTS) {
    describe(wire.id, () => {
      it('an error frame after text: the text is kept, then the run fails saying the answer was cut and why; no retry', async () => {
        const body = [...wire.start(), ...wire.text('Hello wor'), 'event: error\ndata: {"message":"Overloaded"}\n\n'].join('');
        const { outcome, text, requests, log } = await askScripted(wire.id, { body, contentType: 'text/event-stream' });
        assert.ok(outcome instanceof Error, 'a cut answer is an error');
        assert.strictEqual(outcome.message, 'The answer from m was cut off: the provider reported an error: Overloaded. What arrived is kept above; try again for the whole answer.');
        assert.strictEqual(text, 'Hello wor');
        assert.strictEqual(requests, 1);
        assert.ok(log.messages('warn').some((l) => l.startsWith('[stream] The answer from m ended early')));
      });

      it('OpenCode\'s cost frame after the stream reaches the outcome as dollars', async () => {
        const body = [...wire.start(), ...wire.text('hi'), ...wire.done('stop'), wire.cost('0.004321')].join('');
        const { outcome } = await askScripted(wire.id, { body, contentType: 'text/event-stream' });
        assert.ok(!(outcome instanceof Error), String(outcome));
        assert.strictEqual(outcome.cost, 0.004321);
      });

      it('a 200 plain-text body is shown (redacted), never read as an empty answer', async () => {
        const { outcome, requests } = await askScripted(wire.id, { body: `Upstream quota daemon offline (key ${KEY})`, contentType: 'text/plain; charset=utf-8' });
        assert.ok(outcome instanceof Error);
        assert.match(outcome.message, /plain text \(text\/plain\)/);
        assert.match(outcome.message, /Upstream quota daemon offline/);
        assert.ok(!outcome.message.includes(KEY));
        assert.strictEqual(requests, 1, 'not retried as an empty answer');
      });

      it('a 200 JSON error without a content type is the error it says', async () => {
        const { outcome } = await askScripted(wire.id, { body: JSON.stringify({ error: { message: 'Model is overloaded, try later' } }) });
        assert.ok(outcome instanceof Error);
        assert.match(outcome.message, /Model is overloaded, try later/);
      });

      it('[stream] lines built from the server\'s text are redacted with the key in use', async () => {
        const body = [...wire.start(), ...wire.text('ok'), `data: {not json ${KEY}\n\n`, ...wire.done('stop')].join('');
        const { log } = await askScripted(wire.id, { body, contentType: 'text/event-stream' });
        const lines = log.messages('warn');
        assert.ok(lines.some((l) => l.startsWith('[stream] Skipped 1 malformed chunk(s)')), JSON.stringify(lines));
        assert.ok(lines.every((l) => !l.includes(KEY)), JSON.stringify(lines));
      });
    });
  }

  it('chat: a 200 JSON completion without a content type is read as the answer', async () => {
    const body = JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'Whole answer.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 2 } });
    const { outcome, text } = await askScripted('chat', { body });
    assert.ok(!(outcome instanceof Error), String(outcome));
    assert.strictEqual(text, 'Whole answer.');
    assert.strictEqual(outcome.usage?.contextTokens, 5);
  });
});
