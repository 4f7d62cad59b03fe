/** Calibration beside the native items the trim counts (encrypted reasoning, signed thinking, thought signatures). */
import * as assert from 'assert';
import { accountUsage } from '../core/request/accountUsage';
import { type PreparedRequest } from '../core/request/prepareRequest';
import { routeById } from '../core/routes/registry/registry';
import { measureMessage, SizeMemo } from '../core/trim/messageSize';
import { layoutLookup } from '../core/answer/nativeReplay';
import { RequestRecording } from '../core/replay/requestRecording';
import { sentRecord } from '../core/replay/sentRecord';
import { parseReplayLines } from '../core/replay/replayFile';
import type { ChatMessage } from '../core/types';
import { bodyTokens } from './support/bodyMeasure';
import { defaultSettings, filler } from './support/trimHarness';
import { uniformSession } from './support/nativeSessions';
import { normalizeUsage } from '../core/routes/chat/chatChunk';
import { prepareRequest } from './support/prepareRequest';
import { Calibrations, ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';


/** What the engine does with an answer's usage (accountUsage.ts): the [usage] line, calibration, overflow. */
function account(cal: Calibrations, states: ConversationStates, plan: PreparedRequest, promptTokens: number): void {
  accountUsage({ log: new MemoryLogger(), calibrations: cal, states }, 'claude', plan, normalizeUsage({ prompt_tokens: promptTokens, completion_tokens: 10 })!);
}

/**
 * Calibration learns from text, not from the native items the trim counts (review finding F1): an endpoint may
 * bill those items at anything from nothing to what the trim counts, so learning them would scale plain text
 * down by their share and a later burst of text would go over budget with nothing cut.
 */
describe('calibration and passed-back native items', () => {
  it('layouts counted but never sent (recorded on another route) do not lower the factor: a later text burst is still trimmed under the budget', () => {
    const { history, memory } = uniformSession('responses', 90, 3_000, 300, 1_200); // a GPT (Responses) session, continued on Claude (Messages)
    const cal = new Calibrations();
    const memo = new SizeMemo();
    const states = new ConversationStates();
    const prep = (messages: ChatMessage[]) => prepareRequest({ purpose: 'conversation', modelId: 'claude', messages, tools: [] }, {
      settings: { ...defaultSettings, maxRequestBytes: 1e9 }, limits: { contextWindow: 200_000, maxOutputTokens: 20_000 },
      calibration: cal.factor('claude'), calibrationSpread: cal.spread('claude'), memo, states, log: new MemoryLogger(), route: routeById('messages'), reasons: true, replay: memory,
    });
    // The endpoint bills exactly what the body carries, counted by the trim's own rule (support/bodyMeasure.ts).
    for (let n = 6; n <= history.length; n += 2) {
      const p = prep(history.slice(0, n));
      account(cal, states, p, bodyTokens('messages', p.body));
    }
    const p = prep([...history, { role: 'user', parts: [{ kind: 'text', text: filler(70_000, 99) }] }]);
    const billed = bodyTokens('messages', p.body);
    assert.ok(billed <= p.budget.tokens, `factor ${cal.factor('claude').toFixed(3)}: trim estimated ${p.trim.estTokens}, removed ${p.trim.removed}; the body carries ${billed} > budget ${p.budget.tokens}`);
  });

  for (const route of ['messages', 'responses', 'gemini'] as const) {
    it(`${route}: an endpoint that bills the items at the trim's count: never under-estimated, over by at most the items' own count`, () => {
      // Large opaque payloads (8,000 chars a turn): the review measured 2.3× over on Responses when the factor
      // learned from text was applied to the items too; now they keep their own count.
      const { history, memory } = uniformSession(route, 60, 8_000, 300, 1_200);
      const cal = new Calibrations(); const memo = new SizeMemo(); const states = new ConversationStates();
      for (let n = 6; n <= history.length; n += 2) {
        const p = prepareRequest({ purpose: 'conversation', modelId: 'claude', messages: history.slice(0, n), tools: [] }, { settings: { ...defaultSettings, maxRequestBytes: 1e9 }, limits: { contextWindow: 200_000, maxOutputTokens: 20_000 }, calibration: cal.factor('claude'), calibrationSpread: cal.spread('claude'), memo, states, log: new MemoryLogger(), route: routeById(route), reasons: true, replay: memory });
        const billed = bodyTokens(route, p.body);
        assert.ok(p.trim.estTokens >= billed, `request ${n}: estimated ${p.trim.estTokens} < billed ${billed}`);
        if (n > 20) assert.ok(p.trim.estTokens - billed <= p.trim.nativeRawTokens * 1.02 + 64, `request ${n}: estimated ${p.trim.estTokens}, billed ${billed}, items ${p.trim.nativeRawTokens}`);
        account(cal, states, p, billed);
      }
    });
  }

  it('what a layout adds to a message\'s bytes is exactly the difference, never negative, so a recording of it reads back', () => {
    for (const route of ['messages', 'responses', 'gemini'] as const) {
      // Thinking far longer than the signature: the case that once recorded negative bytes.
      const { history, memory } = uniformSession(route, 4, 200, 600, 100);
      const layoutOf = layoutLookup(memory)!;
      const p = prepareRequest({ purpose: 'conversation', modelId: 'm', messages: history, tools: [] }, { settings: { ...defaultSettings, maxRequestBytes: 1e9 }, limits: { contextWindow: 100_000, maxOutputTokens: 1_000 }, calibration: 1, memo: new SizeMemo(), states: new ConversationStates(), log: new MemoryLogger(), route: routeById(route), reasons: true, replay: memory });
      for (const message of p.input.filter((m) => layoutOf(m))) {
        const withItems = measureMessage(message, layoutOf(message));
        const alone = measureMessage(message);
        assert.strictEqual(withItems.nativeBytes, withItems.bytes - alone.bytes, route);
        assert.strictEqual(withItems.nativeTokens, withItems.tokens - alone.tokens, route);
        assert.ok((withItems.nativeBytes ?? -1) >= 0, route);
      }
      const line = new RequestRecording().lineFor(p.input, [], sentRecord(route, p.body, p.body, [], p.trim.native));
      assert.strictEqual(parseReplayLines([line])[0].native?.size, 4, route);
    }
  });
});
