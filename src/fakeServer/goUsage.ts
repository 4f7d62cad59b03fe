/**
 * OpenCode Go's quota page, faked: `GET /v1/usage` and `GET /zen/go/v1/usage` answer what
 * `POST /_control/go-usage` last set (`{ "status": 200, "body": {…} }`, or `{ "raw": "text" }` for a
 * malformed answer); by default a healthy three-window answer. A missing or wrong Bearer key gets 401.
 * These requests are not recorded, so the chat requests' indexes do not shift.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerState } from './state';
import { sendJson } from './transport';
import { isRecord } from '../core/util/jsonFields';

export const GO_USAGE_PATHS = ['/v1/usage', '/zen/go/v1/usage'];

interface UsageAnswer {
  status: number;
  body?: unknown;
  raw?: string;
}

const HOUR = 3_600_000;

export function defaultGoUsage(now = Date.now()): unknown {
  const at = (ms: number): string => new Date(now + ms).toISOString();
  return {
    usage: {
      rolling: { status: 'ok', percent: 12, resetsAt: at(3 * HOUR) },
      weekly: { status: 'ok', percent: 41, resetsAt: at(4 * 24 * HOUR) },
      monthly: { status: 'ok', percent: 27, resetsAt: at(19 * 24 * HOUR) },
    },
  };
}

const answers = new WeakMap<ServerState, UsageAnswer>();

/** `POST /_control/go-usage`: sets what the usage page answers from now on. */
export function setGoUsage(state: ServerState, body: unknown, res: ServerResponse): void {
  if (!isRecord(body)) return sendJson(res, 400, { error: { message: 'expected {"status": number, "body": …} or {"raw": "text"}', type: 'invalid_control_request' } });
  const status = typeof body.status === 'number' ? body.status : 200;
  answers.set(state, { status, body: body.body, raw: typeof body.raw === 'string' ? body.raw : undefined });
  sendJson(res, 200, { ok: true });
}

export function handleGoUsage(state: ServerState, req: IncomingMessage, res: ServerResponse): void {
  const auth = req.headers.authorization ?? '';
  const wanted = state.settings.requireKey;
  if (!auth.startsWith('Bearer ') || (wanted !== undefined && auth !== `Bearer ${wanted}`)) {
    return sendJson(res, 401, { error: { message: 'Invalid API key.', type: 'authentication_error' } });
  }
  const answer = answers.get(state) ?? { status: 200, body: defaultGoUsage() };
  if (answer.raw !== undefined) {
    res.writeHead(answer.status, { 'Content-Type': 'application/json' });
    res.end(answer.raw);
    return;
  }
  sendJson(res, answer.status, answer.body ?? {});
}
