/**
 * Two conversations with the same opening (same agent prompt and task template) never
 * share trim state or the x-opencode-session header, while one conversation keeps its header across turns
 * and across a restart.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import type { ChatMessage } from '../core/types';
import { resolveSettings } from '../core/config/settings';
import { SessionIds } from '../core/session/sessionId';
import { replaySession } from '../replay/replaySession';
import type { WireMessage } from '../core/wire/wireTypes';
import { engineFor, MemoryStore, preparedBy, runOnce } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { filler } from './support/trimHarness';

const SYSTEM: ChatMessage = { role: 'system', parts: [{ kind: 'text', text: 'You are the agent. Follow the task template.' }] };
const OPENING: ChatMessage = { role: 'user', parts: [{ kind: 'text', text: 'Task template: fix the failing test.' }] };
const turn = (role: 'user' | 'assistant', text: string): ChatMessage => ({ role, parts: [{ kind: 'text', text }] });

/** A conversation after the opening: `pairs` exchanges of `tokens` tokens each, then the current question. */
function conversation(tag: string, pairs: number, tokens: number): ChatMessage[] {
  const body = Array.from({ length: pairs * 2 }, (_, i) => turn(i % 2 ? 'user' : 'assistant', `${tag} ${i} ${filler(tokens, i)}`));
  return [SYSTEM, OPENING, ...body, turn('user', `${tag} current question`)];
}

const LIMITS = { contextWindow: 60_000, maxOutputTokens: 4_000 };

describe('session identity: same opening, different conversations', function () {
  this.timeout(30_000);
  const server = useFakeServer();

  it('session-same-opening-b-drops-nothing: after A was cut, B with the same opening and a history that fits drops nothing', async () => {
    const { engine } = engineFor(server().url);
    const a = await preparedBy(engine, { purpose: 'conversation', modelId: 'fake-large', messages: conversation('A', 20, 4_000), tools: [] }, LIMITS);
    assert.ok(a.trim.removed > 0, 'A is long enough to be cut');
    // B has more messages than A had, but short ones: it fits whole.
    const b = await preparedBy(engine, { purpose: 'conversation', modelId: 'fake-large', messages: conversation('B', 30, 20), tools: [] }, LIMITS);
    assert.strictEqual(b.trim.removed, 0, `B dropped ${b.trim.removed} message(s) it had room for`);
    assert.notStrictEqual(b.sessionId, a.sessionId);
  });

  it('replay-same-opening: the replay tool keeps two conversations of one file apart, as the engine does', () => {
    const wire = (tag: string, pairs: number, tokens: number): WireMessage[] => [
      { role: 'system', content: 'You are the agent. Follow the task template.' },
      { role: 'user', content: 'Task template: fix the failing test.' },
      ...Array.from({ length: pairs * 2 }, (_, i): WireMessage => ({ role: i % 2 ? 'user' : 'assistant', content: `${tag} ${i} ${filler(tokens, i)}` })),
      { role: 'user', content: `${tag} current question` },
    ];
    const settings = resolveSettings(() => undefined, () => undefined);
    const { steps } = replaySession([{ messages: wire('A', 20, 4_000), tools: [] }, { messages: wire('B', 30, 20), tools: [] }], { settings, limits: LIMITS });
    assert.ok(steps[0].removed > 0, 'A is long enough to be cut');
    assert.strictEqual(steps[1].removed, 0, `B dropped ${steps[1].removed} message(s) it had room for`);
  });

  it('session-header-stable: one conversation keeps its header every turn and after a restart; another gets its own', async () => {
    const store = new MemoryStore();
    const headerOf = async (engine: ReturnType<typeof engineFor>['engine'], messages: ChatMessage[]): Promise<string> => {
      server().enqueueReply({ text: 'ok' });
      await runOnce(engine, 'fake-large', messages);
      return String(server().requests[server().requests.length - 1].headers['x-opencode-session']);
    };
    const first = engineFor(server().url, {}, store).engine;
    const a1 = await headerOf(first, [SYSTEM, OPENING]);
    const a2 = await headerOf(first, [SYSTEM, OPENING, turn('assistant', 'A answer 1'), turn('user', 'next')]);
    const a3 = await headerOf(first, [SYSTEM, OPENING, turn('assistant', 'A answer 1'), turn('user', 'next'), turn('assistant', 'A answer 2'), turn('user', 'more')]);
    assert.strictEqual(a2, a1);
    assert.strictEqual(a3, a1);
    const b2 = await headerOf(first, [SYSTEM, OPENING, turn('assistant', 'B answer 1'), turn('user', 'next')]);
    assert.notStrictEqual(b2, a1, 'B does not share A\'s session');
    const restarted = engineFor(server().url, {}, store).engine;
    assert.strictEqual(await headerOf(restarted, [SYSTEM, OPENING, turn('assistant', 'A answer 1'), turn('user', 'next'), turn('assistant', 'A answer 2'), turn('user', 'more'), turn('assistant', 'x'), turn('user', 'y')]), a1);
    assert.strictEqual(await headerOf(restarted, [SYSTEM, OPENING, turn('assistant', 'B answer 1'), turn('user', 'next'), turn('assistant', 'b'), turn('user', 'c')]), b2);
  });

  it('session-property: ids are stable as a conversation grows and distinct for different first answers', () => {
    const wire = (first: string, rest: string[]): WireMessage[] => [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'open' },
      { role: 'assistant', content: first },
      ...rest.map((text, i): WireMessage => (i % 2 ? { role: 'assistant', content: text } : { role: 'user', content: text })),
    ];
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { minLength: 2, maxLength: 5 }), fc.array(fc.string(), { maxLength: 6 }), (firsts, rest) => {
        const ids = new SessionIds();
        const idsOf = firsts.map((first) => ids.idFor(wire(first, [])));
        assert.strictEqual(new Set(idsOf).size, firsts.length, 'each conversation has its own id');
        firsts.forEach((first, i) => {
          for (let n = 0; n <= rest.length; n++) assert.strictEqual(ids.idFor(wire(first, rest.slice(0, n))), idsOf[i]);
        });
      }),
    );
  });
});
