/**
 * Sends one warming body on its route through the one transport every answer takes (routeTransport.ts), reads
 * only its usage and OpenCode's cost frame, and prices it like any request. Nothing it reads is remembered: no
 * reasoning, no layout, no calibration, no trim state, so the next request is built exactly as without it.
 */
import { pricesFor } from '../cost/requestCost';
import { requestCost } from '../cost/requestCost';
import type { Endpoint } from '../request/chatTransport';
import { streamRoute } from '../request/routeTransport';
import { routeById } from '../routes/registry/registry';
import { newRequestId } from '../session/sessionId';
import type { NormalizedUsage } from '../types';
import type { WarmOutcome, WarmTarget } from './cacheWarmer';
import { longLivedWrites } from '../routes/requestParts';
import { type EndpointCatalog } from '../routeId';

const NO_USAGE: NormalizedUsage = { shape: 'none', contextTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 0, totalTokens: 0 };

export interface WarmSendOptions {
  endpoint: () => Promise<Endpoint>;
  /** Whose prices apply (the endpoint's catalogue). */
  catalog?: EndpointCatalog;
  /** x-opencode-client. */
  client?: string;
  idleTimeoutMs: number;
}

export async function sendWarming(options: WarmSendOptions, target: WarmTarget, body: Record<string, unknown>, signal: AbortSignal): Promise<WarmOutcome> {
  const route = routeById(target.route);
  const endpoint = await options.endpoint();
  const send = { route, body, modelId: target.modelId, sessionId: target.sessionId, requestId: newRequestId(), client: options.client, signal, idleTimeoutMs: options.idleTimeoutMs, expectUsage: true };
  const reader = route.newReader();
  // The answer itself is thrown away: only what the reader kept of it (usage, OpenCode's cost) matters.
  for await (const _result of streamRoute(endpoint, send, reader));
  reader.finish();
  const { usage, cost: reportedUsd } = reader.result();
  const cost = requestCost({ usage: usage ?? NO_USAGE, reportedUsd, prices: usage && pricesFor(target.modelId, options.catalog), longCacheWrites: longLivedWrites(body) });
  return { usage, cost };
}
