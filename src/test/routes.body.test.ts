import * as assert from 'assert';
import fc from 'fast-check';
import { buildResponsesBody } from '../core/routes/responses/responsesBody';
import { buildChatBody } from '../core/routes/chat/chatBody';
import { buildMessagesBody, FALLBACK_MAX_TOKENS, previousRequestEnd } from '../core/routes/messages/messagesBody';
import { anthropicToolId, responsesItemId } from '../core/routes/callIds';
import { NativeReplayMemory, type AssistantLayout } from '../core/answer/nativeReplay';
import type { BodyInput } from '../core/routes/route';
import type { WireMessage, WireTool } from '../core/wire/wireTypes';
import { conversationArb } from './support/conversationArb';
import { BreakpointCache, type MessagesPrompt } from '../cacheModel/breakpointCache';
import { runs } from './support/propertyRuns';
import { validEntries } from '../core/state/persisted';
import { validLayout } from '../core/request/savedRecords';

const TOOLS: WireTool[] = [
  { type: 'function', function: { name: 'grep', description: 'search', parameters: { type: 'object', properties: { q: { type: 'string' } } } } },
  { type: 'function', function: { name: 'read', description: 'read a file', parameters: { type: 'object', properties: {} } } },
];

const input = (messages: WireMessage[], extra: Partial<BodyInput> = {}): BodyInput => ({ modelId: 'm', messages, tools: TOOLS, sessionId: 'ses_1', ...extra });

type Json = Record<string, unknown>;
const markerCount = (body: Json): number => (JSON.stringify(body).match(/"cache_control"/g) ?? []).length;
const withoutMarkers = (body: Json): string => JSON.stringify(body, (key, value: unknown) => (key === 'cache_control' ? undefined : value));
/** The body's JSON without its closing `]}`: what a longer history must start with. */
const open = (json: string): string => json.slice(0, -2);

const TOOL_TURN: WireMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: [{ type: 'text', text: 'Look at ' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
  { role: 'assistant', content: 'Reading.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: 'file text' },
];

describe('routes: native request bodies', () => {
  it('Responses: store:false, cache key = session, system/user/function_call/function_call_output items, image_url as a string', () => {
    const body = buildResponsesBody(input(TOOL_TURN, { options: { max_tokens: 999, stop: ['x'] } }));
    assert.strictEqual(body.store, false);
    assert.strictEqual(body.prompt_cache_key, 'ses_1');
    assert.strictEqual(body.max_output_tokens, 999);
    assert.strictEqual(body.stop, undefined);
    assert.deepStrictEqual(body.include, ['reasoning.encrypted_content'], 'always, known model or not');
    assert.strictEqual(body.reasoning, undefined, 'the summary only for models known to reason');
    assert.deepStrictEqual((body.tools as Json[])[0], { type: 'function', name: 'grep', description: 'search', parameters: TOOLS[0].function.parameters, strict: false });
    assert.deepStrictEqual(body.input, [
      { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'Be brief.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Look at ' }, { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Reading.' }] },
      { type: 'function_call', id: responsesItemId('call_1'), call_id: 'call_1', name: 'read', arguments: '{"path":"a.ts"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'file text' },
    ]);
    assert.match(responsesItemId('call_1'), /^fc_[0-9a-f]{32}$/);
    assert.strictEqual(Object.keys(body).pop(), 'input', 'input is last, so a longer history only appends');
  });

  it('Responses: a reasoning model asks for encrypted reasoning and gets each reasoning item back verbatim, before its call', () => {
    const reasoning = { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'plan' }], encrypted_content: 'gAAA' };
    const memory = new NativeReplayMemory();
    memory.remember({ route: 'responses', slots: [{ kind: 'native', item: reasoning }, { kind: 'text' }, { kind: 'call', callId: 'call_1' }] });
    const body = buildResponsesBody(input(TOOL_TURN, { reasons: true, replay: memory }));
    assert.deepStrictEqual(body.include, ['reasoning.encrypted_content']);
    const items = body.input as Json[];
    assert.deepStrictEqual(items.slice(2, 5).map((i) => i.type), ['reasoning', 'message', 'function_call']);
    assert.strictEqual(items[2], reasoning, 'the very object, unmodified');
    // A layout from another route is never replayed (its signatures mean nothing here).
    const other = buildResponsesBody(input(TOOL_TURN, { reasons: true, replay: { layoutFor: (id, route) => (route === 'messages' ? memory.layoutFor(id, 'responses') : undefined) } }));
    assert.ok(!(other.input as Json[]).some((i) => i.type === 'reasoning'));
  });

  it('Messages: system top level, tool_use/tool_result, base64 image, max_tokens within the model max, thinking passed back unmodified', () => {
    const thinking = { type: 'thinking', thinking: 'plan', signature: 'sig' };
    const memory = new NativeReplayMemory();
    memory.remember({ route: 'messages', slots: [{ kind: 'native', item: thinking }, { kind: 'text' }, { kind: 'call', callId: 'call_1' }] });
    const body = buildMessagesBody(input(TOOL_TURN, { replay: memory, maxOutputTokens: 64_000, options: { max_tokens: 100_000, temperature: 0.2 } }));
    assert.strictEqual(body.max_tokens, 64_000);
    assert.strictEqual(body.temperature, 0.2);
    assert.deepStrictEqual(body.system, [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }]);
    const messages = body.messages as { role: string; content: Json[] }[];
    assert.deepStrictEqual(messages.map((m) => m.role), ['user', 'assistant', 'user']);
    // The first user turn ended the previous request (breakpoint 4 on its last block).
    assert.deepStrictEqual(messages[0].content[1], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' }, cache_control: { type: 'ephemeral' } });
    assert.strictEqual(messages[1].content[0], thinking);
    assert.deepStrictEqual(messages[1].content.slice(1), [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'call_1', name: 'read', input: { path: 'a.ts' } }]);
    assert.deepStrictEqual(messages[2].content, [{ type: 'tool_result', tool_use_id: 'call_1', content: 'file text', cache_control: { type: 'ephemeral' } }]);
    assert.strictEqual(markerCount(body), 4, 'tools, system, the previous request end and the newest block');
    assert.strictEqual(buildMessagesBody(input([{ role: 'user', content: 'hi' }], { tools: [] })).max_tokens, FALLBACK_MAX_TOKENS);
  });

  it('Chat: the same fields the chat request has always had, plus streaming with usage', () => {
    const messages: WireMessage[] = [{ role: 'user', content: 'hi' }];
    const body = buildChatBody(input(messages, { toolChoice: 'required', options: { temperature: 0.3, top_p: 0.9, max_tokens: 50.7, stop: ['x'] } }));
    assert.deepStrictEqual(body, { model: 'm', tools: TOOLS, tool_choice: 'required', temperature: 0.3, top_p: 0.9, max_tokens: 50, stop: ['x'], stream: true, stream_options: { include_usage: true }, messages });
  });

  it('Messages: tool ids outside [a-zA-Z0-9_-] get a stable derived id on both the call and its result', () => {
    assert.strictEqual(anthropicToolId('call_ok-1'), 'call_ok-1');
    assert.match(anthropicToolId('functions.read:0'), /^toolu_[0-9a-f]{32}$/);
    assert.strictEqual(anthropicToolId('functions.read:0'), anthropicToolId('functions.read:0'));
    assert.match(anthropicToolId(''), /^toolu_/);
  });

  it('the native memory survives a JSON round trip and drops malformed entries', () => {
    const memory = new NativeReplayMemory();
    const layout: AssistantLayout = { route: 'messages', slots: [{ kind: 'native', item: { type: 'thinking', thinking: 't', signature: 's' } }, { kind: 'call', callId: 'c1' }] };
    assert.ok(memory.remember(layout));
    assert.ok(!memory.remember({ route: 'messages', slots: [{ kind: 'call', callId: 'c2' }] }), 'nothing native: nothing to keep');
    // Loaded as the engine loads it: each entry through its validator, then the memory.
    const saved = JSON.parse(JSON.stringify({ ...memory.toJSON(), bad: { route: 'x', slots: [] }, worse: 3, odd: { route: 'messages', slots: [{ kind: 'native' }] } }));
    const restored = NativeReplayMemory.fromJSON(Object.fromEntries(validEntries(saved, validLayout).entries));
    assert.deepStrictEqual(restored.layoutFor('c1', 'messages'), layout);
    assert.strictEqual(restored.size, 1);
    // A restart changes no byte of what is sent.
    const history: WireMessage[] = [{ role: 'user', content: 'q' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c1', content: 'r' }];
    assert.strictEqual(JSON.stringify(buildMessagesBody(input(history, { replay: restored }))), JSON.stringify(buildMessagesBody(input(history, { replay: memory }))));
    assert.match(JSON.stringify(buildMessagesBody(input(history, { replay: restored }))), /"signature":"s"/);
  });
});

describe('routes: byte-stable prefix over random growing conversations (property)', () => {
  it('Chat and Responses: the body of turn N, minus its closing "]}", is a byte prefix of turn N+1\'s', () => {
    fc.assert(
      fc.property(conversationArb, fc.boolean(), fc.constantFrom(buildResponsesBody, buildChatBody), ({ turns }, reasons, build) => {
        const bodies = turns.map((messages) => JSON.stringify(build(input(messages, { reasons }))));
        for (let i = 1; i < bodies.length; i++) assert.ok(bodies[i].startsWith(open(bodies[i - 1])), `turn ${i} changed bytes of turn ${i - 1}`);
      }),
      { numRuns: runs(200) },
    );
  });

  it('Messages: the same, modulo cache_control markers; at most 4; each request reads where the previous one wrote; no marker appears inside the old prefix', () => {
    fc.assert(
      fc.property(conversationArb, fc.boolean(), ({ turns }, withTools) => {
        const bodies = turns.map((messages) => buildMessagesBody(input(messages, { tools: withTools ? TOOLS : [] })));
        for (const body of bodies) assert.ok(markerCount(body) <= 4);
        for (let i = 1; i < bodies.length; i++) {
          assert.ok(withoutMarkers(bodies[i]).startsWith(open(withoutMarkers(bodies[i - 1]))), `turn ${i} changed bytes of turn ${i - 1}`);
          const before = bodies[i - 1].messages as { content: Json[] }[];
          const after = bodies[i].messages as { content: Json[] }[];
          // Breakpoint 3 of the previous request is breakpoint 4 of this one.
          const prevEnd = previousRequestEnd(after as never);
          assert.strictEqual(prevEnd, before.length - 1);
          assert.ok(after[before.length - 1].content.at(-1)?.cache_control);
          // Inside the shared prefix a marker can only disappear, never appear.
          before.forEach((m, j) => m.content.forEach((block, k) => assert.ok(!after[j].content[k].cache_control || block.cache_control, `new marker at ${j}.${k}`)));
        }
      }),
      { numRuns: runs(200) },
    );
  });

  it('Messages: on Anthropic\'s cache model every turn reads the whole previous request; marking the first 4 blocks reads only the head', () => {
    fc.assert(
      fc.property(conversationArb, ({ turns }) => {
        const ours = new BreakpointCache();
        const firstFour = new BreakpointCache();
        let previous = 0;
        turns.forEach((messages, i) => {
          const body = buildMessagesBody(input(messages)) as unknown as MessagesPrompt;
          const result = ours.observe('s', body);
          assert.ok(result.ok);
          if (i > 0) assert.strictEqual(result.usage.cache_read_input_tokens, previous, `turn ${i} missed what turn ${i - 1} wrote`);
          previous = result.promptTokens;
          const head = firstFour.observe('s', markFirstFour(JSON.parse(withoutMarkers(body as never)) as MessagesPrompt));
          assert.ok(head.ok && head.usage.cache_read_input_tokens <= result.usage.cache_read_input_tokens);
        });
      }),
      { numRuns: runs(100) },
    );
  });
});

/** The leading extension's and OpenCode's converter's placement: the first 4 blocks of the messages. */
function markFirstFour(body: MessagesPrompt): MessagesPrompt {
  let left = 4;
  for (const message of body.messages) {
    for (const block of message.content as Json[]) if (left-- > 0) block.cache_control = { type: 'ephemeral' };
  }
  return body;
}
