/** Calibration beside the native items the trim counts (encrypted reasoning, signed thinking, thought signatures). */
import * as assert from 'assert';
import { MemoryLogger } from '../core/log';
import { accountUsage } from '../core/request/accountUsage';
import { prepareRequest, type PreparedRequest } from '../core/request/prepareRequest';
import { routeById } from '../core/routes/registry';
import { Calibrations } from '../core/trim/calibration';
import { ConversationStates } from '../core/trim/conversationState';
import { SizeMemo } from '../core/trim/messageSize';
import type { ChatMessage } from '../core/types';
import { normalizeUsage } from '../core/usage/normalizeUsage';
import { bodyTokens } from './support/bodyMeasure';
import { defaultSettings, filler } from './support/trimHarness';
import { uniformSession } from './support/nativeSessions';


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
    const prep = (messages: ChatMessage[]) => prepareRequest({ modelId: 'claude', messages, tools: [] }, {
      settings: { ...defaultSettings, maxRequestBytes: 1e9 }, limits: { contextWindow: 200_000, maxOutputTokens: 20_000 },
      calibration: cal.factor('claude'), calibrationSpread: cal.spread('claude'), memo, states, log: new MemoryLogger(), route: routeById('messages'), reasoningModel: true, replay: memory,
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

  it('on the route that sends them and bills them at the trim\'s count, the factor stays at or above the text\'s own', () => {
    const { history, memory } = uniformSession('messages', 60, 2_000, 300, 1_200);
    const cal = new Calibrations(); const memo = new SizeMemo(); const states = new ConversationStates();
    for (let n = 6; n <= history.length; n += 2) {
      const p = prepareRequest({ modelId: 'claude', messages: history.slice(0, n), tools: [] }, { settings: { ...defaultSettings, maxRequestBytes: 1e9 }, limits: { contextWindow: 200_000, maxOutputTokens: 20_000 }, calibration: cal.factor('claude'), calibrationSpread: cal.spread('claude'), memo, states, log: new MemoryLogger(), route: routeById('messages'), reasoningModel: true, replay: memory });
      const billed = bodyTokens('messages', p.body);
      assert.ok(p.trim.estTokens >= billed, `request ${n}: estimated ${p.trim.estTokens} < billed ${billed}`);
      account(cal, states, p, billed);
    }
    assert.ok(cal.factor('claude') >= 1, `factor ${cal.factor('claude')}`);
  });
});
