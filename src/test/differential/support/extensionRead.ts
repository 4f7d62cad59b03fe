/**
 * The extension's side: one request through the ChatEngine (the core request path every route shares, as the
 * engine integration tests drive it) to the loopback server, its events gathered into the neutral shape.
 * Nothing here knows how a route's stream is read.
 */
import { engineFor, MemoryStore } from '../../support/engineHarness';
import type { StreamEvent } from '../../../core/types';
import type { Delivered, RouteCase } from './delivered';

const LIMITS = { contextWindow: 200_000, maxOutputTokens: 8_000 };
/** No waits between attempts, no retries: one request reads the bytes once. */
const TIMING = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 5_000 };
const TOOLS = ['read_file', 'grep', 'run_tests', 'list_dir'].map((name) => ({ name, description: name, inputSchema: { type: 'object' } }));

export const modelFor = (route: RouteCase['route']): string => `diff-${route}`;

export interface ExtensionRun {
  delivered: Delivered;
  events: StreamEvent[];
  warnings: string[];
}

export async function extensionRead(origin: string, route: RouteCase['route']): Promise<ExtensionRun> {
  const settings = { models: { [modelFor(route)]: { api: route } }, maxRetries: 0 };
  const { engine, log } = engineFor(`${origin}/v1`, settings, new MemoryStore(), TIMING);
  const events: StreamEvent[] = [];
  const outcome = await engine.run({ purpose: 'conversation', modelId: modelFor(route), messages: [{ role: 'user', parts: [{ kind: 'text', text: 'hi' }] }], tools: TOOLS }, LIMITS, (e) => events.push(e), new AbortController().signal);
  const u = outcome.usage;
  const delivered: Delivered = {
    text: events.map((e) => (e.kind === 'text' ? e.text : '')).join(''),
    thinking: events.map((e) => (e.kind === 'thinking' ? e.text : '')).join(''),
    calls: events.flatMap((e) => (e.kind === 'toolCall' ? [{ name: e.name, input: e.input }] : [])),
    usage: u && { context: u.contextTokens, cached: u.cachedTokens, cacheWrite: u.cacheWriteTokens, completion: u.completionTokens },
  };
  return { delivered, events, warnings: log.lines.filter((l) => l.level === 'warn' || l.level === 'error').map((l) => l.message) };
}
