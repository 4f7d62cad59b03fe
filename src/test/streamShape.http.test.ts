/**
 * What a stream carries, over real HTTP (a missing-index tool call, a gateway's
 * prompt_tokens that exclude the cache reads): chunks of the wrong shape are skipped and logged, tool-call
 * fragments without `index` join their call, `<think>` in the middle of an answer is text, and a gateway's
 * cache-exclusive prompt is counted as the real context with one WARN.
 */
import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import { startFakeServer } from '../fakeServer';
import { chat, engineFor, runOnce } from './support/engineHarness';

/** A loopback server that answers every request with these SSE payloads (one `data:` frame each). */
async function sseServer(payloads: string[]): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.end(payloads.map((p) => `data: ${p}\n\n`).join(''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const chunk = (delta: object, finish: string | null = null) => JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] });

async function answerFrom(payloads: string[]) {
  const server = await sseServer(payloads);
  try {
    const { engine, log } = engineFor(server.url, { maxRetries: 0 });
    const result = await runOnce(engine, 'any-model', chat('hello'));
    return { ...result, warns: log.lines.filter((l) => l.level === 'warn').map((l) => l.message) };
  } finally {
    await server.close();
  }
}

describe('what a stream carries (engine, real HTTP)', () => {
  it('skips chunks of the wrong shape (choices an object, [null], tool_calls an object) and keeps the rest of the answer', async () => {
    const { text, outcome, warns } = await answerFrom([
      chunk({ content: 'Hello ' }),
      JSON.stringify({ choices: { 0: { delta: { content: 'lost' } } } }),
      JSON.stringify({ choices: [null] }),
      chunk({ content: 'world', tool_calls: { index: 0 } }),
      chunk({ content: 42 }),
      chunk({ content: '!' }, 'stop'),
      JSON.stringify({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 3 } }),
      '[DONE]',
    ]);
    assert.strictEqual(text, 'Hello world!');
    assert.strictEqual(outcome.truncated, false);
    assert.strictEqual(outcome.usage?.contextTokens, 10);
    assert.deepStrictEqual(warns, [
      '[stream] Skipped 4 malformed chunk(s) from any-model (fields of the wrong type; first "{\\"choices\\":{\\"0\\":{\\"delta\\":{\\"content\\":\\"lost\\"}}}}"); the rest of the answer was kept, a piece of text may be missing.',
    ]);
  });

  it('joins tool-call fragments that carry no index (sent only on the first fragment) into one call', async () => {
    const { events, warns } = await answerFrom([
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } }] }),
      chunk({ tool_calls: [{ function: { arguments: '{"path":' } }] }),
      chunk({ tool_calls: [{ function: { arguments: '"src/a.ts"}' } }] }),
      chunk({ tool_calls: [{ id: 'call_b', type: 'function', function: { name: 'ls', arguments: '{"dir"' } }] }),
      chunk({ tool_calls: [{ function: { arguments: ':"."}' } }] }),
      chunk({}, 'tool_calls'),
      '[DONE]',
    ]);
    assert.deepStrictEqual(events.filter((e) => e.kind === 'toolCall'), [
      { kind: 'toolCall', callId: 'call_a', name: 'read_file', input: { path: 'src/a.ts' } },
      { kind: 'toolCall', callId: 'call_b', name: 'ls', input: { dir: '.' } },
    ]);
    assert.deepStrictEqual(warns, []);
  });

  it('treats <think> in the middle of an answer as text; only an opening think block is reasoning', async () => {
    const middle = await answerFrom([chunk({ content: 'Wrap it in <thi' }), chunk({ content: 'nk>…</think> tags.' }, 'stop'), '[DONE]']);
    assert.strictEqual(middle.text, 'Wrap it in <think>…</think> tags.');
    assert.deepStrictEqual(middle.events.filter((e) => e.kind === 'thinking'), []);
    const opening = await answerFrom([chunk({ content: '\n<think>plan</think>Answer: use <think>.' }, 'stop'), '[DONE]']);
    assert.strictEqual(opening.text, '\nAnswer: use <think>.');
    assert.deepStrictEqual(opening.events.filter((e) => e.kind === 'thinking').map((e) => e.kind === 'thinking' && e.text), ['plan']);
  });
});

describe('a 200 that is a web page (real HTTP)', () => {
  it('says the endpoint answered with an HTML page and to check the base URL, not "empty answer", and does not retry', async () => {
    let requests = 0;
    const server = http.createServer((req, res) => {
      requests++;
      req.resume();
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!DOCTYPE html><html><head><title>Sign in</title></head><body>${'<p>Welcome to the portal.</p>'.repeat(100)}</body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { engine } = engineFor(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, { maxRetries: 2 });
      await assert.rejects(runOnce(engine, 'any-model', chat('hello')), (error: Error) => {
        assert.match(error.message, /^The request to any-model failed: the endpoint answered with an HTML page instead of a model's answer; check the opencode\.baseUrl setting \("Sign in Welcome to the portal\./);
        assert.ok(error.message.length < 300, error.message);
        return true;
      });
      assert.strictEqual(requests, 1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('prompt_tokens that exclude the cache reads (anthropic-via-chat usage, real HTTP)', () => {
  it('counts the real context (as the Anthropic shape does), cacheHit under 100%, one WARN per model', async () => {
    const contexts: Record<string, number[]> = {};
    const warns: string[] = [];
    for (const usageShape of ['anthropic', 'anthropic-via-chat'] as const) {
      const server = await startFakeServer({ usageShape });
      try {
        const { engine, log } = engineFor(server.url, { maxRetries: 0 });
        const history = ['a long first question '.repeat(200), 'an answer '.repeat(200), 'and a follow-up'];
        contexts[usageShape] = [];
        for (let turn = 1; turn <= 3; turn++) {
          const { outcome } = await runOnce(engine, 'fake-large', chat(...history.slice(0, turn === 3 ? 3 : 1)));
          contexts[usageShape].push(outcome.usage?.contextTokens ?? -1);
        }
        const usageLines = log.lines.filter((l) => l.message.startsWith('[usage]')).map((l) => l.message);
        for (const line of usageLines) assert.ok(Number(/cacheHit=([\d.]+)%/.exec(line)?.[1]) < 100, line);
        warns.push(...log.lines.filter((l) => l.level === 'warn').map((l) => l.message));
      } finally {
        await server.close();
      }
    }
    assert.deepStrictEqual(contexts['anthropic-via-chat'], contexts.anthropic);
    assert.strictEqual(warns.length, 1, warns.join('\n'));
    assert.match(warns[0], /^\[stream\] fake-large sent inconsistent usage: openai-shaped usage reports more cache reads and writes \(\d+\) than prompt tokens \(\d+\)/);
  });
});
