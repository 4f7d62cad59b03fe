/**
 * The provider wired as extension.ts wires it (same engine, catalog, settings reader, key store, request
 * recorder and log channel), except that the engine's timing is injected: waits between attempts are
 * recorded and skipped, and the idle timeout can be shorter than the 5 s users can set. Use
 * activateAgainst when the real activation matters (commands, real waits); use this when a test would
 * otherwise sleep.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ChatEngine, type EngineTiming } from '../../core/request/chatEngine';
import { ApiKeyStore } from '../../vscode/apiKey';
import { ModelCatalog } from '../../vscode/modelCatalog';
import { OpenCodeChatProvider } from '../../vscode/provider';
import { RequestRecorderFile } from '../../vscode/requestRecorderFile';
import { SettingsReader } from '../../vscode/settingsReader';
import { ask, user, type ActivatedExtension } from './activatedExtension';
import * as double from './vscodeDouble';

export interface TimedProvider extends ActivatedExtension {
  engine: ChatEngine;
  /** Every wait the engine asked for between attempts, in ms. */
  delays: number[];
}

/** Records the wait and returns at once; still rejects when the request was already cancelled. */
function recordingSleep(delays: number[]): EngineTiming['sleep'] {
  return async (ms, signal) => {
    delays.push(ms);
    if (signal.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
  };
}

export function providerWithTiming(server: { url: string }, settings: Record<string, unknown> = {}, timing: Partial<EngineTiming> = {}): TimedProvider {
  double.settingsStore.clear();
  double.settingsStore.set('baseUrl', server.url);
  for (const [key, value] of Object.entries(settings)) double.settingsStore.set(key, value);
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencode-test-'));
  const context = double.createExtensionContext(logDir);
  const log = double.window.createOutputChannel('OpenCode');
  const reader = new SettingsReader(log as never);
  const keys = new ApiKeyStore(context.secrets);
  const catalog = new ModelCatalog(context.globalState, log as never, async () => ({ baseUrl: reader.current.baseUrl, apiKey: await keys.get() }));
  const recorder = new RequestRecorderFile(logDir, log as never);
  const delays: number[] = [];
  const late: { provider?: OpenCodeChatProvider } = {};
  const engine = new ChatEngine({
    log,
    store: context.globalState,
    settings: () => reader.current,
    apiKey: () => keys.get(),
    onLimitsChanged: () => late.provider?.notifyInfoChanged(),
    record: (prepared) => reader.current.recordRequests && recorder.record(prepared),
    timing: { sleep: recordingSleep(delays), random: () => 0.5, ...timing },
  });
  const provider = new OpenCodeChatProvider(engine, catalog, reader, log as never, () => undefined);
  late.provider = provider;
  return {
    provider,
    log,
    context,
    logDir,
    engine,
    delays,
    dispose: () => {
      reader.dispose();
      catalog.dispose();
      fs.rmSync(logDir, { recursive: true, force: true });
    },
  };
}

/** Runs one request that must fail and returns what the provider threw. */
export async function askError(ext: ActivatedExtension, modelId: string, prompt: string): Promise<Error> {
  try {
    await ask(ext, modelId, [user(prompt)]);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the request to fail');
}
