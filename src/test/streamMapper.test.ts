import * as assert from 'assert';
import { routeById } from '../core/routes/registry/registry';
import { ChatCallFeed } from './support/chatCallFeed';
import type { StreamEvent } from '../core/types';
import { replayStream } from './support/streamFixtures';
import { ThinkTagSplitter } from '../core/routes/chat/chatReader';
import { ToolCallArgumentsError } from '../core/answer/toolCalls';

const texts = (events: StreamEvent[], kind: 'text' | 'thinking') =>
  events.filter((e): e is { kind: typeof kind; text: string } => e.kind === kind).map((e) => e.text).join('');

describe('stream mapping (recorded streams)', () => {
  it('assembles a tool call whose JSON arguments were split mid-string, and reports it once', () => {
    const events = replayStream('tool-call-split-mid-json');
    const calls = events.filter((e) => e.kind === 'toolCall');
    assert.deepStrictEqual(calls, [{ kind: 'toolCall', callId: 'call_abc', name: 'read_file', input: { path: 'src/a.ts', lines: [1, 2] } }]);
    assert.strictEqual(texts(events, 'text'), 'Let me look.');
    const usage = events.find((e) => e.kind === 'usage');
    assert.ok(usage && usage.kind === 'usage');
    assert.strictEqual(usage.usage.cachedTokens, 1024);
  });

  it('keeps parallel tool calls apart by index and in index order', () => {
    const calls = replayStream('parallel-tool-calls').filter((e) => e.kind === 'toolCall');
    assert.deepStrictEqual(calls.map((c) => c.kind === 'toolCall' && [c.callId, c.name, c.input]), [
      ['call_1', 'grep', { q: 'x' }],
      ['call_2', 'ls', { dir: '.' }],
    ]);
  });

  it('shows an answer that came only as reasoning_content as text, after the thinking', () => {
    const events = replayStream('reasoning-only');
    assert.strictEqual(texts(events, 'thinking'), 'The user asks for 2+2. The answer is 4.');
    assert.strictEqual(texts(events, 'text'), 'The user asks for 2+2. The answer is 4.');
  });

  it('routes <think> spans split across chunks to thinking and keeps every whitespace byte of the text', () => {
    const events = replayStream('whitespace-and-think-tags');
    assert.strictEqual(texts(events, 'thinking'), 'plan it');
    assert.strictEqual(texts(events, 'text'), '  Indented\n\n    code block  \n ');
  });

  it('flushes text and a complete tool call from a stream with no finish reason and no [DONE]', () => {
    const events = replayStream('no-done-no-finish');
    assert.strictEqual(texts(events, 'text'), 'Partial answer');
    assert.deepStrictEqual(events.filter((e) => e.kind === 'toolCall').map((e) => e.kind === 'toolCall' && e.input), [{ cmd: 'ls' }]);
  });

  it('reads `reasoning` deltas and DeepSeek usage on the final choice chunk', () => {
    const events = replayStream('deepseek-usage-reasoning');
    assert.strictEqual(texts(events, 'thinking'), 'thinking...');
    assert.strictEqual(texts(events, 'text'), 'Done.');
    const usage = events.find((e) => e.kind === 'usage');
    assert.ok(usage && usage.kind === 'usage');
    assert.strictEqual(usage.usage.cachedTokens, 4864);
    assert.strictEqual(usage.usage.contextTokens, 5000);
  });

  it('does not emit a tool call before its finish reason', () => {
    const mapper = routeById('chat').newReader();
    const early = mapper.push({ choices: [{ delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{"a":1}' } }] } }] });
    assert.deepStrictEqual(early.events, []);
    assert.strictEqual(mapper.push({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] }).events.length, 1);
  });
});

describe('ToolCallAccumulator', () => {
  it('throws a clear error for arguments that are not JSON, never {}', () => {
    const acc = new ChatCallFeed();
    acc.add({ index: 0, id: 'c1', function: { name: 'edit', arguments: '{"path": "a.ts", ' } });
    assert.throws(() => acc.drain(), (error: Error) => error instanceof ToolCallArgumentsError && /edit/.test(error.message) && /not valid JSON/.test(error.message));
  });

  it('treats empty arguments as no arguments and rejects a JSON array', () => {
    const acc = new ChatCallFeed();
    acc.add({ index: 0, id: 'c1', function: { name: 'now', arguments: '' } });
    assert.deepStrictEqual(acc.drain()[0].input, {});
    const other = new ChatCallFeed();
    other.add({ index: 0, id: 'c2', function: { name: 'bad', arguments: '[1]' } });
    assert.throws(() => other.drain(), ToolCallArgumentsError);
  });
});

describe('ThinkTagSplitter', () => {
  it('passes a lone "<" and text that only looks like a tag prefix through unchanged', () => {
    const splitter = new ThinkTagSplitter();
    const pieces = [...splitter.push('a < b <t'), ...splitter.push('able>'), ...splitter.flush()];
    assert.strictEqual(pieces.map((p) => p.text).join(''), 'a < b <table>');
    assert.ok(pieces.every((p) => p.kind === 'text'));
  });
});
