/**
 * The conversion step's `[request] …` lines (image note for a text-only model, tool-pair repair) are logged once
 * per request (closing note item 9): a re-trim after a context-length 400 starts from the request's one
 * conversion instead of converting (and logging) again. Over real HTTP to the fake server.
 */
import * as assert from 'assert';
import type { ChatMessage } from '../core/types';
import { engineFor, MemoryStore } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';

const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 1_000 };
const LIMITS = { contextWindow: 1_000_000, maxOutputTokens: 8_000 };
const IMAGE_LINE = '[request] fake-large does not accept images; replaced 2 image(s) with a note.';
const REPAIR_LINE = '[request] Repaired tool pairs: dropped 1 orphaned tool result(s), closed 0 call(s) that had no result.';

/** A long history with two images and one orphaned tool result, long enough that a 12,000-token limit cuts it. */
function history(): ChatMessage[] {
  const image = { kind: 'image' as const, mimeType: 'image/png', data: new Uint8Array([1, 2, 3]) };
  const turns: ChatMessage[] = [{ role: 'user', parts: [{ kind: 'text', text: 'ANCHOR: look at these' }, image, image] }];
  for (let i = 0; i < 40; i++) turns.push({ role: i % 2 === 0 ? 'assistant' : 'user', parts: [{ kind: 'text', text: `turn ${i} ${'words and more words '.repeat(60)}` }] });
  turns.push({ role: 'user', parts: [{ kind: 'toolResult', callId: 'ghost', text: 'orphan' }, { kind: 'text', text: 'current question' }] });
  return turns;
}

describe('conversion lines: once per request', () => {
  const server = useFakeServer();

  it('a context-length 400 re-trims and retries without logging the image note or the repair line again', async () => {
    const { engine, log } = engineFor(server().url, {}, new MemoryStore(), fast);
    const run = () => engine.run({ purpose: 'conversation', modelId: 'fake-large', messages: history(), tools: [], imageInput: false }, LIMITS, () => undefined, new AbortController().signal);
    server().enqueueFault({ name: 'context-length-400', limit: 12_000 });
    await run();
    const chats = server().requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.strictEqual(chats.length, 2, 'refused once, re-trimmed, answered');
    assert.ok(chats[1].body.messages.length < chats[0].body.messages.length, 'the retry was re-prepared (trimmed again)');
    assert.ok(!JSON.stringify(chats.map((c) => c.body)).includes('image_url'), 'both attempts sent the note, not the images');
    const count = (line: string) => log.messages('warn').filter((m) => m === line).length;
    assert.deepStrictEqual([count(IMAGE_LINE), count(REPAIR_LINE)], [1, 1]);
    // Once per request, not once per conversation: the next request says it again.
    await run();
    assert.deepStrictEqual([count(IMAGE_LINE), count(REPAIR_LINE)], [2, 2]);
  });
});
