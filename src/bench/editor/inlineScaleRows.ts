/**
 * Bench rows for inline suggestions at the sizes users have (issue 29): typing 40 characters near the end of
 * a 20,000-line file, and in the middle of a file whose one line is 2 MB (minified), one request per
 * keystroke, side by side with the old prompt builder (legacyInlinePrompt.ts). The document is held as lines,
 * as VS Code's document model holds it; the edit itself is not timed.
 *
 * - "build": the prompt builder's time on the host thread per keystroke (new: from the lines; old: from
 *   `getText()`, the join of the lines, as the old adapter did).
 * - "added": new code only, each request through the extension's request path against the fake server minus
 *   the same body sent straight with fetch (as inlineRows.ts). The old prompts (~1M tokens, 2 MB) are not
 *   sent: their build time alone is the lower bound of what they added.
 */
import { performance } from 'perf_hooks';
import { resolveSettings } from '../../core/config/settings';
import { buildInlinePrompt } from '../../core/inline/inlinePrompt';
import { requestSuggestion } from '../../core/inline/inlineRequest';
import type { InlineLines } from '../../core/inline/inlineWindow';
import { ChatEngine } from '../../core/request/chatEngine';
import type { PreparedRequest } from '../../core/request/prepareRequest';
import { estimateTextTokens } from '../../core/tokens/estimate';
import type { ChatMessage } from '../../core/types';
import { startFakeServer } from '../../fakeServer';
import { percentile } from '../metrics/stats';
import { directTime } from './inlineRows';
import { legacyInlinePromptBeforeIssue29 } from './legacyInlinePrompt';
import { MemoryLogger } from '../../test/support/memoryLogger';

export interface InlineScaleRow {
  file: string;
  code: 'old' | 'new';
  keystrokes: number;
  buildP95Ms: number;
  /** New code only: what the extension adds per request (p95). */
  addedP95Ms?: number;
  promptTokens: number;
  bodyBytes?: number;
}

const TYPED = 'const total = items.reduce((a, b) => a + b, 0);'.slice(0, 40);
/** The old builder takes seconds per keystroke on 20,000 lines: a few keystrokes show it. */
const OLD_KEYSTROKES = 3;

interface Case {
  file: string;
  lines: string[];
  cursor: { line: number; character: number };
}

function cases(): Case[] {
  const code = Array.from({ length: 20_000 }, (_, i) => (i % 20 === 0 ? `export function f${i}(items: number[]): number {` : i % 20 === 19 ? '}' : `  const v${i} = items[${i % 7}] * ${i};`));
  const minified = 'var a=function(b){return b+1},c=[1,2,3].map(a);'.repeat(Math.ceil(2_000_000 / 48));
  return [
    { file: '20,000-line file, cursor near the end (line 19,900)', lines: code, cursor: { line: 19_900, character: 2 } },
    { file: 'a 2 MB minified line, cursor in its middle', lines: [minified], cursor: { line: 0, character: 1_000_000 } },
  ];
}

const tokensOf = (messages: readonly ChatMessage[]): number => messages.reduce((n, m) => n + m.parts.reduce((k, p) => k + (p.kind === 'text' ? estimateTextTokens(p.text) : 0), 0), 0);

/** The document after `typed` was typed at the cursor (the editor's work, not timed). */
function typedInto(c: Case, typed: string): { lines: string[]; cursor: { line: number; character: number } } {
  const lines = [...c.lines];
  const line = lines[c.cursor.line];
  lines[c.cursor.line] = line.slice(0, c.cursor.character) + typed + line.slice(c.cursor.character);
  return { lines, cursor: { line: c.cursor.line, character: c.cursor.character + typed.length } };
}

const asLines = (lines: readonly string[]): InlineLines => ({ lineCount: lines.length, line: (i) => lines[i] });

export async function measureInlineScale(): Promise<InlineScaleRow[]> {
  const server = await startFakeServer({ replyTokens: 12 });
  try {
    const rows: InlineScaleRow[] = [];
    for (const c of cases()) {
      rows.push(oldRow(c));
      rows.push(await newRow(server.url, c));
    }
    return rows;
  } finally {
    await server.close();
  }
}

function oldRow(c: Case): InlineScaleRow {
  const builds: number[] = [];
  let tokens = 0;
  for (let i = 0; i < OLD_KEYSTROKES; i++) {
    const { lines, cursor } = typedInto(c, TYPED.slice(0, i));
    const started = performance.now();
    const text = lines.join('\n'); // what getText() did on every keystroke
    const offset = lines.slice(0, cursor.line).reduce((n, l) => n + l.length + 1, 0) + cursor.character;
    const prompt = legacyInlinePromptBeforeIssue29({ document: { path: 'src/bench.ts', languageId: 'typescript', text }, offset });
    builds.push(performance.now() - started);
    tokens = tokensOf(prompt.messages);
  }
  return { file: c.file, code: 'old', keystrokes: OLD_KEYSTROKES, buildP95Ms: percentile(builds, 95), promptTokens: tokens };
}

async function newRow(baseUrl: string, c: Case): Promise<InlineScaleRow> {
  const modelId = 'fake-large';
  const values: Record<string, unknown> = { baseUrl, models: { [modelId]: { api: 'chat' } } };
  const settings = resolveSettings((key) => values[key], () => undefined);
  let last: PreparedRequest | undefined;
  const engine = new ChatEngine({ log: new MemoryLogger(), store: { get: () => undefined, update: () => undefined }, settings: () => settings, apiKey: async () => undefined, onAttempt: (prepared) => (last = prepared) });
  const builds: number[] = [];
  const added: number[] = [];
  let tokens = 0;
  let bodyBytes = 0;
  for (let i = 0; i <= TYPED.length; i++) {
    const { lines, cursor } = typedInto(c, TYPED.slice(0, i));
    const document = { path: 'src/bench.ts', languageId: 'typescript', lines: asLines(lines) };
    const started = performance.now();
    const prompt = buildInlinePrompt({ document, cursor });
    builds.push(performance.now() - started);
    await requestSuggestion(engine, modelId, { contextWindow: 128_000, maxOutputTokens: 4_000 }, prompt, 64, new AbortController().signal);
    const total = performance.now() - started;
    const direct = last ? await directTime(baseUrl, last) : 0;
    added.push(Math.max(0, total - direct));
    tokens = tokensOf(prompt.messages);
    bodyBytes = last ? Buffer.byteLength(JSON.stringify(last.body)) : 0;
  }
  return { file: c.file, code: 'new', keystrokes: TYPED.length + 1, buildP95Ms: percentile(builds, 95), addedP95Ms: percentile(added, 95), promptTokens: tokens, bodyBytes };
}

export function inlineScaleTable(rows: readonly InlineScaleRow[]): string {
  const head = '| File | Code | Keystrokes | Prompt build, p95 (host thread) | Added by the extension, p95 | Prompt | Request body |\n|---|---|---|---|---|---|---|';
  const ms = (n: number) => (n >= 1_000 ? `${(n / 1_000).toFixed(1)} s` : `${n.toFixed(1)} ms`);
  return [head, ...rows.map((r) => `| ${r.file} | ${r.code} | ${r.keystrokes} | ${ms(r.buildP95Ms)} | ${r.addedP95Ms === undefined ? `≥ ${ms(r.buildP95Ms)} (not sent)` : ms(r.addedP95Ms)} | ~${r.promptTokens.toLocaleString('en-US')} tokens | ${r.bodyBytes === undefined ? '—' : `${(r.bodyBytes / 1024).toFixed(0)} KiB`} |`)].join('\n');
}
