/**
 * Chat Completions (`/chat/completions`, OpenCode's "oa-compat" format): the route every model took before
 * routes existed. The body from the converted history (core/convert) as it always was.
 */
import type { BodyInput } from '../route';
import { samplingFields } from '../sampling';
import { withToolImagesAsUser } from './chatToolImages';
import { retentionField } from '../cacheLifetime';
import { toWireToolChoice } from '../../convert/toWireMessages';

/** `messages` last, as on every route: a longer history only appends bytes. */
export function buildChatBody(input: BodyInput): Record<string, unknown> {
  const body: Record<string, unknown> = { model: input.modelId };
  if (input.tools.length > 0) body.tools = input.tools;
  const toolChoice = input.toolChoice && toWireToolChoice(input.toolChoice, input.tools.length);
  if (toolChoice) body.tool_choice = toolChoice;
  Object.assign(body, samplingFields(input.options, { maxTokens: 'max_tokens', stop: true }, input.outputRoom));
  body.stream = true;
  const retention = retentionField(input);
  if (retention) body.prompt_cache_retention = retention;
  body.stream_options = { include_usage: true };
  body.messages = withToolImagesAsUser(input.messages);
  return body;
}
