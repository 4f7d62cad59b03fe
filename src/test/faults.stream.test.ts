/**
 * Faults inside the streamed answer, through the provider over real HTTP: cut streams, stalls, bad
 * payloads, odd but valid answers. The rule under test: retry only while nothing has been shown; after
 * that keep what arrived and say so in the log, never a false "try again".
 */
import * as assert from 'assert';
import { startFakeServer } from '../fakeServer';
import { defaultReplyText } from '../fakeServer/replies';
import * as double from './support/vscodeDouble';
import { ask, askCut, user } from './support/activatedExtension';
import { askError, providerWithTiming, type TimedProvider } from './support/providerHarness';
import { useActivated, useFakeServer } from './support/suiteHooks';

const toolCalls = (parts: unknown[]) => parts.filter((p): p is double.LanguageModelToolCallPart => p instanceof double.LanguageModelToolCallPart);
const thinking = (parts: unknown[]) => parts.filter((p): p is double.LanguageModelThinkingPart => p instanceof double.LanguageModelThinkingPart).map((p) => p.value).join('');
const READ_FILE = [{ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object' } }];

describe('faults inside the answer (provider, real HTTP)', () => {
  const server = useFakeServer();
  const ext = useActivated(server, providerWithTiming);
  const chats = () => server().requests.filter((r) => r.path.endsWith('/chat/completions'));
  const expected = () => defaultReplyText(chats().at(-1)?.body.messages);
  const lines = (level: string, of: TimedProvider = ext()) => of.log.lines.filter((l) => l.level === level).map((l) => l.message);

  it('cut-after-text: reports the text that arrived, then fails saying so; no retry (never duplicated), a [stream] warning', async () => {
    server().enqueueFault({ name: 'cut-after-text', afterChunks: 3 });
    const { text, error } = await askCut(ext(), 'fake-large', [user('cut me off')]);
    assert.strictEqual(text, expected().slice(0, 24), 'three 8-character chunks, exactly once, no note in the text');
    assert.strictEqual(error.message, 'The answer from fake-large was cut off: the connection broke. What arrived is kept above; try again for the whole answer.');
    assert.strictEqual(chats().length, 1);
    assert.strictEqual(lines('error').length, 1);
    assert.deepStrictEqual(lines('warn'), ["[stream] The connection broke in the middle of fake-large's answer (terminated: other side closed). The answer is incomplete: kept what arrived."]);
  });

  it('cut-in-tool-call: nothing was shown, so it is retried; the tool call reaches chat once, complete', async () => {
    server().enqueueFault({ name: 'cut-in-tool-call' });
    server().enqueueReply({ toolCalls: [{ id: 'call_whole', name: 'read_file', arguments: '{"path":"src/extension.ts","startLine":1}' }] });
    const { parts } = await ask(ext(), 'fake-large', [user('read it')], { tools: READ_FILE });
    assert.deepStrictEqual(toolCalls(parts).map((c) => [c.callId, c.input]), [['call_whole', { path: 'src/extension.ts', startLine: 1 }]]);
    assert.strictEqual(chats().length, 2);
    assert.match(lines('warn')[0], /^\[retry\] fake-large: StreamInterruptedError: the connection closed in the middle of the answer \(terminated: other side closed\) — nothing was shown yet/);
  });

  it('stall longer than the idle timeout after text: stops waiting, keeps the text, closes the request, warns', async () => {
    ext().dispose();
    const impatient = providerWithTiming(server(), {}, { idleTimeoutMs: 1_000 });
    try {
      server().enqueueFault({ name: 'stall', ms: 30_000 });
      // Not waited out: the 30 s stall is longer than mocha's timeout; the idle-timeout WARN below says why it ended.
      const { text, error } = await askCut(impatient, 'fake-large', [user('stall please')]);
      assert.strictEqual(text, expected().slice(0, 8), 'the first chunk, no note in the text');
      assert.strictEqual(error.message, 'The answer from fake-large was cut off: the model sent nothing for 1 s. What arrived is kept above; try again for the whole answer.');
      const index = server().requests.indexOf(chats()[0]);
      await server().whenRequestClosed(index);
      assert.ok(server().requests[index].closedEarly, 'the HTTP request was aborted');
      assert.deepStrictEqual(lines('warn', impatient), ['[stream] fake-large sent nothing for 1 s in the middle of its answer; stopped waiting. The answer is incomplete: kept what arrived.']);
    } finally {
      impatient.dispose();
    }
  });

  it('stall before the first byte (slow server): an idle-timeout sentence, not retried', async () => {
    const slow = await startFakeServer({ replyDelayMs: 30_000 });
    const slowExt = providerWithTiming(slow, {}, { idleTimeoutMs: 1_000 });
    try {
      const error = await askError(slowExt, 'fake-large', 'anyone there?');
      assert.strictEqual(error.message, 'fake-large sent nothing for 1 s, so the request was stopped. Try again, or raise opencode.streamIdleTimeoutSeconds for slow models.');
      assert.strictEqual(slow.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 1);
    } finally {
      slowExt.dispose();
      await slow.close();
    }
  });

  it('malformed-chunk: the bad payload is skipped and logged, the rest of the answer arrives complete', async () => {
    server().enqueueFault({ name: 'malformed-chunk', afterChunks: 2 });
    const { text } = await ask(ext(), 'fake-large', [user('garbled stream')]);
    assert.strictEqual(text, expected());
    assert.strictEqual(chats().length, 1);
    assert.deepStrictEqual(lines('warn'), ['[stream] Skipped 1 malformed chunk(s) from fake-large (not JSON; first "{not json"); the rest of the answer was kept, a piece of text may be missing.']);
    assert.ok(lines('info').some((m) => m.startsWith('[usage]')), 'the stream completed normally');
  });

  it('no-done (no [DONE], no finish reason): keeps the whole answer and warns it may be incomplete', async () => {
    server().enqueueFault({ name: 'no-done' });
    const { text } = await ask(ext(), 'fake-large', [user('no ending')]);
    assert.strictEqual(text, expected());
    assert.deepStrictEqual(lines('warn'), ['[stream] The answer from fake-large ended without a finish reason or [DONE]; it may be incomplete.']);
  });

  it('reasoning-only: an answer sent only as reasoning_content is shown as text, never as an empty answer', async () => {
    server().enqueueFault({ name: 'reasoning-only' });
    const { text, parts } = await ask(ext(), 'fake-large', [user('think out loud')]);
    assert.strictEqual(text, expected());
    assert.strictEqual(thinking(parts), expected());
  });

  it('think-tags: the <think> span goes to thinking and never leaks into the text', async () => {
    server().enqueueFault({ name: 'think-tags' });
    const { text, parts } = await ask(ext(), 'fake-large', [user('think in tags')]);
    assert.strictEqual(text, expected());
    assert.strictEqual(thinking(parts), 'The user wants an answer; keep it short.');
  });

  it('invalid-tool-json: never reaches chat as a tool call; retried once, then a sentence naming the tool', async () => {
    server().enqueueFault({ name: 'invalid-tool-json' });
    server().enqueueFault({ name: 'invalid-tool-json' });
    const error = await askError(ext(), 'fake-large', 'read a file');
    assert.strictEqual(error.message, 'fake-large called the tool "read_file" with arguments that are not valid JSON, so the call was not run. Try again, or pick another model if this repeats.');
    assert.strictEqual(chats().length, 2, 'one retry, not maxRetries');
    assert.match(lines('error')[0], /ToolCallArgumentsError: .*"\{\\"path\\": \\"src\/extension\.ts\\", \\"startLine\\": \}"/);
  });

  it('invalid-tool-json once: the retry\'s valid tool call is reported, the broken one never', async () => {
    server().enqueueFault({ name: 'invalid-tool-json' });
    server().enqueueReply({ toolCalls: [{ id: 'call_ok', name: 'read_file', arguments: '{"path":"src/extension.ts"}' }] });
    const { parts } = await ask(ext(), 'fake-large', [user('read a file')], { tools: READ_FILE });
    assert.deepStrictEqual(toolCalls(parts).map((c) => c.callId), ['call_ok']);
  });

  it('invalid-tool-json that talks about context length never teaches the engine a limit (only HTTP errors do)', async () => {
    const broken = { toolCalls: [{ name: 'search', arguments: '{"q": "maximum context length is 8192 tokens", ' }] };
    server().enqueueReply(broken);
    server().enqueueReply(broken);
    const error = await askError(ext(), 'fake-large', 'search the docs');
    assert.match(error.message, /called the tool "search" with arguments that are not valid JSON/);
    assert.strictEqual(ext().engine.learned.get('fake-large')?.window, undefined);
    assert.ok(!ext().log.text().includes('rejected the request as too long'));
  });

  it('empty-stream: retried once, then "The model returned an empty answer…" instead of silence', async () => {
    server().enqueueFault({ name: 'empty-stream' });
    server().enqueueFault({ name: 'empty-stream' });
    const error = await askError(ext(), 'fake-large', 'say something');
    assert.strictEqual(error.message, 'The model returned an empty answer: fake-large sent no text and no tool call. Try again, or pick another model if this repeats.');
    assert.strictEqual(chats().length, 2);
    assert.match(lines('error')[0], /EmptyAnswerError: the stream ended with no text and no tool call \(finish_reason=none, \[DONE\] seen\)/);
  });

  it('empty-stream once: the retry\'s answer is shown', async () => {
    server().enqueueFault({ name: 'empty-stream' });
    const { text } = await ask(ext(), 'fake-large', [user('say something')]);
    assert.strictEqual(text, expected());
    assert.strictEqual(chats().length, 2);
  });

  it('an empty answer cut off by the output limit is not retried and says why', async () => {
    server().enqueueReply({ text: '', finishReason: 'length' });
    const error = await askError(ext(), 'fake-large', 'q');
    assert.match(error.message, /^fake-large reached its output limit before writing anything \(finish_reason=length\)\./);
    assert.strictEqual(chats().length, 1);
  });
});
