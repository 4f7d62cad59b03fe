/**
 * The trim measures the native items it passes back (docs/routes.md, "What the trim counts of native items"):
 * random agent sessions whose tool-call answers carry random layouts — Responses reasoning items with encrypted
 * content, Anthropic signed / redacted thinking, Gemini thought signatures — prepared turn by turn.
 *  - What the trim counts for the request is at least what the route's body carries, measured with the same
 *    rule (support/bodyMeasure.ts). Before layouts were measured, any sizeable payload broke this.
 *  - The cut is the same on all four routes (layouts count alike, whatever route recorded them), the same with
 *    a cold size memo and a restarted (JSON round-tripped) replay memory, and an evicted layout simply stops
 *    counting (it is not sent either).
 */
import * as assert from 'assert';
import { createHash } from 'crypto';
import fc from 'fast-check';
import { type PreparedRequest } from '../core/request/prepareRequest';
import { NativeReplayMemory, type AssistantLayout, type LayoutSlot } from '../core/answer/nativeReplay';
import { routeById } from '../core/routes/registry/registry';
import type { RouteId } from '../core/routeId';
import { measureMessage, SizeMemo } from '../core/trim/messageSize';
import type { ChatMessage } from '../core/types';
import type { WireMessage } from '../core/wire/wireTypes';
import { bodyTokens } from './support/bodyMeasure';
import { defaultSettings, filler } from './support/trimHarness';
import { assertReached, runs } from './support/propertyRuns';
import { signedCallItem } from '../core/routes/gemini/geminiBody';
import { prepareRequest } from './support/prepareRequest';
import { ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';

type NativeRoute = Exclude<RouteId, 'chat'>;
const NATIVE: NativeRoute[] = ['responses', 'messages', 'gemini'];
const ALL: RouteId[] = ['chat', ...NATIVE];
const LIMITS = { contextWindow: 40_000, maxOutputTokens: 4_000 };
const SETTINGS = { ...defaultSettings, historyTrim: { ...defaultSettings.historyTrim, cutStepTokens: 4_096, headroomMinTokens: 1_000 } };

/** A deterministic opaque payload (base64, like encrypted content and signatures) of about `chars` characters. */
function payload(chars: number, seed: number): string {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += createHash('sha256').update(`${seed}:${i}`).digest('base64');
  return out.slice(0, chars);
}

const stepArb = fc.record({
  calls: fc.integer({ min: 0, max: 2 }),
  text: fc.boolean(),
  thinkingTokens: fc.integer({ min: 0, max: 1_500 }),
  keepThinking: fc.boolean(),
  opaqueChars: fc.integer({ min: 0, max: 24_000 }),
  remembered: fc.boolean(),
  redacted: fc.boolean(),
  resultTokens: fc.integer({ min: 20, max: 2_500 }),
  question: fc.boolean(),
  seed: fc.nat(10_000),
});
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

/** The layout the route would have recorded for this answer: its native items in arrival order, then text and calls. */
function layoutOf(route: NativeRoute, step: Step, thinking: string, callIds: string[]): AssistantLayout {
  const slots: LayoutSlot[] = [];
  const opaque = payload(step.opaqueChars, step.seed);
  if (route === 'responses') slots.push({ kind: 'native', item: { type: 'reasoning', id: `rs_${step.seed}`, summary: thinking ? [{ type: 'summary_text', text: thinking }] : [], encrypted_content: opaque } });
  if (route === 'messages') slots.push({ kind: 'native', item: step.redacted ? { type: 'redacted_thinking', data: opaque } : { type: 'thinking', thinking, signature: opaque } });
  if (step.text) slots.push({ kind: 'text' });
  callIds.forEach((callId, i) => {
    if (route === 'gemini' && i === 0) slots.push({ kind: 'native', item: signedCallItem(callId, { thoughtSignature: opaque, ...(step.redacted ? { geminiId: `g${step.seed}` } : {}) }) });
    slots.push({ kind: 'call', callId });
  });
  return { route, slots };
}

/** The growing session (one history per turn) and the layouts `route` recorded for it. */
function sessionOf(route: NativeRoute, steps: Step[]): { turns: ChatMessage[][]; memory: NativeReplayMemory } {
  const history: ChatMessage[] = [{ role: 'system', parts: [{ kind: 'text', text: 'You are an agent.' }] }, { role: 'user', parts: [{ kind: 'text', text: 'Fix the build.' }] }];
  const memory = new NativeReplayMemory();
  const turns: ChatMessage[][] = [];
  steps.forEach((step, n) => {
    const thinking = step.thinkingTokens > 0 ? filler(step.thinkingTokens, step.seed) : '';
    const callIds = Array.from({ length: step.calls }, (_, k) => `call_${n}_${k}`);
    const parts: ChatMessage['parts'] = [];
    if (thinking && step.keepThinking) parts.push({ kind: 'thinking', text: thinking });
    parts.push({ kind: 'text', text: step.text || callIds.length === 0 ? `step ${n}: ${filler(30, step.seed)}` : '' });
    for (const callId of callIds) parts.push({ kind: 'toolCall', callId, name: 'read', input: { path: `src/f${n}.ts` } });
    history.push({ role: 'assistant', parts });
    for (const callId of callIds) history.push({ role: 'user', parts: [{ kind: 'toolResult', callId, text: filler(step.resultTokens, step.seed + 1) }] });
    if (callIds.length > 0 && step.remembered) memory.remember(layoutOf(route, step, thinking, callIds));
    if (step.question || callIds.length === 0) history.push({ role: 'user', parts: [{ kind: 'text', text: `next ${n}` }] });
    turns.push([...history]);
  });
  return { turns, memory };
}

function prepare(route: RouteId, messages: ChatMessage[], memory: NativeReplayMemory, memo: SizeMemo, states: ConversationStates): PreparedRequest {
  return prepareRequest(
    { purpose: 'conversation', modelId: 'm', messages, tools: [] },
    { settings: SETTINGS, limits: LIMITS, calibration: 1, memo, states, log: new MemoryLogger(), route: routeById(route), reasons: true, replay: memory },
  );
}

const restarted = (memory: NativeReplayMemory): NativeReplayMemory => NativeReplayMemory.fromJSON(JSON.parse(JSON.stringify(memory.toJSON())));

describe('the trim measures the native items it passes back (property)', () => {
  it('what the trim counts covers what each native route sends, and the cut is the same on every route, warm or cold, before or after a restart', () => {
    let cuts = 0;
    let opaqueSent = 0;
    fc.assert(
      fc.property(fc.constantFrom(...NATIVE), fc.array(stepArb, { minLength: 3, maxLength: 14 }), (recorded, steps) => {
        const { turns, memory } = sessionOf(recorded, steps);
        const memo = new SizeMemo();
        const states = Object.fromEntries(ALL.map((route) => [route, new ConversationStates()])) as Record<RouteId, ConversationStates>;
        const coldStates = new ConversationStates();
        const memoryAfterRestart = restarted(memory);
        for (const turn of turns) {
          const byRoute = ALL.map((route) => prepare(route, turn, memory, memo, states[route]));
          const own = byRoute[ALL.indexOf(recorded)];
          const sent = bodyTokens(recorded, own.body);
          assert.ok(own.trim.rawTokens >= sent, `${recorded}: the trim counted ${own.trim.rawTokens} tokens, the body carries ${sent}`);
          for (const other of byRoute) assert.deepStrictEqual(other.trim.sentIndices, own.trim.sentIndices, `${other.route.id} cut differs from ${recorded}`);
          const cold = prepare(recorded, turn, memoryAfterRestart, new SizeMemo(), coldStates);
          assert.deepStrictEqual(cold.trim.sentIndices, own.trim.sentIndices, 'a cold memo and a restarted memory give the same cut');
          assert.strictEqual(cold.trim.rawTokens, own.trim.rawTokens);
          if (own.trim.removed > 0) cuts++;
          const json = JSON.stringify(own.body);
          if (steps.some((s) => s.opaqueChars >= 1_000 && s.calls > 0 && s.remembered && json.includes(payload(s.opaqueChars, s.seed)))) opaqueSent++;
        }
        return true;
      }),
      { numRuns: runs(40) },
    );
    assertReached(cuts > 0, 'some turns were cut (else the cut comparison says little)');
    assertReached(opaqueSent > 0, 'some bodies carried opaque payloads (else the coverage says nothing)');
  });

  it('a message\'s size is a function of the message and its layout alone: the same whatever route recorded the layout; without it (evicted), the message alone', () => {
    fc.assert(
      fc.property(stepArb, fc.constantFrom(...NATIVE), (step, route) => {
        const calls = Math.max(1, step.calls);
        const callIds = Array.from({ length: calls }, (_, k) => `call_${k}`);
        const thinking = filler(step.thinkingTokens, step.seed);
        const message: WireMessage = {
          role: 'assistant',
          content: 'reading',
          ...(step.keepThinking ? { reasoning_content: thinking } : {}),
          tool_calls: callIds.map((id) => ({ id, type: 'function' as const, function: { name: 'read', arguments: '{"path":"a.ts"}' } })),
        };
        const layout = layoutOf(route, step, thinking, callIds);
        const memo = new SizeMemo();
        const withLayout = memo.sizeOf(message, layout);
        assert.deepStrictEqual(withLayout, measureMessage(structuredClone(message), structuredClone(layout)), 'memo and a fresh measure agree');
        assert.deepStrictEqual(memo.sizeOf(message, { ...layout, route: 'chat' }), withLayout, 'the recording route does not matter');
        assert.deepStrictEqual(memo.sizeOf(message), measureMessage(message), 'an evicted layout: the message alone');
        assert.ok(withLayout.tokens >= measureMessage(message).tokens + Math.ceil(step.opaqueChars / 4), 'the opaque payload counts at chars ÷ 4 at least');
        assert.ok(withLayout.bytes >= measureMessage(message).bytes + step.opaqueChars);
      }),
      { numRuns: runs(200) },
    );
  });

  it('the thinking is counted once (the larger of reasoning_content and the items\' thought text), opaque payloads at ⌈characters ÷ 4⌉', () => {
    const thinking = filler(800, 3);
    const signature = payload(1_001, 7);
    const message: WireMessage = { role: 'assistant', content: 'x', reasoning_content: thinking, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }] };
    const layout = (thought: string): AssistantLayout => ({ route: 'messages', slots: [{ kind: 'native', item: { type: 'thinking', thinking: thought, signature } }, { kind: 'call', callId: 'c1' }] });
    const alone = measureMessage(message).tokens;
    const opaque = Math.ceil('thinking'.length / 4) + Math.ceil(signature.length / 4);
    assert.strictEqual(measureMessage(message, layout(thinking)).tokens, alone + opaque, 'the same thinking on both sides: once');
    const longer = `${thinking} ${filler(400, 5)}`;
    assert.strictEqual(measureMessage(message, layout(longer)).tokens, measureMessage({ ...message, reasoning_content: longer }).tokens + opaque, 'the longer thought wins');
  });
});
