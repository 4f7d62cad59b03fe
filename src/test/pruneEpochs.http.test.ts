/**
 * Pruning in epochs over real HTTP (fake OpenCode server), through the engine on each of the four routes: a long
 * agent session at the ceiling (small prompts, large tool outputs, the same files read again) keeps more user turns
 * with pruning than drop-only, with the cut moving no more often; the bodies carry the placeholder, and between
 * moves each request's messages start with the previous request's, byte for byte.
 */
import * as assert from 'assert';
import type { RouteId } from '../core/routeId';
import type { ChatMessage } from '../core/types';
import type { WireMessage } from '../core/wire/wireTypes';
import { engineFor, MemoryStore } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { filler } from './support/trimHarness';

const WINDOW = { contextWindow: 40_000, maxOutputTokens: 4_000 };
const SMALL_STEPS = { 'historyTrim.cutStepTokens': 4_096, reservedOutputTokens: 4_000, 'historyTrim.headroomMinTokens': 1_000, 'historyTrim.pruneProtectTokens': 6_000 };
const MODEL: Record<RouteId, string> = { chat: 'fake-large', responses: 'fake-responses', messages: 'fake-messages', gemini: 'fake-native-gemini' };
const PATH: Record<RouteId, string> = { chat: '/v1/chat/completions', responses: '/v1/responses', messages: '/v1/messages', gemini: '/v1/models/fake-native-gemini:streamGenerateContent' };
const TOOLS = [{ name: 'read_file', description: 'read a file', inputSchema: { type: 'object', properties: { filePath: { type: 'string' } } } }];
const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 5_000 };

/** The history of each request: 12 tasks of 3 rounds, each round reading one of 4 files (~2,500 tokens). */
function agentRequests(): ChatMessage[][] {
  const history: ChatMessage[] = [
    { role: 'system', parts: [{ kind: 'text', text: 'You are a coding agent.' }] },
    { role: 'user', parts: [{ kind: 'text', text: `<environment_info>${filler(200, 1)}</environment_info>` }] },
  ];
  const requests: ChatMessage[][] = [];
  let call = 0;
  for (let task = 0; task < 12; task++) {
    history.push({ role: 'user', parts: [{ kind: 'text', text: `Task ${task}: fix the next failing test.` }] });
    requests.push([...history]);
    for (let round = 0; round < 3; round++) {
      const callId = `call_${call}`;
      history.push({ role: 'assistant', parts: [{ kind: 'toolCall', callId, name: 'read_file', input: { filePath: `src/f${call % 4}.ts` } }] });
      history.push({ role: 'user', parts: [{ kind: 'toolResult', callId, text: filler(2_500, call) }] });
      call++;
      requests.push([...history]);
    }
    history.push({ role: 'assistant', parts: [{ kind: 'text', text: `Fixed task ${task}.` }] });
  }
  return requests;
}

interface SessionFigures {
  userTurns: number;
  moves: number;
  placeholders: number;
}

describe('pruning in epochs over real HTTP, on every route', function () {
  this.timeout(120_000);
  const server = useFakeServer();

  async function run(route: RouteId, prune: boolean): Promise<SessionFigures> {
    const settings = { ...SMALL_STEPS, 'historyTrim.pruneToolResults': prune, models: { [MODEL[route]]: { api: route } } };
    const { engine } = engineFor(server().url, settings, new MemoryStore(), fast);
    const figures = { userTurns: 0, moves: 0, placeholders: 0 };
    let before: string[] | undefined;
    const sentBefore = server().requests.length;
    for (const messages of agentRequests()) {
      const { prepared } = await engine.run({ purpose: 'conversation', modelId: MODEL[route], messages, tools: TOOLS }, WINDOW, () => undefined, new AbortController().signal);
      const sent = prepared.trim.messages.map((m: WireMessage) => JSON.stringify(m));
      figures.userTurns += prepared.trim.messages.filter((m, i) => m.role === 'user' && i > 1).length;
      figures.placeholders += prepared.pruned.results;
      if (prepared.cutMoved) figures.moves++;
      else if (before) before.forEach((b, k) => assert.strictEqual(sent[k], b, `${route}: held, yet message ${k} changed`));
      before = sent;
    }
    const bodies = server().requests.slice(sentBefore).filter((r) => r.path === PATH[route]);
    assert.strictEqual(bodies.length, agentRequests().length, `${route}: every request went by its route`);
    const cleared = bodies.filter((r) => JSON.stringify(r.body).includes('Old tool result cleared by the OpenCode extension')).length;
    assert.strictEqual(cleared > 0, prune, `${route}: the bodies carry the placeholder only with pruning`);
    return figures;
  }

  for (const route of ['chat', 'responses', 'messages', 'gemini'] as const) {
    it(`${route}: more user turns kept than drop-only, the cut moving no more often`, async () => {
      const pruned = await run(route, true);
      const dropped = await run(route, false);
      assert.ok(dropped.moves > 0, `${route}: the session reaches the ceiling`);
      assert.ok(pruned.userTurns > dropped.userTurns, `${route}: ${pruned.userTurns} user turns sent with pruning vs ${dropped.userTurns} drop-only`);
      assert.ok(pruned.moves <= dropped.moves, `${route}: ${pruned.moves} moves with pruning vs ${dropped.moves} drop-only`);
      assert.ok(pruned.placeholders > 0);
    });
  }
});
