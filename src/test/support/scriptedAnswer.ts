/**
 * One engine run against a scripted loopback server (scriptedServer.ts): the outcome, the text shown, how long it
 * took and how many requests reached the server. The key in use is KEY (no well-known prefix: only the key in use
 * can hide it). Shared by answer.http.test.ts and answer.waits.http.test.ts.
 */
import { resolveSettings } from '../../core/config/settings';
import { ChatEngine } from '../../core/request/chatEngine';
import type { StreamEvent } from '../../core/types';
import { chat, MemoryStore } from './engineHarness';
import { scriptedServer, type Scripted } from './scriptedServer';
import { MemoryLogger } from './memoryLogger';

export const MODEL = 'm';
export const KEY = 'oc9f8e7d6c5b4a3210zzyx';

export async function askScripted(route: string, script: Scripted, idleTimeoutMs = 5_000) {
  const server = await scriptedServer(script);
  const log = new MemoryLogger();
  const values: Record<string, unknown> = { baseUrl: server.url, maxRetries: 1, models: { [MODEL]: { api: route } } };
  const settings = resolveSettings((key) => values[key], () => undefined);
  const engine = new ChatEngine({ log, store: new MemoryStore(), settings: () => settings, apiKey: async () => KEY, timing: { sleep: async () => undefined, random: () => 0, idleTimeoutMs } });
  const events: StreamEvent[] = [];
  const started = Date.now();
  try {
    const outcome = await engine.run({ purpose: 'conversation', modelId: MODEL, messages: chat('hello'), tools: [] }, {}, (e) => events.push(e), new AbortController().signal).catch((error: Error) => error);
    const text = events.map((e) => (e.kind === 'text' ? e.text : '')).join('');
    return { outcome, text, ms: Date.now() - started, log, requests: server.requests };
  } finally {
    await server.close();
  }
}
