/**
 * Activates the real extension entry point against the shared vscode double and a fake server, so
 * integration tests drive the provider exactly as VS Code would: through the registered provider object.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { activate } from '../../extension';
import type { ChatEngine, EngineTiming } from '../../core/request/chatEngine';
import type { WarmTimers } from '../../core/warming/cacheWarmer';
import type { RequestLog } from '../../core/report/requestLog';
import { composeExtension } from '../../vscode/composeExtension';
import type { FakeServer } from '../../fakeServer';
import * as double from './vscodeDouble';

export interface ActivatedExtension {
  provider: vscode.LanguageModelChatProvider;
  /** Only when activated with injected timing. */
  engine?: ChatEngine;
  /** The request log (status bar, session report); only when activated with injected timing. */
  requests?: RequestLog;
  log: double.RecordingLogChannel;
  context: ReturnType<typeof double.createExtensionContext>;
  logDir: string;
  dispose(): void;
}

/** Runs the real activate(); with `timing`, the same wiring with the engine's waits injected. */
/** `warmTimers`: the cache warmer's timers (only with `timing`: the composition the tests drive). */
export function activateAgainst(server: FakeServer | { url: string }, settings: Record<string, unknown> = {}, globalState?: double.MemoryMemento, timing?: Partial<EngineTiming>, warmTimers?: WarmTimers): ActivatedExtension {
  double.settingsStore.clear();
  double.settingsStore.set('baseUrl', server.url);
  for (const [key, value] of Object.entries(settings)) double.settingsStore.set(key, value);
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencode-test-'));
  const context = double.createExtensionContext(logDir, globalState);
  const channelsBefore = double.createdChannels.length;
  const composed = timing ? composeExtension(context, { timing, warmTimers }) : (activate(context), undefined);
  const engine = composed?.engine;
  const requests = composed?.requests;
  const log = double.createdChannels[channelsBefore];
  const provider = double.registeredProviders.get('opencode') as vscode.LanguageModelChatProvider;
  return {
    provider,
    engine,
    requests,
    log,
    context,
    logDir,
    dispose: () => {
      for (const d of context.subscriptions) d.dispose();
      fs.rmSync(logDir, { recursive: true, force: true });
    },
  };
}

export interface CollectedResponse {
  parts: unknown[];
  text: string;
}

/** Runs one chat request through the provider and collects what it reported. */
export async function ask(
  ext: ActivatedExtension,
  modelId: string,
  messages: vscode.LanguageModelChatRequestMessage[],
  options: Partial<vscode.ProvideLanguageModelChatResponseOptions> = {},
  token: vscode.CancellationToken = new double.CancellationTokenSource().token as unknown as vscode.CancellationToken,
  onPart?: (part: unknown) => void,
): Promise<CollectedResponse> {
  const models = await ext.provider.provideLanguageModelChatInformation({ silent: true }, token);
  const model = (models ?? []).find((m) => m.id === modelId);
  if (!model) throw new Error(`model ${modelId} not listed`);
  const parts: unknown[] = [];
  const textOf = () => parts.filter((p) => p instanceof double.LanguageModelTextPart).map((p) => (p as double.LanguageModelTextPart).value).join('');
  try {
    await ext.provider.provideLanguageModelChatResponse(
      model,
      messages,
      { toolMode: vscode.LanguageModelChatToolMode.Auto, ...options },
      { report: (part) => (parts.push(part), onPart?.(part)) },
      token,
    );
  } catch (error) {
    throw Object.assign(error as Error, { reported: { parts, text: textOf() } });
  }
  return { parts, text: textOf() };
}

/** A request that must fail after reporting some parts (a cut answer): what was reported, and the error. */
export async function askCut(ext: ActivatedExtension, modelId: string, messages: vscode.LanguageModelChatRequestMessage[], options: Partial<vscode.ProvideLanguageModelChatResponseOptions> = {}): Promise<CollectedResponse & { error: Error }> {
  try {
    await ask(ext, modelId, messages, options);
  } catch (error) {
    const reported = (error as { reported?: CollectedResponse }).reported;
    if (!reported) throw error;
    return { ...reported, error: error as Error };
  }
  throw new Error('expected the request to fail after its kept parts');
}

export function user(text: string): vscode.LanguageModelChatRequestMessage {
  return double.LanguageModelChatMessage.User(text) as unknown as vscode.LanguageModelChatRequestMessage;
}

export function assistant(content: string | unknown[]): vscode.LanguageModelChatRequestMessage {
  return double.LanguageModelChatMessage.Assistant(content) as unknown as vscode.LanguageModelChatRequestMessage;
}

export function userParts(parts: unknown[]): vscode.LanguageModelChatRequestMessage {
  return double.LanguageModelChatMessage.User(parts) as unknown as vscode.LanguageModelChatRequestMessage;
}
