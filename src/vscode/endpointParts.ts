/**
 * One set of parts per enabled endpoint (docs/endpoints.md): its engine (own saved state, own conversation ids, own
 * key), its model list and its warming, wired to what every endpoint shares (the log, the request log, the status bar,
 * the report, the recorder). Built when an endpoint first appears in the settings and kept while its id and place
 * (default or not) stay. What a request reads of them is worked out once per settings snapshot or key change, not per
 * request: the enabled endpoints and their parts, each endpoint's settings view and its key. The engine's state is
 * saved in the endpoint's own scope; its accounted requests enter the request log under the model's pick id.
 */
import * as vscode from 'vscode';
import { enabledEndpoints, endpointSettings, fromPickId, pickId, type EndpointConfig } from '../core/config/endpoints';
import type { Settings } from '../core/config/settings';
import { ChatEngine } from '../core/request/chatEngine';
import { pricesFor } from '../core/cost/requestCost';
import type { DescribingModel } from '../core/request/describeImages';
import type { ChatMessage, ModelEntry } from '../core/types';
import type { KeyTarget } from './apiKey';
import { ModelList } from './modelList';
import { type EndpointCatalog } from '../core/routeId';
import { describingModel, listedFields, offered } from '../core/models/modelTable';
import { type ListedFields } from '../core/models/modelFacts';
import type { QuotaService } from '../core/quota/quotaService';
import type { RequestLog } from '../core/report/requestLog';
import { type EngineTiming } from '../core/request/chatEngine';
import { OPENCODE_CLIENT } from '../core/request/chatTransport';
import { feeds, type PurposeFeeds } from '../core/request/purpose';
import { scopedStore } from '../core/state/scopedStore';
import type { SizeMemo } from '../core/trim/messageSize';
import { CacheWarmer, NODE_TIMERS, type WarmTimers, warmingHooks, warmingSettings } from '../core/warming/cacheWarmer';
import { sendWarming } from '../core/warming/warmRequest';
import type { ApiKeyStore } from './apiKey';
import type { RequestRecorderFile } from './requestRecorderFile';
import type { SettingsReader } from './settingsReader';

export interface EndpointPart {
  /** The endpoint as the settings say now. */
  config(): EndpointConfig;
  isDefault: boolean;
  engine: ChatEngine;
  list: ModelList;
  dispose(): void;
}

/** Builds an endpoint's parts; `config` reads the endpoint's current settings. */
export type BuildPart = (id: string, isDefault: boolean, config: () => EndpointConfig) => EndpointPart;

export class EndpointRegistry implements vscode.Disposable {
  private readonly parts = new Map<string, EndpointPart>();
  /** The parts of the last enabled endpoints seen (a settings snapshot's: the list is made once per snapshot). */
  private current?: { endpoints: readonly EndpointConfig[]; parts: readonly EndpointPart[] };

  constructor(
    private readonly settings: () => Settings,
    private readonly build: BuildPart,
  ) {}

  /** Every enabled endpoint's parts, the default first; parts of endpoints no longer enabled are let go. */
  all(): readonly EndpointPart[] {
    const endpoints = enabledOf(this.settings());
    if (this.current?.endpoints !== endpoints) this.current = { endpoints, parts: this.reconcile(endpoints) };
    return this.current.parts;
  }

  private reconcile(endpoints: readonly EndpointConfig[]): EndpointPart[] {
    const wanted = endpoints.map((endpoint, index) => ({ endpoint, key: partKey(endpoint.id, index === 0) }));
    for (const [key, part] of this.parts) {
      if (!wanted.some((w) => w.key === key)) {
        part.dispose();
        this.parts.delete(key);
      }
    }
    return wanted.map(({ endpoint, key }, index) => {
      let part = this.parts.get(key);
      if (!part) {
        const id = endpoint.id;
        part = this.build(id, index === 0, () => enabledOf(this.settings()).find((e) => e.id === id) ?? endpoint);
        this.parts.set(key, part);
      }
      return part;
    });
  }

  default(): EndpointPart {
    return this.all()[0];
  }

  /** The endpoint behind a pick id, and the model id it knows. */
  resolve(id: string): { part: EndpointPart; modelId: string } {
    const parts = this.all();
    const endpoints = enabledOf(this.settings());
    const { endpoint, modelId } = fromPickId(endpoints, id);
    return { part: parts[endpoints.indexOf(endpoint)] ?? parts[0], modelId };
  }

  /** Every endpoint's models (entries with the endpoint's own ids) and their pick ids; a pick id listed before is left out. */
  async models(): Promise<{ part: EndpointPart; entry: ModelEntry; pickId: string }[]> {
    const parts = this.all();
    const configs = enabledOf(this.settings());
    const lists = await Promise.all(parts.map((part) => part.list.models().catch((): ModelEntry[] => [])));
    const seen = new Set<string>();
    return lists.flatMap((models, index) =>
      models.flatMap((model) => {
        const id = pickId(configs, configs[index], model.id);
        if (seen.has(id)) return [];
        seen.add(id);
        return [{ part: parts[index], entry: model, pickId: id }];
      }),
    );
  }

  /** What the endpoint's list says of a model by its pick id (its id the endpoint's own), if listed. */
  find(id: string): ModelEntry | undefined {
    const { part, modelId } = this.resolve(id);
    return part.list.find(modelId, part.config().baseUrl);
  }

  /** The settings the endpoint's engine reads. */
  settingsOf(part: EndpointPart): Settings {
    return endpointSettings(this.settings(), part.config());
  }

  /** Whose model data prices a model, by its pick id. */
  catalogOf(id: string): EndpointCatalog | undefined {
    return this.resolve(id).part.config().catalog;
  }

  keyTarget(part: EndpointPart): KeyTarget {
    return { endpoint: part.config(), isDefault: part.isDefault };
  }

  /** An engine that takes pick ids: inline suggestions and commit messages name their model by it. */
  readonly engine: Pick<ChatEngine, 'run'> = {
    run: (request, listed, onEvent, signal) => {
      const { part, modelId } = this.resolve(request.modelId);
      return part.engine.run({ ...request, modelId }, listed, onEvent, signal);
    },
  };

  /**
   * What the endpoint's list says of a model, by its pick id: what inline suggestions and commit messages pass to
   * the engine, which resolves it through the model table like every request (overrides, data, learned limits).
   */
  listedOf(id: string): ListedFields {
    const listed = this.find(id);
    return listed ? listedFields(listed) : {};
  }

  dispose(): void {
    for (const part of this.parts.values()) part.dispose();
    this.parts.clear();
    this.current = undefined;
  }
}

/** The enabled endpoints of a settings snapshot, made once per snapshot (settings are never changed in place). */
const ENABLED = new WeakMap<Settings, readonly EndpointConfig[]>();

function enabledOf(settings: Settings): readonly EndpointConfig[] {
  let endpoints = ENABLED.get(settings);
  if (!endpoints) ENABLED.set(settings, (endpoints = enabledEndpoints(settings)));
  return endpoints;
}

function partKey(id: string, isDefault: boolean): string {
  return isDefault ? `${id}\u0000default` : id;
}

/**
 * Which vision model of an endpoint describes images for its text-only models (describingModel decides; this only
 * gathers the endpoint's listed models as its engine's model table sees them). The provider passes the choice down
 * in the request (ChatRequest.describeWith) and tells VS Code that such a model takes images, so chat lets the user
 * attach one (docs/editor.md "Images for text-only models").
 */
export function describerOf(part: EndpointPart, settings: Settings, listed: readonly ModelEntry[]): DescribingModel | undefined {
  const candidates = listed.flatMap((model) => {
    const { facts } = part.engine.resolve(model);
    if (!offered(facts, settings)) return [];
    return [{ id: model.id, imageInput: facts.imageInput, inputPrice: pricesFor(model.id, settings.catalog)?.base.input }];
  });
  const modelId = describingModel(settings.imageDescriptionModel, candidates);
  if (!modelId) return undefined;
  const entry = listed.find((model) => model.id === modelId);
  return { modelId, listed: entry ? listedFields(entry) : {} };
}

/** Whether a request carries any image (only then is a describing model looked for). */
export function carriesImages(messages: readonly ChatMessage[]): boolean {
  return messages.some((m) => m.parts.some((p) => p.kind === 'image' || (p.kind === 'toolResult' && (p.images?.length ?? 0) > 0)));
}

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
  // The key is read from secret storage once per key change (ApiKeyStore.changes) or settings snapshot (the endpoint's
  // URL decides whether OPENCODE_API_KEY may stand in), not once per request; an unusable key is not kept: it throws each time.
  let key: { changes: number; endpoint: EndpointConfig; value: string | undefined } | undefined;
  const apiKey = async (): Promise<string | undefined> => {
    const [changes, endpoint] = [keys.changes, config()];
    if (key?.changes === changes && key.endpoint === endpoint) return key.value;
    const value = await keys.get({ endpoint, isDefault });
    key = { changes, endpoint, value };
    return value;
  };
  const endpoint = async () => ({ baseUrl: config().baseUrl, apiKey: await apiKey() });
  const pickIdOf = (modelId: string) => pickId(enabledOf(settings.current), config(), modelId);
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
