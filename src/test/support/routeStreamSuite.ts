/**
 * What the per-route stream suites share (streamRules.routes / streamRules.idle.routes): one model per route on the
 * fake server, the activated provider with a 1 s idle timeout, and the views of what the server and the log saw.
 */
import type { RouteId } from '../../core/routeId';
import { defaultReplyText } from '../../fakeServer/replies';
import { providerWithTiming } from './providerHarness';
import { useActivated, useFakeServer } from './suiteHooks';

export const ROUTE_MODEL: Record<RouteId, string> = { chat: 'fake-large', responses: 'fake-responses', messages: 'fake-messages', gemini: 'fake-native-gemini' };
export const ROUTE_IDLE_MS = 1_000;
const SETTINGS = { models: { 'fake-responses': { api: 'responses' }, 'fake-messages': { api: 'messages' }, 'fake-native-gemini': { api: 'gemini' } } };

/** Inside a describe: the fake server, the activated provider, and what each saw. */
export function routeStreamSuite() {
  const server = useFakeServer();
  const ext = useActivated(server, (s) => providerWithTiming(s, SETTINGS, { idleTimeoutMs: ROUTE_IDLE_MS }));
  return {
    server,
    ext,
    answers: () => server().requests.filter((r) => r.method === 'POST'),
    expected: (prompt: string) => defaultReplyText([{ role: 'user', content: prompt }]),
    warnings: () => ext().log.lines.filter((l) => l.level === 'warn').map((l) => l.message),
  };
}
