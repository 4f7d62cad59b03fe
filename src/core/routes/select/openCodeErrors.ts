/**
 * OpenCode's own error answers → what is true and what to do, as one sentence each. The gateway reuses 401
 * for a wrong wire format, so errors are told apart by their type and message, never by status alone; only a
 * real AuthError talks about the key. Pure: read through request/openCodeError.ts.
 */
import { stringField, isRecord } from '../../util/jsonFields';
import type { RouteId } from '../../routeId';
import { retryAfterMsOf } from '../../util/retryAfter';

export type OpenCodeErrorKind = 'wrong-route' | 'free-tier' | 'credits' | 'usage-limit' | 'auth' | 'missing-session' | 'region';

export interface OpenCodeError {
  kind: OpenCodeErrorKind;
  message: string;
  /** wrong-route: the format the gateway refused ("oa-compat", "openai", "anthropic", "google"). */
  format?: string;
  /** wrong-route: our route for that format (undefined for a format we do not speak yet). */
  refusedRoute?: RouteId;
  /** usage-limit: seconds until the limit resets, when the gateway said. */
  resetSeconds?: number;
}

const FORMAT_ROUTES: Record<string, RouteId> = { 'oa-compat': 'chat', openai: 'responses', anthropic: 'messages', google: 'gemini' };
const WRONG_FORMAT = /Model (\S+) is not supported for format ([\w-]+)/;

/** The error's type and message from any of the gateway's body shapes (JSON object or text). */
export function errorFields(body: unknown): { type: string; message: string } {
  let value = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { type: '', message: value as string };
    }
  }
  if (!isRecord(value)) return { type: '', message: '' };
  const inner = isRecord(value.error) ? value.error : value;
  const type = typeof inner.type === 'string' && inner.type !== 'error' ? inner.type : typeof inner.code === 'string' ? inner.code : '';
  return { type, message: typeof inner.message === 'string' ? inner.message : stringField(value.message) };
}

export function parseWrongRoute(body: unknown): { model: string; format: string; refusedRoute?: RouteId } | undefined {
  const match = WRONG_FORMAT.exec(errorFields(body).message);
  return match ? { model: match[1], format: match[2], refusedRoute: FORMAT_ROUTES[match[2]] } : undefined;
}

export function classifyOpenCodeError(status: number, body: unknown, retryAfter?: string): OpenCodeError | undefined {
  const { type, message } = errorFields(body);
  const wrong = parseWrongRoute(body);
  if (wrong) {
    // Shown only when no route is left to try (sendBody.ts moves the request otherwise): say so, not "go elsewhere".
    return { kind: 'wrong-route', format: wrong.format, refusedRoute: wrong.refusedRoute, message: `OpenCode refused ${wrong.model} on every route the extension tried (last: the "${wrong.format}" format). The model may no longer be served there: refresh the model list (OpenCode: Refresh Models) or pick another model.` };
  }
  if (type === 'FreeTierError' || /free tier/i.test(message)) return { kind: 'free-tier', message: freeTierSentence(message) };
  if (type === 'CreditsError' || /insufficient balance/i.test(message)) {
    const url = /https?:\/\/\S+/.exec(message)?.[0]?.replace(/[.)]+$/, '');
    return { kind: 'credits', message: `Your OpenCode balance is used up. Add credits${url ? ` at ${url}` : ' in the OpenCode console'}, then try again.` };
  }
  if (type === 'GoUsageLimitError' || /usage limit reached/i.test(message)) return usageLimit(message, retryAfter);
  if (type === 'MissingSessionID') return { kind: 'missing-session', message: 'OpenCode Go refused a request without a conversation id (x-opencode-session). This is a bug in the extension; please report it.' };
  if (type === 'RegionError') return { kind: 'region', message: `OpenCode only serves this model version from its China region, which needs an explicit opt-in in the OpenCode console. (${message})` };
  if (type === 'AuthError' || (status === 401 && /api key/i.test(message))) {
    return { kind: 'auth', message: `OpenCode rejected the API key (${message || 'unauthorized'}). Run "OpenCode: Set API Key" with a key from opencode.ai.` };
  }
  return undefined;
}

/** OpenCode's own words when it gave any (the user can search for them); else what they mean. */
function freeTierSentence(message: string): string {
  if (message.trim()) return message.trim();
  const version = /OpenCode (\S+) or newer is required/.exec(message)?.[1];
  if (version) return `OpenCode's free models require the OpenCode app ${version} or newer; they cannot be used from this extension. Pick a paid Go or Zen model.`;
  return "OpenCode's free tier can only be used from within the OpenCode app, not from this extension. Pick a paid Go or Zen model, or use the free model in OpenCode.";
}

function usageLimit(message: string, retryAfter: string | undefined): OpenCodeError {
  const limit = /(5-hour|weekly|monthly)/i.exec(message)?.[1];
  const resetsIn = /Resets in ([^.]+)/i.exec(message)?.[1]?.trim();
  const waitMs = retryAfterMsOf(retryAfter);
  const seconds = waitMs !== undefined ? Math.round(waitMs / 1000) : undefined;
  const when = resetsIn ? `in ${resetsIn}` : seconds !== undefined ? `in ${formatDuration(seconds)}` : 'later';
  const name = limit ? `${limit.toLowerCase()} ` : '';
  return { kind: 'usage-limit', resetSeconds: seconds, message: `You reached your OpenCode Go ${name}usage limit; it resets ${when}. Wait until then, or switch to a Zen model (billed from your balance).` };
}

export function formatDuration(seconds: number): string {
  const total = Math.max(1, Math.ceil(seconds / 60));
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  return `${minutes} min`;
}
