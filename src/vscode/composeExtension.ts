/**
 * Builds the extension's parts and wires them together: one log channel, settings, key store, model
 * lists, engines (one per endpoint), provider, commands and the @opencode participant. extension.ts calls it; tests call it
 * too, with the engine's timing injected so retry waits do not slow the suite.
 */
import * as vscode from 'vscode';
import { QuotaService } from '../core/quota/quotaService';
import { limitSentence } from '../core/quota/quotaText';
import { RequestLog } from '../core/report/requestLog';
import { type ChatEngine, type EngineTiming } from '../core/request/chatEngine';
import type { UserFacingError } from '../core/request/userFacingError';
import { moveUnscopedState } from '../core/state/scopedStore';
import { SizeMemo } from '../core/trim/messageSize';
import type { WarmTimers } from '../core/warming/cacheWarmer';
import { ApiKeyStore } from './apiKey';
import { endpointPartBuilder, EndpointRegistry } from './endpointParts';
import { registerOpenCodeParticipant } from './chatParticipant';
import { offerToSetKey, registerCommands } from './commands';
import { startLiveModelData } from './liveModelData';
import { OpenCodeChatProvider } from './provider';
import { RequestRecorderFile } from './requestRecorderFile';
import { ReportPanels } from './reportPanel';
import { loadConversationIndex } from './reportList';
import { SettingsReader } from './settingsReader';
import { OpenCodeStatusBar } from './statusBar';
import { endpointChosen, openChat, WalkthroughSteps, welcomeOnce } from './welcome';
import { registerEditorFeatures } from './editorFeatures';
import { setHostVersion } from '../core/request/chatTransport';
import { STORE_KEYS } from '../core/request/engineMemory';
import { isLoopbackUrl } from '../core/config/endpoints';

export interface ComposeOptions {
  timing?: Partial<EngineTiming>;
  /** The warming timers (tests drive them). */
  warmTimers?: WarmTimers;
}

export interface ComposedExtension {
  log: vscode.LogOutputChannel;
  settings: SettingsReader;
  endpoints: EndpointRegistry;
  /** The default endpoint's engine. */
  engine: ChatEngine;
  provider: OpenCodeChatProvider;
  requests: RequestLog;
  statusBar: OpenCodeStatusBar;
}

/**
 * The welcome is tried whenever the endpoint may have become usable: at start, after a key or settings change; the
 * walkthrough's first step is ticked at the same moments. Both concern the default endpoint.
 */
function welcomeTrigger(context: vscode.ExtensionContext, settings: SettingsReader, defaultKey: () => Promise<string | undefined>, steps: WalkthroughSteps): () => void {
  const usable = async (): Promise<boolean> => isLoopbackUrl(settings.current.baseUrl) || !!(await defaultKey());
  const tick = async (): Promise<void> => {
    if (endpointChosen(!!(await defaultKey()))) steps.mark('endpoint');
  };
  return () => {
    void tick().catch(() => undefined);
    void welcomeOnce(context.globalState, settings.current.baseUrl, usable).catch(() => undefined);
  };
}

interface Parts {
  log: vscode.LogOutputChannel;
  settings: SettingsReader;
  keys: ApiKeyStore;
  endpoints: EndpointRegistry;
  requests: RequestLog;
  quota: QuotaService;
  statusBar: OpenCodeStatusBar;
  reports: ReportPanels;
  steps: WalkthroughSteps;
  welcome: () => void;
}

function createParts(context: vscode.ExtensionContext, options: ComposeOptions, provider: () => OpenCodeChatProvider | undefined): Parts {
  const log = vscode.window.createOutputChannel('OpenCode', { log: true });
  const settings = new SettingsReader(log);
  const keys = new ApiKeyStore(context.secrets);
  const { index, saver } = loadConversationIndex(context.globalState, log, () => requests.flushAdded());
  // Not in the command palette: the report's list as data, for the real-VS-Code suite (src/e2e) and automation.
  context.subscriptions.push(saver, vscode.commands.registerCommand('opencode.reportConversations', () => (requests.flushAdded(), index.list())));
  const requests = new RequestLog((batch) => index.noteBatch(batch));
  const memo = new SizeMemo();
  const steps = new WalkthroughSteps();
  // The quota is OpenCode Go's: the first enabled Go endpoint's, else the default endpoint's (which then has none).
  const quotaPart = () => endpoints.all().find((part) => part.config().catalog === 'go') ?? endpoints.default();
  const quota = new QuotaService({ endpoint: () => quotaPart().list.endpoint(), log });
  const defaultKey = async () => (await endpoints.default().list.endpoint()).apiKey;
  const statusBar = new OpenCodeStatusBar(requests, settings, quota, async () => !isLoopbackUrl(settings.current.baseUrl) && !(await defaultKey()));
  const reports = new ReportPanels(requests, settings, quota, log, context.logUri.fsPath, (modelId) => endpoints.catalogOf(modelId), index);
  reports.useSizes(memo);
  const recorder = new RequestRecorderFile(context.logUri.fsPath, log);
  const endpoints: EndpointRegistry = new EndpointRegistry(
    () => settings.current,
    endpointPartBuilder({
      context, log, settings, keys, requests, quota, recorder, memo, timing: options.timing, warmTimers: options.warmTimers,
      onAccounted: (sessionId, fed) => {
        if (fed.walkthrough) steps.mark('model');
        void quota.refresh();
        if (!fed.requestLog) return;
        statusBar.update();
        reports.refresh(sessionId);
      },
      onWarmed: () => statusBar.update(),
      onInfoChanged: () => provider()?.notifyInfoChanged(),
    }),
  );
  // State saved before endpoints had scopes belongs to the default endpoint (core/state/scopedStore.ts).
  void moveUnscopedState(context.globalState, Object.values(STORE_KEYS), endpoints.default().config().id).catch(() => undefined);
  return { log, settings, keys, endpoints, requests, quota, statusBar, reports, steps, welcome: welcomeTrigger(context, settings, defaultKey, steps) };
}

function subscriptions(parts: Parts, provider: OpenCodeChatProvider): vscode.Disposable[] {
  const { log, settings, keys, endpoints, statusBar, reports } = parts;
  const endpointChanged = (): void => {
    statusBar.update();
    parts.welcome();
    for (const part of endpoints.all()) void part.list.refresh().catch(() => undefined);
  };
  return [
    log,
    settings,
    endpoints,
    vscode.lm.registerLanguageModelChatProvider('opencode', provider),
    statusBar,
    reports,
    ...registerCommands(keys, endpoints, log),
    vscode.commands.registerCommand('opencode.openChat', () => openChat()),
    vscode.commands.registerCommand('opencode.showReport', (sessionId?: unknown) => reports.show(typeof sessionId === 'string' ? sessionId : undefined)),
    keys.onDidChange(endpointChanged),
    settings.onDidChange(() => {
      provider.notifyInfoChanged();
      endpointChanged();
    }),
  ];
}

export function composeExtension(context: vscode.ExtensionContext, options: ComposeOptions = {}): ComposedExtension {
  setHostVersion(vscode.version ?? '');
  // The parts tell the provider when model info changed; the provider is built from the parts.
  const late: { provider?: OpenCodeChatProvider } = {};
  const parts = createParts(context, options, () => late.provider);
  const { log, settings, keys, endpoints, requests, quota, statusBar, reports } = parts;
  const explainLimit = async (): Promise<string | undefined> => {
    await quota.refresh();
    return limitSentence(quota.current);
  };
  const onFailed = (error: UserFacingError): void => (error.kind === 'context' ? statusBar.refused(error.message) : undefined);
  const shown = new OpenCodeChatProvider(endpoints, log, () => void offerToSetKey(keys, endpoints), explainLimit, onFailed);
  late.provider = shown;
  quota.onDidChange(() => {
    statusBar.update();
    reports.refreshAll();
  });
  context.subscriptions.push(...subscriptions(parts, shown), ...registerEditorFeatures({ endpoints, settings, log }));
  context.subscriptions.push(startLiveModelData(context.globalState, log, settings, () => shown.notifyInfoChanged()));
  statusBar.update();
  parts.welcome();
  registerOpenCodeParticipant(context, log, { lastRequest: () => requests.latest(), onAnswered: () => parts.steps.mark('chat') });
  return { log, settings, endpoints, engine: endpoints.default().engine, provider: shown, requests, statusBar };
}
