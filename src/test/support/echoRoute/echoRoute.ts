/**
 * A made-up fifth wire, for src/test/fifthRoute.test.ts only (nothing of it ships): `POST /echo` with
 * `{model, prompt, stream: true}` answers SSE lines `{"text": "..."}`, then one `{"usage": {"input", "cached",
 * "output"}, "done": true}`. The whole route is this folder: its body, its reader, its usage conversion and its
 * per-attempt rules, as a shipped route's folder under src/core/routes holds them.
 */
import { AnswerReader } from '../../../core/answer/answerReader';
import type { WireEvent, WireReader } from '../../../core/answer/wireEvent';
import type { RouteId } from '../../../core/routeId';
import type { BodyInput, Route } from '../../../core/routes/route';
import { bearerHeaders } from '../../../core/routes/requestParts';
import { countField, hasUsageField, usageReading, type RawUsage, type UsageReading } from '../../../core/usage/usage';
import type { WireMessage } from '../../../core/wire/wireTypes';
import { isRecord } from '../../../core/util/jsonFields';

/** RouteId is the shipped routes' closed list (core/routeId.ts): a caller's own route names itself through a cast. */
export const ECHO_ROUTE_ID = 'echo' as RouteId;

function textOf(message: WireMessage | undefined): string {
  if (!message || typeof message.content !== 'string') {
    const parts = Array.isArray(message?.content) ? message.content : [];
    return parts.map((p) => ('text' in p ? p.text : '')).join('');
  }
  return message.content;
}

export function buildEchoBody(input: BodyInput): Record<string, unknown> {
  const lastUser = [...input.messages].reverse().find((m) => m.role === 'user');
  return { model: input.modelId, stream: true, prompt: textOf(lastUser) };
}

/** The echo wire's usage: `input` includes the cached tokens. */
export function readEchoUsage(raw: RawUsage): UsageReading | undefined {
  if (!hasUsageField(raw, 'input', 'output')) return undefined;
  return usageReading({ shape: 'openai', contextTokens: countField(raw, 'input'), cachedTokens: countField(raw, 'cached'), cacheWriteTokens: 0, completionTokens: countField(raw, 'output'), reportedTotal: 0 });
}

class EchoWire implements WireReader {
  read(data: unknown): WireEvent[] {
    if (!isRecord(data)) return [{ kind: 'malformed', raw: String(data) }];
    const events: WireEvent[] = [];
    if (typeof data.text === 'string') events.push({ kind: 'text', text: data.text });
    if (isRecord(data.usage)) events.push({ kind: 'usage', raw: data.usage, read: readEchoUsage, merge: 'replace' });
    if (data.done === true) events.push({ kind: 'finish', reason: 'stop', wire: 'done' }, { kind: 'end' });
    return events.length > 0 ? events : [{ kind: 'keepAlive' }];
  }

  end(): WireEvent[] {
    return [];
  }

  abandon(): WireEvent[] {
    return [];
  }
}

export const echoRoute: Route = {
  id: ECHO_ROUTE_ID,
  path: '/echo',
  headers: bearerHeaders,
  buildBody: buildEchoBody,
  attempt: { required: ['model', 'prompt'], warming: { body: () => undefined, prefixLifetimeMs: () => undefined } },
  newReader: (seed) => new AnswerReader(ECHO_ROUTE_ID, new EchoWire(), seed),
};
