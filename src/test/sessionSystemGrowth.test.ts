/**
 * Issue 32 item 3: VS Code's agent grows its system prompt between turns (a skills/agents block appears), and the
 * conversation id (the `x-opencode-session` header, the trim state's and the report's key) follows the conversation,
 * not the system text. Two different chats still get two ids.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import type { ChatMessage } from '../core/types';
import { SessionIds } from '../core/session/sessionId';
import type { WireMessage } from '../core/wire/wireTypes';
import { engineFor, MemoryStore, runOnce } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';

const text = (role: ChatMessage['role'], value: string): ChatMessage => ({ role, parts: [{ kind: 'text', text: value }] });

/** Turn n of a chat: the system prompt as VS Code sends it on that turn, then the history so far. */
function turnOf(system: string, task: string, answers: string[]): ChatMessage[] {
  const history = answers.flatMap((answer, i) => [text('assistant', answer), text('user', `${task}: step ${i + 2}`)]);
  return [text('system', system), text('user', task), ...history];
}

describe('session identity: the system prompt grows between turns', function () {
  this.timeout(30_000);
  const server = useFakeServer();

  const headerOf = async (engine: ReturnType<typeof engineFor>['engine'], messages: ChatMessage[]): Promise<string> => {
    server().enqueueReply({ text: 'ok' });
    await runOnce(engine, 'fake-large', messages);
    return String(server().requests[server().requests.length - 1].headers['x-opencode-session']);
  };

  it('one chat keeps one x-opencode-session while its system prompt grows (10.5K → 15K characters); another chat gets its own', async () => {
    const { engine } = engineFor(server().url, {}, new MemoryStore());
    const small = `You are an expert AI programming assistant. ${'rule '.repeat(2_100)}`;
    const grown = `${small}\n<skills>${'skill '.repeat(740)}</skills>`;
    assert.ok(small.length > 10_000 && grown.length > 14_000);
    const t1 = await headerOf(engine, turnOf(small, 'fix the parser', []));
    const t2 = await headerOf(engine, turnOf(small, 'fix the parser', ['read parser.ts']));
    const t3 = await headerOf(engine, turnOf(grown, 'fix the parser', ['read parser.ts', 'edited parser.ts']));
    const t4 = await headerOf(engine, turnOf(grown, 'fix the parser', ['read parser.ts', 'edited parser.ts', 'ran the tests']));
    assert.deepStrictEqual([t2, t3, t4], [t1, t1, t1], 'one chat, one id');
    const other1 = await headerOf(engine, turnOf(grown, 'write a README', []));
    const other2 = await headerOf(engine, turnOf(grown, 'write a README', ['outlined it']));
    assert.notStrictEqual(other1, t1);
    assert.strictEqual(other2, other1);
  });

  it('property: any growth of the system text keeps the id; a different task or first answer gives another', () => {
    const wire = (system: string, task: string, answers: string[]): WireMessage[] => [
      { role: 'system', content: system },
      { role: 'user', content: task },
      ...answers.flatMap((answer, i): WireMessage[] => [{ role: 'assistant', content: answer }, { role: 'user', content: `next ${i}` }]),
    ];
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 4 }),
        fc.uniqueArray(fc.string(), { minLength: 2, maxLength: 3 }),
        fc.array(fc.string(), { minLength: 1, maxLength: 5 }),
        (system, growths, tasks, answers) => {
          const ids = new SessionIds();
          const systems = [system, ...growths.map((_, i) => system + growths.slice(0, i + 1).join(''))];
          const idOf = tasks.map((task) => ids.idFor(wire(system, task, answers.slice(0, 1))));
          assert.strictEqual(new Set(idOf).size, tasks.length, 'each task its own id');
          tasks.forEach((task, t) => {
            for (let n = 1; n <= answers.length; n++) assert.strictEqual(ids.idFor(wire(systems[n % systems.length], task, answers.slice(0, n))), idOf[t]);
          });
          // The same task with another first answer is another chat from its second request on.
          assert.notStrictEqual(ids.idFor(wire(system, tasks[0], [`${answers[0]}x`])), idOf[0]);
        },
      ),
    );
  });
});
