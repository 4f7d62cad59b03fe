/** The tool-pair invariant of a payload, shared by the trim and end-to-end property tests. */
import * as assert from 'assert';
import type { WireMessage } from '../../core/wire/wireTypes';

/** Every tool call is followed by exactly its results, and every result follows its call. */
export function assertToolPairs(sent: readonly WireMessage[]): void {
  for (let i = 0; i < sent.length; i++) {
    const m = sent[i];
    if (m.role === 'assistant' && m.tool_calls?.length) {
      const results: string[] = [];
      for (let j = i + 1; j < sent.length && sent[j].role === 'tool'; j++) results.push((sent[j] as { tool_call_id: string }).tool_call_id);
      assert.deepStrictEqual(results.sort(), m.tool_calls.map((c) => c.id).sort(), 'every call is followed by exactly its results');
    }
    if (m.role === 'tool') {
      let j = i - 1;
      while (j >= 0 && sent[j].role === 'tool') j--;
      const owner = sent[j];
      assert.ok(owner?.role === 'assistant' && owner.tool_calls?.some((c) => c.id === m.tool_call_id), `result ${m.tool_call_id} travels with its call`);
    }
  }
}
