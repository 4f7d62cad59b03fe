/** The non-streaming wire format: one OpenAI `chat.completion` object. */
import type { ScriptedReply } from './types';
import type { CompletionIdentity } from './sse';
import { finishReasonOf } from './replies';

export function assistantMessage(reply: ScriptedReply): object {
  const toolCalls = reply.toolCalls ?? [];
  return {
    role: 'assistant',
    content: reply.text ?? (toolCalls.length > 0 ? null : ''),
    ...(reply.reasoning !== undefined ? { reasoning_content: reply.reasoning } : {}),
    ...(toolCalls.length > 0
      ? {
          tool_calls: toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          })),
        }
      : {}),
  };
}

export function completionObject(identity: CompletionIdentity, reply: ScriptedReply, usage: object): object {
  return {
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, message: assistantMessage(reply), finish_reason: finishReasonOf(reply) }],
    usage,
  };
}
