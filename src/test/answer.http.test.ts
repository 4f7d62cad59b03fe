/**
 * Stream rules through the engine over real HTTP, on every route: an error after text
 * keeps the text and fails after it, saying why; keep-alives never hold off the idle timeout; after a finish reason the answer ends
 * within the documented wait whatever keeps arriving; OpenCode's cost reaches the outcome; a 200 body that is not
 * an event stream is read for what it is; [stream] lines are redacted with the key in use.
 */
import * as assert from 'assert';
import { resolveSettings } from '../core/config/settings';
import { ChatEngine } from '../core/request/chatEngine';
import type { StreamEvent } from '../core/types';
import { chat, MemoryStore } from './support/engineHarness';
import { scriptedServer, type Scripted } from './support/scriptedServer';
import { WIRE_SCRIPTS } from './support/wireScripts';
import { AFTER_FINISH_MS } from '../core/stream/answerStream';
import { MemoryLogger } from './support/memoryLogger';

const MODEL = 'm';
/** No well-known prefix: only the key in use can hide it. */
const KEY = 'oc9f8e7d6c5b4a3210zzyx';

async function askScripted(route: string, script: Scripted, idleTimeoutMs = 5_000) {
  const server = await scriptedServer(script);
  const log = new MemoryLogger();
  const values: Record<string, unknown> = { baseUrl: server.url, maxRetries: 1, models: { [MODEL]: { api: route } } };
  const settings = resolveSettings((key) => values[key], () => undefined);
  const engine = new ChatEngine({ log, store: new MemoryStore(), settings: () => settings, apiKey: async () => KEY, timing: { sleep: async () => undefined, random: () => 0, idleTimeoutMs } });
  const events: StreamEvent[] = [];
  const started = Date.now();
  try {
    const outcome = await engine.run({ purpose: 'conversation', modelId: MODEL, messages: chat('hello'), tools: [] }, {}, (e) => events.push(e), new AbortController().signal).catch((error: Error) => error);
    const text = events.map((e) => (e.kind === 'text' ? e.text : '')).join('');
    return { outcome, text, ms: Date.now() - started, log, requests: server.requests };
  } finally {
    await server.close();
  }
}

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
