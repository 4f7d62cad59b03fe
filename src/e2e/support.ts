/**
 * Helpers for the in-VS-Code tests: the fake server's control API, model lookup and the OpenCode log on disk.
 * The harness passes everything through code-server's environment (the extension host inherits it):
 *   OPENCODE_E2E_FAKE_URL  the fake server's OpenAI-compatible base URL (http://127.0.0.1:PORT/v1)
 *   OPENCODE_E2E_LOGS      VS Code's logs folder (<user-data-dir>/logs) where the "OpenCode" channel is written
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

export const VENDOR = 'opencode';

export function fakeUrl(): string {
  const url = process.env.OPENCODE_E2E_FAKE_URL;
  if (!url) throw new Error('OPENCODE_E2E_FAKE_URL is not set in the extension host environment');
  return url;
}

function controlUrl(route: string): string {
  return new URL(`/_control/${route}`, fakeUrl()).toString();
}

export interface FakeReply {
  text?: string;
  toolCalls?: { id?: string; name: string; arguments: string }[];
  reasoning?: string;
  /** Characters per streamed chunk (default 8) and a pause between chunks. */
  chunkSize?: number;
  delayMsBetweenChunks?: number;
}

/** Queues the answer the fake server gives to the next chat request. */
export async function enqueueReply(reply: FakeReply): Promise<void> {
  const res = await fetch(controlUrl('reply'), {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(reply),
  });
  if (!res.ok) throw new Error(`POST /_control/reply: HTTP ${res.status} ${await res.text()}`);
}

export async function resetFake(): Promise<void> {
  const res = await fetch(controlUrl('reset'), { method: 'POST' });
  if (!res.ok) throw new Error(`POST /_control/reset: HTTP ${res.status}`);
}

/** One chat request as the fake server recorded it. */
export interface RecordedRequest {
  body: WireBody;
  closedEarly?: boolean;
}
export interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}
export interface WireBody {
  model: string;
  messages: WireMessage[];
  tools?: unknown[];
  stream?: boolean;
}

/** Recorded chat requests, oldest first. Accepts `[...]` or `{requests:[...]}` and bare bodies or `{body}` records. */
export async function recordedRequests(): Promise<RecordedRequest[]> {
  const res = await fetch(controlUrl('requests'));
  if (!res.ok) throw new Error(`GET /_control/requests: HTTP ${res.status}`);
  const json = (await res.json()) as unknown;
  const list = (Array.isArray(json) ? json : (json as { requests?: unknown[] }).requests ?? []) as Record<string, unknown>[];
  return list.map(r => ('body' in r ? (r as unknown as RecordedRequest) : { body: r as unknown as WireBody, closedEarly: r.closedEarly as boolean | undefined }));
}

/** Recorded chat-completion requests only (the fake server may also record /models calls). */
export async function chatRequests(): Promise<RecordedRequest[]> {
  return (await recordedRequests()).filter(r => r.body && Array.isArray(r.body.messages));
}

export function sleep(ms: number): Promise<void> {
  return new Promise(r => setTimeout(r, ms));
}

/** Polls `probe` until it returns a truthy value or the time is up (then returns the last value). */
export async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 15_000, stepMs = 200): Promise<T> {
  const end = Date.now() + timeoutMs;
  let value = await probe();
  while (!value && Date.now() < end) {
    await sleep(stepMs);
    value = await probe();
  }
  return value;
}

/** OpenCode's models; waits for the provider to register (activation is asynchronous). */
export async function opencodeModels(timeoutMs = 30_000): Promise<vscode.LanguageModelChat[]> {
  return waitFor(async () => {
    const models = await vscode.lm.selectChatModels({ vendor: VENDOR });
    return models.length ? models : undefined;
  }, timeoutMs, 300).then(m => m ?? []);
}

export async function model(id: string): Promise<vscode.LanguageModelChat> {
  const models = await opencodeModels();
  const found = models.find(m => m.id === id || m.id.endsWith(`/${id}`) || m.id.endsWith(`:${id}`));
  if (!found) throw new Error(`model ${id} not among: ${models.map(m => m.id).join(', ') || '(none)'}`);
  return found;
}

/** Sends a request and collects the streamed text. */
export async function ask(
  chat: vscode.LanguageModelChat,
  messages: vscode.LanguageModelChatMessage[],
  options: vscode.LanguageModelChatRequestOptions = {},
): Promise<string> {
  const response = await chat.sendRequest(messages, options, new vscode.CancellationTokenSource().token);
  let text = '';
  for await (const chunk of response.text) text += chunk;
  return text;
}

function walk(dir: string, out: string[]): string[] {
  let entries: fs.Dirent[] = [];
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return out; }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name.endsWith('OpenCode.log')) out.push(p);
  }
  return out;
}

/**
 * The OpenCode log file this extension host writes: the newest `*OpenCode.log` under OPENCODE_E2E_LOGS
 * (a LogOutputChannel lands in logs/<session>/exthost<N>/<publisher.name>/OpenCode.log; every window gets a new
 * exthost<N>, so the newest file belongs to the running host).
 */
export function openCodeLogFile(): string | undefined {
  const root = process.env.OPENCODE_E2E_LOGS;
  if (!root) throw new Error('OPENCODE_E2E_LOGS is not set in the extension host environment');
  const files = walk(root, []).map(f => ({ f, t: fs.statSync(f).mtimeMs }));
  files.sort((a, b) => b.t - a.t);
  return files[0]?.f;
}

export function readLog(file: string): string {
  try { return fs.readFileSync(file, 'utf8'); } catch { return ''; }
}
