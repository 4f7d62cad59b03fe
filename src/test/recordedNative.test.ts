/**
 * A recording replayed in the session report lands on the live run's cuts on a native route too: the line carries
 * what each message's native items added (sent.native), which the recording's history alone does not have.
 */
import * as assert from 'assert';
import { createHash } from 'crypto';
import { MemoryLogger } from '../core/log';
import { recordedConversationLog } from '../core/report/recordedConversation';
import { accountUsage } from '../core/request/accountUsage';
import { prepareRequest } from '../core/request/prepareRequest';
import { nativeSizesOf } from '../core/replay/nativeSizes';
import { RequestRecording } from '../core/replay/requestRecording';
import { sentRecord } from '../core/replay/sentRecord';
import { signedCallItem } from '../core/routes/gemini/geminiReplay';
import { layoutLookup, NativeReplayMemory, type AssistantLayout } from '../core/routes/nativeReplay';
import { routeById } from '../core/routes/registry';
import type { RouteId } from '../core/routes/route';
import { Calibrations } from '../core/trim/calibration';
import { ConversationStates } from '../core/trim/conversationState';
import { calibrationRawTokens } from '../core/trim/historyTrim';
import { SizeMemo } from '../core/trim/messageSize';
import type { ChatMessage } from '../core/types';
import { normalizeUsage } from '../core/usage/normalizeUsage';
import { parseReplayLines } from '../replay/replayFile';
import { defaultSettings, filler } from './support/trimHarness';

const payload = (chars: number, seed: number): string => {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += createHash('sha256').update(`${seed}:${i}`).digest('base64');
  return out.slice(0, chars);
};

/** An agent session: per turn thinking + one call + its result; the layout `route` recorded for each turn. */
function session(route: Exclude<RouteId, 'chat'>, turns: number, opaqueChars: number, thinkingTokens: number, resultTokens: number) {
  const history: ChatMessage[] = [{ role: 'system', parts: [{ kind: 'text', text: 'You are an agent.' }] }, { role: 'user', parts: [{ kind: 'text', text: 'Fix the build.' }] }];
  const layouts: AssistantLayout[] = [];
  for (let n = 0; n < turns; n++) {
    const callId = `call_${n}`;
    const thinking = filler(thinkingTokens, n);
    history.push({ role: 'assistant', parts: [{ kind: 'thinking', text: thinking }, { kind: 'toolCall', callId, name: 'read', input: { path: `src/f${n}.ts` } }] });
    history.push({ role: 'user', parts: [{ kind: 'toolResult', callId, text: filler(resultTokens, n + 1) }] });
    const slots: AssistantLayout['slots'] = [];
    if (route === 'responses') slots.push({ kind: 'native', item: { type: 'reasoning', id: `rs_${n}`, summary: [{ type: 'summary_text', text: thinking }], encrypted_content: payload(opaqueChars, n) } });
    if (route === 'messages') slots.push({ kind: 'native', item: { type: 'thinking', thinking, signature: payload(opaqueChars, n) } });
    if (route === 'gemini') slots.push({ kind: 'native', item: signedCallItem(callId, { thoughtSignature: payload(opaqueChars, n) }) });
    slots.push({ kind: 'call', callId });
    layouts.push({ route, slots });
  }
  const memory = new NativeReplayMemory();
  for (const layout of layouts) memory.remember(layout);
  return { history, memory, layouts };
}

describe('a recording of a native-route session replays onto the live cuts', () => {
  for (const route of ['messages', 'responses', 'gemini'] as const) {
    it(`${route}: the report's replay of the recording drops what the live trim dropped, request by request`, () => {
      const { history, memory } = session(route, 60, 4_000, 300, 1_200);
      const settings = { ...defaultSettings, budgetOverrideTokens: 60_000, maxRequestBytes: 1e9 };
      const limits = { contextWindow: 100_000, maxOutputTokens: 10_000 };
      const state = { log: new MemoryLogger(), calibrations: new Calibrations(), states: new ConversationStates() };
      const memo = new SizeMemo();
      const recording = new RequestRecording();
      const live: number[] = [];
      const factors: number[] = [];
      const lines: string[] = [];
      for (let n = 6; n <= history.length; n += 2) {
        const p = prepareRequest({ modelId: 'm', messages: history.slice(0, n), tools: [] }, {
          settings, limits, calibration: state.calibrations.factor('m'), calibrationSpread: state.calibrations.spread('m'), memo, states: state.states, log: state.log, route: routeById(route), reasoningModel: true, replay: memory,
        });
        // The endpoint bills what the trim counts; the engine accounts it and the recorder keeps the factor.
        accountUsage(state, 'm', p, normalizeUsage({ prompt_tokens: p.trim.rawTokens, completion_tokens: 1 })!);
        live.push(p.trim.removed);
        factors.push(p.trim.rawTokens / calibrationRawTokens(p.trim));
        lines.push(recording.lineFor(p.input, [], sentRecord(route, p.body, p.body, [], nativeSizesOf(p.input, layoutLookup(memory), memo))));
      }
      assert.ok(live.some((removed) => removed > 0), 'the session cuts');
      const replayed = recordedConversationLog('s', parseReplayLines(lines), settings, limits, 0, 'm', factors).records.map((r) => r.removed);
      assert.deepStrictEqual(replayed, live);
      const total = lines.reduce((sum, line) => sum + Object.keys(JSON.parse(line).sent.native ?? {}).length, 0);
      assert.strictEqual(total, 60, 'each message\'s native size is written once, on the line that first sends it');
    });
  }
});
