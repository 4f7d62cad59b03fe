/**
 * The model list: served from memory and globalState so the picker never waits on the network, refreshed
 * in the background (or by "OpenCode: Refresh Models"). One list per endpoint; ids are unique.
 */
import * as vscode from 'vscode';
import { isLoopbackUrl } from '../core/config/endpoint';
import { bundledModelEntries } from '../core/models/knownModels';
import { parseModelList } from '../core/models/parseModelList';
import { fetchModelList, type Endpoint } from '../core/request/chatTransport';
import type { ModelEntry } from '../core/types';

const STALE_AFTER_MS = 30 * 60 * 1000;

interface CachedList {
  fetchedAt: number;
  models: ModelEntry[];
}

export class ModelCatalog implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private inFlight: Promise<ModelEntry[]> | undefined;

  constructor(
    private readonly state: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
    private readonly endpoint: () => Promise<Endpoint>,
  ) {}

  /**
   * Cached models at once; fetches only when nothing is cached, and never prompts. Without a key (for a
   * non-loopback endpoint) the bundled models are listed, so picking one leads to the "set a key" message.
   */
  async models(): Promise<ModelEntry[]> {
    const endpoint = await this.endpoint();
    const cached = this.cached(endpoint.baseUrl);
    const keyless = !endpoint.apiKey && !isLoopbackUrl(endpoint.baseUrl);
    if (cached) {
      if (!keyless && Date.now() - cached.fetchedAt > STALE_AFTER_MS) void this.refresh().catch(() => undefined);
      return cached.models;
    }
    if (keyless) return bundledModelEntries();
    try {
      return await this.refresh();
    } catch {
      return [];
    }
  }

  find(id: string, baseUrl: string): ModelEntry | undefined {
    return (this.cached(baseUrl)?.models ?? bundledModelEntries()).find((model) => model.id === id);
  }

  /** True when the endpoint needs a key and none is set. */
  async needsKey(): Promise<boolean> {
    const endpoint = await this.endpoint();
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
      await this.state.update(cacheKey(endpoint.baseUrl), { fetchedAt: Date.now(), models } satisfies CachedList);
      this.log.info(`[models] ${models.length} model(s) from ${endpoint.baseUrl}: ${models.map((m) => `${m.id}(${m.contextWindow ?? '?'}/${m.limitSource})`).join(', ')}`);
      if (JSON.stringify(models) !== before) this.changed.fire();
      return models;
    } catch (error) {
      this.log.warn(`[models] Could not list models at ${endpoint.baseUrl}: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  }

  private cached(baseUrl: string): CachedList | undefined {
    const value = this.state.get<CachedList>(cacheKey(baseUrl));
    return value && Array.isArray(value.models) ? value : undefined;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function cacheKey(baseUrl: string): string {
  return `opencode.models:${baseUrl}`;
}
