/** Agent sessions on a native route for tests: one tool call per answer, with the layout the route would record. */
import { createHash } from 'crypto';
import { NativeReplayMemory, type AssistantLayout } from '../../core/answer/nativeReplay';
import type { RouteId } from '../../core/routeId';
import type { ChatMessage } from '../../core/types';
import { filler } from './trimHarness';
import { signedCallItem } from '../../core/routes/gemini/geminiBody';

export type NativeRoute = Exclude<RouteId, 'chat'>;
export interface Turn {
  opaqueChars: number;
  thinkingTokens: number;
  resultTokens: number;
}

/** A deterministic opaque payload (base64, like encrypted content and signatures) of `chars` characters. */
export const payload = (chars: number, seed: number): string => {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += createHash('sha256').update(`${seed}:${i}`).digest('base64');
  return out.slice(0, chars);
};

/** An agent session, one tool call per answer, and the layout `route` recorded for each answer. */
export function nativeSession(route: NativeRoute, turns: readonly Turn[]): { history: ChatMessage[]; layouts: AssistantLayout[] } {
  const history: ChatMessage[] = [{ role: 'system', parts: [{ kind: 'text', text: 'You are an agent.' }] }, { role: 'user', parts: [{ kind: 'text', text: 'Fix the build.' }] }];
  const layouts: AssistantLayout[] = [];
  turns.forEach((turn, n) => {
    const callId = `call_${n}`;
    const thinking = filler(turn.thinkingTokens, n);
    const opaque = payload(turn.opaqueChars, n);
    history.push({ role: 'assistant', parts: [{ kind: 'thinking', text: thinking }, { kind: 'toolCall', callId, name: 'read', input: { path: `src/f${n}.ts` } }] });
    history.push({ role: 'user', parts: [{ kind: 'toolResult', callId, text: filler(turn.resultTokens, n + 1) }] });
    const slots: AssistantLayout['slots'] = [];
    if (route === 'responses') slots.push({ kind: 'native', item: { type: 'reasoning', id: `rs_${n}`, summary: [{ type: 'summary_text', text: thinking }], encrypted_content: opaque } });
    if (route === 'messages') slots.push({ kind: 'native', item: { type: 'thinking', thinking, signature: opaque } });
    if (route === 'gemini') slots.push({ kind: 'native', item: signedCallItem(callId, { thoughtSignature: opaque }) });
    slots.push({ kind: 'call', callId });
    layouts.push({ route, slots });
  });
  return { history, layouts };
}

/** `count` alike turns, every layout remembered (the memory an engine would hold after the session). */
export function uniformSession(route: NativeRoute, count: number, opaqueChars: number, thinkingTokens: number, resultTokens: number) {
  const { history, layouts } = nativeSession(route, Array.from({ length: count }, () => ({ opaqueChars, thinkingTokens, resultTokens })));
  const memory = new NativeReplayMemory();
  for (const layout of layouts) memory.remember(layout);
  return { history, memory, layouts };
}
