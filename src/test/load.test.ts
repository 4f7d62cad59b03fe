/**
 * Load: 20 concurrent requests through ONE provider instance against the fake server. The fake server's
 * default reply is derived from the last user message, so 20 distinct prompts script 20 distinct answers:
 * a crossed stream would show up as an answer to another prompt. Heap is measured after a forced GC.
 */
import * as assert from 'assert';
import * as v8 from 'v8';
import * as vm from 'vm';
import { startFakeServer, type FakeServer } from '../fakeServer';
import { defaultReplyText } from '../fakeServer/replies';
import { activateAgainst, ask, user, type ActivatedExtension } from './support/activatedExtension';

const CONCURRENT = 20;
const ROUNDS = 3;
const REPLY_TOKENS = 120;
/**
 * Generous on purpose, so a loaded machine never fails it: measured growth here is under 1 MB (GC noise,
 * warm caches). It catches only a leak of more than ~140 KB per request (8 MB over 60 requests).
 */
const HEAP_GROWTH_LIMIT = 8 * 1024 * 1024;
/** Without a forced GC the heap holds garbage of unknown age: only a gross leak is detectable. */
const HEAP_GROWTH_LIMIT_WITHOUT_GC = 64 * 1024 * 1024;

/** `gc` without --expose-gc on the command line (mocha runs without it). */
function forceGc(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as (() => void) | undefined;
  return typeof gc === 'function' ? gc : undefined;
}

function heapAfterGc(gc: (() => void) | undefined): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

describe('load: concurrent requests through one provider', function () {
  this.timeout(30_000);
  let server: FakeServer;
  let ext: ActivatedExtension;
  before(async () => {
    server = await startFakeServer({ replyTokens: REPLY_TOKENS, replyDelayMs: 20 });
    ext = activateAgainst(server);
  });
  after(async () => {
    ext.dispose();
    await server.close();
  });

  const prompts = Array.from({ length: CONCURRENT }, (_, i) => `Question number ${i} about module-${String.fromCharCode(97 + i)}: what does it export?`);

  /** Runs all prompts at once; also returns how many had reached the server when the first answer was complete. */
  async function round(): Promise<{ texts: string[]; inFlightAtFirstAnswer: number }> {
    let inFlightAtFirstAnswer = 0;
    const texts = await Promise.all(
      prompts.map(async (prompt) => {
        const { text } = await ask(ext, 'fake-large', [user(prompt)]);
        inFlightAtFirstAnswer ||= server.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
        return text;
      }),
    );
    server.reset();
    return { texts, inFlightAtFirstAnswer };
  }

  it('answers every request with exactly its own text, streams overlap, and the heap returns near baseline', async () => {
    const gc = forceGc();
    const limit = gc ? HEAP_GROWTH_LIMIT : HEAP_GROWTH_LIMIT_WITHOUT_GC;
    await round(); // warm-up: tokenizer, SDK client, model list
    const baseline = heapAfterGc(gc);
    for (let r = 0; r < ROUNDS; r++) {
      const { texts, inFlightAtFirstAnswer } = await round();
      texts.forEach((text, i) => assert.strictEqual(text, defaultReplyText([{ role: 'user', content: prompts[i] }], REPLY_TOKENS), `request ${i} got its own answer`));
      assert.ok(inFlightAtFirstAnswer >= 2, `the requests really ran at the same time (${inFlightAtFirstAnswer} in flight)`);
    }
    const growth = heapAfterGc(gc) - baseline;
    assert.ok(growth < limit, `heap grew ${(growth / 1024 / 1024).toFixed(1)} MB over ${ROUNDS * CONCURRENT} requests (${gc ? 'after a forced GC' : 'no GC available: generous bound'})`);
    assert.deepStrictEqual(ext.log.lines.filter((l) => l.level !== 'info'), [], 'no warnings or errors under load');
  });
});
