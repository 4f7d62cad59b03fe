/** A ChatEngine wired to a fake server with in-memory storage: the core request path with no VS Code. */
import { resolveSettings, type Settings } from '../../core/config/settings';
import { ChatEngine, type EngineDeps, type EngineTiming, type KeyValueStore } from '../../core/request/chatEngine';
import type { ChatRequest, PreparedRequest } from '../../core/request/prepareRequest';
import type { ChatMessage, ModelLimits, StreamEvent } from '../../core/types';
import { MemoryLogger } from './memoryLogger';

export class MemoryStore implements KeyValueStore {
  readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  /** As VS Code's Memento: undefined deletes the key. */
  update(key: string, value: unknown): void {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

/** `hooks`: the engine's optional callbacks (record, onAttempt, …); a record hook turns opencode.recordRequests on unless the overrides say. */
export function engineFor(baseUrl: string, overrides: Record<string, unknown> = {}, store = new MemoryStore(), timing?: Partial<EngineTiming>, hooks: Pick<EngineDeps, 'record' | 'onAttempt' | 'onAccounted' | 'notify'> = {}) {
  const log = new MemoryLogger();
  const values: Record<string, unknown> = { baseUrl, ...(hooks.record ? { recordRequests: true } : {}), ...overrides };
  const settings: Settings = resolveSettings((key) => values[key], (m) => log.warn(`[settings] ${m}`));
  // Saved state written at each change (no debounce), so a test reads it at once; stateWriter.test.ts tests the debounce.
  const engine = new ChatEngine({ log, store, settings: () => settings, apiKey: async () => undefined, timing: { stateWriteDelayMs: 0, ...timing }, ...hooks });
  return { engine, log, store, settings };
}

export function chat(...texts: string[]): ChatMessage[] {
  return texts.map((text, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', parts: [{ kind: 'text', text }] }));
}

export async function runOnce(engine: ChatEngine, modelId: string, messages: ChatMessage[], limits: { contextWindow?: number; maxOutputTokens?: number } = {}) {
  const events: StreamEvent[] = [];
  const outcome = await engine.run({ purpose: 'conversation', modelId, messages, tools: [] }, limits, (e) => events.push(e), new AbortController().signal);
  const text = events.map((e) => (e.kind === 'text' ? e.text : '')).join('');
  return { outcome, events, text };
}

/** One run that may fail: the events that arrived before, and the error (a cut answer fails after its text). */
export async function runSettled(engine: ChatEngine, modelId: string, messages: ChatMessage[], limits: { contextWindow?: number; maxOutputTokens?: number } = {}) {
  const events: StreamEvent[] = [];
  const error = await engine.run({ purpose: 'conversation', modelId, messages, tools: [] }, limits, (e) => events.push(e), new AbortController().signal).then(() => undefined, (e: unknown) => e as Error);
  const text = events.map((e) => (e.kind === 'text' ? e.text : '')).join('');
  return { error, events, text };
}

/**
 * What the engine prepared for a request, by the product's own path: run() against a (fake) server, the prepared
 * request of its last attempt. The answer's usage is accounted as in the product (calibration, trim state).
 */
export async function preparedBy(engine: ChatEngine, request: ChatRequest, limits: ModelLimits = {}): Promise<PreparedRequest> {
  return (await engine.run(request, limits, () => undefined, new AbortController().signal)).prepared;
}
