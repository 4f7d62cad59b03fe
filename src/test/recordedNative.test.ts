/**
 * A recording replayed in the session report lands on the live run's cuts on a native route too: the line carries
 * what each message's native items added (sent.native), which the recording's history alone does not have.
 */
import * as assert from 'assert';
import { oursRunner, replayLimits, replaySettings } from '../core/report/policies';
import { recordedConversationLog } from '../core/report/recordedConversation';
import { RequestLog } from '../core/report/requestLog';
import { simulate } from '../core/report/simulate';
import { accountUsage } from '../core/request/accountUsage';
import { RequestRecording } from '../core/replay/requestRecording';
import { sentRecord } from '../core/replay/sentRecord';
import { routeById } from '../core/routes/registry/registry';
import { calibrationRawTokens } from '../core/trim/historyTrim';
import { SizeMemo } from '../core/trim/messageSize';
import { parseReplayLines } from '../core/replay/replayFile';
import { defaultSettings } from './support/trimHarness';
import { uniformSession } from './support/nativeSessions';
import { normalizeUsage } from '../core/routes/chat/chatChunk';
import { prepareRequest } from './support/prepareRequest';
import { Calibrations, ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';


describe('a recording of a native-route session replays onto the live cuts', () => {
  for (const route of ['messages', 'responses', 'gemini'] as const) {
    it(`${route}: the report's replay of the recording drops what the live trim dropped, request by request`, () => {
      const { history, memory } = uniformSession(route, 60, 4_000, 300, 1_200);
      const settings = { ...defaultSettings, budgetOverrideTokens: 60_000, maxRequestBytes: 1e9 };
      const limits = { contextWindow: 100_000, maxOutputTokens: 10_000 };
      const state = { log: new MemoryLogger(), calibrations: new Calibrations(), states: new ConversationStates() };
      const memo = new SizeMemo();
      const recording = new RequestRecording();
      const live: number[] = [];
      const factors: number[] = [];
      const lines: string[] = [];
      const requestLog = new RequestLog();
      for (let n = 6; n <= history.length; n += 2) {
        const p = prepareRequest({ purpose: 'conversation', modelId: 'm', messages: history.slice(0, n), tools: [] }, {
          settings, limits, calibration: state.calibrations.factor('m'), calibrationSpread: state.calibrations.spread('m'), memo, states: state.states, log: state.log, route: routeById(route), reasons: true, replay: memory,
        });
        // The endpoint bills what the trim counts; the engine accounts it and the recorder keeps the factor.
        const usage = normalizeUsage({ prompt_tokens: p.trim.rawTokens, completion_tokens: 1 })!;
        accountUsage(state, 'm', p, usage);
        requestLog.add('m', p, usage);
        live.push(p.trim.removed);
        factors.push(p.trim.rawTokens / calibrationRawTokens(p.trim));
        lines.push(recording.lineFor(p.input, [], sentRecord(route, p.body, p.body, [], p.trim.native)));
      }
      assert.ok(live.some((removed) => removed > 0), 'the session cuts');
      const replayed = recordedConversationLog('s', parseReplayLines(lines), settings, limits, 0, 'm', { factors, calibrations: [] }).records.map((r) => r.removed);
      assert.deepStrictEqual(replayed, live);
      // The report's replay of a conversation of this window (what-if, cost rows) measures the same way.
      const last = requestLog.latest()!;
      const conversation = requestLog.get(last.sessionId)!;
      const replayMemo = new SizeMemo();
      const whatIf = simulate(conversation.requests, oursRunner(replaySettings(settings, last), replayLimits(last), replayMemo), replayMemo);
      assert.deepStrictEqual(whatIf.map((step) => step.removed), live);
      const total = lines.reduce((sum, line) => sum + Object.keys(JSON.parse(line).sent.native ?? {}).length, 0);
      assert.strictEqual(total, 60, 'each message\'s native size is written once, on the line that first sends it');
    });
  }

  it('a whole line starts its native sizes afresh; an append line adds to the earlier ones', () => {
    const sent = (native?: Record<string, [number, number]>) => ({ route: 'messages' as const, params: {}, omitted: [], refused: [], ...(native ? { native } : {}) });
    const call = { role: 'assistant', content: '', tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'read', arguments: '{}' } }] };
    const result = { role: 'tool', tool_call_id: 'call_0', content: 'x' };
    const lines = [
      JSON.stringify({ messages: [{ role: 'user', content: 'a' }, call, result], tools: [], sent: sent({ call_0: [5_000, 20_000] }) }),
      JSON.stringify({ append: [{ role: 'user', content: 'b' }], sent: sent() }),
      // The history rewritten (tools changed): the layout was forgotten meanwhile, so this line names none.
      JSON.stringify({ messages: [{ role: 'user', content: 'a' }, call, result, { role: 'user', content: 'b' }], tools: [{ type: 'function', function: { name: 'read', parameters: {} } }], sent: sent() }),
    ];
    const requests = parseReplayLines(lines);
    assert.deepStrictEqual(requests.map((r) => r.native?.get('call_0')), [[5_000, 20_000], [5_000, 20_000], undefined]);
  });
});
