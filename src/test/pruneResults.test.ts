/** Which results pruning picks, in which order, and the placeholder it sends (core/trim/pruneResults.ts). */
import * as assert from 'assert';
import { SizeMemo } from '../core/trim/messageSize';
import { applyPrunes, choosePrunes, placeholderOf } from '../core/trim/pruneResults';
import type { WireMessage } from '../core/wire/wireTypes';
import { filler } from './support/trimHarness';
import { splitHistory } from '../core/trim/cut';

function call(id: string, name: string, args: object, tokens: number): WireMessage[] {
  return [
    { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] },
    { role: 'tool', tool_call_id: id, content: filler(tokens, id.length) },
  ];
}

const history: WireMessage[] = [
  { role: 'system', content: 'agent' },
  { role: 'user', content: 'environment' },
  { role: 'user', content: 'task' },
  ...call('c1', 'run_command', { command: 'npm test' }, 3_000), // 3, 4
  ...call('c2', 'read_file', { filePath: 'src/a.ts' }, 3_000), // 5, 6
  ...call('c3', 'read_file', { filePath: 'src/b.ts' }, 3_000), // 7, 8
  ...call('c4', 'read_file', { filePath: 'src/a.ts' }, 3_000), // 9, 10: supersedes 6
  ...call('c5', 'grep', { pattern: 'x' }, 3_000), // 11, 12
  ...call('c6', 'read_file', { filePath: 'src/c.ts' }, 3_000), // 13, 14
];
const memo = new SizeMemo();
const parts = splitHistory(history, 2);
const choose = (protectRaw: number, need: number, already: number[] = []) =>
  choosePrunes({ messages: history, parts, firstKept: parts.headEnd, already: new Set(already), protectRaw, sizeOf: (i) => memo.sizeOf(history[i]), need: { raw: need, bytes: 0 } });

describe('pruneResults', () => {
  it('a superseded read goes first, even inside the protected tail; then the oldest results beyond it', () => {
    // Everything protected: only the read of src/a.ts that a newer read supersedes.
    assert.deepStrictEqual(choose(1e9, 1e9), [6]);
    // Just enough for one: the superseded read, not the oldest result.
    assert.deepStrictEqual(choose(0, 1), [6]);
    // All that may go: never the newest two rounds (always sent), never an earlier prune again.
    assert.deepStrictEqual(choose(0, 1e9), [4, 6, 8, 10]);
    assert.deepStrictEqual(choose(0, 1e9, [4]), [6, 8, 10]);
  });

  it('the placeholder names the tool and its argument, depends on the result alone, and keeps the call id', () => {
    const text = placeholderOf(history, 6);
    assert.match(text, /^\[Old tool result cleared by the OpenCode extension to save context: read_file \(filePath: src\/a\.ts\) returned \d+ characters\. /);
    const pruned = applyPrunes(history, [6]);
    assert.deepStrictEqual(pruned[6], { role: 'tool', tool_call_id: 'c2', content: text });
    assert.strictEqual(pruned[5], history[5], 'the call is the same object');
    assert.strictEqual(placeholderOf([...history, ...call('c7', 'read_file', { filePath: 'src/a.ts' }, 10)], 6), text, 'later history does not change it');
  });
});
