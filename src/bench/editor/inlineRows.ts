/**
 * Bench rows for inline suggestions: a user types 40 characters into the middle of a 600-line file, one
 * request per keystroke (no debounce), through the extension's request path against the fake server with no
 * reply delay, on each route. The latency the extension adds is each request's time minus the time of the
 * same HTTP body sent straight to the server (a plain fetch, stream read to the end); the cache hit is the
 * provider-reported share of prompt tokens served from the prompt cache.
 */
import { performance } from 'perf_hooks';
import { resolveSettings } from '../../core/config/settings';
import { buildInlinePrompt } from '../../core/inline/inlinePrompt';
import { requestSuggestion } from '../../core/inline/inlineRequest';
import { linesOfText } from '../../core/inline/inlineWindow';
import { ChatEngine } from '../../core/request/chatEngine';
import type { PreparedRequest } from '../../core/request/prepareRequest';
import { startFakeServer } from '../../fakeServer';
import { mean, median, percentile } from '../metrics/stats';
import { MemoryLogger } from '../../test/support/memoryLogger';

export interface InlineRow {
  route: string;
  requests: number;
  addedMedianMs: number;
  addedP95Ms: number;
  totalMedianMs: number;
  /** Mean cache hit over the requests after the first. */
  cacheHit: number;
}

const MODELS: Record<string, string> = { chat: 'fake-large', responses: 'fake-responses', messages: 'fake-messages', gemini: 'fake-native-gemini' };
const TYPED = 'const total = items.reduce((a, b) => a + b, 0);'.slice(0, 40);

function sourceFile(): { text: string; cursor: number } {
  const lines = Array.from({ length: 600 }, (_, i) => (i % 20 === 0 ? `export function f${i}(items: number[]): number {` : i % 20 === 19 ? '}' : `  const v${i} = items[${i % 7}] * ${i};`));
  const text = lines.join('\n');
  return { text, cursor: lines.slice(0, 300).join('\n').length + 1 };
}

export async function measureInline(): Promise<InlineRow[]> {
  const server = await startFakeServer({ replyTokens: 12 });
  try {
    const rows: InlineRow[] = [];
    for (const [route, modelId] of Object.entries(MODELS)) rows.push(await typeInto(server.url, route, modelId));
    return rows;
  } finally {
    await server.close();
  }
}

async function typeInto(baseUrl: string, route: string, modelId: string): Promise<InlineRow> {
  const values: Record<string, unknown> = { baseUrl, models: { [modelId]: { api: route } } };
  const settings = resolveSettings((key) => values[key], () => undefined);
  let last: PreparedRequest | undefined;
  const engine = new ChatEngine({ log: new MemoryLogger(), store: { get: () => undefined, update: () => undefined }, settings: () => settings, apiKey: async () => undefined, onAttempt: (prepared) => (last = prepared) });
  const { text, cursor } = sourceFile();
  const added: number[] = [];
  const totals: number[] = [];
  const hits: number[] = [];
  for (let i = 0; i <= TYPED.length; i++) {
    const typed = TYPED.slice(0, i);
    // The editor holds the document as lines already (VS Code's document model): not part of what is timed.
    const edited = text.slice(0, cursor) + typed + text.slice(cursor);
    const lines = linesOfText(edited);
    const before = edited.slice(0, cursor + typed.length);
    const position = { line: before.split('\n').length - 1, character: before.length - before.lastIndexOf('\n') - 1 };
    const started = performance.now();
    const prompt = buildInlinePrompt({ document: { path: 'src/bench.ts', languageId: 'typescript', lines }, cursor: position });
    const answer = await requestSuggestion(engine, modelId, { contextWindow: 128_000, maxOutputTokens: 4_000 }, prompt, 64, new AbortController().signal);
    const total = performance.now() - started;
    const direct = last ? await directTime(baseUrl, last) : 0;
    totals.push(total);
    added.push(Math.max(0, total - direct));
    if (i > 0 && answer.usage && answer.usage.contextTokens > 0) hits.push(answer.usage.cachedTokens / answer.usage.contextTokens);
  }
  return { route, requests: totals.length, addedMedianMs: median(added), addedP95Ms: percentile(added, 95), totalMedianMs: median(totals), cacheHit: mean(hits) };
}

/** The same body straight to the server with fetch: the time no client code adds to. */
export async function directTime(baseUrl: string, prepared: PreparedRequest): Promise<number> {
  const { route } = prepared;
  const path = route.pathFor ? route.pathFor(prepared.bodyInput.modelId) : route.path;
  const headers = route.headers({ sessionId: prepared.sessionId, requestId: 'bench-direct' });
  const started = performance.now();
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(prepared.body) });
  await response.text();
  return performance.now() - started;
}
