/** opencode.recordRequests records each request once, not each attempt: a retry adds no `{"append":[]}` line. */
import * as assert from 'assert';
import { resolveSettings } from '../core/config/settings';
import { ChatEngine } from '../core/request/chatEngine';
import { RequestRecording } from '../core/replay/requestRecording';
import { chat, MemoryStore } from './support/engineHarness';
import type { FaultSpec } from '../fakeServer/types';
import { useFakeServer } from './support/suiteHooks';
import { MemoryLogger } from './support/memoryLogger';

describe('request recording: once per request', () => {
  const server = useFakeServer();

  const faults: FaultSpec[] = [{ name: 'status-503' }, { name: 'context-length-400', limit: 12_000 }];
  for (const fault of faults) {
    it(`writes one line per request when the first attempt fails with ${fault.name} and a retry answers`, async () => {
      const settings = resolveSettings((key) => ({ baseUrl: server().url, maxRetries: 2, recordRequests: true } as Record<string, unknown>)[key], () => undefined);
      const recording = new RequestRecording();
      const lines: string[] = [];
      const attempts: number[] = [];
      const engine = new ChatEngine({
        log: new MemoryLogger(),
        store: new MemoryStore(),
        settings: () => settings,
        apiKey: async () => undefined,
        timing: { sleep: async () => undefined, random: () => 0.5 },
        record: (prepared) => lines.push(recording.lineFor(prepared.input, prepared.tools)),
        onAttempt: () => attempts.push(attempts.length),
      });
      const run = async (messages: ReturnType<typeof chat>) => engine.run({ purpose: 'conversation', modelId: 'fake-large', messages, tools: [] }, { contextWindow: 1_000_000, maxOutputTokens: 8_000 }, () => undefined, new AbortController().signal);
      server().enqueueReply({ text: 'first' });
      await run(chat('ANCHOR', 'first'.repeat(2_000), 'q1'));
      server().enqueueFault(fault);
      server().enqueueReply({ text: 'second' });
      await run(chat('ANCHOR', 'first'.repeat(2_000), 'q1', 'first', 'q2'));
      assert.strictEqual(attempts.length, 3, 'the second request took two attempts');
      assert.strictEqual(lines.length, 2, `one line per request, got ${JSON.stringify(lines.map((l) => l.slice(0, 40)))}`);
      assert.ok(lines[0].startsWith('{"messages":'));
      assert.ok(lines[1].startsWith('{"append":[{'), 'the second request appends what it added');
      assert.ok(!lines.includes('{"append":[]}'), 'no empty append line from a retry');
    });
  }
});
