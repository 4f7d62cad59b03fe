/**
 * The trim's cut does not depend on the route: the same growing conversation prepared for chat, Responses
 * and Messages removes the same messages on every turn (the trim runs on the neutral history; only the body
 * differs), and over real HTTP each route's body carries exactly the kept messages.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { resolveSettings } from '../core/config/settings';
import { type PrepareContext } from '../core/request/prepareRequest';
import { routeById } from '../core/routes/registry/registry';
import type { RouteId } from '../core/routeId';
import { SessionIds } from '../core/session/sessionId';
import { SizeMemo } from '../core/trim/messageSize';
import type { ChatMessage } from '../core/types';
import { engineFor, MemoryStore } from './support/engineHarness';
import { filler } from './support/trimHarness';
import { PATHS, ROUTE_MODEL, ROUTES } from './support/routeModels';
import { useFakeServer } from './support/suiteHooks';
import { runs } from './support/propertyRuns';
import { prepareRequest } from './support/prepareRequest';
import { ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';

const WINDOW = { contextWindow: 40_000, maxOutputTokens: 4_000 };
const SMALL_STEPS = { 'historyTrim.cutStepTokens': 4_096, reservedOutputTokens: 4_000, 'historyTrim.headroomMinTokens': 1_000 };

const stepArb = fc.record({ tokens: fc.integer({ min: 500, max: 6_000 }), tool: fc.boolean(), seed: fc.nat(1_000) });

/** A growing conversation: each step an answer (maybe a tool call with its result) and a new question. */
function turnsOf(steps: { tokens: number; tool: boolean; seed: number }[]): ChatMessage[][] {
  const history: ChatMessage[] = [{ role: 'system', parts: [{ kind: 'text', text: 'Be careful.' }] }, { role: 'user', parts: [{ kind: 'text', text: 'start' }] }];
  const turns: ChatMessage[][] = [];
  steps.forEach((step, i) => {
    const callId = `call_${i}`;
    if (step.tool) {
      history.push({ role: 'assistant', parts: [{ kind: 'text', text: `reading ${i}` }, { kind: 'toolCall', callId, name: 'read', input: { path: `f${i}.ts` } }] });
      history.push({ role: 'user', parts: [{ kind: 'toolResult', callId, text: filler(step.tokens, step.seed) }] });
    } else {
      history.push({ role: 'assistant', parts: [{ kind: 'text', text: filler(step.tokens, step.seed) }] });
      history.push({ role: 'user', parts: [{ kind: 'text', text: `question ${i}` }] });
    }
    turns.push([...history]);
  });
  return turns;
}

const TOOLS = [{ name: 'read', description: 'read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }];

/**
 * What the engine's preparation reads and keeps for one route, each route its own (prepareRequest is the pure
 * step run() takes): the settings, the listed window, a neutral calibration, the size memo, the conversation states
 * and the session claims. Over real HTTP, below, the engine itself prepares.
 */
function contextFor(route: RouteId): PrepareContext {
  const settings = resolveSettings((key) => (SMALL_STEPS as Record<string, unknown>)[key], () => undefined);
  return { settings, limits: WINDOW, calibration: 1, memo: new SizeMemo(), states: new ConversationStates(), sessionIds: new SessionIds(), log: new MemoryLogger(), route: routeById(route) };
}

describe('the cut is the same on every route', () => {
  it('property: a random growing conversation gets the same cut, turn by turn, on chat, Responses and Messages', () => {
    let cuts = 0;
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 8, maxLength: 25 }), (steps) => {
        const contexts = ROUTES.map(contextFor);
        for (const turn of turnsOf(steps)) {
          const prepared = contexts.map((context) => prepareRequest({ purpose: 'conversation', modelId: 'm', messages: turn, tools: TOOLS }, context));
          assert.deepStrictEqual(prepared.map((p) => p.route.id), ROUTES);
          const [chat, ...native] = prepared;
          if (chat.trim.removed > 0) cuts++;
          for (const other of native) {
            assert.deepStrictEqual(other.trim.sentIndices, chat.trim.sentIndices, `${other.route.id} cut differs`);
            assert.strictEqual(other.trim.removed, chat.trim.removed);
            assert.deepStrictEqual(other.trim.messages, chat.trim.messages);
            assert.strictEqual(other.sessionId, chat.sessionId);
          }
        }
        return true;
      }),
      { numRuns: runs(40) },
    );
    assert.ok(cuts > 0, 'some turns were cut (else the property says nothing)');
  });

  describe('over real HTTP', () => {
    const server = useFakeServer();

    it('the same long history is cut at the same message on each route, and each body carries exactly the kept messages', async () => {
      const history = turnsOf(Array.from({ length: 20 }, (_, i) => ({ tokens: 3_000, tool: i % 2 === 0, seed: i }))).at(-1)!;
      const removed: number[] = [];
      for (const route of ROUTES) {
        const { engine } = engineFor(server().url, { ...SMALL_STEPS, models: { [ROUTE_MODEL[route]]: { api: route } } }, new MemoryStore());
        const outcome = await engine.run({ purpose: 'conversation', modelId: ROUTE_MODEL[route], messages: history, tools: [] }, WINDOW, () => undefined, new AbortController().signal);
        removed.push(outcome.prepared.trim.removed);
        const body = server().requests.filter((r) => r.path === PATHS[route]).at(-1)!.body as Record<string, unknown[]>;
        const sent = route === 'chat' ? body.messages.length : route === 'responses' ? body.input.length : body.messages.length;
        assert.ok(sent > 0 && sent < history.length, `${route}: ${sent} items of ${history.length}`);
      }
      assert.ok(removed[0] > 0, 'the history was cut');
      assert.deepStrictEqual(removed, [removed[0], removed[0], removed[0]]);
    });
  });
});
