/**
 * The chat route's fault coverage on the native routes, through the provider over real HTTP: every fault
 * class the fake server plays on /responses and /messages ends the way it does on /chat/completions (retry
 * only while nothing was shown; after that keep what arrived and say so; clear sentences; never a key error
 * for a gateway refusal). One transport reads every route, so these hold by construction; this proves it.
 */
import * as assert from 'assert';
import { startFakeServer } from '../fakeServer';
import { defaultReplyText } from '../fakeServer/replies';
import type { WiredRoute } from './support/routeModels';
import * as double from './support/vscodeDouble';
import { ask, askCut, user } from './support/activatedExtension';
import { askError, providerWithTiming, type TimedProvider } from './support/providerHarness';
import { useActivated, useFakeServer } from './support/suiteHooks';
import { PATHS, ROUTE_MODEL, ROUTE_SETTING } from './support/routeModels';

const toolCalls = (parts: unknown[]) => parts.filter((p): p is double.LanguageModelToolCallPart => p instanceof double.LanguageModelToolCallPart);
const thinking = (parts: unknown[]) => parts.filter((p): p is double.LanguageModelThinkingPart => p instanceof double.LanguageModelThinkingPart).map((p) => p.value).join('');
const READ_FILE = [{ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object' } }];

for (const route of ['responses', 'messages'] as WiredRoute[]) {
  const model = ROUTE_MODEL[route];
  describe(`faults on the ${route} route (provider, real HTTP)`, () => {
    const server = useFakeServer();
    const ext = useActivated(server, (s) => providerWithTiming(s, ROUTE_SETTING, { idleTimeoutMs: 1_000 }));
    const sent = () => server().requests.filter((r) => r.path === PATHS[route]);
    const expected = (prompt: string) => defaultReplyText([{ role: 'user', content: prompt }]);
    const lines = (level: string, of: TimedProvider = ext()) => of.log.lines.filter((l) => l.level === level).map((l) => l.message);

    it('status-500: retried while nothing was shown; the answer appears once', async () => {
      server().enqueueFault({ name: 'status-500' });
      const { text } = await ask(ext(), model, [user('hello')]);
      assert.strictEqual(text, expected('hello'));
      assert.strictEqual(sent().length, 2);
      assert.match(lines('warn')[0], new RegExp(`^\\[retry\\] ${model}: `));
    });

    it('status-429 with Retry-After: waits what the server asks, then answers', async () => {
      server().enqueueFault({ name: 'status-429', seconds: 2 });
      const { text } = await ask(ext(), model, [user('hello')]);
      assert.strictEqual(text, expected('hello'));
      assert.deepStrictEqual(ext().delays, [2_000]);
    });

    it('status-401 (a real AuthError): the key sentence, not retried', async () => {
      server().enqueueFault({ name: 'status-401' });
      const error = await askError(ext(), model, 'hello');
      assert.match(error.message, /rejected the API key \(HTTP 401\)/);
      assert.strictEqual(sent().length, 1);
    });

    it('reset-before-first-byte: retried, the answer appears once', async () => {
      server().enqueueFault({ name: 'reset-before-first-byte' });
      const { text } = await ask(ext(), model, [user('hello')]);
      assert.strictEqual(text, expected('hello'));
    });

    it('cut-after-text: reports the text that arrived, never duplicated, then fails saying so; no retry, a [stream] warning', async () => {
      server().enqueueFault({ name: 'cut-after-text', afterChunks: 4 });
      const { text, error } = await askCut(ext(), model, [user('cut me off')]);
      assert.match(error.message, new RegExp(`^The answer from ${model} was cut off: the connection broke\\.`));
      assert.ok(text.length > 0 && expected('cut me off').startsWith(text) && text.length < expected('cut me off').length, JSON.stringify(text));
      assert.strictEqual(sent().length, 1);
      assert.deepStrictEqual(lines('warn'), [`[stream] The connection broke in the middle of ${model}'s answer (terminated: other side closed). The answer is incomplete: kept what arrived.`]);
    });

    it('cut-in-tool-call: nothing shown, so retried; the call reaches chat once, complete', async () => {
      server().enqueueFault({ name: 'cut-in-tool-call', afterChunks: 4 });
      server().enqueueReply({ toolCalls: [{ id: 'call_whole', name: 'read_file', arguments: '{"path":"src/extension.ts"}' }] });
      const { parts } = await ask(ext(), model, [user('read it')], { tools: READ_FILE });
      assert.deepStrictEqual(toolCalls(parts).map((c) => [c.callId, c.input]), [['call_whole', { path: 'src/extension.ts' }]]);
      assert.strictEqual(sent().length, 2);
    });

    it('stall after the first frame (no text yet): an idle-timeout sentence, not retried', async () => {
      server().enqueueFault({ name: 'stall', ms: 30_000 });
      const error = await askError(ext(), model, 'stall early');
      assert.strictEqual(error.message, `${model} sent nothing for 1 s, so the request was stopped. Try again, or raise opencode.streamIdleTimeoutSeconds for slow models.`);
      assert.strictEqual(sent().length, 1);
    });

    it('stall after text: stops waiting at the idle timeout, keeps the text, closes the request', async () => {
      server().enqueueFault({ name: 'stall', ms: 30_000, afterChunks: 4 });
      // Not waited out: the 30 s stall is longer than mocha's timeout; the idle-timeout WARN below says why it ended.
      const { text, error } = await askCut(ext(), model, [user('stall please')]);
      assert.match(error.message, new RegExp(`^The answer from ${model} was cut off: the model sent nothing for 1 s\\.`));
      assert.ok(text.length > 0 && expected('stall please').startsWith(text), JSON.stringify(text));
      const index = server().requests.indexOf(sent()[0]);
      await server().whenRequestClosed(index);
      assert.ok(server().requests[index].closedEarly, 'the HTTP request was aborted');
      assert.deepStrictEqual(lines('warn'), [`[stream] ${model} sent nothing for 1 s in the middle of its answer; stopped waiting. The answer is incomplete: kept what arrived.`]);
    });

    it('stall before the first byte: an idle-timeout sentence, not retried', async () => {
      const slow = await startFakeServer({ replyDelayMs: 30_000 });
      const slowExt = providerWithTiming(slow, ROUTE_SETTING, { idleTimeoutMs: 1_000 });
      try {
        const error = await askError(slowExt, model, 'anyone there?');
        assert.strictEqual(error.message, `${model} sent nothing for 1 s, so the request was stopped. Try again, or raise opencode.streamIdleTimeoutSeconds for slow models.`);
        assert.strictEqual(slow.requests.filter((r) => r.path === PATHS[route]).length, 1);
      } finally {
        slowExt.dispose();
        await slow.close();
      }
    });

    it('malformed-chunk: skipped and logged, the rest of the answer complete', async () => {
      server().enqueueFault({ name: 'malformed-chunk', afterChunks: 3 });
      const { text } = await ask(ext(), model, [user('garbled')]);
      assert.strictEqual(text, expected('garbled'));
      assert.deepStrictEqual(lines('warn'), [`[stream] Skipped 1 malformed chunk(s) from ${model} (not JSON; first "{not json"); the rest of the answer was kept, a piece of text may be missing.`]);
      assert.ok(lines('info').some((m) => m.startsWith('[usage]')));
    });

    it('no terminal event: keeps the whole answer and warns it may be incomplete', async () => {
      server().enqueueFault({ name: 'no-done' });
      const { text } = await ask(ext(), model, [user('no ending')]);
      assert.strictEqual(text, expected('no ending'));
      assert.deepStrictEqual(lines('warn'), [`[stream] The answer from ${model} ended without a finish reason or [DONE]; it may be incomplete.`]);
    });

    it('reasoning-only: shown as text too, never an empty answer', async () => {
      server().enqueueFault({ name: 'reasoning-only' });
      const { text, parts } = await ask(ext(), model, [user('think out loud')]);
      assert.strictEqual(text, expected('think out loud'));
      assert.strictEqual(thinking(parts), expected('think out loud'));
    });

    it('invalid-tool-json: never reaches chat as a call; retried once, then a sentence naming the tool', async () => {
      server().enqueueFault({ name: 'invalid-tool-json' });
      server().enqueueFault({ name: 'invalid-tool-json' });
      const error = await askError(ext(), model, 'read a file');
      assert.strictEqual(error.message, `${model} called the tool "read_file" with arguments that are not valid JSON, so the call was not run. Try again, or pick another model if this repeats.`);
      assert.strictEqual(sent().length, 2);
    });

    it('empty-stream: retried once, then the empty-answer sentence', async () => {
      server().enqueueFault({ name: 'empty-stream' });
      server().enqueueFault({ name: 'empty-stream' });
      const error = await askError(ext(), model, 'say something');
      assert.match(error.message, /^The model returned an empty answer/);
      assert.strictEqual(sent().length, 2);
    });

    it('json-error-200 and html-502: the gateway\'s error, redacted; a page is not an answer', async () => {
      server().enqueueFault({ name: 'json-error-200' });
      const jsonError = await askError(ext(), model, 'hello');
      assert.ok(!/sk-[A-Za-z0-9]{8,}/.test(jsonError.message), jsonError.message);
      server().enqueueFault({ name: 'html-502' });
      server().enqueueFault({ name: 'html-502' });
      server().enqueueFault({ name: 'html-502' });
      server().enqueueFault({ name: 'html-502' });
      await askError(ext(), model, 'hello');
      for (const line of lines('warn').filter((l) => l.startsWith('[retry]'))) assert.ok(line.length < 400 && !line.includes('<html'), line);
    });

    it('context-length-400 with the real limit: learned, re-trimmed, retried once', async () => {
      server().enqueueFault({ name: 'context-length-400', limit: 50_000 });
      const { text } = await ask(ext(), model, [user('long')]);
      assert.strictEqual(text, expected('long'));
      assert.strictEqual(ext().engine.learned.get(model)?.window, 50_000);
    });

    it('unsupported-param-400: drops the parameter for the model and retries at once', async () => {
      server().enqueueFault({ name: 'unsupported-param-400', param: 'temperature' });
      const { text } = await ask(ext(), model, [user('warm')], { modelOptions: { temperature: 0.3 } });
      assert.strictEqual(text, expected('warm'));
      assert.strictEqual(sent().length, 2);
      assert.ok(!('temperature' in sent()[1].body));
    });
  });
}
