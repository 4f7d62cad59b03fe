/**
 * Limits learned from refusals that name no number (core/models/learnedLimits.ts), through the engine over real
 * HTTP: the fake server's model takes fewer input tokens than the data says and refuses more with OpenAI's
 * numberless wording. Random true limits and random growing conversations: every turn is answered, the first
 * conversation meets at most one refusal, and a later one (after a restart, from the saved state) meets none.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { startFakeServer, type FakeServer } from '../fakeServer';
import { ceilingAfter, LearnedLimits, learnedInputLimit, MAX_CONTEXT_RETRIES, REVISE_ABOVE } from '../core/models/learnedLimits';
import { validLearnedLimit } from '../core/models/learnedLimits';
import type { ChatMessage } from '../core/types';
import { chat, engineFor, MemoryStore, runOnce } from './support/engineHarness';
import { runs } from './support/propertyRuns';
import { filler } from './support/trimHarness';

const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 10_000 };
const MAX_OUTPUT = 4_000;

const chats = (server: FakeServer) => server.requests.filter((r) => r.path.endsWith('/chat/completions'));

/** One conversation growing by `turns` user messages (the fake's answers in between); returns the refusals it met. */
async function converse(server: FakeServer, engine: ReturnType<typeof engineFor>['engine'], opening: string, turns: number[], window: number): Promise<number> {
  const history: ChatMessage[] = chat(opening);
  const before = chats(server).length;
  for (const [i, size] of turns.entries()) {
    const { text } = await runOnce(engine, 'm', history, { contextWindow: window, maxOutputTokens: MAX_OUTPUT });
    assert.ok(text.length > 0, `turn ${i} answered`);
    history.push(...chat(text), ...chat(`${opening} turn ${i}: ${filler(size, i)}`));
  }
  return chats(server).length - before - turns.length;
}

describe('limits learned from refusals that name no number (real HTTP)', function () {
  this.timeout(600_000);

  it('learned-numberless: random true input limits below the data: at most one refusal in the first conversation, none in a later one', async () => {
    let refusedRuns = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 6_000, max: 30_000 }),
        fc.double({ min: 1.2, max: 4, noNaN: true }),
        fc.array(fc.double({ min: 0.04, max: 0.25, noNaN: true }), { minLength: 40, maxLength: 40 }),
        async (limit, overstated, shares) => {
          // The data's window leaves a budget above the true input limit: the data is too large.
          const window = Math.round(limit * overstated) + MAX_OUTPUT;
          const turns = turnsPast(limit, shares);
          const server = await startFakeServer({ models: [{ id: 'm', contextWindow: 100_000_000, inputLimit: limit, maxOutputTokens: MAX_OUTPUT }], replyTokens: 30 });
          try {
            const store = new MemoryStore();
            const first = await converse(server, engineFor(server.url, {}, store, fast).engine, 'FIRST task', turns, window);
            assert.ok(first <= 1, `${first} refusals in the first conversation (limit ${limit}, window ${window})`);
            refusedRuns += first;
            const saved = store.values.get('opencode.learnedLimits') as Record<string, unknown>;
            if (first === 1) assert.ok(validLearnedLimit(saved.m)?.ceiling, 'the ceiling is saved');
            // A restart: a new engine on the saved state, a new conversation growing past the limit again.
            const later = await converse(server, engineFor(server.url, {}, store, fast).engine, 'SECOND task', turns, window);
            assert.strictEqual(later, 0, `the later conversation met ${later} refusal(s)`);
          } finally {
            await server.close();
          }
        },
      ),
      { numRuns: runs(12) },
    );
    assert.ok(refusedRuns > 0, 'the conversations reached the true limit');
  });

  it('a first prompt far over the limit, nothing known to fit: answered after at most MAX_CONTEXT_RETRIES refusals, then none', async () => {
    const server = await startFakeServer({ models: [{ id: 'm', contextWindow: 100_000_000, inputLimit: 5_000, maxOutputTokens: MAX_OUTPUT }] });
    try {
      const store = new MemoryStore();
      const { engine, log } = engineFor(server.url, {}, store, fast);
      const { text } = await runOnce(engine, 'm', chat(`huge paste: ${filler(36_000, 1)}`), { contextWindow: 1_000_000, maxOutputTokens: MAX_OUTPUT });
      assert.ok(text.length > 0);
      const refused = chats(server).length - 1;
      assert.ok(refused >= 1 && refused <= MAX_CONTEXT_RETRIES, `${refused} refusals`);
      assert.ok(log.messages('warn').some((m) => /no limit named: below ~\d+ tokens; now trimming under \d+, a guess/.test(m)), log.messages('warn').join('\n'));
      const before = chats(server).length;
      await runOnce(engineFor(server.url, {}, store, fast).engine, 'm', chat(`another paste: ${filler(36_000, 2)}`), { contextWindow: 1_000_000, maxOutputTokens: MAX_OUTPUT });
      assert.strictEqual(chats(server).length - before, 1, 'no refusal once learned');
    } finally {
      await server.close();
    }
  });
});

/** Turn sizes (shares of the limit) until the history is well past it. */
function turnsPast(limit: number, shares: number[]): number[] {
  const turns: number[] = [];
  let total = 0;
  for (const share of shares) {
    if (total > 1.6 * limit) break;
    const size = Math.round(share * limit);
    turns.push(size);
    total += size + 30;
  }
  return turns;
}

describe('learned limits: the rules', () => {
  it('learned-rules: random refusals and accepted prompts keep the record valid, the ceiling below the refusal, an answered prompt never far above the ceiling', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 2_000_000 })), { maxLength: 40 }), (events) => {
        const learned = new LearnedLimits();
        for (const [refused, tokens] of events) {
          const result = refused ? learned.refuse('m', tokens) : learned.accept('m', tokens);
          const record = learned.get('m');
          if (record) assert.deepStrictEqual(validLearnedLimit(JSON.parse(JSON.stringify(record))), record, 'saved as it loads');
          if (record?.ceiling !== undefined) assert.ok(record.refused !== undefined && record.ceiling < record.refused && record.ceiling >= 1_000);
          if (refused && result) assert.ok(record?.ceiling !== undefined && record.ceiling < tokens, 'the re-trim lands below the refused prompt');
          if (!refused && record?.ceiling !== undefined) assert.ok(tokens <= record.ceiling * (1 + REVISE_ABOVE), 'an answered prompt well above the ceiling moved it');
        }
      }),
      { numRuns: runs(500) },
    );
  });

  it('lands under what is known to fit, else under half the refused size; an accepted prompt well above revises it, one at the refused size drops it', () => {
    assert.strictEqual(ceilingAfter(300_000, 290_000), 290_000);
    assert.strictEqual(ceilingAfter(300_000, 20_000), 150_000);
    assert.strictEqual(ceilingAfter(300_000, undefined), 150_000);
    const learned = new LearnedLimits();
    learned.accept('m', 250_000);
    assert.deepStrictEqual(learned.refuse('m', 273_000), { ceiling: 250_000, guess: false });
    assert.strictEqual(learned.accept('m', 252_000), 'fits', 'within the estimate error: the ceiling stays');
    assert.strictEqual(learned.get('m')?.ceiling, 250_000);
    assert.strictEqual(learned.accept('m', 262_000), 'ceiling');
    assert.strictEqual(learned.get('m')?.ceiling, 262_000);
    assert.strictEqual(learned.refuse('m', 280_000), undefined, 'no news: a larger refusal than one known');
    assert.strictEqual(learned.accept('m', 273_000), 'ceiling');
    assert.deepStrictEqual(learned.get('m'), { fits: 273_000 }, 'a prompt at the refused size was answered: the refusal is revised away');
  });

  it('the data stands alone once it explains the refusal; a bare saved number is a window (older versions)', () => {
    const learned = { refused: 300_000, ceiling: 250_000 };
    assert.deepStrictEqual(learnedInputLimit(undefined, 400_000, learned), { inputLimit: 250_000, learned: true });
    assert.deepStrictEqual(learnedInputLimit(272_000, 400_000, learned), { inputLimit: 272_000, learned: false });
    assert.deepStrictEqual(learnedInputLimit(undefined, 262_144, learned), { inputLimit: undefined, learned: false });
    assert.deepStrictEqual(learnedInputLimit(200_000, 400_000, learned), { inputLimit: 200_000, learned: false });
    assert.deepStrictEqual(validLearnedLimit(12_000), { window: 12_000 });
    assert.strictEqual(validLearnedLimit({ refused: 5_000 }), undefined, 'a refusal without its ceiling');
    assert.strictEqual(validLearnedLimit({ refused: 5_000, ceiling: 6_000 }), undefined, 'a ceiling above the refusal');
  });
});
