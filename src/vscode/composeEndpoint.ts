/**
 * The parts of one endpoint (endpointParts.ts): its engine, model list and warming, wired to what every endpoint
 * shares (the log, the request log, the status bar, the report, the recorder). The engine's state is saved in the
 * endpoint's own scope; its accounted requests enter the request log under the model's pick id.
 */
import * as vscode from 'vscode';
import { endpointSettings, enabledEndpoints, pickId, type EndpointConfig } from '../core/config/endpoints';
import type { QuotaService } from '../core/quota/quotaService';
import type { RequestLog } from '../core/report/requestLog';
import { ChatEngine, type EngineTiming } from '../core/request/chatEngine';
import { OPENCODE_CLIENT } from '../core/request/chatTransport';
import { feeds, type PurposeFeeds } from '../core/request/purpose';
import { scopedStore } from '../core/state/scopedStore';
import type { SizeMemo } from '../core/trim/messageSize';
import { CacheWarmer, NODE_TIMERS, type WarmTimers, warmingHooks, warmingSettings } from '../core/warming/cacheWarmer';
import { sendWarming } from '../core/warming/warmRequest';
import type { ApiKeyStore } from './apiKey';
import type { BuildPart, EndpointPart } from './endpointParts';
import { ModelList } from './modelList';
import type { RequestRecorderFile } from './requestRecorderFile';
import type { SettingsReader } from './settingsReader';

/** What every endpoint's parts share. */
export interface SharedParts {
  context: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  settings: SettingsReader;
  keys: ApiKeyStore;
  requests: RequestLog;
  quota: QuotaService;
  recorder: RequestRecorderFile;
  memo: SizeMemo;
  /** After a request was accounted (status bar, report, walkthrough: as its purpose feeds them) or warmed. */
  onAccounted: (sessionId: string, fed: PurposeFeeds) => void;
  onWarmed: () => void;
  /** What VS Code is told about models may have changed. */
  onInfoChanged: () => void;
  timing?: Partial<EngineTiming>;
  warmTimers?: WarmTimers;
}

export function endpointPartBuilder(shared: SharedParts): BuildPart {
  return (id, isDefault, config) => buildPart(shared, id, isDefault, config);
}

function buildPart(shared: SharedParts, id: string, isDefault: boolean, config: () => EndpointConfig): EndpointPart {
  const { context, log, settings, keys, requests, recorder } = shared;
  const view = () => endpointSettings(settings.current, config());
  const apiKey = () => keys.get({ endpoint: config(), isDefault });
  const endpoint = async () => ({ baseUrl: config().baseUrl, apiKey: await apiKey() });
  const pickIdOf = (modelId: string) => pickId(enabledEndpoints(settings.current), config(), modelId);
  const list = new ModelList(context.globalState, log, endpoint, () => config().catalog);
  const warmer = new CacheWarmer({
    timers: shared.warmTimers ?? NODE_TIMERS,
    settings: () => warmingSettings(view()),
    send: (target, body, signal) => sendWarming({ endpoint, catalog: config().catalog, client: OPENCODE_CLIENT, idleTimeoutMs: view().streamIdleTimeoutSeconds * 1000 }, target, body, signal),
    log,
    onWarmed: (target, outcome) => {
      requests.addWarming(target.sessionId, outcome.cost);
      shared.onWarmed();
    },
  });
  const warming = warmingHooks(warmer);
  const engine: ChatEngine = new ChatEngine({
    log,
    store: scopedStore(context.globalState, id, isDefault),
    memo: shared.memo,
    sessionScope: isDefault ? undefined : id,
    settings: view,
    apiKey,
    onLimitsChanged: shared.onInfoChanged,
    notify: (message) => void vscode.window.showWarningMessage(message),
    // Each hook runs only for the purposes it is for (core/request/purpose.ts).
    record: (prepared, sent) => feeds(prepared.purpose).recording && settings.current.recordRequests && recorder.record(prepared, sent),
    onAttempt: (prepared) => {
      if (feeds(prepared.purpose).warming) warming.onAttempt(prepared);
    },
    onAccounted: (modelId, prepared, usage, cost, sent) => {
      const fed = feeds(prepared.purpose);
      if (fed.warming) warming.onAccounted(modelId, prepared, usage, cost, sent);
      if (fed.requestLog) requests.add(pickIdOf(modelId), prepared, usage, Date.now(), prepared.route.id, cost);
      if (fed.recording && settings.current.recordRequests) recorder.accounted(prepared, usage.contextTokens);
      shared.onAccounted(prepared.sessionId, fed);
    },
    // After the conversation's request is in the log: what describing its images cost, counted apart.
    onDescribed: (sessionId, tally) => requests.addDescribing(sessionId, tally),
    timing: shared.timing,
  });
  const listChanged = list.onDidChange(shared.onInfoChanged);
  return {
    config,
    isDefault,
    engine,
    list,
    dispose: () => {
      warmer.dispose();
      listChanged.dispose();
      list.dispose();
      // Saved state waits a moment before it is written (core/state/stateWriter.ts): written now, on deactivate too.
      void engine.flushState();
    },
  };
}
