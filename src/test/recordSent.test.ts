/**
 * The request recorder records what was sent (closing note item 4): each line's `sent` is the final body of the
 * request's last attempt — thinking effort folded in, catalogue quirks and refused parameters applied — recorded
 * once per request, over real HTTP to the fake server. Old lines (no `sent`) still read; a bad `sent` is an error
 * naming line and field.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { readRecording } from '../core/report/recordedConversation';
import { RequestRecording } from '../core/replay/requestRecording';
import { sentRecord, type SentRecord } from '../core/replay/sentRecord';
import { resolveSettings } from '../core/config/settings';
import type { PreparedRequest } from '../core/request/prepareRequest';
import type { ChatMessage } from '../core/types';
import type { FakeModel, FaultSpec } from '../fakeServer/types';
import { parseReplayLines } from '../core/replay/replayFile';
import { engineFor, MemoryStore } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { runs } from './support/propertyRuns';

const LIMITS = { contextWindow: 200_000, maxOutputTokens: 64_000 };
const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 1_000 };
const text = (t: string): ChatMessage => ({ role: 'user', parts: [{ kind: 'text', text: t }] });
const model = (id: string, api: FakeModel['api']): FakeModel => ({ id, contextWindow: 200_000, maxOutputTokens: 64_000, toolCalling: true, imageInput: true, api, reasons: api !== 'chat' });
const ROUTED = { 'gpt-5.4': 'responses', 'claude-sonnet-4-5': 'messages', 'glm-5.2': 'chat', 'gemini-3.1-pro': 'gemini' } as const;
const LEVELS = { 'gpt-5.4': 'high', 'claude-sonnet-4-5': 'medium', 'glm-5.2': 'max', 'gemini-3.1-pro': 'low' } as const;
const REFUSABLE = { 'gpt-5.4': 'reasoning', 'claude-sonnet-4-5': 'thinking', 'glm-5.2': 'reasoning_effort', 'gemini-3.1-pro': 'thinkingConfig' } as const;
const SETTINGS = { models: Object.fromEntries(Object.entries(ROUTED).map(([id, api]) => [id, { api }])) };
const CONVERSATION = ['messages', 'input', 'contents', 'system', 'systemInstruction', 'instructions', 'tools'];
const withoutConversation = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([k]) => !CONVERSATION.includes(k)));

describe('request recording: what was sent', () => {
  const server = useFakeServer({ models: Object.entries(ROUTED).map(([id, api]) => model(id, api)) });

  async function recorded(modelId: keyof typeof ROUTED, options: { effort?: unknown; temperature?: number; faults?: FaultSpec[] }) {
    const recordings: { prepared: PreparedRequest; sent: SentRecord }[] = [];
    const { engine, log } = engineFor(server().url, SETTINGS, new MemoryStore(), fast, { record: (prepared, sent) => recordings.push({ prepared, sent }) });
    for (const fault of options.faults ?? []) server().enqueueFault(fault);
    const modelOptions = options.temperature === undefined ? undefined : { temperature: options.temperature };
    await engine.run({ purpose: 'conversation', modelId, messages: [text('think about it')], tools: [], effort: options.effort, modelOptions }, LIMITS, () => undefined, new AbortController().signal);
    return { recordings, log, last: server().requests.at(-1)!.body as Record<string, unknown> };
  }

  it('records, once per request, the final body of the answered attempt on every route (effort, quirks, refusals)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...(Object.keys(ROUTED) as (keyof typeof ROUTED)[])), fc.boolean(), fc.boolean(), fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }), async (modelId, pick, refuse, temperature) => {
        server().reset();
        const faults: FaultSpec[] = refuse ? [{ name: 'unsupported-param-400', param: REFUSABLE[modelId] }] : [];
        const { recordings, last } = await recorded(modelId, { effort: pick ? LEVELS[modelId] : undefined, temperature, faults });
        assert.strictEqual(recordings.length, 1, 'once per request, not per attempt');
        const { sent } = recordings[0];
        assert.strictEqual(sent.route, ROUTED[modelId]);
        assert.deepStrictEqual(sent.params, withoutConversation(last), 'the recorded parameters are the ones the server received last');
        assert.deepStrictEqual(sent.refused, refuse ? [REFUSABLE[modelId]] : []);
      }),
      { numRuns: runs(24) },
    );
  });

  it('a refused effort value: the recording holds the retried body without it and names the refusal', async () => {
    const { recordings, log } = await recorded('glm-5.2', { effort: 'high', faults: [{ name: 'unsupported-param-400', param: 'reasoning_effort' }] });
    const [refusedBody, retriedBody] = server().requests.map((r) => r.body as Record<string, unknown>);
    assert.strictEqual(refusedBody.reasoning_effort, 'high');
    assert.strictEqual(retriedBody.reasoning_effort, undefined);
    assert.strictEqual(recordings[0].sent.params.reasoning_effort, undefined);
    assert.deepStrictEqual(recordings[0].sent.refused, ['reasoning_effort']);
    assert.deepStrictEqual(recordings[0].sent.omitted, [], 'the effort field is added at send time: never part of the prepared body');
    assert.strictEqual(log.messages('warn').filter((m) => m.includes('does not accept "reasoning_effort"')).length, 1);
  });

  it('a picked level reaches the recording; a quirk (no temperature with a thinking budget) is named as omitted', async () => {
    const { recordings } = await recorded('claude-sonnet-4-5', { effort: 'medium', temperature: 0.3 });
    const { sent } = recordings[0];
    assert.deepStrictEqual(sent.params.thinking, { type: 'enabled', budget_tokens: 16_384 });
    assert.strictEqual(sent.params.temperature, undefined);
    assert.deepStrictEqual(sent.omitted, ['temperature']);
  });

  it('after a context-length 400 it records the re-trimmed request that was sent (its budget and cut), once', async () => {
    const recordings: PreparedRequest[] = [];
    const { engine } = engineFor(server().url, SETTINGS, new MemoryStore(), fast, { record: (prepared) => recordings.push(prepared) });
    const history = Array.from({ length: 40 }, (_, i) => text(`turn ${i} ${'words and more words '.repeat(60)}`));
    server().enqueueFault({ name: 'context-length-400', limit: 12_000 });
    await engine.run({ purpose: 'conversation', modelId: 'glm-5.2', messages: history, tools: [] }, { contextWindow: 1_000_000, maxOutputTokens: 8_000 }, () => undefined, new AbortController().signal);
    const bodies = server().requests.map((r) => r.body as { messages: unknown[] });
    assert.strictEqual(bodies.length, 2);
    assert.strictEqual(recordings.length, 1);
    assert.strictEqual(recordings[0].budget.contextWindow, 12_000, 'the learned window the sent request was trimmed to');
    assert.strictEqual(recordings[0].trim.messages.length, bodies[1].messages.length);
  });
});

describe('request recording: the line format', () => {
  const sent = sentRecord('messages', { model: 'm', max_tokens: 8, temperature: 0.2, messages: [] }, { model: 'm', max_tokens: 8, thinking: { type: 'enabled', budget_tokens: 4_096 }, messages: [] }, ['output_config']);
  const settings = resolveSettings(() => undefined, () => undefined);

  it('round-trips `sent` through the replay reader; whole and append lines carry their own', () => {
    const recording = new RequestRecording();
    const first = recording.lineFor([{ role: 'user', content: 'a' }], [], sent);
    const second = recording.lineFor([{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }], []);
    const [one, two] = parseReplayLines([first, second]);
    assert.deepStrictEqual(one.sent, { route: 'messages', params: { model: 'm', max_tokens: 8, thinking: { type: 'enabled', budget_tokens: 4_096 } }, omitted: ['temperature'], refused: ['output_config'] });
    assert.strictEqual(two.sent, undefined, 'an append line does not inherit the previous line\'s');
    assert.strictEqual(two.messages.length, 3);
  });

  it('old recordings (no `sent`) read as before; the report shows the recorded route when there is one', () => {
    const old = ['{"messages":[{"role":"user","content":"hi"}],"tools":[]}', '{"append":[{"role":"assistant","content":"yo"},{"role":"user","content":"more"}]}'];
    assert.deepStrictEqual(parseReplayLines(old).map((r) => [r.messages.length, r.sent]), [[1, undefined], [3, undefined]]);
    const oldLog = readRecording('a.jsonl', old.join('\n'), settings, undefined, 0);
    assert.ok(oldLog.ok && oldLog.log.records.every((r) => r.route === undefined));
    const withSent = [`${old[0].slice(0, -1)},"sent":${JSON.stringify(sent)}}`, old[1]];
    const newLog = readRecording('b.jsonl', withSent.join('\n'), settings, undefined, 0);
    assert.ok(newLog.ok);
    assert.deepStrictEqual(newLog.log.records.map((r) => r.route), ['messages', undefined]);
  });

  it('a malformed `sent` is an error naming the line and the field', () => {
    const line = (value: unknown) => `{"messages":[{"role":"user","content":"hi"}],"sent":${JSON.stringify(value)}}`;
    assert.throws(() => parseReplayLines([line([])]), /^Error: line 1: sent: expected an object$/);
    assert.throws(() => parseReplayLines(['', line({ route: 'fax', params: {} })]), /line 2: sent\.route: expected one of/);
    assert.throws(() => parseReplayLines([line({ route: 'chat', params: 1 })]), /line 1: sent\.params: expected an object/);
    assert.throws(() => parseReplayLines([line({ route: 'chat', params: {}, refused: [1] })]), /line 1: sent\.refused: expected an array of names/);
  });
});
