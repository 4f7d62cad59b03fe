/**
 * Keeps the latest OpenCode Go quota: asked to refresh after each request and when the status bar appears,
 * it fetches only when the pacer allows and the endpoint is OpenCode Go with a key. Listeners hear every
 * change. No VS Code here; the adapter passes the endpoint and a logger.
 */
import type { Logger } from '../log';
import type { Quota } from './goUsage';
import { fetchGoUsage, type FetchLike } from './quotaFetcher';
import { QuotaPacer } from './quotaPacer';

export interface QuotaDeps {
  endpoint: () => Promise<{ baseUrl: string; apiKey?: string }>;
  log: Logger;
  fetch?: FetchLike;
  now?: () => number;
  pacer?: QuotaPacer;
  /** Overrides the usage URL derived from the base URL (tests, a local stand-in). */
  usageUrl?: (baseUrl: string) => string | undefined;
}

/** The Go usage endpoint for a base URL, or undefined when the base URL is not OpenCode Go (asked after every request: here, not beside the parser). */
export function goUsageUrl(baseUrl: string): string | undefined {
  try {
    const url = new URL(baseUrl);
    if (!/\/zen\/go\/v1\/?$/.test(url.pathname)) return undefined;
    return `${baseUrl.replace(/\/+$/, '')}/usage`;
  } catch {
    return undefined;
  }
}

export class QuotaService {
  private value: Quota | undefined;
  private inFlight: Promise<void> | undefined;
  private readonly listeners = new Set<(quota: Quota | undefined) => void>();
  private readonly pacer: QuotaPacer;

  constructor(private readonly deps: QuotaDeps) {
    this.pacer = deps.pacer ?? new QuotaPacer();
  }

  get current(): Quota | undefined {
    return this.value;
  }

  onDidChange(listener: (quota: Quota | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Fetches when allowed; resolves when done (or at once when paced or not applicable). */
  refresh(): Promise<void> {
    this.inFlight ??= this.fetchOnce().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async fetchOnce(): Promise<void> {
    const { baseUrl, apiKey } = await this.deps.endpoint();
    const url = (this.deps.usageUrl ?? goUsageUrl)(baseUrl);
    if (!url || !apiKey) return this.set(undefined);
    const now = this.deps.now ?? Date.now;
    if (!this.pacer.tryStart(now())) return;
    const parsed = await fetchGoUsage(url, apiKey, this.deps.fetch);
    if (parsed.ok) {
      this.pacer.succeeded();
      return this.set({ state: 'known', windows: parsed.windows, at: now() });
    }
    this.pacer.failed();
    this.deps.log.warn(`[quota] OpenCode Go usage unknown: ${parsed.reason}; next try in ${Math.round((this.pacer.nextAllowed() - now()) / 1000)} s.`);
    this.set({ state: 'unknown', reason: parsed.reason, at: now() });
  }

  private set(quota: Quota | undefined): void {
    this.value = quota;
    for (const listener of this.listeners) listener(quota);
  }
}
