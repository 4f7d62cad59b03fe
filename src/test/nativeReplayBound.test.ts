import * as assert from 'assert';
import { createHash } from 'crypto';
import { MemoryLogger } from '../core/log';
import { prepareRequest } from '../core/request/prepareRequest';
import { signedCallItem } from '../core/routes/gemini/geminiReplay';
import { NativeReplayMemory, type AssistantLayout } from '../core/routes/nativeReplay';
import { routeById } from '../core/routes/registry';
import type { RouteId } from '../core/routes/route';
import { ConversationStates } from '../core/trim/conversationState';
import { SizeMemo } from '../core/trim/messageSize';
import type { ChatMessage } from '../core/types';
import { defaultSettings, filler } from './support/trimHarness';

const payload = (chars: number, seed: number): string => { let out = ''; for (let i = 0; out.length < chars; i++) out += createHash('sha256').update(`${seed}:${i}`).digest('base64'); return out.slice(0, chars); };

function session(route: Exclude<RouteId, 'chat'>, turns: number, opaqueChars: number, thinkingTokens: number, resultTokens: number) {
  const history: ChatMessage[] = [{ role: 'system', parts: [{ kind: 'text', text: 'You are an agent.' }] }, { role: 'user', parts: [{ kind: 'text', text: 'Fix the build.' }] }];
  const layouts: AssistantLayout[] = [];
  for (let n = 0; n < turns; n++) {
    const callId = `call_${n}`; const thinking = filler(thinkingTokens, n);
    history.push({ role: 'assistant', parts: [{ kind: 'thinking', text: thinking }, { kind: 'toolCall', callId, name: 'read', input: { path: `src/f${n}.ts` } }] });
    history.push({ role: 'user', parts: [{ kind: 'toolResult', callId, text: filler(resultTokens, n + 1) }] });
    const slots: AssistantLayout['slots'] = [];
    if (route === 'responses') slots.push({ kind: 'native', item: { type: 'reasoning', id: `rs_${n}`, summary: [{ type: 'summary_text', text: thinking }], encrypted_content: payload(opaqueChars, n) } });
    if (route === 'messages') slots.push({ kind: 'native', item: { type: 'thinking', thinking, signature: payload(opaqueChars, n) } });
    if (route === 'gemini') slots.push({ kind: 'native', item: signedCallItem(callId, { thoughtSignature: payload(opaqueChars, n) }) });
    slots.push({ kind: 'call', callId }); layouts.push({ route, slots });
  }
  return { history, layouts };
}

it('F3: past 300 native turns kept, the body keeps its prefix on every request', () => {
  const { history, layouts } = session('gemini', 305, 400, 10, 100);
  const memory = new NativeReplayMemory();
  const body = (t: number) => JSON.stringify(prepareRequest({ modelId: 'g', messages: history.slice(0, 2 + 2 * t), tools: [] }, { settings: defaultSettings, limits: { contextWindow: 1_000_000, maxOutputTokens: 8_000 }, calibration: 1, memo: new SizeMemo(), states: new ConversationStates(), log: new MemoryLogger(), route: routeById('gemini'), reasoningModel: true, replay: memory }).body);
  let previous = '';
  for (let t = 0; t < layouts.length; t++) {
    const current = body(t);
    if (t > 0) { let c = 0; while (c < previous.length && previous[c] === current[c]) c++; assert.ok(c > 0.9 * previous.length, `request ${t}: only ${c} of ${previous.length} chars still a prefix`); }
    previous = current; memory.remember(layouts[t]);
  }
});
