/**
 * Live model data: models.dev's catalogue (the one OpenCode itself reads), fetched in the background at most once a
 * day, never on a request's path. The request is conditional (If-None-Match / If-Modified-Since), its answer bounded
 * in size and time, validated by the same conversion the snapshot uses (fromModelsDev.ts). The last good copy (only
 * the `opencode` and `opencode-go` providers) is kept in the extension's storage; any failure keeps what is there
 * and logs one line. Nothing about the user is sent: a GET with our User-Agent, no key, no conversation.
 */
import type { Logger } from '../log';
import type { KeyValueStore } from '../state/persisted';
import { fromModelsDev, PROVIDER_OF } from './fromModelsDev';
import type { ModelData } from './modelData';
import type { ModelTable } from './modelTable';
import { readAtMost } from '../util/boundedBody';
import { isRecord } from '../util/jsonFields';

export const MODELS_DEV_URL = 'https://models.dev/api.json';
export const STORE_KEY = 'opencode.liveModelData';
const DAY_MS = 24 * 60 * 60 * 1000;

export interface LiveOptions {
  url: string;
  /** The whole catalogue is a few MB; far beyond this it is not the catalogue. */
  maxBytes: number;
  timeoutMs: number;
  userAgent: string;
  now?: () => number;
  fetch?: typeof fetch;
}

export const DEFAULT_LIVE_OPTIONS: Omit<LiveOptions, 'userAgent'> = { url: MODELS_DEV_URL, maxBytes: 24 * 1024 * 1024, timeoutMs: 30_000 };

interface Saved {
  /** When the server was last asked (success or 304), epoch ms: at most one request a day. */
  checkedAt: number;
  etag?: string;
  lastModified?: string;
  /** The date of the data (YYYY-MM-DD). */
  date: string;
  /** The two providers as models.dev sent them; converted (validated) again on every load. */
  raw: Record<string, unknown>;
}

export type RefreshResult = 'updated' | 'unchanged' | 'not-due' | 'failed';

export class LiveModelData {
  private saved: Saved | undefined;
  private inFlight: Promise<RefreshResult> | undefined;
  /** This activation's last try, so a failure with nothing stored is not retried before a day either. */
  private triedAt = -Infinity;

  constructor(
    private readonly store: KeyValueStore,
    private readonly table: ModelTable,
    private readonly log: Logger,
    private readonly options: LiveOptions,
  ) {}

  /** Applies the stored copy (if valid and not older than the bundled snapshot) to the table. */
  load(): void {
    const saved = validSaved(this.store.get(STORE_KEY));
    const data = saved && this.convert(saved);
    this.saved = data ? saved : undefined;
    this.apply(data);
  }

  /** Off: the table goes back to the snapshot alone (the stored copy is kept for when it is on again). */
  disable(): void {
    this.table.setLive(undefined);
  }

  /** Fetches when a day has passed since the last check; concurrent callers share one request. Never throws. */
  refreshIfDue(): Promise<RefreshResult> {
    const now = (this.options.now ?? Date.now)();
    if (now - Math.max(this.triedAt, this.saved?.checkedAt ?? -Infinity) < DAY_MS) return Promise.resolve('not-due');
    this.triedAt = now;
    this.inFlight ??= this.refresh(now).finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async refresh(now: number): Promise<RefreshResult> {
    try {
      const response = await this.request();
      if (response.status === 304 && this.saved) {
        await this.save({ ...this.saved, checkedAt: now });
        return 'unchanged';
      }
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const body: unknown = JSON.parse(await boundedText(response, this.options.maxBytes));
      const date = dateOf(response.headers.get('last-modified'), now);
      const raw = providersOf(body);
      const saved: Saved = { checkedAt: now, date, raw, etag: response.headers.get('etag') ?? undefined, lastModified: response.headers.get('last-modified') ?? undefined };
      const data = this.convert(saved, true);
      if (!data) throw new Error('the answer is not usable model data');
      const before = this.table.liveData;
      await this.save(saved);
      this.apply(data);
      this.log.info(`[models] live model data of ${date} from ${this.options.url}: ${Object.keys(data.zen).length} Zen, ${Object.keys(data.go).length} Go model(s).`);
      // VS Code is told only when a fact changed (a new answer with the same models is no change).
      return sameModels(before, this.table.liveData) ? 'unchanged' : 'updated';
    } catch (error) {
      // One line; what was there stays (and the next try is tomorrow's, unless nothing was ever fetched).
      this.log.warn(`[models] live model data not updated from ${this.options.url} (${error instanceof Error ? error.message : String(error)}); keeping the ${this.saved ? `copy of ${this.saved.date}` : 'bundled snapshot'}.`);
      if (this.saved) await this.save({ ...this.saved, checkedAt: now });
      return 'failed';
    }
  }

  private async request(): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.options.userAgent };
    if (this.saved?.etag) headers['if-none-match'] = this.saved.etag;
    if (this.saved?.lastModified) headers['if-modified-since'] = this.saved.lastModified;
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const response = await (this.options.fetch ?? fetch)(this.options.url, { headers, signal, redirect: 'follow' });
    return response;
  }

  private convert(saved: Saved, logProblems = false): ModelData | undefined {
    const { data, problems } = fromModelsDev(saved.raw, saved.date, this.options.url);
    if (logProblems && data && problems.length) this.log.debug(`[models] live model data: ${problems.length} entr(ies) left out: ${problems.slice(0, 5).join('; ')}`);
    return data;
  }

  /** Newer data wins: a stored copy older than the bundled snapshot (an extension update) is not used. */
  private apply(data: ModelData | undefined): void {
    this.table.setLive(data && data.date >= this.table.snapshotDate ? data : undefined);
  }

  private async save(saved: Saved): Promise<void> {
    this.saved = saved;
    await this.store.update(STORE_KEY, saved);
  }
}

/** Reads at most maxBytes of the body; a longer one is cancelled, not read to its end. */
export async function boundedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`the answer is ${declared} bytes, more than ${maxBytes}`);
  }
  if (!response.body) return '';
  const text = await readAtMost(response.body, maxBytes);
  if (text === undefined) throw new Error(`the answer is more than ${maxBytes} bytes`);
  return text;
}

function sameModels(a: ModelData | undefined, b: ModelData | undefined): boolean {
  return a === b || (!!a && !!b && JSON.stringify([a.zen, a.go]) === JSON.stringify([b.zen, b.go]));
}

function providersOf(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw new Error('the answer is not a JSON object');
  return Object.fromEntries(Object.values(PROVIDER_OF).map((name) => [name, body[name]]));
}

function dateOf(lastModified: string | null, now: number): string {
  const parsed = lastModified ? Date.parse(lastModified) : NaN;
  return new Date(Number.isFinite(parsed) ? parsed : now).toISOString().slice(0, 10);
}

function validSaved(value: unknown): Saved | undefined {
  if (!isRecord(value) || typeof value.checkedAt !== 'number' || !Number.isFinite(value.checkedAt)) return undefined;
  if (typeof value.date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value.date) || !isRecord(value.raw)) return undefined;
  const text = (v: unknown) => (typeof v === 'string' && v.length <= 200 ? v : undefined);
  return { checkedAt: value.checkedAt, date: value.date, raw: value.raw, etag: text(value.etag), lastModified: text(value.lastModified) };
}
