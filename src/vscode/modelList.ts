/**
 * The model list: served from memory and globalState so the picker never waits on the network, refreshed
 * in the background (or by "OpenCode: Refresh Models"). One list per endpoint; ids are unique.
 */
import * as vscode from 'vscode';
import { parseModelList } from '../core/models/parseModelList';
import { fetchModelList, type Endpoint } from '../core/request/chatTransport';
import type { ModelEntry } from '../core/types';
import { PersistedStore } from '../core/state/persisted';
import { validModelList, type CachedModelList } from '../core/models/cachedModelList';
import { errorDetail } from '../core/request/userFacingError';
import { redact, redactUrl } from '../core/util/redact';
import { classifyListFailure, type ListFailure } from '../core/models/listFailure';
import { outsideList } from '../core/util/excerpt';
import { dataEntries } from '../core/models/modelTable';
import { type EndpointCatalog } from '../core/routeId';
import { catalogOf, isLoopbackUrl } from '../core/config/endpoints';

const STALE_AFTER_MS = 30 * 60 * 1000;

/** A failed GET /models, with what failed and what to do (listFailure.ts). */
export class ModelListError extends Error {
  constructor(readonly failure: ListFailure) {
    super(`${failure.what}. ${failure.todo}`);
  }
}

export class ModelList implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private inFlight: Promise<ModelEntry[]> | undefined;
  private readonly store: PersistedStore;
  /** The last refresh's failure (cleared when the endpoint answers): the picker marks the models it lists. */
  private failure: ListFailure | undefined;
  /** Failure kinds already warned about since the endpoint last answered: one WARN per kind, not per refresh. */
  private readonly warned = new Set<string>();
  /** The saved lists as validated, per base URL. */
  private readonly validated = new Map<string, CachedModelList | undefined>();
  /** Until when models() answers as its last call did without the network (askAgainAt). */
  private steadyUntil = 0;

  constructor(
    state: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
    /** The endpoint's URL and key (the key read once per change: endpointParts.ts); the quota reads it too. */
    readonly endpoint: () => Promise<Endpoint>,
    /** The endpoint's catalogue (Settings.catalog); the URL's when not given. */
    private readonly catalogSetting?: () => EndpointCatalog | undefined,
  ) {
    this.store = new PersistedStore(state, log);
  }

  /**
   * Cached models at once; fetches only when nothing is cached, and never prompts. Without a key (for a
   * non-loopback endpoint) the ids the model data lists are shown, so picking one leads to the "set a key" message.
   */
  async models(): Promise<ModelEntry[]> {
    this.steadyUntil = 0;
    const endpoint = await this.endpoint().catch((error: unknown) => {
      // An unusable key (InvalidApiKeyError): list the bundled models; a request then says what to do.
      this.log.warn(`[models] ${redact(error instanceof Error ? error.message : String(error))}`);
      return undefined;
    });
    if (!endpoint) return dataEntries(this.catalog());
    const cached = this.cached(endpoint.baseUrl);
    const keyless = !endpoint.apiKey && !isLoopbackUrl(endpoint.baseUrl);
    if (cached) {
      const staleAt = cached.fetchedAt + STALE_AFTER_MS;
      if (!keyless && Date.now() > staleAt) void this.refresh().catch(() => undefined);
      this.steadyUntil = keyless ? Infinity : staleAt;
      return cached.models;
    }
    // A custom endpoint has no data of its own: Zen's ids stand in, so that a pick still reaches the "set a key" hint.
    if (keyless) {
      this.steadyUntil = Infinity;
      return dataEntries(this.catalog(endpoint.baseUrl) ?? 'zen');
    }
    try {
      const models = await this.refresh();
      this.steadyUntil = Date.now() + STALE_AFTER_MS;
      return models;
    } catch {
      // Unreachable and never listed: the model data's ids stand in, marked (unreachable()), so the picker keeps them.
      return dataEntries(this.catalog(endpoint.baseUrl));
    }
  }

  /**
   * Until when models() would answer as its last call did without asking the network, so the picker's listing may be
   * kept until then (provider.ts): a saved list until it is stale, a keyless endpoint's stand-ins until a change event
   * (onDidChange, a key or settings change); never while the endpoint fails unlisted or the key is unusable (each
   * listing tries again, as before).
   */
  askAgainAt(): number {
    return this.steadyUntil;
  }

  /** Why the endpoint's last refresh failed, while it has not answered since. */
  unreachable(): ListFailure | undefined {
    return this.failure;
  }

  find(id: string, baseUrl: string): ModelEntry | undefined {
    return (this.cached(baseUrl)?.models ?? dataEntries(this.catalog(baseUrl))).find((model) => model.id === id);
  }

  private catalog(baseUrl?: string): EndpointCatalog | undefined {
    return this.catalogSetting ? this.catalogSetting() : baseUrl ? catalogOf(baseUrl) : undefined;
  }

  /** True when the endpoint needs a key and none is set. */
  async needsKey(): Promise<boolean> {
    const endpoint = await this.endpoint().catch(() => undefined);
    if (!endpoint) return true;
    return !endpoint.apiKey && !isLoopbackUrl(endpoint.baseUrl);
  }

  /** Fetches the list now; concurrent callers share one request. */
  refresh(): Promise<ModelEntry[]> {
    this.inFlight ??= this.fetch().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async fetch(): Promise<ModelEntry[]> {
    const endpoint = await this.endpoint();
    try {
      const models = parseModelList(await fetchModelList(endpoint));
      const before = JSON.stringify(this.cached(endpoint.baseUrl)?.models ?? []);
      const saved: CachedModelList = { fetchedAt: Date.now(), models };
      await this.store.save(cacheKey(endpoint.baseUrl), saved);
      this.validated.set(endpoint.baseUrl, saved);
      this.log.info(`[models] ${models.length} model(s) from ${redactUrl(endpoint.baseUrl)}: ${outsideList(models.map((m) => `${m.id}(${m.contextWindow ?? '?'}/${m.limitSource})`))}`);
      if (JSON.stringify(models) !== before) this.changed.fire();
      if (this.failure) {
        this.failure = undefined;
        this.warned.clear();
        this.changed.fire();
      }
      return models;
    } catch (error) {
      const failure = classifyListFailure(error, hostOf(endpoint.baseUrl), !!endpoint.apiKey);
      const detail = redact(errorDetail(error), [endpoint.apiKey]);
      const listed = this.cached(endpoint.baseUrl) ? 'its last good list' : 'the model data';
      const warnedKey = `${endpoint.baseUrl}\u0000${failure.kind}`;
      if (!this.warned.has(warnedKey)) {
        this.warned.add(warnedKey);
        this.log.warn(`[models] Could not list models at ${redactUrl(endpoint.baseUrl)}: ${failure.what}; listing ${listed} (marked "${failure.mark}"). ${failure.todo} (${detail})`);
      } else this.log.info(`[models] ${redactUrl(endpoint.baseUrl)} still fails: ${failure.mark} (${detail})`);
      const changed = this.failure?.kind !== failure.kind;
      this.failure = failure;
      if (changed) this.changed.fire();
      throw new ModelListError(failure);
    }
  }

  /** The saved list, validated (records.ts): null entries and a missing fetch time never reach the picker. */
  private cached(baseUrl: string): CachedModelList | undefined {
    // Validated once per list saved, not on every request and keystroke that asks (this class is the key's one writer).
    if (!this.validated.has(baseUrl)) this.validated.set(baseUrl, this.store.loadValue(cacheKey(baseUrl), validModelList));
    return this.validated.get(baseUrl);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function cacheKey(baseUrl: string): string {
  return `opencode.models:${baseUrl}`;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return 'the endpoint';
  }
}
