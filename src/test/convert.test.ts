import * as assert from 'assert';
import { EMPTY_TOOL_RESULT, toWireMessages, toWireToolChoice, toWireTools, IMAGE_NOTE, withoutImages } from '../core/convert/toWireMessages';
import type { ChatMessage } from '../core/types';
import { MISSING_TOOL_RESULT, repairToolPairs } from '../core/convert/convertRequest';

const history: ChatMessage[] = [
  { role: 'system', parts: [{ kind: 'text', text: 'You are helpful.' }] },
  { role: 'user', parts: [{ kind: 'text', text: 'Look at ' }, { kind: 'text', text: 'this:' }, { kind: 'image', mimeType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) }, { kind: 'ignored', reason: 'cache_control' }] },
  { role: 'assistant', parts: [{ kind: 'thinking', text: 'need the file' }, { kind: 'text', text: 'Reading.' }, { kind: 'toolCall', callId: 'toolu_vscode_1', name: 'read', input: { path: 'a.ts' } }] },
  { role: 'user', parts: [{ kind: 'toolResult', callId: 'toolu_vscode_1', text: 'const a = 1;' }, { kind: 'text', text: 'And now?' }] },
];

describe('message conversion', () => {
  it('maps roles, joins adjacent text, turns images into data URLs and drops non-content parts', () => {
    const wire = toWireMessages(history);
    assert.deepStrictEqual(wire[0], { role: 'system', content: 'You are helpful.' });
    assert.deepStrictEqual(wire[1], {
      role: 'user',
      content: [
        { type: 'text', text: 'Look at this:' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
      ],
    });
  });

  it("keeps VS Code's call ids on tool calls and results, passes reasoning back, and orders tool results before user text", () => {
    const wire = toWireMessages(history);
    assert.deepStrictEqual(wire[2], {
      role: 'assistant',
      content: 'Reading.',
      tool_calls: [{ id: 'toolu_vscode_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }],
      reasoning_content: 'need the file',
    });
    assert.deepStrictEqual(wire.slice(3), [
      { role: 'tool', tool_call_id: 'toolu_vscode_1', content: 'const a = 1;' },
      { role: 'user', content: 'And now?' },
    ]);
  });

  it('is byte-identical for the same input, run after run', () => {
    assert.strictEqual(JSON.stringify(toWireMessages(history)), JSON.stringify(toWireMessages(history)));
  });

  it('sends a placeholder for an empty tool result and drops empty assistant messages', () => {
    const wire = toWireMessages([
      { role: 'assistant', parts: [{ kind: 'ignored', reason: 'stateful_marker' }] },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'x', text: '' }] },
    ]);
    assert.deepStrictEqual(wire, [{ role: 'tool', tool_call_id: 'x', content: EMPTY_TOOL_RESULT }]);
  });

  it('sorts tools by name and sends tool_choice only for Required with tools', () => {
    const tools = toWireTools([
      { name: 'zeta', description: 'z' },
      { name: 'alpha', description: 'a', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
    ]);
    assert.deepStrictEqual(tools.map((t) => t.function.name), ['alpha', 'zeta']);
    assert.deepStrictEqual(tools[1].function.parameters, { type: 'object', properties: {} });
    assert.strictEqual(toWireToolChoice('required', 2), 'required');
    assert.strictEqual(toWireToolChoice('required', 0), undefined);
    assert.strictEqual(toWireToolChoice('auto', 2), undefined);
  });

  it('replaces images with a fixed note for text-only models', () => {
    const { messages, removed } = withoutImages(history);
    assert.strictEqual(removed, 1);
    assert.deepStrictEqual(messages[1].parts[2], { kind: 'text', text: IMAGE_NOTE });
    assert.strictEqual(messages[0], history[0], 'messages without images are passed through untouched');
  });
});

describe('repairToolPairs', () => {
  it('drops orphaned tool results and closes calls that never got a result, deterministically', () => {
    const { messages, droppedOrphanResults, addedMissingResults } = repairToolPairs([
      { role: 'tool', tool_call_id: 'ghost', content: 'x' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }, { id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'b', content: 'B' },
      { role: 'user', content: 'next' },
    ]);
    assert.strictEqual(droppedOrphanResults, 1);
    assert.strictEqual(addedMissingResults, 1);
    assert.deepStrictEqual(messages.map((m) => (m.role === 'tool' ? `tool:${m.tool_call_id}:${m.content}` : m.role)), ['user', 'assistant', 'tool:b:B', `tool:a:${MISSING_TOOL_RESULT}`, 'user']);
  });
});
