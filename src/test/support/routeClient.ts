/** One request on one route over real HTTP, with the route modules alone: body → POST → SSE → events. */
import { APIError } from 'openai';
import { clientFor } from '../../core/request/chatTransport';
import { routeById } from '../../core/routes/registry/registry';
import type { RouteId } from '../../core/routeId';
import type { BodyInput } from '../../core/routes/route';
import type { AssistantLayout } from '../../core/answer/nativeReplay';
import type { StreamEvent } from '../../core/types';
import { usageEvent } from './routeHarness';
import { sendRoute } from '../../core/routes/requestParts';
import { ssePayloads } from '../../core/stream/answerStream';
import { type AnswerResult } from '../../core/answer/streamReader';

export interface RouteAnswer {
  events: StreamEvent[];
  /** What the answer was (the reader's result). */
  result: AnswerResult;
  layout?: AssistantLayout;
  errors: Record<string, unknown>[];
  body: Record<string, unknown>;
}

export async function askRoute(baseUrl: string, routeId: RouteId, input: BodyInput, apiKey = 'sk-test'): Promise<RouteAnswer> {
  const route = routeById(routeId);
  const body = route.buildBody(input);
  const response = await sendRoute(clientFor({ baseUrl, apiKey }), { route, body, modelId: input.modelId, headers: { sessionId: input.sessionId, requestId: 'req_test', client: 'test/1' } });
  const reader = route.newReader();
  const answer: RouteAnswer = { events: [], result: reader.result(), errors: [], body };
  for await (const payload of ssePayloads(response.body)) {
    const result = reader.push(payload.data, payload.event);
    answer.events.push(...result.events);
    if (result.error) answer.errors.push(result.error);
  }
  answer.events.push(...reader.finish(), ...usageEvent(reader));
  answer.result = reader.result();
  answer.layout = reader.result().layout;
  return answer;
}

/** The HTTP error a request was refused with (anything else is rethrown; success fails the test). */
export async function rejection(promise: Promise<unknown>): Promise<APIError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof APIError) return error;
    throw error;
  }
  throw new Error('expected an HTTP error');
}
