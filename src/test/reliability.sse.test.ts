/**
 * Reading the SSE body ourselves (not through the SDK's iterator): line endings, comments, split
 * payloads, multi-byte characters cut between network chunks, a bad payload in the middle, and an error
 * a gateway sends inside the stream.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { FIXTURE_DIR } from './support/streamFixtures';
import { chat, engineFor, runOnce } from './support/engineHarness';
import { rawSseServer } from './support/rawSseServer';
import { runs } from './support/propertyRuns';
import { SseDecoder } from '../core/stream/answerStream';
import { frameOf } from '../core/routes/chat/chatReader';

const fixture = fs.readFileSync(path.join(FIXTURE_DIR, 'gateway-crlf-keepalive.sse'), 'utf8');

function decodeInPieces(text: string, cuts: number[]): string[] {
  const decoder = new SseDecoder();
  const out: string[] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    out.push(...decoder.push(text.slice(from, cut)).map((e) => e.data));
    from = cut;
  }
  out.push(...[...decoder.push(text.slice(from)), ...decoder.flush()].map((e) => e.data));
  return out;
}

describe('SSE decoding', () => {
  const whole = decodeInPieces(fixture, []);

  it('reads a gateway stream with CRLF, keep-alive comments and event/id fields as its data payloads only', () => {
    assert.strictEqual(whole.length, 6);
    assert.strictEqual(whole[2], '{not json');
    assert.strictEqual(whole[5], '[DONE]');
    assert.deepStrictEqual(whole.map((data) => frameOf(data).kind), ['chunk', 'chunk', 'malformed', 'chunk', 'chunk', 'done']);
  });

  it('gives the same payloads however the text is split, including between \\r and \\n', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: fixture.length }), { maxLength: 40 }), (cuts) => {
        assert.deepStrictEqual(decodeInPieces(fixture, cuts), whole);
      }),
      { numRuns: runs(300) },
    );
    for (let i = 0; i <= fixture.length; i++) assert.deepStrictEqual(decodeInPieces(fixture, [i]), whole, `cut at ${i}`);
  });

  it('joins multi-line data, accepts bare \\r and "data:" without a space, and flushes an event missing its blank line', () => {
    assert.deepStrictEqual(decodeInPieces('data: a\ndata:b\n\rdata: c\r\rdata: tail', []), ['a\nb', 'c', 'tail']);
  });

  it('classifies payloads: non-object JSON is malformed; an error object is an error', () => {
    assert.deepStrictEqual(['42', 'null', '[1]', '"x"', ''].map((d) => frameOf(d).kind), ['malformed', 'malformed', 'malformed', 'malformed', 'malformed']);
    assert.deepStrictEqual(frameOf('{"error":{"message":"Upstream overloaded"}}'), { kind: 'error', error: { message: 'Upstream overloaded' } });
    assert.strictEqual(frameOf(' [DONE] ').kind, 'done');
  });

  it('streams the fixture over real HTTP in 7-byte pieces: whole text, multi-byte characters intact, bad payload logged', async () => {
    const raw = await rawSseServer(Buffer.from(fixture, 'utf8'));
    try {
      const { engine, log } = engineFor(raw.url);
      const { text, outcome } = await runOnce(engine, 'gw-model', chat('hi'), { contextWindow: 100_000 });
      assert.strictEqual(text, 'Hello,\n  wörld 🌍!');
      assert.strictEqual(outcome.truncated, false);
      assert.strictEqual(outcome.usage?.contextTokens, 10);
      assert.deepStrictEqual(log.messages('warn'), ['[stream] Skipped 1 malformed chunk(s) from gw-model (not JSON; first "{not json"); the rest of the answer was kept, a piece of text may be missing.']);
    } finally {
      await raw.close();
    }
  });

  it('turns an error sent inside the stream into a sentence with the gateway\'s words', async () => {
    const raw = await rawSseServer(Buffer.from('data: {"error":{"message":"Upstream overloaded","type":"server_error"}}\n\n'));
    try {
      const { engine } = engineFor(raw.url, { maxRetries: 0 });
      await assert.rejects(runOnce(engine, 'gw-model', chat('hi')), { message: 'The request to gw-model failed: Upstream overloaded' });
    } finally {
      await raw.close();
    }
  });
});
