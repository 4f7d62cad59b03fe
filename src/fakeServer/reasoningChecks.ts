/**
 * What a chat endpoint does with the reasoning a client passes back on assistant messages (`reasoning_content`),
 * so both sides of the extension's rule can fail a test (FakeModel.reasoningContent):
 *
 * - `required`: DeepSeek's thinking mode — every assistant turn that called tools must come back with its
 *   reasoning, else 400 "Missing `reasoning_content` field in the assistant message at message index N…";
 * - `refused`: an endpoint whose schema has no such field — Cerebras answers 400 naming the message's path
 *   ("messages.2.assistant.reasoning_content: property '…' is unsupported", the body not under `error`);
 * - `refused-422`: the same refusal from a pydantic validator (Mistral): 422 "Extra inputs are not permitted"
 *   with the field's location.
 *
 * Pure: the problem as an error reply, or undefined.
 */
import type { ErrorReply } from './errors';
import type { FakeModel } from './types';

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

export function passedBackReasoningProblem(messages: readonly unknown[], model: FakeModel): ErrorReply | undefined {
  const rule = model.reasoningContent;
  if (!rule) return undefined;
  const assistants = messages.flatMap((m, index) => (isNode(m) && m.role === 'assistant' ? [{ m, index }] : []));
  if (rule === 'required') {
    const missing = assistants.find(({ m }) => Array.isArray(m.tool_calls) && m.tool_calls.length > 0 && typeof m.reasoning_content !== 'string');
    return missing ? missingReasoning(missing.index) : undefined;
  }
  const sent = assistants.find(({ m }) => m.reasoning_content !== undefined);
  if (!sent) return undefined;
  return rule === 'refused' ? unsupportedProperty(sent.index) : extraInput(sent.index, sent.m.reasoning_content);
}

function missingReasoning(index: number): ErrorReply {
  const message = `Missing \`reasoning_content\` field in the assistant message at message index ${index}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`;
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } } };
}

function unsupportedProperty(index: number): ErrorReply {
  const path = `messages.${index}.assistant.reasoning_content`;
  return { status: 400, body: { message: `${path}: property '${path}' is unsupported`, type: 'invalid_request_error', param: 'validation_error', code: 'wrong_api_format' } };
}

function extraInput(index: number, input: unknown): ErrorReply {
  const detail = [{ type: 'extra_forbidden', loc: ['body', 'messages', index, 'assistant', 'reasoning_content'], msg: 'Extra inputs are not permitted', input }];
  return { status: 422, body: { object: 'error', message: { detail }, type: 'invalid_request_error', param: null, code: null } };
}
