/**
 * Reasoning passed back on Chat Completions whatever the model (issue 28, item 5), over real HTTP against the fake
 * server: every tool-call turn's reasoning goes back as `reasoning_content` for an id no data lists, for one the
 * data lists without `interleaved`, and for one it marks — to an endpoint that requires it (DeepSeek's 400
 * otherwise). An endpoint that refuses the field costs one refusal per model, in either wording, then never again,
 * also after a restart. And the refusal rule never mistakes DeepSeek's "must be passed back" for a refusal.
 */
import * as assert from 'assert';
import { APIError } from 'openai';
import type { ChatMessage } from '../core/types';
import type { FakeModel } from '../fakeServer/types';
import { agentStep, sentReasoningByCall, userText, type AgentStep } from './support/agentSession';
import { engineFor, MemoryStore } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { refusedParamOf } from '../core/request/sendBody';

const model = (id: string, reasoningContent?: FakeModel['reasoningContent']): FakeModel => ({ id, contextWindow: 1_000_000, maxOutputTokens: 32_000, toolCalling: true, ...(reasoningContent ? { reasoningContent } : {}) });

/** No data lists it; the data lists it on chat without `interleaved` (Zen glm-4.6); the data marks it interleaved. */
const REQUIRING = ['mystery-thinker-1', 'glm-4.6', 'deepseek-v4-flash'];
const REFUSING = { 'strict-cerebras-like': 'refused', 'strict-pydantic-like': 'refused-422' } as const;

/** Two user turns: three tool rounds then an answer; then one more tool round and an answer. */
function sessionSteps(tag: string): AgentStep[][] {
  const step = (n: number, calls: number): AgentStep => ({ reasoning: `Thinking ${tag} ${n}: which file next?`, callIds: Array.from({ length: calls }, (_, i) => `call_${tag}_${n}_${i}`), text: calls ? '' : `Done ${n}.` });
  return [[step(1, 1), step(2, 2), step(3, 1), step(4, 0)], [step(5, 1), step(6, 0)]];
}

describe('reasoning passed back on Chat Completions without knowing the model (real HTTP, fake server)', () => {
  const server = useFakeServer({ models: [...REQUIRING.map((id) => model(id, 'required')), ...Object.entries(REFUSING).map(([id, rule]) => model(id, rule))] });
  let sleeps = 0;
  const fast = { sleep: async () => void sleeps++, random: () => 0.5, idleTimeoutMs: 5_000 };
  beforeEach(() => (sleeps = 0));

  for (const modelId of REQUIRING) {
    it(`${modelId}: every tool-call turn goes back with its reasoning, the endpoint that requires it never refuses`, async () => {
      const { engine, log } = engineFor(server().url, {}, new MemoryStore(), fast);
      const history: ChatMessage[] = [];
      const steps = sessionSteps(modelId);
      let sent = 0;
      for (const [t, turn] of steps.entries()) {
        history.push(userText(`task ${t + 1}`));
        for (const step of turn) {
          await agentStep(engine, server(), modelId, history, step);
          sent++;
        }
      }
      assert.strictEqual(server().requests.length, sent, 'one request per answer: nothing was refused and retried');
      const thoughtByCall = new Map(steps.flat().flatMap((s) => (s.callIds?.length ? [[s.callIds[0], s.reasoning] as const] : [])));
      const last = sentReasoningByCall(server().requests.at(-1)!.body);
      assert.strictEqual(last.size, 4, 'four tool-call turns in the last request');
      for (const [callId, reasoning] of last) assert.strictEqual(reasoning, thoughtByCall.get(callId), callId);
      assert.deepStrictEqual(log.lines.filter((l) => l.level === 'warn' || l.level === 'error'), []);
    });
  }

  it('an endpoint that refuses reasoning_content: one refusal per model (400 or 422), retried at once, never again, also after a restart', async () => {
    const store = new MemoryStore();
    const first = engineFor(server().url, {}, store, fast);
    const histories = new Map<string, ChatMessage[]>();
    for (const modelId of Object.keys(REFUSING)) {
      const history: ChatMessage[] = [userText('task 1')];
      histories.set(modelId, history);
      for (const step of sessionSteps(modelId)[0]) await agentStep(first.engine, server(), modelId, history, step);
    }
    const carried = (modelId: string) => server().requests.filter((r) => r.body.model === modelId && JSON.stringify(r.body.messages).includes('reasoning_content'));
    for (const modelId of Object.keys(REFUSING)) {
      assert.strictEqual(carried(modelId).length, 1, `${modelId}: the reasoning was offered once, and refused`);
      assert.strictEqual(server().requests.filter((r) => r.body.model === modelId).length, 5, `${modelId}: four answers, one refusal`);
    }
    const warnings = first.log.lines.filter((l) => l.level === 'warn').map((l) => l.message);
    assert.deepStrictEqual(warnings, Object.keys(REFUSING).map((id) => `[request] ${id} does not accept "reasoning_content"; sending without it from now on.`));
    assert.strictEqual(sleeps, 0, 'sent again at once, no backoff');

    const before = server().requests.length;
    const restarted = engineFor(server().url, {}, store, fast);
    for (const [modelId, history] of histories) {
      history.push(userText('task 2'));
      for (const step of sessionSteps(modelId)[1]) await agentStep(restarted.engine, server(), modelId, history, step);
    }
    assert.strictEqual(server().requests.length - before, 4, 'after the restart: one request per answer');
    for (const modelId of Object.keys(REFUSING)) assert.strictEqual(carried(modelId).length, 1, `${modelId}: never offered again`);
    assert.deepStrictEqual(restarted.log.lines.filter((l) => l.level === 'warn' || l.level === 'error'), []);
  });
});

describe('which 400s refuse reasoning_content (sendBody.ts)', () => {
  // As the extension's client reads an error: the body under `error`, else the whole body (chatTransport.ts).
  const apiError = (status: number, body: Record<string, unknown>) => new APIError(status, ('error' in body ? body.error : body) as object, undefined, new Headers());

  it('a refusal naming the field, in the wordings endpoints use', () => {
    const refusals = [
      [400, { message: "messages.2.assistant.reasoning_content: property 'messages.2.assistant.reasoning_content' is unsupported", type: 'invalid_request_error', param: 'validation_error', code: 'wrong_api_format' }],
      [422, { object: 'error', message: { detail: [{ type: 'extra_forbidden', loc: ['body', 'messages', 1, 'assistant', 'reasoning_content'], msg: 'Extra inputs are not permitted', input: 'why' }] }, type: 'invalid_request_error', param: null, code: null }],
      [400, { message: "'messages.4' : for 'role:assistant' the following must be satisfied[('messages.4' : property 'reasoning_content' is unsupported)]", type: 'invalid_request_error' }],
    ] as const;
    for (const [status, body] of refusals) assert.strictEqual(refusedParamOf(apiError(status, body)), 'reasoning_content', JSON.stringify(body));
  });

  it('never the endpoint asking for it: DeepSeek\'s "missing" and "must be passed back"', () => {
    const asks = [
      { error: { message: 'Missing `reasoning_content` field in the assistant message at message index 4. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } },
      { error: { message: 'The `reasoning_content` in the thinking mode must be passed back to the API.', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } },
    ];
    for (const body of asks) assert.strictEqual(refusedParamOf(apiError(400, body)), undefined, body.error.message);
  });
});
